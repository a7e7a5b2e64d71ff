#define _POSIX_C_SOURCE 200809L
/* Wavefront OBJ meshes (plume_effect_load_obj): a quad with texture
 * coordinates cut into a fan, facet normals where the file has none, a
 * negative index, skipped statements; each refusal at its file:line:column;
 * and a mesh system made from a loaded file. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "plume/plume_effect.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

static const char QUAD[] = "# a unit quad in z = 0, facing +z\n"
                           "o quad\n"
                           "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                           "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
                           "usemtl none\n"
                           "f 1/1 2/2 3/3 -1/-1\n";

static void test_obj_quad_as_a_fan(void **state) {
    (void)state;
    plume_effect_mesh mesh;
    plume_effect_error error;
    assert_int_equal(plume_effect_parse_obj(QUAD, strlen(QUAD), "quad.obj", &mesh, &error), PLUME_OK);
    assert_int_equal(mesh.desc.vertex_count, 6);
    const float expected[6][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    for (int v = 0; v < 6; ++v)
        for (int k = 0; k < 3; ++k) {
            assert_float_equal(mesh.positions[3 * v + k], expected[v][k], 0.0f);
            assert_float_equal(mesh.normals[3 * v + k], k == 2 ? 1.0f : 0.0f, 1e-6f); /* the facet's */
        }
    /* OBJ's v up from the bottom, plume's down from the top. */
    assert_non_null(mesh.texcoords);
    assert_float_equal(mesh.texcoords[2 * 2 + 0], 1.0f, 0.0f);
    assert_float_equal(mesh.texcoords[2 * 2 + 1], 0.0f, 0.0f);
    assert_ptr_equal(mesh.desc.position_data, mesh.positions);
    plume_effect_mesh_free(&mesh);
    assert_null(mesh.positions);
}

static void expect_refused(const char *text, const char *message) {
    plume_effect_mesh mesh;
    plume_effect_error error;
    assert_int_equal(plume_effect_parse_obj(text, strlen(text), "bad.obj", &mesh, &error),
                     PLUME_ERROR_INVALID_ARGUMENT);
    assert_null(mesh.positions);
    if (strncmp(error.message, message, strlen(message)) != 0)
        fail_msg("got \"%s\", expected it to start with \"%s\"", error.message, message);
}

static void test_obj_refusals_name_line_and_column(void **state) {
    (void)state;
    expect_refused("v 0 0 0\nv 1 0 0\nv 1 x 0\n", "bad.obj:3:5: expected a finite number, found 'x'");
    expect_refused("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 4\n", "bad.obj:4:7: vertex 4 is not defined");
    expect_refused("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1/1 2 3\n", "bad.obj:4:5: texture coordinate 1 is not defined");
    expect_refused("v 0 0 0\nv 1 0 0\nf 1 2\n", "bad.obj:3:3: a face needs 3 corners or more, this one has 2");
    expect_refused("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3x\n", "bad.obj:4:8: unexpected 'x'");
    expect_refused("v 0 0 0\n", "bad.obj: has no face");
    plume_effect_mesh mesh;
    plume_effect_error error;
    assert_int_equal(plume_effect_load_obj("/nonexistent/rock.obj", &mesh, &error), PLUME_ERROR_IO);
    assert_non_null(strstr(error.message, "/nonexistent/rock.obj: cannot open"));
}

/* A file's mesh makes a mesh system (uploaded at creation, the file's
 * arrays freed right after). */
static void test_obj_file_makes_a_mesh_system(void **state) {
    (void)state;
    char path[] = "/tmp/plume_obj_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, QUAD, strlen(QUAD)), (int)strlen(QUAD));
    close(fd);
    plume_effect_mesh mesh;
    plume_effect_error error;
    assert_int_equal(plume_effect_load_obj(path, &mesh, &error), PLUME_OK);
    unlink(path);
    plume_system_desc desc = {.capacity = 10, .meshes = {.count = 1}};
    desc.meshes.meshes[0] = mesh.desc;
    desc.emitters[0] = (plume_emitter_desc){.burst_count = 5, .lifetime = {1, 1}, .size = {1, 1}};
    plume_system system;
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    plume_effect_mesh_free(&mesh);
    plume_frame_desc frame = {.dt = 0.01f};
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

const struct CMUnitTest effect_obj_tests[] = {
    cmocka_unit_test_setup_teardown(test_obj_quad_as_a_fan, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_obj_refusals_name_line_and_column, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_obj_file_makes_a_mesh_system, fixture_setup, fixture_teardown),
};
const size_t effect_obj_test_count = sizeof effect_obj_tests / sizeof effect_obj_tests[0];
