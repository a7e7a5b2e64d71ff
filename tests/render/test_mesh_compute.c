/* The compute raster of small meshes (render/, since 1.3): where the frame's
 * draw_path is TILED or AUTOMATIC, an opaque or alpha-tested mesh particle
 * whose bounding sphere is fewer pixels across than a threshold is drawn by
 * compute passes (depth, colour, a resolve into the host's framebuffer with
 * its depth test) instead of the GL's raster back end. The lab forces the
 * threshold (plume_lab_mesh_draw_set_compute_below: 1e9 every mesh, 0 none)
 * and counts the particles the compute raster took
 * (plume_lab_mesh_draw_compute_count): every test asserts it ran. Here its
 * pictures on llvmpipe: against the CPU rasterizer (mesh_reference.c,
 * within test_meshes.c's bound) and against the raster draw of the same
 * particles; one mesh, two through each other, many small rocks, compute
 * and raster meshes in one draw, alpha-tested holes, back faces culled, the
 * shading. The host's side (its depth, viewport, buffers and state, the
 * paths taken, the threshold, the lab's refusals): test_mesh_compute_host.c;
 * their shared steps: mesh_compute_fixture.h. Lab calls: plume_tests only
 * (not through the table). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mesh_compute_fixture.h"
#include "mesh_pictures.h"
#include "mesh_reference.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

/* ---- Against the CPU rasterizer ------------------------------------------------ */

/* One still mesh 1.4 wide 3 in front of the camera (about 60 pixels
 * across, past the default threshold: forced), in compute. */
static void check_one_mesh_in_compute(const mesh_arrays *mesh, const float axis[3], const char *what) {
    plume_system_desc desc = mesh_one_still_desc(mesh, axis);
    render_camera c = render_make_camera();
    plume_system system = mesh_create_updated(&desc, &c);
    float *gpu = render_new_image();
    uint32_t in_compute = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, gpu);
    printf("  %s: %u of 1 particle rasterized in compute\n", what, in_compute);
    assert_int_equal(in_compute, 1);
    mesh_assert_one_still_mesh(gpu, mesh, axis, what);
    free(gpu);
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
    const uint32_t surfaces[2] = {PLUME_MESH_OPAQUE, PLUME_MESH_ALPHA_TESTED}; /* alpha 1: nothing cut */
    for (int s = 0; s < 2; ++s) {
        plume_system_desc desc = mesh_crossing_desc(&cube, &sphere);
        desc.meshes.surface = surfaces[s];
        render_camera c = render_make_camera();
        plume_system system = mesh_create_updated(&desc, &c);
        float *gpu = render_new_image();
        uint32_t in_compute = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, gpu);
        const char *what = s ? "alpha-tested cube and sphere through each other" :
                               "opaque cube and sphere through each other";
        printf("  %s: %u of 2 particles rasterized in compute\n", what, in_compute);
        assert_int_equal(in_compute, 2);
        mesh_instance instances[2];
        mesh_crossing_instances(&cube, &sphere, instances);
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
    plume_system system = mesh_create_updated(&desc, &c);
    float *compute = render_new_image(), *raster = render_new_image();
    uint32_t in_compute = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, compute);
    uint32_t drawn = mesh_drawn_count(system);
    uint32_t in_raster_run = mesh_draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
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
    plume_system system = mesh_create_updated(&desc, &c);
    float *mixed = render_new_image(), *raster = render_new_image();
    uint32_t in_compute = mesh_draw_below(system, 30.0f, &c, mesh_lit_frame(), false, 0, 1.0f, mixed);
    uint32_t none = mesh_draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
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

/* ---- Surfaces, faces, shading --------------------------------------------------- */

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
    plume_system system = mesh_create_updated(&desc, c);
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
        uint32_t counts[3] = {mesh_draw_below(tested, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, compute),
                              mesh_draw_below(tested, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster),
                              mesh_draw_below(solid, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, whole)};
        int silhouette = mesh_pixels(whole), holes = 0, raster_holes = 0;
        for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) {
            holes += mesh_covers(whole, i) && mesh_is_background(compute, i);
            raster_holes += mesh_covers(whole, i) && mesh_is_background(raster, i);
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
    const mesh_placed pair[2] = {{&sphere, at_sphere, up, 1.0f}, {&cube, at_cube, turned, 1.0f}};
    render_camera c = render_make_camera();
    float *images[2] = {render_new_image(), render_new_image()};
    for (int cull = 0; cull < 2; ++cull) {
        plume_system_desc desc = mesh_pair_desc(pair);
        desc.meshes.lod.cull_back_faces = cull;
        plume_system system = mesh_create_updated(&desc, &c);
        uint32_t in_compute = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, images[cull]);
        printf("  sphere and cube, back faces %s: %u of 2 rasterized in compute\n", cull ? "culled" : "drawn",
               in_compute);
        assert_int_equal(in_compute, 2);
        assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    }
    float largest = render_largest_difference(images[0], images[1]);
    printf("  back faces culled against drawn, in compute: largest difference %.4f\n", largest);
    assert_true(largest == 0.0f);
    mesh_instance instances[2];
    mesh_pair_instances(pair, instances);
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
            plume_system system = mesh_create_updated(&desc, &c);
            uint32_t in_compute = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, images[0]);
            uint32_t none = mesh_draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, images[1]);
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
            plume_system system = mesh_create_updated(&d, &c);
            free(pixels);
            float *compute = render_new_image(), *raster = render_new_image();
            uint32_t in_compute = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, compute);
            uint32_t drawn = mesh_drawn_count(system);
            uint32_t none = mesh_draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
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

const struct CMUnitTest mesh_compute_tests[] = {
    cmocka_unit_test_setup_teardown(test_mesh_compute_cube_and_sphere_match_cpu, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_two_meshes_overlap_by_depth, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_many_small_meshes_match_raster_and_cpu, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_and_raster_meshes_share_the_depth, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_alpha_tested_holes_show_through, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_back_faces_culled, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_shades_as_the_raster_draw, fixture_setup, fixture_teardown),
};
const size_t mesh_compute_test_count = sizeof mesh_compute_tests / sizeof mesh_compute_tests[0];
