/* Mesh particles (plume_mesh.h) drawn on llvmpipe against the CPU rasterizer
 * of the same meshes (mesh_reference.c): a turned cube, a lit sphere, two
 * meshes overlapping in depth (one per emitter), a mesh occluding a sprite;
 * and the descriptor's refusals, each naming its field. Public API only:
 * plume_plugin_host runs it through the plugin table. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mesh_pictures.h"
#include "mesh_reference.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

static void check_one_mesh(mesh_arrays *mesh, const float axis[3], const char *what) {
    plume_system_desc desc = mesh_one_still_desc(mesh, axis);
    plume_system system;
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    render_camera c = render_make_camera();
    float *gpu = render_new_image();
    render_frame(system, &c, mesh_lit_frame(), false, 0, 1.0f, gpu);
    mesh_assert_one_still_mesh(gpu, mesh, axis, what);
    free(gpu);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

static void test_turned_cube_matches_cpu(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube();
    check_one_mesh(&cube, (const float[3]){0.7f, 0.5f, 0.5f}, "turned cube");
    mesh_reference_free(&cube);
}

static void test_lit_sphere_matches_cpu(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(12, 20);
    check_one_mesh(&sphere, (const float[3]){0.0f, 1.0f, 0.0f}, "lit sphere");
    mesh_reference_free(&sphere);
}

/* A cube (emitter 0, mesh 0) and a sphere (emitter 1, mesh 1) overlapping
 * on screen, the sphere nearer: the depth test decides each pixel (opaque:
 * each mesh draws its own particles, compacted; transparent of opacity 1:
 * each draws the whole back-to-front list, skipping the other's). */
static void overlap_two_meshes(uint32_t surface, const char *what) {
    mesh_arrays cube = mesh_reference_cube(), sphere = mesh_reference_sphere(12, 20);
    const float at_cube[3] = {-0.25f, 0.0f, -3.4f}, at_sphere[3] = {0.25f, 0.05f, -2.9f};
    const float axis[3] = {0.3f, 1.0f, 0.4f}, up[3] = {0, 1, 0};
    plume_system_desc desc = mesh_still_system_desc();
    desc.emitters[0] = mesh_still_emitter(at_cube, axis, 1.2f);
    desc.emitters[1] = mesh_still_emitter(at_sphere, up, 1.0f);
    desc.meshes.count = 2;
    desc.meshes.pick = PLUME_MESH_PICK_BY_EMITTER;
    desc.meshes.surface = surface;
    desc.meshes.meshes[0] = mesh_reference_desc(&cube);
    desc.meshes.meshes[1] = mesh_reference_desc(&sphere);
    plume_system system;
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    render_camera c = render_make_camera();
    float *gpu = render_new_image();
    render_frame(system, &c, mesh_lit_frame(), false, 0, 1.0f, gpu);
    /* The far one drawn last by the CPU: only the depth test puts the sphere in front. */
    mesh_instance far_last[2] = {mesh_still_instance(&sphere, at_sphere, up, 1.0f),
                                 mesh_still_instance(&cube, at_cube, axis, 1.2f)};
    float *cpu = mesh_cpu_picture(far_last, 2, 0, 1.0f);
    mesh_assert_images_agree(gpu, cpu, 800, what);
    free(gpu);
    free(cpu);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    mesh_reference_free(&cube);
    mesh_reference_free(&sphere);
}

static void test_two_meshes_overlap_by_depth(void **state) {
    (void)state;
    overlap_two_meshes(PLUME_MESH_OPAQUE, "opaque cube and sphere overlapping");
    overlap_two_meshes(PLUME_MESH_TRANSPARENT, "transparent (opacity 1) cube and sphere overlapping");
}

/* An opaque mesh drawn first (the host's opaque pass) hides the part of a
 * sprite behind it drawn after: each pixel of the joint picture is the
 * mesh's where the CPU's mesh covers it, else the sprite-only picture's. */
static void test_mesh_occludes_sprite(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube();
    const float at_cube[3] = {0.0f, 0.0f, -2.5f}, up[3] = {0.2f, 1.0f, 0.1f};
    plume_system_desc desc = mesh_still_system_desc();
    desc.emitters[0] = mesh_still_emitter(at_cube, up, 0.8f);
    desc.meshes.meshes[0] = mesh_reference_desc(&cube);
    plume_system systems[2];
    assert_int_equal(plume_system_create(fixture_context(), &desc, &systems[0]), PLUME_OK);
    plume_system_desc sprite = {.capacity = 3, .seed = test_random_u32()};
    sprite.emitters[0] = (plume_emitter_desc){.burst_count = 1, .lifetime = {100, 100}, .size = {2.5f, 2.5f},
                                              .position = {0.3f, 0.2f, -4.0f}};
    sprite.appearance.color_over_life = (plume_gradient){1, {{0, {0.9f, 0.3f, 0.1f, 1}}}};
    assert_int_equal(plume_system_create(fixture_context(), &sprite, &systems[1]), PLUME_OK);
    render_camera c = render_make_camera();
    plume_frame_desc frames[2] = {mesh_lit_frame(), mesh_lit_frame()};
    float *mesh_alone = render_new_image(), *sprite_alone = render_new_image(), *both = render_new_image();
    render_frame(systems[0], &c, frames[0], false, 0, 1.0f, mesh_alone);
    render_frame(systems[1], &c, frames[1], false, 0, 1.0f, sprite_alone);
    render_draw_many(systems, 2, &c, frames, NULL, both);
    mesh_instance instance = mesh_still_instance(&cube, at_cube, up, 0.8f);
    float *cpu = mesh_cpu_picture(&instance, 1, 0, 1.0f);
    mesh_assert_images_agree(mesh_alone, cpu, 200, "the mesh alone");
    float *expected = render_new_image();
    int hidden = 0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) {
        bool mesh = memcmp(cpu + 4 * i, RENDER_BACKGROUND, sizeof RENDER_BACKGROUND) != 0;
        bool sprite_there = fabsf(sprite_alone[4 * i] - RENDER_BACKGROUND[0]) > 0.05f;
        hidden += mesh && sprite_there;
        memcpy(expected + 4 * i, (mesh ? cpu : sprite_alone) + 4 * i, sizeof(float) * 4);
    }
    printf("  %d sprite pixels behind the mesh\n", hidden);
    assert_true(hidden > 100);
    mesh_assert_images_agree(both, expected, 200, "mesh in front of the sprite");
    free(mesh_alone);
    free(sprite_alone);
    free(both);
    free(cpu);
    free(expected);
    for (int i = 0; i < 2; ++i) assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
    mesh_reference_free(&cube);
}

/* The descriptor's box reaches as far as the meshes do: every side out by
 * size x the largest scale x the farthest vertex instead of the quad's half
 * diagonal; a mesh in the host's buffers leaves it unbounded. */
static void test_desc_bounds_reach_the_meshes(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube();
    plume_system_desc d = {.capacity = 100};
    d.emitters[0] = (plume_emitter_desc){.rate = 50, .lifetime = {1, 1}, .speed = {1, 1}, .size = {0.5f, 1.0f},
                                         .spread = 0.3f, .direction = {0, 1, 0}};
    plume_bounds sprites, meshes;
    assert_int_equal(plume_system_desc_bounds(&d, &sprites), PLUME_OK);
    d.meshes = (plume_mesh_particles){.count = 1, .scale_start = {2, 1, 1}, .scale_end = {1, 1, 1}};
    d.meshes.meshes[0] = mesh_reference_desc(&cube);
    assert_int_equal(plume_system_desc_bounds(&d, &meshes), PLUME_OK);
    assert_true(sprites.bounded && meshes.bounded);
    float wider = 1.0f * 2.0f * sqrtf(0.75f) - 1.0f * 0.5f * sqrtf(2.0f);
    for (int k = 0; k < 3; ++k) {
        assert_float_equal(sprites.min[k] - meshes.min[k], wider, 1e-4f);
        assert_float_equal(meshes.max[k] - sprites.max[k], wider, 1e-4f);
    }
    GLuint positions = test_buffer_create(24 * 12, cube.positions);
    d.meshes.meshes[0] = (plume_mesh_desc){.vertex_count = 24, .positions = {.buffer = positions}};
    assert_int_equal(plume_system_desc_bounds(&d, &meshes), PLUME_OK);
    assert_false(meshes.bounded);
    glDeleteBuffers(1, &positions);
    mesh_reference_free(&cube);
}

/* ---- Refusals ----------------------------------------------------------------- */

static void expect_refused(const plume_system_desc *desc, plume_result expected, const char *field) {
    plume_system system = {0};
    assert_int_equal(plume_system_create(fixture_context(), desc, &system), expected);
    assert_int_equal(system.id, 0);
    if (!test_log_contains(field)) fail_msg("no message names %s", field);
}

static void test_bad_meshes_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    mesh_arrays cube = mesh_reference_cube();
    plume_system_desc good = mesh_still_system_desc();
    good.meshes.meshes[0] = mesh_reference_desc(&cube);
    plume_system_desc d = good;
    d.meshes.count = 0;
    expect_refused(&d, PLUME_ERROR_INVALID_ARGUMENT, "meshes.count is 0 while meshes are described");
    d = good;
    d.meshes.count = 5;
    expect_refused(&d, PLUME_ERROR_INVALID_ARGUMENT, "meshes.count");
    d = good;
    d.trail.points = 4;
    d.trail.spacing = 0.1f;
    expect_refused(&d, PLUME_ERROR_INVALID_ARGUMENT, "meshes.count is over 0 with a trail");
    d = good;
    uint32_t bad_indices[36];
    memcpy(bad_indices, cube.indices, sizeof bad_indices);
    bad_indices[17] = 24;
    d.meshes.meshes[0].index_data = bad_indices;
    expect_refused(&d, PLUME_ERROR_INVALID_ARGUMENT, "meshes.meshes[0].index_data[17] is 24");
    /* Host buffers. */
    GLuint positions = test_buffer_create(24 * 12, cube.positions);
    GLuint indices = test_buffer_create(36 * 4, bad_indices);
    plume_system_desc host = mesh_still_system_desc();
    host.meshes.meshes[0] = (plume_mesh_desc){.vertex_count = 24, .index_count = 36,
                                              .positions = {.buffer = positions}, .indices = {.buffer = indices}};
    expect_refused(&host, PLUME_ERROR_INVALID_ARGUMENT, "meshes.meshes[0].indices.buffer's index 17 is 24");
    d = host;
    d.meshes.meshes[0].positions.buffer = 987654;
    expect_refused(&d, PLUME_ERROR_INVALID_ARGUMENT, "meshes.meshes[0].positions.buffer 987654 is not a GL buffer");
    d = host;
    d.meshes.meshes[0].positions.offset = 16;
    expect_refused(&d, PLUME_ERROR_INVALID_ARGUMENT, "meshes.meshes[0].positions's layout reaches byte");
    d = host;
    d.meshes.meshes[0].position_data = cube.positions;
    expect_refused(&d, PLUME_ERROR_INVALID_ARGUMENT, "meshes.meshes[0].position_data");
    /* The same buffers with good indices: made. */
    test_buffer_write(indices, 0, 36 * 4, cube.indices);
    plume_system system;
    assert_int_equal(plume_system_create(fixture_context(), &host, &system), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    glDeleteBuffers(1, &positions);
    glDeleteBuffers(1, &indices);
    mesh_reference_free(&cube);
}

const struct CMUnitTest meshes_tests[] = {
    cmocka_unit_test_setup_teardown(test_turned_cube_matches_cpu, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_lit_sphere_matches_cpu, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_two_meshes_overlap_by_depth, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_occludes_sprite, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bad_meshes_refused, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_desc_bounds_reach_the_meshes, fixture_setup, fixture_teardown),
};
const size_t meshes_test_count = sizeof meshes_tests / sizeof meshes_tests[0];
