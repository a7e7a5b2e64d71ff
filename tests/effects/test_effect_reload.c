/* The demo's live reload (demo/effect_show.c over effect_reload.c and
 * file_watch.c), with the module: an effect file is loaded and built, a
 * rewrite is seen and builds the new effect, a broken file keeps the last
 * good system on show and says where it is broken, and fixing it is seen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "demo.h"
#include "effect_reload.h"
#include "effect_show.h"
#include "smoke_system.h"
#include "test_env.h"
#include "test_platform.h"
#include "tests.h"

/* A single burst of `burst` long-lived particles in a system of `capacity`. */
static void write_effect(const char *path, uint32_t capacity, uint32_t burst, const char *lifetime) {
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    fprintf(file,
            "{\n  \"plume_effect\": 1,\n  \"capacity\": %u,\n  \"emitters\": [\n    {\n      \"burst_count\": %u,\n"
            "      \"lifetime\": %s,\n      \"speed\": [0.1, 0.2]\n    }\n  ]\n}\n",
            capacity, burst, lifetime);
    assert_int_equal(fclose(file), 0);
}

/* Editors often save by writing a new file and renaming it over the old one. */
static void replace_with(const char *path, const char *text) {
    char temporary[4200];
    snprintf(temporary, sizeof temporary, "%s.new", path);
    FILE *file = fopen(temporary, "w");
    assert_non_null(file);
    fputs(text, file);
    assert_int_equal(fclose(file), 0);
    assert_true(test_replace_file(temporary, path));
}

static uint32_t step_and_count(smoke_system *smoke) {
    smoke_frame frame = {.dt = 0.05f, .sort = true, .width = 64, .height = 64};
    assert_true(smoke_system_update(smoke, &frame));
    return smoke_system_count_live(smoke);
}

static void test_effect_file_reloads_live(void **state) {
    (void)state;
    char folder[4096];
    test_temporary_folder(folder, sizeof folder, "plume_reload_");
    char path[4200];
    snprintf(path, sizeof path, "%s/live.json", folder);
    write_effect(path, 1000, 100, "[10, 10]");

    effect_show *show = effect_show_create(path);
    assert_non_null(show);
    bool is_error = true;
    assert_non_null(strstr(effect_show_line(show, &is_error), "live.json"));
    assert_false(is_error);
    const plume_effect *first = effect_show_first(show);
    assert_non_null(first);
    smoke_settings settings = {.effect = first};
    smoke_system *smoke = NULL;
    assert_true(smoke_system_create(&settings, &smoke));
    assert_int_equal(smoke_system_capacity(smoke), 1000);
    assert_int_equal(step_and_count(smoke), 100);
    assert_false(effect_show_poll(show, smoke));  /* nothing changed */

    /* Rewritten in place: the new effect is built and shows. */
    write_effect(path, 2000, 300, "[10, 10]");
    assert_true(effect_show_poll(show, smoke));
    assert_int_equal(smoke_system_capacity(smoke), 2000);
    assert_int_equal(step_and_count(smoke), 300);
    assert_false(effect_show_poll(show, smoke));

    /* Broken (a bad value, saved by rename): the last good system stays, and
     * the line says where the file is wrong. */
    test_log_expect_errors();
    replace_with(path, "{\n  \"plume_effect\": 1,\n  \"capacity\": 50,\n  \"emitters\": [{\"burst_count\": 5,\n"
                       "    \"lifetime\": [0, 1]}]\n}\n");
    assert_false(effect_show_poll(show, smoke));
    const char *line = effect_show_line(show, &is_error);
    assert_true(is_error);
    char expected[4300];
    snprintf(expected, sizeof expected, "%s:5:5: emitters[0].lifetime: min is 0; it must be above 0", path);
    assert_string_equal(line, expected);
    assert_int_equal(smoke_system_capacity(smoke), 2000);
    assert_int_equal(step_and_count(smoke), 300);

    /* Broken JSON: the same. */
    replace_with(path, "{\n  \"plume_effect\": 1,\n  \"capacity\": 50,\n");
    assert_false(effect_show_poll(show, smoke));
    line = effect_show_line(show, &is_error);
    assert_true(is_error);
    snprintf(expected, sizeof expected, "%s:4:", path);
    assert_memory_equal(line, expected, strlen(expected));
    assert_int_equal(step_and_count(smoke), 300);

    /* A file the reader accepts but the module refuses (a capacity within
     * PLUME_EFFECT_MAX_CAPACITY, far over what Mesa and NVIDIA allow): still
     * the last good system, and the module's reason. */
    replace_with(path, "{\"plume_effect\": 1, \"capacity\": 1073741824}");
    assert_false(effect_show_poll(show, smoke));
    line = effect_show_line(show, &is_error);
    assert_true(is_error);
    assert_non_null(strstr(line, "the module refused it"));
    assert_int_equal(smoke_system_capacity(smoke), 2000);

    /* Fixed: built again. */
    write_effect(path, 500, 20, "[10, 10]");
    assert_true(effect_show_poll(show, smoke));
    effect_show_line(show, &is_error);
    assert_false(is_error);
    assert_int_equal(smoke_system_capacity(smoke), 500);
    assert_int_equal(step_and_count(smoke), 20);

    smoke_system_destroy(smoke);
    effect_show_destroy(show);
    unlink(path);
    rmdir(folder);
}

/* The reload layer alone: statuses, the last good effect kept. */
static void test_reload_keeps_the_last_good_effect(void **state) {
    (void)state;
    char folder[4096];
    test_temporary_folder(folder, sizeof folder, "plume_reload_");
    char path[4200];
    snprintf(path, sizeof path, "%s/e.json", folder);
    effect_reload_status first;
    effect_reload *reload = effect_reload_open(path, &first);  /* no file yet */
    assert_non_null(reload);
    assert_int_equal(first, EFFECT_BROKEN);
    assert_null(effect_reload_effect(reload));
    assert_non_null(strstr(effect_reload_error(reload), "cannot open"));
    write_effect(path, 10, 1, "[1, 2]");
    assert_int_equal(effect_reload_poll(reload), EFFECT_LOADED);
    assert_int_equal(effect_reload_effect(reload)->desc.capacity, 10);
    assert_string_equal(effect_reload_error(reload), "");
    assert_int_equal(effect_reload_poll(reload), EFFECT_UNCHANGED);
    write_effect(path, 10, 1, "[3, 2]");
    assert_int_equal(effect_reload_poll(reload), EFFECT_BROKEN);
    assert_non_null(strstr(effect_reload_error(reload), "emitters[0].lifetime: has min 3 over max 2"));
    assert_int_equal(effect_reload_effect(reload)->desc.emitters[0].lifetime.min, 1.0f);
    /* Another file in the folder is not this one. */
    char other[4300];
    snprintf(other, sizeof other, "%s/other.json", folder);
    write_effect(other, 10, 1, "[1, 2]");
    assert_int_equal(effect_reload_poll(reload), EFFECT_UNCHANGED);
    effect_reload_close(reload);
    unlink(other);
    unlink(path);
    rmdir(folder);
}

static char *read_file(const char *path, long *length) {
    FILE *file = fopen(path, "rb");
    assert_non_null(file);
    fseek(file, 0, SEEK_END);
    *length = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *bytes = malloc((size_t)*length);
    assert_non_null(bytes);
    assert_int_equal(fread(bytes, 1, (size_t)*length, file), (size_t)*length);
    fclose(file);
    return bytes;
}

/* The gallery's smoke.json is the demo's built-in column (at 16K, the count
 * a software renderer starts with): the same options draw the same picture,
 * byte for byte. */
static void test_smoke_file_is_the_built_in_column(void **state) {
    (void)state;
    char (*paths)[4096] = calloc(32, sizeof *paths);
    assert_non_null(paths);
    int count = effect_gallery_list(paths, 32);
    const char *smoke = NULL;
    for (int i = 0; i < count; ++i)
        if (strcmp(strrchr(paths[i], '/'), "/smoke.json") == 0) smoke = paths[i];
    assert_non_null(smoke);
    char pictures[2][4096];
    for (int run = 0; run < 2; ++run) {
        test_temporary_file(pictures[run], sizeof pictures[run], "plume_effect_smoke_", ".png");
        demo_options options;
        demo_options_default(&options);
        options.width = 160, options.height = 96, options.frames = 8, options.dt = 0.25f;
        options.hud = false, options.out_png = pictures[run];
        options.particles = 16384;
        if (run == 1) options.effect_path = smoke;  /* its own capacity: 16384 */
        demo_options_finish(&options, true, NULL);
        demo_summary summary;
        assert_true(demo_run_offscreen(&options, &summary));
        assert_true(summary.live_count > 1000);
    }
    long length[2];
    char *bytes[2] = {read_file(pictures[0], &length[0]), read_file(pictures[1], &length[1])};
    assert_int_equal(length[0], length[1]);
    assert_memory_equal(bytes[0], bytes[1], (size_t)length[0]);
    for (int run = 0; run < 2; ++run) free(bytes[run]), unlink(pictures[run]);
    free(paths);
}

/* Without a file the HUD names the built-in effect on show (the smoke
 * column unless the demo says the sparks). */
static void test_hud_names_the_built_in_effect(void **state) {
    (void)state;
    effect_show *show = effect_show_create(NULL);
    assert_non_null(show);
    bool is_error = true;
    assert_non_null(strstr(effect_show_line(show, &is_error), "the built-in smoke column"));
    effect_show_name_built_in(show, "the built-in grinder sparks");
    const char *line = effect_show_line(show, &is_error);
    assert_non_null(strstr(line, "the built-in grinder sparks"));
    assert_null(strstr(line, "smoke"));
    assert_false(is_error);
    effect_show_destroy(show);
}

const struct CMUnitTest effect_reload_tests[] = {
    cmocka_unit_test_setup_teardown(test_smoke_file_is_the_built_in_column, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_effect_file_reloads_live, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_hud_names_the_built_in_effect, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_reload_keeps_the_last_good_effect, test_setup, test_teardown),
};
const size_t effect_reload_test_count = sizeof effect_reload_tests / sizeof effect_reload_tests[0];
