#define _POSIX_C_SOURCE 200809L
/* Meshes in effect files (plume_effect.h, since 1.3): sources by OBJ file
 * and by a name the host registers, resolved into a descriptor that makes a
 * mesh system; each refusal placed at its field (and a bad OBJ at its own
 * file:line:column); the writer refuses meshes it cannot name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "demo.h"
#include "plume/plume_effect.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "test_platform.h"
#include "tests.h"

static const char TRIANGLE_OBJ[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
static const char BAD_OBJ[] = "v 0 0 0\nv 1 0 0\nv 1 x 0\n";

/* A folder holding leaf.obj, bad.obj and effect.json (`effect`, named with
 * the system's separator: the library finds the folder that relative paths
 * start from in it; the others as the library joins a folder and a file). */
typedef struct effect_folder {
    char folder[256], effect[320], leaf[320], bad[320];
} effect_folder;

static void write_file(const char *path, const char *text) {
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    assert_int_equal(fwrite(text, 1, strlen(text), file), strlen(text));
    fclose(file);
}

static effect_folder make_folder(const char *effect_text) {
    effect_folder f;
    test_temporary_folder(f.folder, sizeof f.folder, "plume_meshes_");
    snprintf(f.effect, sizeof f.effect, "%s" TEST_PATH_SEPARATOR "effect.json", f.folder);
    snprintf(f.leaf, sizeof f.leaf, "%s/leaf.obj", f.folder);
    snprintf(f.bad, sizeof f.bad, "%s/bad.obj", f.folder);
    write_file(f.leaf, TRIANGLE_OBJ);
    write_file(f.bad, BAD_OBJ);
    write_file(f.effect, effect_text);
    return f;
}

static void remove_folder(const effect_folder *f) {
    unlink(f->effect);
    unlink(f->leaf);
    unlink(f->bad);
    rmdir(f->folder);
}

static const char GOOD[] = "{\"plume_effect\": 1, \"capacity\": 9,\n"
                           " \"emitters\": [{\"burst_count\": 9, \"lifetime\": [1, 1], \"size\": [1, 1]}],\n"
                           " \"meshes\": {\"sources\": [{\"file\": \"leaf.obj\"}, {\"name\": \"rock\"}],\n"
                           "            \"surface\": \"alpha_tested\", \"pick\": \"by_emitter\", \"alpha_cutoff\": 0.3,\n"
                           "            \"start_orientation\": \"along_velocity\", \"angular_speed\": [1, 2],\n"
                           "            \"angular_drag\": 0.5, \"scale_start\": [1, 2, 3], \"scale_end\": [3, 2, 1],\n"
                           "            \"lod\": {\"coarse_below_pixels\": 24, \"impostor_below_pixels\": 5.5, \"cull\": true}}}\n";

static void test_effect_meshes_by_file_and_name_make_a_system(void **state) {
    (void)state;
    effect_folder f = make_folder(GOOD);
    plume_effect *effect = malloc(sizeof *effect);
    plume_effect_error error;
    plume_result loaded = plume_effect_load(f.effect, effect, &error);
    if (loaded != PLUME_OK) fail_msg("%s", error.message);
    assert_int_equal(effect->desc.meshes.count, 2);
    assert_string_equal(effect->mesh_sources[0], f.leaf);
    assert_false(effect->mesh_is_name[0]);
    assert_string_equal(effect->mesh_sources[1], "rock");
    assert_true(effect->mesh_is_name[1]);
    assert_int_equal(effect->desc.meshes.surface, PLUME_MESH_ALPHA_TESTED);
    assert_int_equal(effect->desc.meshes.pick, PLUME_MESH_PICK_BY_EMITTER);
    assert_int_equal(effect->desc.meshes.start_orientation, PLUME_MESH_START_ALONG_VELOCITY);
    assert_float_equal(effect->desc.meshes.alpha_cutoff, 0.3f, 1e-7f);
    assert_float_equal(effect->desc.meshes.scale_end[0], 3.0f, 0.0f);
    assert_float_equal(effect->desc.meshes.lod.coarse_below_pixels, 24.0f, 0.0f);
    assert_float_equal(effect->desc.meshes.lod.impostor_below_pixels, 5.5f, 0.0f);
    assert_true(effect->desc.meshes.lod.cull);
    assert_null(effect->desc.meshes.meshes[0].position_data); /* not until resolved */
    static const float cube_corner[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    static const uint32_t faces[6] = {0, 1, 2, 0, 2, 3};
    plume_effect_named_mesh named[2] = {
        {"pebble", {.vertex_count = 3, .position_data = cube_corner}},
        {"rock", {.vertex_count = 4, .index_count = 6, .position_data = cube_corner, .index_data = faces}}};
    plume_system_desc desc;
    plume_effect_meshes meshes;
    plume_result resolved = plume_effect_resolve_meshes(effect, named, 2, &desc, &meshes, &error);
    if (resolved != PLUME_OK) fail_msg("%s", error.message);
    assert_int_equal(desc.meshes.meshes[0].vertex_count, 3);
    assert_ptr_equal(desc.meshes.meshes[0].position_data, meshes.loaded[0].positions);
    assert_int_equal(desc.meshes.meshes[1].index_count, 6);
    assert_ptr_equal(desc.meshes.meshes[1].index_data, faces);
    plume_system system;
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    plume_effect_meshes_free(&meshes);
    assert_null(meshes.loaded[0].positions);
    plume_frame_desc frame = {.dt = 0.01f};
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    /* A name the host did not register. */
    assert_int_equal(plume_effect_resolve_meshes(effect, named, 1, &desc, &meshes, &error),
                     PLUME_ERROR_INVALID_ARGUMENT);
    assert_string_equal(error.message, "meshes.sources[1].name: no mesh 'rock' is registered");
    assert_int_equal(desc.meshes.count, 0);
    assert_null(meshes.loaded[0].positions);
    /* The writer cannot name meshes in memory. */
    char *text = plume_effect_write(&effect->desc, &error);
    assert_null(text);
    assert_non_null(strstr(error.message, "meshes.sources"));
    free(effect);
    remove_folder(&f);
}

/* `meshes_text` as the effect's "meshes" refused with a message starting
 * with "FOLDER/effect.json:" + `expected` (FOLDER put for %s, where given). */
static void expect_refused(const char *meshes_text, plume_result result, const char *expected) {
    char text[1024];
    snprintf(text, sizeof text, "{\"plume_effect\": 1, \"capacity\": 4,\n \"meshes\": %s}\n", meshes_text);
    effect_folder f = make_folder(text);
    plume_effect *effect = malloc(sizeof *effect);
    plume_effect_error error;
    assert_int_equal(plume_effect_load(f.effect, effect, &error), result);
    char want[1024];
    char formatted[640];
    snprintf(formatted, sizeof formatted, expected, f.folder);
    snprintf(want, sizeof want, "%s:%s", f.effect, formatted);
    if (strncmp(error.message, want, strlen(want)) != 0)
        fail_msg("got \"%s\", expected it to start with \"%s\"", error.message, want);
    assert_int_equal(effect->desc.meshes.count, 0);
    free(effect);
    remove_folder(&f);
}

static void test_effect_mesh_refusals_are_placed(void **state) {
    (void)state;
    expect_refused("{\"sources\": [{\"file\": \"bad.obj\"}]}", PLUME_ERROR_INVALID_ARGUMENT,
                   "2:26: meshes.sources[0].file: %s/bad.obj:3:5: expected a finite number, found 'x'");
    expect_refused("{\"sources\": [{\"file\": \"gone.obj\"}]}", PLUME_ERROR_IO,
                   "2:26: meshes.sources[0].file: cannot open '%s/gone.obj'");
    expect_refused("{\"sources\": [{\"file\": \"leaf.obj\", \"name\": \"x\"}]}", PLUME_ERROR_INVALID_ARGUMENT,
                   "2:25: meshes.sources[0]: must be {\"file\": \"mesh.obj\"} or {\"name\": \"rock\"}");
    expect_refused("{\"sources\": [{\"name\": \"\"}]}", PLUME_ERROR_INVALID_ARGUMENT,
                   "2:26: meshes.sources[0].name: must be a non-empty string");
    expect_refused("{\"sources\": []}", PLUME_ERROR_INVALID_ARGUMENT, "2:13: meshes.sources: must be a list of 1 to 4");
    expect_refused("{\"sources\": [{\"name\": \"a\"}, {\"name\": \"a\"}, {\"name\": \"a\"}, {\"name\": \"a\"}, "
                   "{\"name\": \"a\"}]}",
                   PLUME_ERROR_INVALID_ARGUMENT, "2:13: meshes.sources: has 5 entries; at most 4");
    expect_refused("{\"sources\": [{\"name\": \"a\"}], \"surface\": \"glass\"}", PLUME_ERROR_INVALID_ARGUMENT,
                   "2:41: meshes.surface: must be one of \"opaque\", \"alpha_tested\", \"transparent\"");
    expect_refused("{\"sources\": [{\"name\": \"a\"}], \"angular_drag\": -1}", PLUME_ERROR_INVALID_ARGUMENT,
                   "2:41: meshes.angular_drag");
    expect_refused("{\"sources\": [{\"name\": \"a\"}], \"lod\": {\"impostor_below_pixels\": -2}}",
                   PLUME_ERROR_INVALID_ARGUMENT, "2:41: meshes.lod: coarse_below_pixels and impostor_below_pixels");
}

/* The demo's leaves as a file load, resolve (their two OBJ leaves) and
 * make a system. */
static void test_leaves_effect_file_makes_a_system(void **state) {
    (void)state;
    char folder[4096], path[4200];
    assert_true(demo_binary_folder(folder, sizeof folder));
    snprintf(path, sizeof path, "%s/../../../demo/mesh_effects/leaves.json", folder);
    plume_effect *effect = malloc(sizeof *effect);
    plume_effect_error error;
    if (plume_effect_load(path, effect, &error) != PLUME_OK) fail_msg("%s", error.message);
    plume_system_desc desc;
    plume_effect_meshes meshes;
    assert_int_equal(plume_effect_resolve_meshes(effect, NULL, 0, &desc, &meshes, &error), PLUME_OK);
    assert_int_equal(desc.meshes.count, 2);
    assert_int_equal(desc.meshes.meshes[0].vertex_count, 96); /* 32 triangles, a vertex a corner */
    plume_system system;
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    plume_effect_meshes_free(&meshes);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    free(effect);
}

const struct CMUnitTest effect_meshes_tests[] = {
    cmocka_unit_test_setup_teardown(test_leaves_effect_file_makes_a_system, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_effect_meshes_by_file_and_name_make_a_system, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_effect_mesh_refusals_are_placed, test_setup, test_teardown),
};
const size_t effect_meshes_test_count = sizeof effect_meshes_tests / sizeof effect_meshes_tests[0];
