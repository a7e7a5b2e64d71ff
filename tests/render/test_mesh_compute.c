/* The compute raster of small meshes (render/, since 1.3): where the frame's
 * draw_path is TILED or AUTOMATIC, an opaque or alpha-tested mesh particle
 * whose bounding sphere is fewer pixels across than a threshold is drawn by
 * compute passes (depth, colour, a resolve into the host's framebuffer with
 * its depth test) instead of the GL's raster back end. The lab forces the
 * threshold (plume_lab_mesh_draw_set_compute_below: 1e9 every mesh, 0 none)
 * and counts the particles the compute raster took
 * (plume_lab_mesh_draw_compute_count): every test asserts it ran. On
 * llvmpipe: its pictures against the CPU rasterizer (mesh_reference.c,
 * within test_meshes.c's bound) and against the raster draw of the same
 * particles; the host's depth, reversed depth and viewport; alpha-tested
 * holes; back faces culled; compute and raster meshes in one draw; the
 * raster path, transparent surfaces and meshes round the eye never taken;
 * the lab's refusals. Lab calls: plume_tests only (not through the table). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hostile_host.h"
#include "mesh_pictures.h"
#include "mesh_reference.h"
#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "plume_lab.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

/* The lab's thresholds: every mesh in compute, none. */
static const float EVERY_MESH = 1e9f, NO_MESH = 0.0f;

static void compute_below(plume_system system, float pixels) {
    assert_int_equal(plume_lab_mesh_draw_set_compute_below(fixture_context(), system, pixels), PLUME_OK);
}

/* The particles the system's last draw rasterized in compute. */
static uint32_t computed(plume_system system) {
    uint32_t count = UINT32_MAX;
    assert_int_equal(plume_lab_mesh_draw_compute_count(fixture_context(), system, &count), PLUME_OK);
    return count;
}

static uint32_t drawn_count(plume_system system) {
    plume_readback r = {0};
    assert_int_equal(plume_system_read_back(fixture_context(), system, &r), PLUME_OK);
    return r.drawn_count;
}

/* The system of `desc`, updated once for camera `c` (dt 0.001: the still
 * particles born, nothing drawn yet). */
static plume_system create_updated(const plume_system_desc *desc, const render_camera *c) {
    plume_system system;
    assert_int_equal(plume_system_create(fixture_context(), desc, &system), PLUME_OK);
    plume_frame_desc frame = mesh_lit_frame();
    frame.dt = 0.001f;
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    return system;
}

/* render_draw of the system's particles with the compute threshold at
 * `pixels`; returns how many the compute raster took. */
static uint32_t draw_below(plume_system system, float pixels, const render_camera *c, plume_frame_desc frame,
                           bool with_depth, int occluder_width, float occluder_depth, float *rgba) {
    compute_below(system, pixels);
    render_draw(system, c, frame, with_depth, occluder_width, occluder_depth, rgba);
    return computed(system);
}

/* Whether some colour channel of pixel i differs from the background's by
 * more than 0.01 (a face in the ambient light only is 0.05 darker). */
static bool covers(const float *rgba, int i) {
    bool differs = false;
    for (int k = 0; k < 3; ++k) differs = differs || fabsf(rgba[4 * i + k] - RENDER_BACKGROUND[k]) > 0.01f;
    return differs;
}

static bool background(const float *rgba, int i) {
    return memcmp(rgba + 4 * i, RENDER_BACKGROUND, sizeof RENDER_BACKGROUND) == 0;
}

static int mesh_pixels(const float *rgba) {
    int covered = 0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) covered += covers(rgba, i);
    return covered;
}

/* The compute raster's picture against the raster draw's of the same
 * particles: at most `most` pixels differ by over 0.02 in a channel (a
 * pixel centre on a shared edge, two surfaces meeting within rounding: the
 * two raster them apart, nothing more), and the raster covered at least
 * `covered` pixels. */
static void assert_compute_matches_raster(const float *compute, const float *raster, int covered, int most,
                                          const char *what) {
    int differ = render_pixels_differing(compute, raster, 0.02f), drawn = mesh_pixels(raster);
    printf("  %s: compute against raster: %d of %d covered pixels differ by over 0.02 (largest %.3f), "
           "PSNR %.1f dB\n", what, differ, drawn, render_largest_difference(compute, raster),
           render_psnr(compute, raster));
    assert_true(drawn >= covered);
    if (differ > most) fail_msg("%s: %d pixels of the compute raster differ from the raster draw's", what, differ);
}

/* ---- Against the CPU rasterizer ------------------------------------------------ */

/* One still mesh 1.4 wide 3 in front of the camera (about 60 pixels
 * across, past the default threshold: forced), in compute. */
static void check_one_mesh_in_compute(const mesh_arrays *mesh, const float axis[3], const char *what) {
    const float position[3] = {0.2f, -0.1f, -3.0f};
    plume_system_desc desc = mesh_still_system_desc();
    desc.emitters[0] = mesh_still_emitter(position, axis, 1.4f);
    desc.meshes.meshes[0] = mesh_reference_desc(mesh);
    render_camera c = render_make_camera();
    plume_system system = create_updated(&desc, &c);
    float *gpu = render_new_image();
    uint32_t in_compute = draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, gpu);
    printf("  %s: %u of 1 particle rasterized in compute\n", what, in_compute);
    assert_int_equal(in_compute, 1);
    mesh_instance instance = mesh_still_instance(mesh, position, axis, 1.4f);
    float *cpu = mesh_cpu_picture(&instance, 1, 0, 1.0f);
    mesh_assert_images_agree(gpu, cpu, 400, what);
    free(gpu);
    free(cpu);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

static void test_mesh_compute_cube_and_sphere_match_cpu(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube(), sphere = mesh_reference_sphere(12, 20);
    check_one_mesh_in_compute(&cube, (const float[3]){0.7f, 0.5f, 0.5f}, "turned cube in compute");
    check_one_mesh_in_compute(&sphere, (const float[3]){0.0f, 1.0f, 0.0f}, "lit sphere in compute");
    mesh_reference_free(&cube);
    mesh_reference_free(&sphere);
}

/* A turned cube (emitter 0, mesh 0) and a sphere (emitter 1, mesh 1) that
 * pass through each other: the depth pass decides each pixel, along the
 * curve where they meet too. */
static void test_mesh_compute_two_meshes_overlap_by_depth(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube(), sphere = mesh_reference_sphere(12, 20);
    const float at_cube[3] = {-0.2f, 0.0f, -3.2f}, at_sphere[3] = {0.3f, 0.05f, -2.95f};
    const float axis[3] = {0.3f, 1.0f, 0.4f}, up[3] = {0, 1, 0};
    const uint32_t surfaces[2] = {PLUME_MESH_OPAQUE, PLUME_MESH_ALPHA_TESTED}; /* alpha 1: nothing cut */
    for (int s = 0; s < 2; ++s) {
        plume_system_desc desc = mesh_still_system_desc();
        desc.emitters[0] = mesh_still_emitter(at_cube, axis, 1.2f);
        desc.emitters[1] = mesh_still_emitter(at_sphere, up, 1.0f);
        desc.meshes.count = 2;
        desc.meshes.pick = PLUME_MESH_PICK_BY_EMITTER;
        desc.meshes.surface = surfaces[s];
        desc.meshes.meshes[0] = mesh_reference_desc(&cube);
        desc.meshes.meshes[1] = mesh_reference_desc(&sphere);
        render_camera c = render_make_camera();
        plume_system system = create_updated(&desc, &c);
        float *gpu = render_new_image();
        uint32_t in_compute = draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, gpu);
        const char *what = s ? "alpha-tested cube and sphere through each other" :
                               "opaque cube and sphere through each other";
        printf("  %s: %u of 2 particles rasterized in compute\n", what, in_compute);
        assert_int_equal(in_compute, 2);
        mesh_instance instances[2] = {mesh_still_instance(&cube, at_cube, axis, 1.2f),
                                      mesh_still_instance(&sphere, at_sphere, up, 1.0f)};
        float *cpu = mesh_cpu_picture(instances, 2, 0, 1.0f);
        mesh_assert_images_agree(gpu, cpu, 800, what);
        free(gpu);
        free(cpu);
        assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    }
    mesh_reference_free(&cube);
    mesh_reference_free(&sphere);
}

/* ---- Many small meshes ---------------------------------------------------------- */

enum { SMALL_COUNT = 300 };

/* 300 of the benchmark's 80-triangle rocks (a sphere of 5 x 8), 0.35 wide
 * (3 to 6 pixels across) in a ball of radius 2.8 at 8 from the camera, +y
 * up: compute and raster pictures of the same particles, and the CPU's. */
static void test_mesh_compute_many_small_meshes_match_raster_and_cpu(void **state) {
    (void)state;
    mesh_arrays rock = mesh_reference_sphere(5, 8);
    const float size = 0.35f;
    plume_system_desc desc = {.capacity = SMALL_COUNT, .seed = test_random_u32(), .lit = true};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {2.8f},
                                            .burst_count = SMALL_COUNT, .lifetime = {100, 100},
                                            .speed = {1e-4f, 1e-4f}, .size = {size, size},
                                            .position = {0.0f, 0.0f, -8.0f}, .direction = {0, 1, 0}};
    desc.meshes.count = 1;
    desc.meshes.start_orientation = PLUME_MESH_START_ALONG_VELOCITY;
    desc.meshes.meshes[0] = mesh_reference_desc(&rock);
    render_camera c = render_make_camera();
    plume_system system = create_updated(&desc, &c);
    float *compute = render_new_image(), *raster = render_new_image();
    uint32_t in_compute = draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, compute);
    uint32_t drawn = drawn_count(system);
    uint32_t in_raster_run = draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
    printf("  %u small rocks drawn: %u rasterized in compute at 1e9 pixels, %u at 0\n", drawn, in_compute,
           in_raster_run);
    assert_int_equal(drawn, SMALL_COUNT);
    assert_int_equal(in_compute, drawn);
    assert_int_equal(in_raster_run, 0);
    int covered = mesh_pixels(raster);
    assert_compute_matches_raster(compute, raster, 1500, covered / 50, "300 small rocks");
    plume_particle *particles = calloc(SMALL_COUNT, sizeof *particles);
    plume_readback r = {.particles = particles};
    assert_int_equal(plume_system_read_back(fixture_context(), system, &r), PLUME_OK);
    mesh_instance *instances = calloc(SMALL_COUNT, sizeof *instances);
    for (uint32_t i = 0; i < SMALL_COUNT; ++i) {
        instances[i] = (mesh_instance){.mesh = &rock, .orientation = {0, 0, 0, 1},
                                       .scale = {particles[i].size, particles[i].size, particles[i].size},
                                       .color = {1, 1, 1}};
        memcpy(instances[i].position, particles[i].position, sizeof instances[i].position);
    }
    float *cpu = mesh_cpu_picture(instances, SMALL_COUNT, 0, 1.0f);
    mesh_assert_images_agree(compute, cpu, 1500, "300 small rocks in compute");
    mesh_assert_images_agree(raster, cpu, 1500, "300 small rocks by the raster");
    free(particles);
    free(instances);
    free(compute);
    free(raster);
    free(cpu);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    mesh_reference_free(&rock);
}

/* Where each emitter of the shared-depth test puts its particle (emitter
 * e draws mesh e % 2: the cubes even, the spheres odd): a big cube near
 * with three small spheres behind its edges (the CPU shows 27 of 60, 34 of
 * 52 and 28 of 58 of their pixels), a big cube far with small meshes in
 * front of it (hiding 146 of its 1080 pixels). */
typedef struct placed {
    float at[3], size;
} placed;
static const placed SHARED_DEPTH[PLUME_MAX_EMITTERS] = {
    {{-0.45f, 0.0f, -2.6f}, 1.0f},  /* cube, 55 pixels across */
    {{-1.8f, 0.0f, -4.0f}, 0.4f},   /* sphere, 8 pixels */
    {{1.9f, 0.3f, -8.0f}, 2.6f},    /* cube, 47 pixels, its nearest corner at 5.75 */
    {{0.2f, -0.2f, -4.2f}, 0.4f},   /* sphere */
    {{1.25f, 0.5f, -5.0f}, 0.3f},   /* cube, 9 pixels */
    {{-0.6f, 0.85f, -3.8f}, 0.4f},  /* sphere */
    {{1.55f, -0.15f, -5.1f}, 0.3f}, /* cube */
    {{1.1f, 0.3f, -5.1f}, 0.4f},    /* sphere */
};

/* At a threshold of 30 pixels the small meshes go to compute and the big
 * ones to the raster, in one draw: where they overlap the nearer shows, as
 * when all are drawn by the raster and by the CPU. */
static void test_mesh_compute_and_raster_meshes_share_the_depth(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(6, 10), cube = mesh_reference_cube();
    const float up[3] = {0, 1, 0}, turned[3] = {0.4f, 1.0f, 0.3f};
    plume_system_desc desc = mesh_still_system_desc();
    desc.meshes.count = 2;
    desc.meshes.pick = PLUME_MESH_PICK_BY_EMITTER;
    desc.meshes.meshes[0] = mesh_reference_desc(&cube);
    desc.meshes.meshes[1] = mesh_reference_desc(&sphere);
    desc.capacity = PLUME_MAX_EMITTERS;
    mesh_instance instances[PLUME_MAX_EMITTERS];
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e) {
        const float *axis = e % 2 ? up : turned;
        desc.emitters[e] = mesh_still_emitter(SHARED_DEPTH[e].at, axis, SHARED_DEPTH[e].size);
        instances[e] = mesh_still_instance(e % 2 ? &sphere : &cube, SHARED_DEPTH[e].at, axis, SHARED_DEPTH[e].size);
    }
    render_camera c = render_make_camera();
    plume_system system = create_updated(&desc, &c);
    float *mixed = render_new_image(), *raster = render_new_image();
    uint32_t in_compute = draw_below(system, 30.0f, &c, mesh_lit_frame(), false, 0, 1.0f, mixed);
    uint32_t none = draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
    printf("  at 30 pixels: %u of %d particles rasterized in compute (the 6 small ones), %u at 0\n", in_compute,
           PLUME_MAX_EMITTERS, none);
    assert_int_equal(in_compute, PLUME_MAX_EMITTERS - 2);
    assert_int_equal(none, 0);
    assert_compute_matches_raster(mixed, raster, 1500, mesh_pixels(raster) / 100, "compute and raster meshes");
    float *cpu = mesh_cpu_picture(instances, PLUME_MAX_EMITTERS, 0, 1.0f);
    mesh_assert_images_agree(mixed, cpu, 1500, "compute and raster meshes");
    free(mixed);
    free(raster);
    free(cpu);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    mesh_reference_free(&sphere);
    mesh_reference_free(&cube);
}

/* ---- The host's depth, depth convention and viewport ---------------------------- */

/* A sphere 1.4 wide at 3 (its front at 2.3) and a small cube at 3.6 to its
 * left, behind a wall 2.5 from the camera that the host's depth buffer
 * holds over the frame's left half: the sphere's cap nearer than the wall
 * (0.49 of its 0.7 radius) shows there, its rim and the cube do not; the right half is as without
 * the wall. With and without the frame's depth_texture (the same depth). */
static void test_mesh_compute_hidden_by_the_host_depth(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(12, 20), cube = mesh_reference_cube();
    const float at_sphere[3] = {0.0f, -0.05f, -3.0f}, at_cube[3] = {-0.95f, 0.3f, -3.6f};
    const float up[3] = {0, 1, 0}, turned[3] = {0.5f, 1.0f, 0.2f};
    plume_system_desc desc = mesh_still_system_desc();
    desc.meshes.count = 2;
    desc.meshes.pick = PLUME_MESH_PICK_BY_EMITTER;
    desc.meshes.meshes[0] = mesh_reference_desc(&sphere);
    desc.meshes.meshes[1] = mesh_reference_desc(&cube);
    desc.emitters[0] = mesh_still_emitter(at_sphere, up, 1.4f);
    desc.emitters[1] = mesh_still_emitter(at_cube, turned, 0.5f);
    render_camera c = render_make_camera();
    plume_system system = create_updated(&desc, &c);
    const int wall_width = RENDER_WIDTH / 2;
    const float wall = render_window_depth(&c, 2.5f);
    float *open = render_new_image(), *walled = render_new_image(), *with_texture = render_new_image();
    float *raster = render_new_image();
    uint32_t counts[3] = {draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, open),
                          draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, wall_width, wall, walled),
                          draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), true, wall_width, wall, with_texture)};
    uint32_t none = draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, wall_width, wall, raster);
    printf("  rasterized in compute: %u without the wall, %u behind it, %u with its depth texture; %u at 0\n",
           counts[0], counts[1], counts[2], none);
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[1], 2);
    assert_true(counts[2] >= 1);
    assert_int_equal(none, 0);
    int hidden = 0, hidden_right = 0, changed_right = 0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) {
        bool was = covers(open, i), gone = background(walled, i);
        bool right = i % RENDER_WIDTH >= wall_width;
        hidden += was && gone;
        hidden_right += was && gone && right;
        changed_right += right && memcmp(walled + 4 * i, open + 4 * i, sizeof(float) * 4) != 0;
    }
    printf("  behind the wall: %d pixels hidden (%d right of it), %d right of it changed\n", hidden, hidden_right,
           changed_right);
    assert_true(hidden > 250);
    assert_int_equal(hidden_right, 0);
    assert_int_equal(changed_right, 0);
    mesh_instance instances[2] = {mesh_still_instance(&sphere, at_sphere, up, 1.4f),
                                  mesh_still_instance(&cube, at_cube, turned, 0.5f)};
    float *cpu = mesh_cpu_picture(instances, 2, wall_width, wall);
    mesh_assert_images_agree(walled, cpu, 800, "sphere and cube behind the host's wall, in compute");
    assert_compute_matches_raster(walled, raster, 800, 12, "behind the host's wall");
    float largest = render_largest_difference(walled, with_texture);
    printf("  with the frame's depth texture: largest difference %.4f\n", largest);
    assert_true(largest == 0.0f);
    free(open);
    free(walled);
    free(with_texture);
    free(raster);
    free(cpu);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    mesh_reference_free(&sphere);
    mesh_reference_free(&cube);
}

/* A host in the reversed depth convention (clip control 0..1, depth cleared
 * to 0, GEQUAL, an infinite reversed projection): the cube and sphere
 * through each other behind a wall over the left half, in compute, give the
 * raster draw's picture, and the default convention's. */
static void test_mesh_compute_in_reversed_depth(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube(), sphere = mesh_reference_sphere(12, 20);
    const float at_cube[3] = {-0.2f, 0.0f, -3.2f}, at_sphere[3] = {0.3f, 0.05f, -2.95f};
    const float axis[3] = {0.3f, 1.0f, 0.4f}, up[3] = {0, 1, 0};
    plume_system_desc desc = mesh_still_system_desc();
    desc.emitters[0] = mesh_still_emitter(at_cube, axis, 1.2f);
    desc.emitters[1] = mesh_still_emitter(at_sphere, up, 1.0f);
    desc.meshes.count = 2;
    desc.meshes.pick = PLUME_MESH_PICK_BY_EMITTER;
    desc.meshes.meshes[0] = mesh_reference_desc(&cube);
    desc.meshes.meshes[1] = mesh_reference_desc(&sphere);
    const int wall_width = RENDER_WIDTH / 2;
    render_camera standard_camera = render_make_camera();
    plume_system system = create_updated(&desc, &standard_camera);
    float *standard = render_new_image(), *compute = render_new_image(), *raster = render_new_image();
    float *open = render_new_image();
    uint32_t counts[4];
    counts[0] = draw_below(system, EVERY_MESH, &standard_camera, mesh_lit_frame(), false, wall_width,
                           render_window_depth(&standard_camera, 2.75f), standard);
    set_host_depth_convention(true);
    render_camera c = render_make_reversed_camera();
    const float wall = render_window_depth(&c, 2.75f);
    counts[1] = draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, wall_width, wall, compute);
    counts[2] = draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, wall_width, wall, raster);
    counts[3] = draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 0.0f, open);
    set_host_depth_convention(false);
    printf("  rasterized in compute: %u in the default convention, %u reversed, %u reversed at 0, %u without "
           "the wall; the wall at window depth %.4f\n", counts[0], counts[1], counts[2], counts[3], wall);
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[1], 2);
    assert_int_equal(counts[2], 0);
    assert_int_equal(counts[3], 2);
    int hidden = 0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i)
        hidden += background(compute, i) && covers(open, i);
    printf("  reversed: %d pixels hidden by the wall\n", hidden);
    assert_true(hidden > 100);
    assert_compute_matches_raster(compute, raster, 800, 12, "reversed depth behind a wall");
    int differ = render_pixels_differing(compute, standard, 0.02f);
    printf("  reversed against the default convention, both in compute: %d pixels differ by over 0.02\n", differ);
    assert_true(differ <= 12);
    free(standard);
    free(compute);
    free(raster);
    free(open);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    mesh_reference_free(&cube);
    mesh_reference_free(&sphere);
}

/* The host's viewport a part of its frame (from 17, 9, 90 x 70): the compute
 * raster draws into it what the raster draw does, meshes cut at its edges,
 * and no pixel outside it. */
static void test_mesh_compute_keeps_to_the_viewport(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(12, 20), cube = mesh_reference_cube();
    const float at_sphere[3] = {-2.0f, -0.3f, -3.0f}, at_cube[3] = {0.9f, 1.3f, -2.8f};
    const float up[3] = {0, 1, 0}, turned[3] = {0.6f, 1.0f, -0.2f};
    plume_system_desc desc = mesh_still_system_desc();
    desc.meshes.count = 2;
    desc.meshes.pick = PLUME_MESH_PICK_BY_EMITTER;
    desc.meshes.meshes[0] = mesh_reference_desc(&sphere);
    desc.meshes.meshes[1] = mesh_reference_desc(&cube);
    desc.emitters[0] = mesh_still_emitter(at_sphere, up, 1.2f);
    desc.emitters[1] = mesh_still_emitter(at_cube, turned, 1.0f);
    render_camera c = render_make_camera();
    plume_system system = create_updated(&desc, &c);
    const int viewport[4] = {17, 9, 90, 70};
    float *compute = render_new_image(), *raster = render_new_image();
    plume_frame_desc frame = mesh_lit_frame();
    compute_below(system, EVERY_MESH);
    render_draw_many(&system, 1, &c, &frame, viewport, compute);
    uint32_t in_compute = computed(system);
    compute_below(system, NO_MESH);
    render_draw_many(&system, 1, &c, &frame, viewport, raster);
    uint32_t none = computed(system);
    int outside = 0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) {
        int x = i % RENDER_WIDTH, y = i / RENDER_WIDTH;
        bool in = x >= viewport[0] && x < viewport[0] + viewport[2] && y >= viewport[1] &&
                  y < viewport[1] + viewport[3];
        outside += !in && !background(compute, i);
    }
    printf("  viewport 17, 9, 90 x 70: %u of 2 rasterized in compute (%u at 0), %d pixels drawn outside it\n",
           in_compute, none, outside);
    assert_int_equal(in_compute, 2);
    assert_int_equal(none, 0);
    assert_int_equal(outside, 0);
    assert_compute_matches_raster(compute, raster, 800, 12, "in a viewport");
    free(compute);
    free(raster);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    mesh_reference_free(&sphere);
    mesh_reference_free(&cube);
}

/* Two systems, a sphere's and a turned cube's passing through each other,
 * drawn in turn into one host frame, in compute: the second's resolve is
 * tested against the depth the first's left, as the raster draws do and
 * as the CPU draws them. */
static void test_mesh_compute_two_systems_in_one_frame(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube(), sphere = mesh_reference_sphere(12, 20);
    const float at_cube[3] = {-0.2f, 0.0f, -3.2f}, at_sphere[3] = {0.3f, 0.05f, -2.95f};
    const float axis[3] = {0.3f, 1.0f, 0.4f}, up[3] = {0, 1, 0};
    plume_system_desc descs[2] = {mesh_still_system_desc(), mesh_still_system_desc()};
    descs[0].emitters[0] = mesh_still_emitter(at_sphere, up, 1.0f);
    descs[0].meshes.meshes[0] = mesh_reference_desc(&sphere);
    descs[1].emitters[0] = mesh_still_emitter(at_cube, axis, 1.2f);
    descs[1].meshes.meshes[0] = mesh_reference_desc(&cube);
    render_camera c = render_make_camera();
    plume_system systems[2] = {create_updated(&descs[0], &c), create_updated(&descs[1], &c)};
    plume_frame_desc frames[2] = {mesh_lit_frame(), mesh_lit_frame()};
    float *compute = render_new_image(), *raster = render_new_image();
    uint32_t counts[4];
    for (int k = 0; k < 2; ++k) compute_below(systems[k], EVERY_MESH);
    render_draw_many(systems, 2, &c, frames, NULL, compute);
    counts[0] = computed(systems[0]), counts[1] = computed(systems[1]);
    for (int k = 0; k < 2; ++k) compute_below(systems[k], NO_MESH);
    render_draw_many(systems, 2, &c, frames, NULL, raster);
    counts[2] = computed(systems[0]), counts[3] = computed(systems[1]);
    printf("  rasterized in compute: %u and %u (at 0: %u and %u)\n", counts[0], counts[1], counts[2], counts[3]);
    assert_true(counts[0] == 1 && counts[1] == 1 && counts[2] == 0 && counts[3] == 0);
    assert_compute_matches_raster(compute, raster, 800, 12, "two systems in one frame");
    mesh_instance instances[2] = {mesh_still_instance(&sphere, at_sphere, up, 1.0f),
                                  mesh_still_instance(&cube, at_cube, axis, 1.2f)};
    float *cpu = mesh_cpu_picture(instances, 2, 0, 1.0f);
    mesh_assert_images_agree(compute, cpu, 800, "two systems in one frame, in compute");
    free(compute);
    free(raster);
    free(cpu);
    for (int k = 0; k < 2; ++k) assert_int_equal(plume_system_destroy(fixture_context(), systems[k]), PLUME_OK);
    mesh_reference_free(&cube);
    mesh_reference_free(&sphere);
}

/* A sphere in the host's buffers (positions, normals and texture
 * coordinates interleaved, 32 bytes a vertex from byte 16; 16-bit indices
 * from byte 6), in compute, as the CPU draws it; then the host writes new
 * positions into its buffer (the sphere flattened to half its height,
 * within its reach: plume_mesh.h leaves the contents to the host): the
 * compute raster draws the new mesh, as the raster draw does. */
static void test_mesh_compute_reads_the_host_buffers(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(12, 20);
    enum { HEAD = 16, STRIDE = 32, INDEX_HEAD = 6 };
    size_t vertex_bytes = HEAD + (size_t)STRIDE * sphere.vertex_count;
    unsigned char *vertices = calloc(1, vertex_bytes);
    uint16_t *indices = calloc(sphere.index_count + INDEX_HEAD / 2, sizeof(uint16_t));
    for (uint32_t v = 0; v < sphere.vertex_count; ++v) {
        memcpy(vertices + HEAD + STRIDE * v, sphere.positions + 3 * v, 12);
        memcpy(vertices + HEAD + STRIDE * v + 12, sphere.normals + 3 * v, 12);
        memcpy(vertices + HEAD + STRIDE * v + 24, sphere.texcoords + 2 * v, 8);
    }
    for (uint32_t k = 0; k < sphere.index_count; ++k) indices[INDEX_HEAD / 2 + k] = (uint16_t)sphere.indices[k];
    GLuint buffers[2] = {test_buffer_create(vertex_bytes, vertices),
                         test_buffer_create(INDEX_HEAD + (size_t)sphere.index_count * 2, indices)};
    const float at[3] = {0.2f, -0.1f, -3.0f}, axis[3] = {0.3f, 1.0f, 0.2f};
    plume_system_desc desc = mesh_still_system_desc();
    desc.emitters[0] = mesh_still_emitter(at, axis, 1.4f);
    desc.meshes.meshes[0] = (plume_mesh_desc){
        .vertex_count = sphere.vertex_count, .index_count = sphere.index_count, .index_type = GL_UNSIGNED_SHORT,
        .positions = {buffers[0], HEAD, STRIDE}, .normals = {buffers[0], HEAD + 12, STRIDE},
        .texcoords = {buffers[0], HEAD + 24, STRIDE}, .indices = {buffers[1], INDEX_HEAD, 0}};
    render_camera c = render_make_camera();
    plume_system system = create_updated(&desc, &c);
    float *round = render_new_image(), *flat = render_new_image(), *raster = render_new_image();
    uint32_t counts[2];
    counts[0] = draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, round);
    mesh_instance instance = mesh_still_instance(&sphere, at, axis, 1.4f);
    float *cpu = mesh_cpu_picture(&instance, 1, 0, 1.0f);
    mesh_assert_images_agree(round, cpu, 800, "a sphere from the host's buffers, in compute");
    for (uint32_t v = 0; v < sphere.vertex_count; ++v) {
        float y = sphere.positions[3 * v + 1] * 0.5f;
        test_buffer_write(buffers[0], HEAD + STRIDE * (size_t)v + 4, 4, &y);
    }
    counts[1] = draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, flat);
    uint32_t none = draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
    int changed = render_pixels_differing(round, raster, 0.02f);
    printf("  rasterized in compute: %u round, %u flattened (%u at 0); flattening changed %d pixels of the raster's "
           "picture\n", counts[0], counts[1], none, changed);
    assert_true(counts[0] == 1 && counts[1] == 1 && none == 0);
    assert_true(changed > 200);
    assert_compute_matches_raster(flat, raster, 400, 12, "the host's sphere flattened");
    free(round);
    free(flat);
    free(raster);
    free(cpu);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    glDeleteBuffers(2, buffers);
    free(vertices);
    free(indices);
    mesh_reference_free(&sphere);
}

/* ---- A hostile host ------------------------------------------------------------- */

enum { HOSTILE_SIZE = 64 };

/* The host's framebuffer: colour 0 for the module, colour 1 a canary,
 * depth; cleared (colour 0 to the background, depth to 1) and bound. */
typedef struct hostile_target {
    GLuint framebuffer, color, canary, depth;
} hostile_target;

static hostile_target begin_hostile_target(void) {
    hostile_target t = {.color = test_texture_create(GL_RGBA32F, HOSTILE_SIZE, HOSTILE_SIZE),
                        .canary = test_texture_create(GL_RGBA8, HOSTILE_SIZE, HOSTILE_SIZE),
                        .depth = test_texture_create(GL_DEPTH_COMPONENT32F, HOSTILE_SIZE, HOSTILE_SIZE)};
    glGenFramebuffers(1, &t.framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D, t.canary, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, t.depth, 0);
    const GLenum buffers[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    glDrawBuffers(2, buffers);
    assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    const float c = HOSTILE_CANARY / 255.0f, canary[4] = {c, c, c, c}, far = 1.0f;
    glClearBufferfv(GL_COLOR, 0, RENDER_BACKGROUND);
    glClearBufferfv(GL_COLOR, 1, canary);
    glClearBufferfv(GL_DEPTH, 0, &far);
    glViewport(0, 0, HOSTILE_SIZE, HOSTILE_SIZE);
    glEnable(GL_DEPTH_TEST);
    return t;
}

/* Reads colour 0 into `rgba` and checks the canary; deletes the target. */
static void end_hostile_target(hostile_target *t, float *rgba) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDisable(GL_DEPTH_TEST);
    read_texture(t->color, GL_FLOAT, rgba);
    unsigned char *canary = malloc(4 * HOSTILE_SIZE * HOSTILE_SIZE);
    assert_non_null(canary);
    read_texture(t->canary, GL_UNSIGNED_BYTE, canary);
    for (int i = 0; i < 4 * HOSTILE_SIZE * HOSTILE_SIZE; ++i)
        if (canary[i] != HOSTILE_CANARY) fail_msg("the host's second colour buffer was written at pixel %d", i / 4);
    free(canary);
    glDeleteFramebuffers(1, &t->framebuffer);
    GLuint textures[3] = {t->color, t->canary, t->depth};
    glDeleteTextures(3, textures);
}

/* The compute raster's draw inside a host that left a distinctive value in
 * every piece of GL state the contract names (hostile_host.h): the same
 * picture as in a clean context where the host's scissor lets it draw (the
 * left half), nothing right of it nor in the host's other colour buffer,
 * and the host's state as it was. */
static void test_mesh_compute_inside_a_hostile_host(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube(), sphere = mesh_reference_sphere(12, 20);
    const float at_cube[3] = {-0.2f, 0.0f, -3.2f}, at_sphere[3] = {0.3f, 0.05f, -2.95f};
    const float axis[3] = {0.3f, 1.0f, 0.4f}, up[3] = {0, 1, 0};
    plume_system_desc desc = mesh_still_system_desc();
    desc.emitters[0] = mesh_still_emitter(at_cube, axis, 1.2f);
    desc.emitters[1] = mesh_still_emitter(at_sphere, up, 1.0f);
    desc.meshes.count = 2;
    desc.meshes.pick = PLUME_MESH_PICK_BY_EMITTER;
    desc.meshes.meshes[0] = mesh_reference_desc(&cube);
    desc.meshes.meshes[1] = mesh_reference_desc(&sphere);
    render_camera c = render_make_camera();
    plume_system system = create_updated(&desc, &c);
    compute_below(system, EVERY_MESH);
    plume_frame_desc frame = mesh_lit_frame();
    memcpy(frame.view, c.view, sizeof frame.view);
    memcpy(frame.projection, c.projection, sizeof frame.projection);
    float *clean = malloc(sizeof(float) * 4 * HOSTILE_SIZE * HOSTILE_SIZE);
    float *hostile = malloc(sizeof(float) * 4 * HOSTILE_SIZE * HOSTILE_SIZE);
    assert_true(clean && hostile);
    hostile_target target = begin_hostile_target();
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    end_hostile_target(&target, clean);
    uint32_t counts[2] = {computed(system), 0};
    target = begin_hostile_target();
    host_objects host = make_hostile(HOSTILE_SIZE);
    GLint64 before[HOSTILE_MAX_VALUES];
    int values = snapshot(before);
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    assert_unchanged(before, values, "a mesh draw in compute");
    end_hostile(&host);
    end_hostile_target(&target, hostile);
    counts[1] = computed(system);
    int covered = 0, differ = 0, outside = 0;
    for (int i = 0; i < HOSTILE_SIZE * HOSTILE_SIZE; ++i) {
        bool left = i % HOSTILE_SIZE < host.drawn_width;
        bool drawn = memcmp(clean + 4 * i, RENDER_BACKGROUND, sizeof RENDER_BACKGROUND) != 0;
        covered += left && drawn;
        if (left) differ += memcmp(clean + 4 * i, hostile + 4 * i, sizeof(float) * 4) != 0;
        else outside += memcmp(hostile + 4 * i, RENDER_BACKGROUND, sizeof RENDER_BACKGROUND) != 0;
    }
    printf("  rasterized in compute: %u clean, %u hostile; left of the scissor %d covered pixels, %d differ; "
           "%d drawn right of it\n", counts[0], counts[1], covered, differ, outside);
    assert_true(counts[0] == 2 && counts[1] == 2);
    assert_true(covered > 100);
    assert_int_equal(differ, 0);
    assert_int_equal(outside, 0);
    free(clean);
    free(hostile);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    mesh_reference_free(&cube);
    mesh_reference_free(&sphere);
}

/* ---- Surfaces, faces, paths ----------------------------------------------------- */

/* A unit quad in the mesh's x-z plane, its normal +y, wound counter-clockwise
 * seen from +y (GL's front face there), the texture once across it. */
static float QUAD_POSITIONS[12] = {-0.5f, 0, -0.5f, 0.5f, 0, -0.5f, 0.5f, 0, 0.5f, -0.5f, 0, 0.5f};
static float QUAD_NORMALS[12] = {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0};
static float QUAD_TEXCOORDS[8] = {0, 0, 1, 0, 1, 1, 0, 1};
static uint32_t QUAD_INDICES[6] = {0, 2, 1, 0, 3, 2};

static mesh_arrays quad_mesh(void) {
    return (mesh_arrays){4, 6, QUAD_POSITIONS, QUAD_NORMALS, QUAD_TEXCOORDS, QUAD_INDICES};
}

enum { HOLED_SIZE = 16, HOLED_CELL = 4 };

/* 16 x 16 texels of 4 x 4 cells, warm, their colour across the texture:
 * with `holes`, transparent (alpha 0) where the cell's x + y is odd, else
 * all opaque. Free it. */
static uint8_t *warm_texture(bool holes) {
    uint8_t *pixels = malloc(4 * HOLED_SIZE * HOLED_SIZE);
    assert_non_null(pixels);
    for (int y = 0; y < HOLED_SIZE; ++y)
        for (int x = 0; x < HOLED_SIZE; ++x) {
            bool hole = holes && (x / HOLED_CELL + y / HOLED_CELL) % 2 == 1;
            uint8_t *p = pixels + 4 * (y * HOLED_SIZE + x);
            p[0] = 240, p[1] = (uint8_t)(150 + 6 * x), p[2] = (uint8_t)(90 + 8 * y), p[3] = hole ? 0 : 255;
        }
    return pixels;
}

/* The alpha-tested meshes' cutoff: away from the 0.5 that the holed
 * texture's coarsest mip levels average to (a face seen edge-on samples
 * those, and a cutoff there flips with any difference in the level of
 * detail between two rasterizers). */
static const float HOLED_CUTOFF = 0.35f;

/* One still mesh at 3 from the camera, textured with warm_texture's holes. */
static plume_system holed_system(const mesh_arrays *mesh, const float axis[3], float size, uint32_t surface,
                                 const render_camera *c) {
    const float at[3] = {0.05f, -0.05f, -3.0f};
    plume_system_desc desc = mesh_still_system_desc();
    desc.emitters[0] = mesh_still_emitter(at, axis, size);
    desc.meshes.meshes[0] = mesh_reference_desc(mesh);
    desc.meshes.surface = surface;
    desc.meshes.alpha_cutoff = HOLED_CUTOFF;
    uint8_t *pixels = warm_texture(true);
    desc.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = HOLED_SIZE, .height = HOLED_SIZE};
    plume_system system = create_updated(&desc, c);
    free(pixels);
    return system;
}

/* A quad facing the camera and a turned cube, alpha-tested against a
 * texture with square holes: in compute as by the raster; the quad's holes
 * show the background (about half its pixels), the cube's show its far
 * faces where they are not holes themselves (a discarded pixel is no
 * surface in the depth pass either). */
static void test_mesh_compute_alpha_tested_holes_show_through(void **state) {
    (void)state;
    mesh_arrays quad = quad_mesh(), cube = mesh_reference_cube();
    const float facing[3] = {0.2f, 0.45f, 1.0f}, turned[3] = {0.7f, 0.5f, 0.5f};
    const struct {
        const mesh_arrays *mesh;
        const float *axis;
        float size;
        const char *what;
    } cases[2] = {{&quad, facing, 1.8f, "holed quad"}, {&cube, turned, 1.3f, "holed cube"}};
    render_camera c = render_make_camera();
    for (int k = 0; k < 2; ++k) {
        plume_system tested = holed_system(cases[k].mesh, cases[k].axis, cases[k].size, PLUME_MESH_ALPHA_TESTED, &c);
        plume_system solid = holed_system(cases[k].mesh, cases[k].axis, cases[k].size, PLUME_MESH_OPAQUE, &c);
        float *compute = render_new_image(), *raster = render_new_image(), *whole = render_new_image();
        uint32_t counts[3] = {draw_below(tested, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, compute),
                              draw_below(tested, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster),
                              draw_below(solid, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, whole)};
        int silhouette = mesh_pixels(whole), holes = 0, raster_holes = 0;
        for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) {
            holes += covers(whole, i) && background(compute, i);
            raster_holes += covers(whole, i) && background(raster, i);
        }
        printf("  %s: rasterized in compute %u (alpha-tested), %u (at 0), %u (opaque); of its %d pixels %d show "
               "the background in compute, %d by the raster\n", cases[k].what, counts[0], counts[1], counts[2],
               silhouette, holes, raster_holes);
        assert_int_equal(counts[0], 1);
        assert_int_equal(counts[1], 0);
        assert_int_equal(counts[2], 1);
        assert_true(silhouette > 800);
        if (k == 0) assert_true(holes > silhouette / 4 && holes < silhouette * 3 / 4);
        else assert_true(holes > 20 && holes < silhouette / 3);
        /* Minified and seen at a slant (the cube's face nearly edge-on),
         * the two pick the texture's level of detail apart (the GL from a
         * pixel quad's differences, the compute raster from the triangle's
         * gradient), and a pixel there is cut by one and kept by the other:
         * 15 of the cube's 1641 on llvmpipe, along that face. */
        assert_compute_matches_raster(compute, raster, 500, k ? silhouette / 50 : 12, cases[k].what);
        free(compute);
        free(raster);
        free(whole);
        assert_int_equal(plume_system_destroy(fixture_context(), tested), PLUME_OK);
        assert_int_equal(plume_system_destroy(fixture_context(), solid), PLUME_OK);
    }
    mesh_reference_free(&cube);
}

/* lod.cull_back_faces in compute: a sphere and a turned cube (closed,
 * wound counter-clockwise outwards) draw the same picture as without, and
 * the CPU's; a quad (open) draws facing the camera and nothing seen from
 * behind, as by the raster. */
static void test_mesh_compute_back_faces_culled(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(12, 20), cube = mesh_reference_cube(), quad = quad_mesh();
    const float at_sphere[3] = {-0.5f, -0.1f, -3.0f}, at_cube[3] = {0.6f, 0.2f, -3.4f};
    const float up[3] = {0, 1, 0}, turned[3] = {0.6f, 1.0f, 0.3f};
    render_camera c = render_make_camera();
    float *images[2] = {render_new_image(), render_new_image()};
    for (int cull = 0; cull < 2; ++cull) {
        plume_system_desc desc = mesh_still_system_desc();
        desc.meshes.count = 2;
        desc.meshes.pick = PLUME_MESH_PICK_BY_EMITTER;
        desc.meshes.meshes[0] = mesh_reference_desc(&sphere);
        desc.meshes.meshes[1] = mesh_reference_desc(&cube);
        desc.emitters[0] = mesh_still_emitter(at_sphere, up, 1.0f);
        desc.emitters[1] = mesh_still_emitter(at_cube, turned, 1.0f);
        desc.meshes.lod.cull_back_faces = cull;
        plume_system system = create_updated(&desc, &c);
        uint32_t in_compute = draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, images[cull]);
        printf("  sphere and cube, back faces %s: %u of 2 rasterized in compute\n", cull ? "culled" : "drawn",
               in_compute);
        assert_int_equal(in_compute, 2);
        assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    }
    float largest = render_largest_difference(images[0], images[1]);
    printf("  back faces culled against drawn, in compute: largest difference %.4f\n", largest);
    assert_true(largest == 0.0f);
    mesh_instance instances[2] = {mesh_still_instance(&sphere, at_sphere, up, 1.0f),
                                  mesh_still_instance(&cube, at_cube, turned, 1.0f)};
    float *cpu = mesh_cpu_picture(instances, 2, 0, 1.0f);
    mesh_assert_images_agree(images[1], cpu, 800, "sphere and cube, back faces culled, in compute");
    free(cpu);
    const float toward[3] = {0.2f, 0.45f, 1.0f}, away[3] = {0.2f, 0.45f, -1.0f};
    for (int side = 0; side < 2; ++side)
        for (int cull = 0; cull < 2; ++cull) {
            const float at[3] = {0.0f, 0.0f, -3.0f};
            plume_system_desc desc = mesh_still_system_desc();
            desc.emitters[0] = mesh_still_emitter(at, side ? away : toward, 1.8f);
            desc.meshes.meshes[0] = mesh_reference_desc(&quad);
            desc.meshes.lod.cull_back_faces = cull;
            plume_system system = create_updated(&desc, &c);
            uint32_t in_compute = draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, images[0]);
            uint32_t none = draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, images[1]);
            int covered = mesh_pixels(images[0]), raster_covered = mesh_pixels(images[1]);
            printf("  quad seen from %s, back faces %s: %u rasterized in compute (%u at 0), %d pixels drawn "
                   "(%d by the raster)\n", side ? "behind" : "the front", cull ? "culled" : "drawn", in_compute,
                   none, covered, raster_covered);
            assert_int_equal(in_compute, 1);
            assert_int_equal(none, 0);
            bool gone = side == 1 && cull == 1;
            assert_true(gone ? raster_covered == 0 : raster_covered > 800);
            if (gone) assert_int_equal(covered, 0);
            else assert_compute_matches_raster(images[0], images[1], 800, 12, side ? "quad from behind" : "quad");
            assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
        }
    free(images[0]);
    free(images[1]);
    mesh_reference_free(&sphere);
    mesh_reference_free(&cube);
}

/* The threshold at 1e9 pixels: the frame's raster path takes no mesh to
 * compute (the default, automatic and tiled paths do) and draws the raster
 * draw's picture; a transparent surface none on any path; a mesh whose
 * sphere reaches behind the eye none, a small one beside it still. */
static void test_mesh_compute_not_on_the_raster_path_nor_transparent_nor_round_the_eye(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(12, 20);
    const float at[3] = {0.1f, 0.0f, -3.0f}, up[3] = {0, 1, 0};
    render_camera c = render_make_camera();
    const uint32_t paths[4] = {PLUME_DRAW_PATH_DEFAULT, PLUME_DRAW_PATH_AUTOMATIC, PLUME_DRAW_PATH_TILED,
                               PLUME_DRAW_PATH_RASTER};
    const char *const path_names[4] = {"default", "automatic", "tiled", "raster"};
    float *raster = render_new_image(), *image = render_new_image();
    for (uint32_t surface = PLUME_MESH_OPAQUE; surface <= PLUME_MESH_TRANSPARENT; surface += 2) {
        plume_system_desc desc = mesh_still_system_desc();
        desc.emitters[0] = mesh_still_emitter(at, up, 1.0f);
        desc.meshes.meshes[0] = mesh_reference_desc(&sphere);
        desc.meshes.surface = surface;
        plume_system system = create_updated(&desc, &c);
        assert_int_equal(draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster), 0);
        assert_true(mesh_pixels(raster) > 500);
        for (int p = 0; p < 4; ++p) {
            plume_frame_desc frame = mesh_lit_frame();
            frame.draw_path = paths[p];
            uint32_t in_compute = draw_below(system, EVERY_MESH, &c, frame, false, 0, 1.0f, image);
            float largest = render_largest_difference(image, raster);
            printf("  %s sphere, %s path: %u rasterized in compute, largest difference from the raster draw "
                   "%.4f\n", surface ? "transparent" : "opaque", path_names[p], in_compute, largest);
            bool taken = surface == PLUME_MESH_OPAQUE && paths[p] != PLUME_DRAW_PATH_RASTER;
            assert_int_equal(in_compute, taken ? 1 : 0);
            if (!taken) assert_true(largest == 0.0f);
        }
        assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    }
    /* A sphere 3 wide round (1.6, 0, -0.5), from 2 in front of the eye to 1
     * behind it (the near plane cuts it: the right of the picture), the eye
     * outside it; a small one far to the left. */
    const float at_round[3] = {1.6f, 0.0f, -0.5f}, at_small[3] = {-1.0f, 0.3f, -4.0f};
    plume_system_desc desc = mesh_still_system_desc();
    desc.emitters[0] = mesh_still_emitter(at_round, up, 3.0f);
    desc.emitters[1] = mesh_still_emitter(at_small, up, 0.4f);
    desc.meshes.meshes[0] = mesh_reference_desc(&sphere);
    plume_system system = create_updated(&desc, &c);
    uint32_t in_compute = draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, image);
    uint32_t none = draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
    printf("  a sphere round the eye and a small one: %u of 2 rasterized in compute (%u at 0)\n", in_compute, none);
    assert_int_equal(in_compute, 1);
    assert_int_equal(none, 0);
    assert_compute_matches_raster(image, raster, 1000, 12, "a sphere round the eye and a small one");
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    free(raster);
    free(image);
    mesh_reference_free(&sphere);
}

/* The module's own threshold (render/draw_tuning.h, about 32 pixels): of a
 * sphere 10 pixels across and one 66, a fresh system takes the small one to
 * compute; 1e9 both; a negative threshold the default again. */
static void test_mesh_compute_default_threshold_takes_small_meshes(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(12, 20);
    const float at_small[3] = {-0.8f, 0.1f, -3.0f}, at_big[3] = {0.6f, 0.0f, -2.5f}, up[3] = {0, 1, 0};
    plume_system_desc desc = mesh_still_system_desc();
    desc.emitters[0] = mesh_still_emitter(at_small, up, 0.36f);
    desc.emitters[1] = mesh_still_emitter(at_big, up, 2.0f);
    desc.meshes.meshes[0] = mesh_reference_desc(&sphere);
    render_camera c = render_make_camera();
    plume_system system = create_updated(&desc, &c);
    uint32_t before = UINT32_MAX;
    assert_int_equal(plume_lab_mesh_draw_compute_count(fixture_context(), system, &before), PLUME_OK);
    float *image = render_new_image(), *raster = render_new_image();
    render_draw(system, &c, mesh_lit_frame(), false, 0, 1.0f, image);
    uint32_t fresh = computed(system);
    uint32_t every = draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
    uint32_t again = draw_below(system, -1.0f, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
    uint32_t none = draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
    printf("  rasterized in compute: %u before any draw, %u by default, %u at 1e9, %u at -1 (the default), %u at "
           "0\n", before, fresh, every, again, none);
    assert_int_equal(before, 0);
    assert_int_equal(fresh, 1);
    assert_int_equal(every, 2);
    assert_int_equal(again, 1);
    assert_int_equal(none, 0);
    assert_compute_matches_raster(image, raster, 1500, 12, "the default threshold");
    free(image);
    free(raster);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    mesh_reference_free(&sphere);
}

/* What the colour pass shades besides the light: a cloud of cubes and
 * spheres of random orientations, spinning, scaled unevenly over life,
 * textured, coloured and glowing over life (ages spread by a prewarm), lit
 * and unlit, in compute as by the raster; opaque with a texture without
 * holes (an opaque surface divides the texel's colour by its alpha, which
 * at the edge of a hole is near 0: any rounding shows), alpha-tested with
 * the holes. */
static void test_mesh_compute_shades_as_the_raster_draw(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube(), sphere = mesh_reference_sphere(6, 10);
    render_camera c = render_make_camera();
    for (uint32_t surface = PLUME_MESH_OPAQUE; surface <= PLUME_MESH_ALPHA_TESTED; ++surface)
        for (int lit = 1; lit >= 0; --lit) {
            plume_system_desc d = {.capacity = 96, .seed = test_random_u32(), .lit = lit, .prewarm_time = 2.0f};
            d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {0.9f}, .rate = 30.0f,
                                                 .lifetime = {2.0f, 3.0f}, .speed = {0.0f, 0.2f}, .spread = 3.14159f,
                                                 .size = {0.3f, 0.5f}, .position = {0.0f, 0.0f, -3.5f}};
            d.appearance.color_over_life =
                (plume_gradient){2, {{0, {1.0f, 0.7f, 0.3f, 1}}, {1, {0.3f, 0.6f, 1.0f, 1}}}};
            d.emissive_over_life =
                (plume_gradient){2, {{0, {0.4f, 0.1f, 0.0f, 0.6f}}, {1, {0.0f, 0.1f, 0.3f, 0.3f}}}};
            uint8_t *pixels = warm_texture(surface == PLUME_MESH_ALPHA_TESTED);
            d.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = HOLED_SIZE, .height = HOLED_SIZE};
            d.meshes.count = 2;
            d.meshes.surface = surface;
            d.meshes.alpha_cutoff = HOLED_CUTOFF;
            d.meshes.angular_speed = (plume_range){1.0f, 3.0f};
            d.meshes.scale_start[0] = 1.4f, d.meshes.scale_start[1] = 0.7f, d.meshes.scale_start[2] = 1.0f;
            d.meshes.scale_end[0] = 0.8f, d.meshes.scale_end[1] = 1.2f, d.meshes.scale_end[2] = 0.9f;
            d.meshes.meshes[0] = mesh_reference_desc(&cube);
            d.meshes.meshes[1] = mesh_reference_desc(&sphere);
            plume_system system = create_updated(&d, &c);
            free(pixels);
            float *compute = render_new_image(), *raster = render_new_image();
            uint32_t in_compute = draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, compute);
            uint32_t drawn = drawn_count(system);
            uint32_t none = draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
            char what[64];
            snprintf(what, sizeof what, "%s %s cloud", lit ? "lit" : "unlit", surface ? "alpha-tested" : "opaque");
            printf("  %s: %u drawn, %u rasterized in compute (%u at 0)\n", what, drawn, in_compute, none);
            assert_true(drawn > 30);
            assert_int_equal(in_compute, drawn);
            assert_int_equal(none, 0);
            /* Alpha-tested, the texture minified (meshes 10 to 20 pixels
             * across): the levels of detail apart at the holes' edges, as
             * for the holed cube. */
            int most = mesh_pixels(raster) / (surface == PLUME_MESH_ALPHA_TESTED ? 50 : 100);
            assert_compute_matches_raster(compute, raster, 1000, most, what);
            free(compute);
            free(raster);
            assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
        }
    mesh_reference_free(&cube);
    mesh_reference_free(&sphere);
}

/* ---- Refusals ------------------------------------------------------------------- */

/* A refused call returned PLUME_ERROR_INVALID_ARGUMENT and logged an error
 * (more than *errors, the count before it; updated). */
static void expect_refused(plume_result result, int *errors, const char *what) {
    int now = test_log_error_count();
    printf("  %s: %s\n", what, plume_result_string(result));
    if (result != PLUME_ERROR_INVALID_ARGUMENT) fail_msg("%s: %d, not PLUME_ERROR_INVALID_ARGUMENT", what, result);
    if (now <= *errors) fail_msg("%s: refused without a message", what);
    *errors = now;
}

static void test_mesh_compute_lab_refusals(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube();
    plume_system_desc sprites = {.capacity = 5, .seed = test_random_u32()};
    plume_system_desc mesh = mesh_still_system_desc();
    mesh.meshes.meshes[0] = mesh_reference_desc(&cube);
    plume_system a, b, gone;
    assert_int_equal(plume_system_create(fixture_context(), &sprites, &a), PLUME_OK);
    assert_int_equal(plume_system_create(fixture_context(), &mesh, &b), PLUME_OK);
    assert_int_equal(plume_system_create(fixture_context(), &mesh, &gone), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), gone), PLUME_OK);
    test_log_expect_errors();
    uint32_t count = 7;
    int errors = test_log_error_count();
    plume_context *context = fixture_context();
    expect_refused(plume_lab_mesh_draw_set_compute_below(context, a, 1e9f), &errors, "a sprite system's threshold");
    expect_refused(plume_lab_mesh_draw_compute_count(context, a, &count), &errors, "a sprite system's count");
    expect_refused(plume_lab_mesh_draw_set_compute_below(context, b, NAN), &errors, "a NaN threshold");
    expect_refused(plume_lab_mesh_draw_set_compute_below(context, b, -NAN), &errors, "a negative NaN threshold");
    expect_refused(plume_lab_mesh_draw_set_compute_below(context, gone, 1e9f), &errors,
                   "a destroyed system's threshold");
    expect_refused(plume_lab_mesh_draw_compute_count(context, gone, &count), &errors, "a destroyed system's count");
    assert_int_equal(count, 7);
    /* Accepted: negative (the default again), 0, large; the count before any draw 0. */
    assert_int_equal(plume_lab_mesh_draw_set_compute_below(fixture_context(), b, -1.0f), PLUME_OK);
    assert_int_equal(plume_lab_mesh_draw_set_compute_below(fixture_context(), b, 0.0f), PLUME_OK);
    assert_int_equal(plume_lab_mesh_draw_set_compute_below(fixture_context(), b, 1e9f), PLUME_OK);
    assert_int_equal(plume_lab_mesh_draw_compute_count(fixture_context(), b, &count), PLUME_OK);
    assert_int_equal(count, 0);
    assert_int_equal(plume_system_destroy(fixture_context(), a), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), b), PLUME_OK);
    mesh_reference_free(&cube);
}

const struct CMUnitTest mesh_compute_tests[] = {
    cmocka_unit_test_setup_teardown(test_mesh_compute_cube_and_sphere_match_cpu, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_two_meshes_overlap_by_depth, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_many_small_meshes_match_raster_and_cpu, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_and_raster_meshes_share_the_depth, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_hidden_by_the_host_depth, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_in_reversed_depth, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_keeps_to_the_viewport, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_two_systems_in_one_frame, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_reads_the_host_buffers, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_inside_a_hostile_host, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_alpha_tested_holes_show_through, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_back_faces_culled, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_not_on_the_raster_path_nor_transparent_nor_round_the_eye,
                                    fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_default_threshold_takes_small_meshes, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_shades_as_the_raster_draw, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_lab_refusals, fixture_setup, fixture_teardown),
};
const size_t mesh_compute_test_count = sizeof mesh_compute_tests / sizeof mesh_compute_tests[0];
