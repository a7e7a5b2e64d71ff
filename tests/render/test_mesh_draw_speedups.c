/* The mesh draw's speed-ups (render/mesh_draw.c: the instance pass, the
 * surface compiled in) change no picture: a seeded cloud of turned,
 * non-uniformly scaled, coloured-over-life meshes, drawn with each of them
 * left out (plume_lab_mesh_draw_set_options) and with none, for each surface
 * and for one and two meshes, gives the picture of the draw with both (which
 * test_meshes.c holds to the CPU rasterizer). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mesh_reference.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "plume_lab.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

static plume_system_desc cloud(uint32_t surface, uint32_t meshes, const mesh_arrays *cube, const mesh_arrays *sphere) {
    plume_system_desc d = {.capacity = 37, .seed = test_random_u32(), .lit = true};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {0.9f}, .burst_count = 37,
                                         .lifetime = {2.0f, 3.0f}, .speed = {0.0f, 0.2f}, .spread = 3.14159f,
                                         .size = {0.25f, 0.45f}, .position = {0.0f, 0.0f, -3.5f}};
    d.appearance.color_over_life = (plume_gradient){2, {{0, {1.0f, 0.7f, 0.3f, 1}}, {1, {0.3f, 0.6f, 1.0f, 1}}}};
    d.meshes.count = meshes;
    d.meshes.surface = surface;
    d.meshes.alpha_cutoff = 0.5f;
    d.meshes.angular_speed = (plume_range){1.0f, 3.0f};
    d.meshes.scale_start[0] = 1.4f, d.meshes.scale_start[1] = 0.7f, d.meshes.scale_start[2] = 1.0f;
    d.meshes.scale_end[0] = 0.8f, d.meshes.scale_end[1] = 1.2f, d.meshes.scale_end[2] = 0.9f;
    d.meshes.meshes[0] = mesh_reference_desc(cube);
    if (meshes > 1) d.meshes.meshes[1] = mesh_reference_desc(sphere);
    return d;
}

static void check_cloud(uint32_t surface, uint32_t meshes, const mesh_arrays *cube, const mesh_arrays *sphere) {
    plume_system_desc desc = cloud(surface, meshes, cube, sphere);
    plume_system system;
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    render_camera c = render_make_camera();
    plume_frame_desc frame = {.light_direction = {0.48f, 0.64f, 0.6f}, .light_color = {0.9f, 0.85f, 0.8f},
                              .ambient_color = {0.15f, 0.17f, 0.2f}};
    float *both = render_new_image(), *other = render_new_image();
    render_frame(system, &c, frame, false, 0, 1.0f, both);
    int covered = 0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i)
        covered += fabsf(both[4 * i] - RENDER_BACKGROUND[0]) > 0.01f || fabsf(both[4 * i + 1] - RENDER_BACKGROUND[1]) > 0.01f;
    assert_true(covered > 500);
    for (uint32_t left_out = 1; left_out < 4; ++left_out) {
        assert_int_equal(plume_lab_mesh_draw_set_options(fixture_context(), system, left_out), PLUME_OK);
        render_draw(system, &c, frame, false, 0, 1.0f, other);
        int differ = 0;
        for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) {
            float d = 0.0f;
            for (int k = 0; k < 3; ++k) d = fmaxf(d, fabsf(other[4 * i + k] - both[4 * i + k]));
            differ += d > 0.02f;
        }
        printf("  surface %u, %u mesh(es), left out %u: %d of %d covered pixels differ, PSNR %.1f dB\n", surface,
               meshes, left_out, differ, covered, render_psnr(other, both));
        if (differ > covered / 100) fail_msg("surface %u, %u meshes, left out %u: %d pixels differ", surface, meshes,
                                             left_out, differ);
    }
    free(both);
    free(other);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

static void test_speedups_change_no_picture(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube(), sphere = mesh_reference_sphere(6, 10);
    for (uint32_t surface = PLUME_MESH_OPAQUE; surface <= PLUME_MESH_TRANSPARENT; ++surface)
        for (uint32_t meshes = 1; meshes <= 2; ++meshes) check_cloud(surface, meshes, &cube, &sphere);
    mesh_reference_free(&cube);
    mesh_reference_free(&sphere);
}

static void test_options_refused_for_sprites_and_unknown_bits(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube();
    plume_system_desc sprites = {.capacity = 5, .seed = test_random_u32()};
    plume_system_desc meshes = cloud(PLUME_MESH_OPAQUE, 1, &cube, &cube);
    plume_system a, b;
    assert_int_equal(plume_system_create(fixture_context(), &sprites, &a), PLUME_OK);
    assert_int_equal(plume_system_create(fixture_context(), &meshes, &b), PLUME_OK);
    test_log_expect_errors();
    assert_int_equal(plume_lab_mesh_draw_set_options(fixture_context(), a, 1), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("system is not a mesh system"));
    assert_int_equal(plume_lab_mesh_draw_set_options(fixture_context(), b, 4), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("left_out has unknown bits"));
    assert_int_equal(plume_lab_mesh_draw_set_options(fixture_context(), b, 3), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), a), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), b), PLUME_OK);
    mesh_reference_free(&cube);
}

const struct CMUnitTest mesh_draw_speedups_tests[] = {
    cmocka_unit_test_setup_teardown(test_speedups_change_no_picture, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_options_refused_for_sprites_and_unknown_bits, fixture_setup,
                                    fixture_teardown),
};
const size_t mesh_draw_speedups_test_count = sizeof mesh_draw_speedups_tests / sizeof mesh_draw_speedups_tests[0];
