/* The smoke demo's offscreen path (what `sh tools/run.sh demo` runs on a
 * machine without a display), small and short: it renders frames, writes a
 * PNG in which the smoke shows, is deterministic, and logs a CSV row per
 * measured frame. Also its command line. */
#define _DEFAULT_SOURCE /* PATH_MAX */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <math.h>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#if defined(__GNUC__)
/* For the whole file: stb_image declares a static function it never defines
 * (stbi_set_unpremultiply_on_load_thread), reported at the end of the unit. */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include "demo.h"
#include "plume/plume_particles.h"
#include "test_env.h"
#include "test_platform.h"
#include "tests.h"

enum { WIDTH = 160, HEIGHT = 96, PARTICLES = 3000 };

/* A fresh file name ending in `suffix`; the caller unlinks it. */
static void temporary_path(char *path, size_t size, const char *suffix) {
    test_temporary_file(path, size, "plume_demo_test_", suffix);
}

static demo_options small_options(uint32_t frames, const char *png) {
    demo_options options;
    demo_options_default(&options);
    options.width = WIDTH;
    options.height = HEIGHT;
    options.particles = PARTICLES;
    options.frames = frames;
    options.dt = 0.1f;
    options.hud = false;
    options.out_png = png;
    demo_options_finish(&options, true, NULL);
    return options;
}

/* Runs the offscreen demo and returns the decoded PNG (RGBA, caller frees). */
static unsigned char *run_and_load(const demo_options *options, demo_summary *summary) {
    assert_true(demo_run_offscreen(options, summary));
    int width = 0, height = 0, channels = 0;
    unsigned char *pixels = stbi_load(options->out_png, &width, &height, &channels, 4);
    assert_non_null(pixels);
    assert_int_equal(width, WIDTH);
    assert_int_equal(height, HEIGHT);
    return pixels;
}

static int pixel_distance(const unsigned char *a, const unsigned char *b) {
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]);
}

static int count_differing_pixels(const unsigned char *a, const unsigned char *b, int threshold) {
    int count = 0;
    for (int i = 0; i < WIDTH * HEIGHT; ++i) count += pixel_distance(a + 4 * i, b + 4 * i) > threshold;
    return count;
}

/* After 4 s the column has risen over the chimney: the picture differs from
 * the one after the first step (a few puffs at the chimney's mouth) in a good
 * part of the frame, and it is neither blank nor one colour. The same run
 * again gives the same picture (fixed steps, fixed seed). */
static void test_offscreen_demo_draws_smoke(void **state) {
    (void)state;
    char png[64];
    temporary_path(png, sizeof png, ".png");
    demo_summary summary;

    demo_options first_step = small_options(1, png);
    unsigned char *start = run_and_load(&first_step, &summary);
    assert_int_equal(summary.frames, 1);

    demo_options risen = small_options(40, png);
    unsigned char *smoke = run_and_load(&risen, &summary);
    assert_int_equal(summary.frames, 40);
    assert_int_equal(summary.capacity, PARTICLES);
    /* 40 steps of 0.1 s at the spawn rate (capacity / mean lifetime): most of
     * the capacity alive, never more. */
    assert_true(summary.live_count > PARTICLES / 2);
    assert_true(summary.live_count <= PARTICLES);
    assert_true(summary.median_cpu_ms > 0);

    int changed = count_differing_pixels(start, smoke, 24);
    printf("  smoke changed %d of %d pixels\n", changed, WIDTH * HEIGHT);
    assert_true(changed > WIDTH * HEIGHT / 50);
    /* Not all sky: the top-left pixel is sky. */
    int unlike_sky = 0;
    for (int i = 0; i < WIDTH * HEIGHT; ++i) unlike_sky += pixel_distance(smoke + 4 * i, smoke) > 24;
    assert_true(unlike_sky > WIDTH * HEIGHT / 4);

    unsigned char *again = run_and_load(&risen, &summary);
    assert_int_equal(count_differing_pixels(smoke, again, 2), 0);

    stbi_image_free(start);
    stbi_image_free(smoke);
    stbi_image_free(again);
    unlink(png);
}

/* --effect sparks: the grinder's sparks fly, land and bounce (warm pixels
 * appear over the ground, and the same options give the same picture). */
static void test_offscreen_demo_draws_sparks(void **state) {
    (void)state;
    char png[64];
    temporary_path(png, sizeof png, ".png");
    demo_summary summary;
    demo_options options = small_options(1, png);
    options.effect = DEMO_EFFECT_SPARKS;
    unsigned char *start = run_and_load(&options, &summary);
    options.frames = 30;
    unsigned char *sparks = run_and_load(&options, &summary);
    assert_true(summary.live_count > 0 && summary.live_count <= PARTICLES);
    int warm = 0;
    for (int i = 0; i < WIDTH * HEIGHT; ++i) {
        const unsigned char *p = sparks + 4 * i, *q = start + 4 * i;
        warm += p[0] > q[0] + 40 && p[0] > p[2] + 40; /* redder than before and than blue */
    }
    printf("  sparks: %u live, %d warm pixels\n", summary.live_count, warm);
    assert_true(warm > 20);
    unsigned char *again = run_and_load(&options, &summary);
    assert_int_equal(count_differing_pixels(sparks, again, 2), 0);
    stbi_image_free(start);
    stbi_image_free(sparks);
    stbi_image_free(again);
    unlink(png);
}

/* --fire: the fire at the chimney with the column rising through it, drawn
 * by one draw group, shows flames in front of the smoke that drawing the
 * fire first (the J key: one draw each) covers: more warm pixels in the same
 * paused frame. */
static void test_demo_draws_fire_and_smoke_jointly(void **state) {
    (void)state;
    enum { SIZE = 96 };
    demo_options options = small_options(0, NULL);
    options.width = options.height = SIZE;
    options.fire = true;
    demo_app *app = NULL;
    assert_true(demo_app_create(&options, SIZE, SIZE, &app));
    float *pictures[2] = {malloc(sizeof(float) * 4 * SIZE * SIZE), malloc(sizeof(float) * 4 * SIZE * SIZE)};
    int warm[2] = {0, 0};
    for (int p = 0; p < 2; ++p) {
        test_target target = test_target_begin(SIZE, (const float[4]){0, 0, 0, 0});
        GLint framebuffer = 0;
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &framebuffer);
        for (int f = 0; f < (p ? 1 : 12); ++f) assert_true(demo_app_frame(app, 0.1f, 16, (GLuint)framebuffer));
        test_target_end(&target, pictures[p]);
        for (int i = 0; i < SIZE * SIZE; ++i) warm[p] += pictures[p][4 * i] > pictures[p][4 * i + 2] + 0.25f;
        /* The same particles, now drawn one system after the other. */
        demo_app_act(app, DEMO_TOGGLE_PAUSE);
        demo_app_act(app, DEMO_TOGGLE_JOINT);
    }
    int differing = 0;
    for (int i = 0; i < 4 * SIZE * SIZE; ++i) differing += fabsf(pictures[0][i] - pictures[1][i]) > 0.1f;
    printf("  fire and smoke: %d warm pixels drawn jointly, %d one after the other; %d values differ\n", warm[0],
           warm[1], differing);
    assert_true(warm[0] > warm[1] + 10);
    assert_true(differing > 20);
    free(pictures[0]);
    free(pictures[1]);
    demo_app_destroy(app);
}

/* With the overlay and --profile: one row per measured frame, frames in
 * order, the live count of each frame from the module's profile, the draw's
 * GPU time measured (with --fire, the draw group's). */
static void test_offscreen_demo_profile_csv(void **state) {
    (void)state;
    for (int fire = 0; fire < 2; ++fire) {
        char png[64], csv_path[64];
        temporary_path(png, sizeof png, ".png");
        temporary_path(csv_path, sizeof csv_path, ".csv");
        demo_options options = small_options(12, png);
        options.hud = true;
        options.fire = fire;
        options.profile_csv = csv_path;
        demo_summary summary;
        assert_true(demo_run_offscreen(&options, &summary));

        FILE *csv = fopen(csv_path, "r");
        assert_non_null(csv);
        char line[512];
        assert_non_null(fgets(line, sizeof line, csv));
        assert_true(strncmp(line, "frame,live_count,simulate_gpu_ms,sort_gpu_ms,draw_gpu_ms,cpu_ms,", 64) == 0);
        int rows = 0;
        long previous_frame = -1;
        unsigned previous_live = 0;
        double draw_ms = 0.0;
        while (fgets(line, sizeof line, csv)) {
            long frame = -1;
            unsigned live = 0;
            double simulate_ms = 0.0, sort_ms = 0.0;
            assert_int_equal(sscanf(line, "%ld,%u,%lf,%lf,%lf", &frame, &live, &simulate_ms, &sort_ms, &draw_ms), 5);
            assert_true(frame > previous_frame);
            /* Emission only adds in these first frames (lifetimes are longer). */
            assert_true(live >= previous_live);
            assert_true(live <= PARTICLES);
            previous_frame = frame;
            previous_live = live;
            ++rows;
        }
        fclose(csv);
        /* The profiler lags a few frames behind: most frames, never more than run. */
        assert_true(rows >= 6);
        assert_true(rows <= 12);
        assert_true(previous_live > 0);
        if (!(draw_ms > 0.0)) fail_msg("%s: the last row's draw_gpu_ms is %g", fire ? "--fire" : "smoke", draw_ms);
        unlink(csv_path);
        unlink(png);
    }
}

static uint32_t live_now(demo_app *app) {
    demo_summary summary;
    demo_app_summary(app, &summary);
    return summary.live_count;
}

/* What the keys do: pause stops emission and ageing, reset kills every
 * particle, +/- and 1-4 step through the counts (recreating the system),
 * S and H toggle; every frame still draws without a GL error. */
static void test_demo_actions(void **state) {
    (void)state;
    enum { SIZE = 96 };
    demo_options options = small_options(0, NULL);
    options.width = options.height = SIZE;
    demo_app *app = NULL;
    assert_true(demo_app_create(&options, SIZE, SIZE, &app));
    test_target target = test_target_begin(SIZE, (const float[4]){0, 0, 0, 0});
    GLint framebuffer = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &framebuffer);

    for (int f = 0; f < 10; ++f) assert_true(demo_app_frame(app, 0.1f, 16, (GLuint)framebuffer));
    uint32_t live = live_now(app);
    assert_true(live > 0);
    demo_app_act(app, DEMO_TOGGLE_PAUSE);
    assert_true(demo_app_status(app).paused);
    for (int f = 0; f < 5; ++f) assert_true(demo_app_frame(app, 0.1f, 16, (GLuint)framebuffer));
    assert_int_equal(live_now(app), live);
    demo_app_act(app, DEMO_TOGGLE_PAUSE);
    assert_true(demo_app_frame(app, 0.1f, 16, (GLuint)framebuffer));
    assert_true(live_now(app) > live);

    demo_app_act(app, DEMO_TOGGLE_SORT);
    demo_app_act(app, DEMO_TOGGLE_HUD);
    assert_false(demo_app_status(app).sorting);
    assert_true(demo_app_status(app).hud);
    assert_true(demo_app_frame(app, 0.1f, 16, (GLuint)framebuffer));

    demo_app_act(app, DEMO_RESET);
    assert_int_equal(live_now(app), 0);

    assert_int_equal(demo_app_status(app).capacity, PARTICLES);
    demo_app_act(app, DEMO_MORE_PARTICLES);
    assert_int_equal(demo_app_status(app).capacity, DEMO_COUNT_LEVELS[0]);
    assert_int_equal(live_now(app), 0); /* a new system */
    demo_app_act(app, DEMO_MORE_PARTICLES);
    assert_int_equal(demo_app_status(app).capacity, DEMO_COUNT_LEVELS[1]);
    demo_app_act(app, DEMO_FEWER_PARTICLES);
    demo_app_act(app, DEMO_FEWER_PARTICLES); /* the smallest level stays */
    assert_int_equal(demo_app_status(app).capacity, DEMO_COUNT_LEVELS[0]);
    demo_app_set_level(app, 1);
    assert_int_equal(demo_app_status(app).capacity, DEMO_COUNT_LEVELS[1]);
    assert_true(demo_app_frame(app, 0.1f, 16, (GLuint)framebuffer));
    assert_true(live_now(app) > 0);
    assert_int_equal(demo_app_status(app).frames, 18);

    test_target_end(&target, NULL);
    demo_app_destroy(app);
}

/* The built plume_demo (next to this test binary), run from a fresh folder
 * elsewhere with the default output: it finds its sprite from its own path,
 * makes build/ there and writes build/smoke.png of the asked size. */
static void test_built_demo_runs_from_any_folder(void **state) {
    (void)state;
    char exe[PATH_MAX], demo[PATH_MAX + 16];
    assert_true(demo_binary_folder(exe, sizeof exe));
    snprintf(demo, sizeof demo, "%s/plume_demo", exe);
    if (access(demo, F_OK) != 0) {
        /* The Windows build of the suite (tests/check_wine_suite.sh) has no
         * demo: it needs GLFW, which Debian has no MinGW build of. */
        print_message("no plume_demo beside the tests (%s): skipped\n", demo);
        skip();
    }
    char folder[PATH_MAX];
    test_temporary_folder(folder, sizeof folder, "plume_demo_folder_");
    char command[2 * PATH_MAX + 256], png[PATH_MAX + 64], log[PATH_MAX + 64];
    snprintf(png, sizeof png, "%s/build/smoke.png", folder);
    snprintf(log, sizeof log, "%s/demo.log", folder);
    snprintf(command, sizeof command,
             "cd '%s' && '%s/plume_demo' --offscreen --frames 3 --size 96x64 --particles 1K > demo.log 2>&1", folder,
             exe);
    int status = system(command);
    FILE *output = fopen(log, "r");
    assert_non_null(output);
    char line[512];
    bool complained = false;
    while (fgets(line, sizeof line, output)) {
        if (strstr(line, "cannot") || strstr(line, "no smoke sprite") || strstr(line, "error")) {
            printf("  plume_demo: %s", line);
            complained = true;
        }
    }
    fclose(output);
    assert_int_equal(status, 0);
    assert_false(complained);
    int width = 0, height = 0, channels = 0;
    unsigned char *pixels = stbi_load(png, &width, &height, &channels, 4);
    assert_non_null(pixels);
    assert_int_equal(width, 96);
    assert_int_equal(height, 64);
    stbi_image_free(pixels);
    assert_int_equal(unlink(png), 0);
    assert_int_equal(unlink(log), 0);
    snprintf(command, sizeof command, "%s/build", folder);
    assert_int_equal(rmdir(command), 0);
    assert_int_equal(rmdir(folder), 0);
}

static void test_demo_command_line(void **state) {
    (void)state;
    demo_options options;
    demo_options_default(&options);
    char *good[] = {"plume_demo", "--particles", "256K", "--size", "320x200", "--frames", "5",
                    "--no-sort",  "--offscreen", "--dt", "0.05", NULL};
    assert_int_equal(demo_options_parse(11, good, &options), 0);
    assert_int_equal(options.particles, 262144);
    assert_int_equal(options.width, 320);
    assert_int_equal(options.height, 200);
    assert_int_equal(options.frames, 5);
    assert_false(options.sort);
    assert_true(options.offscreen);
    /* What was given stays on a software renderer; the rest is lowered. */
    assert_false(demo_options_finish(&options, true, "llvmpipe (LLVM 15.0.6, 256 bits) | 4.5"));
    assert_int_equal(options.particles, 262144);
    assert_string_equal(options.out_png, "build/smoke.png");

    demo_options_default(&options);
    char *tiled[] = {"plume_demo", "--look-away", "--tile", "8", "--chunk", "unchunked", NULL};
    assert_int_equal(demo_options_parse(6, tiled, &options), 0);
    assert_true(options.look_away);
    assert_int_equal(options.tile_size, 8);
    assert_int_equal(options.chunk_entries, PLUME_TILED_UNCHUNKED);
    char *camera[] = {"plume_demo", "--camera", "-3.6,1.5,2.2,30,12.5,6", NULL};
    assert_int_equal(demo_options_parse(3, camera, &options), 0);
    assert_true(options.camera_given);
    assert_true(options.camera[0] == -3.6f && options.camera[3] == 30.0f && options.camera[5] == 6.0f);
    char *chunk[] = {"plume_demo", "--chunk", "64", NULL};
    assert_int_equal(demo_options_parse(3, chunk, &options), 0);
    assert_int_equal(options.chunk_entries, 64);

    demo_options_default(&options);
    assert_true(demo_options_finish(&options, true, "llvmpipe (LLVM 15.0.6, 256 bits) | 4.5"));
    assert_int_equal(options.particles, DEMO_COUNT_LEVELS[0]);
    assert_int_equal(options.frames, 300);

    char *bad[][3] = {{"plume_demo", "--particles", "0"},    {"plume_demo", "--particles", "12Q"},
                      {"plume_demo", "--size", "10x10"},     {"plume_demo", "--frames", "-3"},
                      {"plume_demo", "--dt", "nan"},         {"plume_demo", "--bogus", "1"},
                      {"plume_demo", "--tile", "12"},        {"plume_demo", "--chunk", "0"},
                      {"plume_demo", "--chunk", "7x"},       {"plume_demo", "--camera", "1,2,3,4,5"},
                      {"plume_demo", "--camera", "1,2,3,4,95,6"}, {"plume_demo", "--camera", "1,2,3,4,5,6,"},
                      {"plume_demo", "--camera", "1,2,3,4,5,0"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        demo_options_default(&options);
        assert_int_equal(demo_options_parse(3, bad[k], &options), 2);
    }
    char *effect[] = {"plume_demo", "--effect", "sparks", NULL};
    demo_options_default(&options);
    assert_int_equal(demo_options_parse(3, effect, &options), 0);
    assert_int_equal(options.effect, DEMO_EFFECT_SPARKS);
    assert_null(options.effect_path);
    char *leaves[] = {"plume_demo", "--effect", "leaves", NULL};
    demo_options_default(&options);
    assert_int_equal(demo_options_parse(3, leaves, &options), 0);
    assert_int_equal(options.effect, DEMO_EFFECT_LEAVES);
    assert_null(options.effect_path);
    char *file_effect[] = {"plume_demo", "--effect", "fire.json", NULL};
    demo_options_default(&options);
    assert_int_equal(demo_options_parse(3, file_effect, &options), 0); /* a file: read when the demo starts */
    assert_string_equal(options.effect_path, "fire.json");
    assert_int_equal(options.effect, DEMO_EFFECT_SMOKE);
    /* What the fragment path cannot draw is refused with --gl 3.3, in either
     * order. */
    char *compute_only[][4] = {{"plume_demo", "--gl", "3.3", "--fire"},
                               {"plume_demo", "--fire", "--gl", "3.3"},
                               {"plume_demo", "--gl", "3.3", "--effect"}};
    for (size_t k = 0; k < sizeof compute_only / sizeof compute_only[0]; ++k) {
        char *argv[6] = {compute_only[k][0], compute_only[k][1], compute_only[k][2], compute_only[k][3], NULL, NULL};
        int argc = 4;
        if (!strcmp(argv[3], "--effect")) argv[argc++] = "sparks";
        demo_options_default(&options);
        assert_int_equal(demo_options_parse(argc, argv, &options), 2);
    }
    char *gl33[] = {"plume_demo", "--gl", "3.3", NULL};
    demo_options_default(&options);
    assert_int_equal(demo_options_parse(3, gl33, &options), 0);
    assert_true(options.gl33);
    char *missing[] = {"plume_demo", "--out", NULL};
    assert_int_equal(demo_options_parse(2, missing, &options), 2);
}

const struct CMUnitTest demo_tests[] = {
    cmocka_unit_test_setup_teardown(test_offscreen_demo_draws_smoke, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_demo_draws_fire_and_smoke_jointly, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_offscreen_demo_draws_sparks, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_offscreen_demo_profile_csv, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_demo_actions, test_setup, test_teardown),
    cmocka_unit_test(test_demo_command_line),
    cmocka_unit_test_setup_teardown(test_built_demo_runs_from_any_folder, test_setup, test_teardown),
};
const size_t demo_test_count = sizeof demo_tests / sizeof demo_tests[0];
