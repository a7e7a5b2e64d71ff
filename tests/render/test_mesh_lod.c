/* The mesh draw's levels of detail and culling (plume_mesh_lod) on
 * llvmpipe: at the switch size the coarse mesh and the impostor give the
 * CPU rasterizer's picture of the full mesh within test_meshes.c's
 * tolerance; culling drops exactly the particles whose sphere is outside
 * the draw's frustum or behind the scene depth (the instance counts read
 * back, against the CPU's count of the read-back particles) and changes no
 * pixel; the descriptor's refusals. Old descriptors (lod all zero) draw as
 * before: test_meshes.c and test_mesh_draw_speedups.c, unchanged. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <epoxy/gl.h>

#include "mesh_reference.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "plume_lab.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

/* PLUME_TEST_MESH_PNGS=FOLDER: each comparison's pictures written there
 * (4x, rows from the top), to look at. */
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
static void write_picture(const char *name, const float *rgba) {
    const char *folder = getenv("PLUME_TEST_MESH_PNGS");
    if (!folder) return;
    enum { UP = 4, W = RENDER_WIDTH * UP, H = RENDER_HEIGHT * UP };
    static unsigned char bytes[W * H * 4];
    for (int i = 0; i < W * H * 4; ++i) {
        int x = i / 4 % W / UP, y = RENDER_HEIGHT - 1 - i / 4 / W / UP;
        bytes[i] = (unsigned char)(fminf(fmaxf(rgba[(y * RENDER_WIDTH + x) * 4 + i % 4], 0.0f), 1.0f) * 255.0f + 0.5f);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/%s.png", folder, name);
    stbi_write_png(path, W, H, 4, bytes, W * 4);
}

static const mesh_light LIGHT = {{0.48f, 0.64f, 0.6f}, {0.9f, 0.85f, 0.8f}, {0.15f, 0.17f, 0.2f}};

/* The raster draw's levels: under its size the compute raster takes the
 * full and coarse meshes' place (test_mesh_compute.c). */
static plume_frame_desc lit_frame(void) {
    plume_frame_desc f = {.draw_path = PLUME_DRAW_PATH_RASTER};
    memcpy(f.light_direction, LIGHT.direction, sizeof f.light_direction);
    memcpy(f.light_color, LIGHT.color, sizeof f.light_color);
    memcpy(f.ambient_color, LIGHT.ambient, sizeof f.ambient_color);
    return f;
}

/* `count` still spheres of `size` (one emitter each, +y up: unturned) at
 * `positions`, lit, white. */
static plume_system_desc still_spheres(const mesh_arrays *sphere, const float (*positions)[3], uint32_t count,
                                       float size) {
    plume_system_desc d = {.capacity = count, .seed = test_random_u32(), .lit = true};
    for (uint32_t e = 0; e < count; ++e) {
        d.emitters[e] = (plume_emitter_desc){.burst_count = 1, .lifetime = {100, 100}, .speed = {1e-4f, 1e-4f},
                                             .size = {size, size}, .direction = {0, 1, 0}};
        memcpy(d.emitters[e].position, positions[e], sizeof positions[e]);
    }
    d.meshes.count = 1;
    d.meshes.start_orientation = PLUME_MESH_START_ALONG_VELOCITY;
    d.meshes.meshes[0] = mesh_reference_desc(sphere);
    return d;
}

/* The GPU's picture of `desc` against the CPU's of its full meshes: at
 * most 1.5% of the pixels differ by over 0.02 (test_meshes.c's tolerance),
 * the CPU drew at least `covered`, and each level drew `expected`. */
static void check_level_picture(const plume_system_desc *desc, const mesh_arrays *sphere, uint32_t count, float size,
                                int covered, const uint32_t expected[3], const char *what) {
    plume_system system;
    assert_int_equal(plume_system_create(fixture_context(), desc, &system), PLUME_OK);
    render_camera c = render_make_camera();
    float *gpu = render_new_image(), *cpu = render_new_image();
    float *depth = malloc(sizeof(float) * RENDER_WIDTH * RENDER_HEIGHT);
    render_frame(system, &c, lit_frame(), false, 0, 1.0f, gpu);
    uint32_t counts[3];
    assert_int_equal(plume_lab_mesh_draw_level_counts(fixture_context(), system, counts), PLUME_OK);
    printf("  %s: full %u, coarse %u, impostors %u\n", what, counts[0], counts[1], counts[2]);
    for (int k = 0; k < 3; ++k) assert_int_equal(counts[k], expected[k]);
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) {
        memcpy(cpu + 4 * i, RENDER_BACKGROUND, sizeof RENDER_BACKGROUND);
        depth[i] = 1.0f;
    }
    mesh_instance instances[PLUME_MAX_EMITTERS];
    for (uint32_t e = 0; e < count; ++e) {
        instances[e] = (mesh_instance){.mesh = sphere, .orientation = {0, 0, 0, 1}, .scale = {size, size, size},
                                       .color = {1, 1, 1}};
        memcpy(instances[e].position, desc->emitters[e].position, sizeof instances[e].position);
    }
    mesh_reference_draw(instances, count, c.view, c.projection, &LIGHT, RENDER_WIDTH, RENDER_HEIGHT, cpu, depth);
    int differ = 0, drawn = 0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) {
        float d = 0.0f;
        for (int k = 0; k < 3; ++k) d = fmaxf(d, fabsf(gpu[4 * i + k] - cpu[4 * i + k]));
        differ += d > 0.02f;
        drawn += cpu[4 * i] != RENDER_BACKGROUND[0] || cpu[4 * i + 1] != RENDER_BACKGROUND[1];
    }
    printf("  %s: %d pixels drawn by the CPU, %d differ, PSNR %.1f dB\n", what, drawn, differ, render_psnr(gpu, cpu));
    char name[128];
    snprintf(name, sizeof name, "%s_gpu", what);
    write_picture(name, gpu);
    snprintf(name, sizeof name, "%s_cpu", what);
    write_picture(name, cpu);
    assert_true(drawn >= covered);
    if (differ > RENDER_WIDTH * RENDER_HEIGHT * 15 / 1000) fail_msg("%s: %d pixels differ from the CPU", what, differ);
    free(gpu);
    free(cpu);
    free(depth);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

/* A sphere of 480 triangles 0.7 wide, 3 in front of the camera: its
 * sphere is 19.4 pixels across (0.35 x cot 30 degrees x 96 / 3), just below
 * the coarse mesh's 20 (at 40 pixels the coarse mesh shows: a game sets the
 * switch where it does not). */
static void test_coarse_mesh_at_the_switch_matches_cpu(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(12, 20);
    const float at[1][3] = {{0.2f, -0.1f, -3.0f}};
    plume_system_desc desc = still_spheres(&sphere, at, 1, 0.7f);
    desc.meshes.lod.coarse_below_pixels = 20.0f;
    check_level_picture(&desc, &sphere, 1, 0.7f, 250, (const uint32_t[3]){0, 1, 0}, "coarse sphere");
    desc.meshes.lod.coarse_below_pixels = 19.0f; /* just above: the full mesh */
    check_level_picture(&desc, &sphere, 1, 0.7f, 250, (const uint32_t[3]){1, 0, 0}, "full sphere");
    mesh_arrays rock = mesh_reference_sphere(5, 8); /* the benchmark's 80 triangles: 48 at the coarse level */
    desc.meshes.meshes[0] = mesh_reference_desc(&rock);
    desc.meshes.lod.coarse_below_pixels = 20.0f;
    check_level_picture(&desc, &rock, 1, 0.7f, 250, (const uint32_t[3]){0, 1, 0}, "coarse rock");
    desc.meshes.lod.coarse_below_pixels = 0.0f;
    check_level_picture(&desc, &rock, 1, 0.7f, 250, (const uint32_t[3]){1, 0, 0}, "full rock");
    mesh_reference_free(&rock);
    mesh_arrays cube = mesh_reference_cube(); /* too few triangles to simplify: draws itself */
    desc.meshes.meshes[0] = mesh_reference_desc(&cube);
    desc.meshes.lod.coarse_below_pixels = 60.0f;
    plume_system system;
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    render_camera c = render_make_camera();
    float *image = render_new_image();
    render_frame(system, &c, lit_frame(), false, 0, 1.0f, image);
    assert_true(render_covered_pixels(image) > 300);
    free(image);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    mesh_reference_free(&cube);
    mesh_reference_free(&sphere);
}

/* The same sphere from the host's buffers: positions and normals
 * interleaved with a texture coordinate (32 bytes a vertex, from byte 16),
 * 16-bit indices from byte 6: the coarse mesh derived from them draws the
 * same picture as from uploaded arrays. */
static void test_coarse_mesh_of_host_buffers_matches_cpu(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(12, 20);
    enum { HEAD = 16, STRIDE = 32, INDEX_HEAD = 6 };
    unsigned char *vertices = calloc(1, HEAD + (size_t)STRIDE * sphere.vertex_count);
    uint16_t *indices = calloc(sphere.index_count + INDEX_HEAD / 2, sizeof(uint16_t));
    for (uint32_t v = 0; v < sphere.vertex_count; ++v) {
        memcpy(vertices + HEAD + STRIDE * v, sphere.positions + 3 * v, 12);
        memcpy(vertices + HEAD + STRIDE * v + 12, sphere.normals + 3 * v, 12);
        memcpy(vertices + HEAD + STRIDE * v + 24, sphere.texcoords + 2 * v, 8);
    }
    for (uint32_t k = 0; k < sphere.index_count; ++k) indices[INDEX_HEAD / 2 + k] = (uint16_t)sphere.indices[k];
    GLuint buffers[2];
    glGenBuffers(2, buffers);
    glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
    glBufferData(GL_ARRAY_BUFFER, HEAD + (GLsizeiptr)STRIDE * sphere.vertex_count, vertices, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, buffers[1]);
    glBufferData(GL_ARRAY_BUFFER, INDEX_HEAD + (GLsizeiptr)sphere.index_count * 2, indices, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    const float at[1][3] = {{0.2f, -0.1f, -3.0f}};
    plume_system_desc desc = still_spheres(&sphere, at, 1, 0.7f);
    desc.meshes.meshes[0] = (plume_mesh_desc){
        .vertex_count = sphere.vertex_count, .index_count = sphere.index_count, .index_type = GL_UNSIGNED_SHORT,
        .positions = {buffers[0], HEAD, STRIDE}, .normals = {buffers[0], HEAD + 12, STRIDE},
        .texcoords = {buffers[0], HEAD + 24, STRIDE}, .indices = {buffers[1], INDEX_HEAD, 0}};
    desc.meshes.lod.coarse_below_pixels = 20.0f;
    check_level_picture(&desc, &sphere, 1, 0.7f, 250, (const uint32_t[3]){0, 1, 0}, "coarse sphere, host buffers");
    glDeleteBuffers(2, buffers);
    free(vertices);
    free(indices);
    mesh_reference_free(&sphere);
}

/* Eight spheres 0.3 wide at 3 from the camera (8.3 pixels across), below
 * the impostors' 9: lit discs where the CPU draws lit spheres. */
static void test_impostors_at_the_switch_match_cpu(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(12, 20);
    float at[PLUME_MAX_EMITTERS][3];
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e) {
        at[e][0] = -1.2f + 0.8f * (float)(e % 4);
        at[e][1] = e < 4 ? -0.5f : 0.4f;
        at[e][2] = -3.0f;
    }
    plume_system_desc desc = still_spheres(&sphere, (const float(*)[3])at, PLUME_MAX_EMITTERS, 0.3f);
    desc.meshes.lod = (plume_mesh_lod){.coarse_below_pixels = 20.0f, .impostor_below_pixels = 9.0f};
    check_level_picture(&desc, &sphere, PLUME_MAX_EMITTERS, 0.3f, 300, (const uint32_t[3]){0, 0, PLUME_MAX_EMITTERS},
                        "impostors");
    mesh_reference_free(&sphere);
}

/* Closed meshes wound counter-clockwise outwards (the reference sphere and
 * cube) lose no pixel with their back faces culled. */
static void test_back_faces_culled_change_no_pixel_of_closed_meshes(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(12, 20), cube = mesh_reference_cube();
    const float at[2][3] = {{-0.5f, -0.1f, -3.0f}, {0.6f, 0.2f, -3.4f}};
    plume_system_desc desc = still_spheres(&sphere, at, 2, 1.0f);
    desc.meshes.lod.cull_back_faces = true;
    check_level_picture(&desc, &sphere, 2, 1.0f, 800, (const uint32_t[3]){2, 0, 0}, "spheres, back faces culled");
    desc.meshes.meshes[0] = mesh_reference_desc(&cube);
    plume_system system;
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    render_camera c = render_make_camera();
    float *culled = render_new_image(), *both = render_new_image();
    render_frame(system, &c, lit_frame(), false, 0, 1.0f, culled);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    desc.meshes.lod.cull_back_faces = false;
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    render_frame(system, &c, lit_frame(), false, 0, 1.0f, both);
    assert_true(render_covered_pixels(both) > 500);
    assert_true(render_largest_difference(culled, both) == 0.0f);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    free(culled);
    free(both);
    mesh_reference_free(&sphere);
    mesh_reference_free(&cube);
}

/* 203 spheres 0.3 wide in a box round the view's edges, updated without
 * culling (all drawn), then drawn with culling, against an occluder over
 * the whole frame at `wall` in front of the camera (0: none). */
typedef struct cull_case {
    plume_system system;
    plume_particle particles[203];
    uint32_t counts[3];
} cull_case;

enum { CULL_COUNT = 203 };
static const float CULL_SIZE = 0.3f, SPHERE_REACH = 0.5f;

static void cull_draw(cull_case *k, const mesh_arrays *sphere, float wall, float *rgba, float *without) {
    plume_system_desc d = {.capacity = CULL_COUNT, .seed = test_random_u32(), .lit = true};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {6.0f, 4.5f, 4.0f},
                                         .burst_count = CULL_COUNT, .lifetime = {100, 100}, .speed = {0, 1e-4f},
                                         .size = {CULL_SIZE, CULL_SIZE}, .position = {0, 0, -7.0f}};
    d.meshes.count = 1;
    d.meshes.meshes[0] = mesh_reference_desc(sphere);
    d.meshes.lod.cull = true;
    assert_int_equal(plume_system_create(fixture_context(), &d, &k->system), PLUME_OK);
    render_camera c = render_make_camera();
    plume_frame_desc frame = lit_frame();
    frame.disable_culling = true;
    float depth = wall > 0.0f ? render_window_depth(&c, wall) : 1.0f;
    render_frame(k->system, &c, frame, wall > 0.0f, RENDER_WIDTH, depth, rgba);
    assert_int_equal(plume_lab_mesh_draw_level_counts(fixture_context(), k->system, k->counts), PLUME_OK);
    if (without) render_draw(k->system, &c, frame, false, RENDER_WIDTH, depth, without);
    plume_readback r = {.particles = k->particles};
    assert_int_equal(plume_system_read_back(fixture_context(), k->system, &r), PLUME_OK);
    assert_int_equal(r.live_count, CULL_COUNT);
    assert_int_equal(r.drawn_count, CULL_COUNT);
}

/* The CPU's count of the particles kept, the least and the most (a
 * particle within 1e-4 of a plane or the wall could go either way). */
static void expected_kept(const cull_case *k, float wall, uint32_t *least, uint32_t *most) {
    render_camera c = render_make_camera();
    mat4 clip;
    glm_mat4_mul(c.projection, c.view, clip);
    vec4 planes[6];
    glm_frustum_planes(clip, planes);
    *least = *most = 0;
    for (int i = 0; i < CULL_COUNT; ++i) {
        const float *p = k->particles[i].position;
        float radius = k->particles[i].size * SPHERE_REACH, margin = 1e-4f;
        float inside = INFINITY; /* the least of the planes' signed distances plus the radius */
        for (int q = 0; q < 6; ++q) inside = fminf(inside, glm_vec3_dot(planes[q], (float *)p) + planes[q][3] + radius);
        if (wall > 0.0f) inside = fminf(inside, wall - (-p[2] - radius));
        *least += inside > margin;
        *most += inside > -margin;
    }
}

static void test_frustum_culling_drops_exactly_the_outside(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(6, 10);
    cull_case *k = calloc(1, sizeof *k);
    float *image = render_new_image();
    cull_draw(k, &sphere, 0.0f, image, NULL);
    uint32_t least, most;
    expected_kept(k, 0.0f, &least, &most);
    printf("  frustum: %u of %d drawn, the CPU keeps %u .. %u\n", k->counts[0], CULL_COUNT, least, most);
    assert_true(least < CULL_COUNT && least > 20);
    assert_true(k->counts[0] >= least && k->counts[0] <= most);
    assert_int_equal(k->counts[1] + k->counts[2], 0);
    assert_int_equal(plume_system_destroy(fixture_context(), k->system), PLUME_OK);
    free(image);
    free(k);
    mesh_reference_free(&sphere);
}

static void test_depth_culling_drops_exactly_the_hidden(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(6, 10);
    cull_case *k = calloc(1, sizeof *k);
    float *culled = render_new_image(), *kept = render_new_image();
    const float wall = 6.5f;
    cull_draw(k, &sphere, wall, culled, kept);
    uint32_t least, most, in_frustum, unused;
    expected_kept(k, wall, &least, &most);
    expected_kept(k, 0.0f, &in_frustum, &unused);
    printf("  behind a wall at %.1f: %u of %d drawn, the CPU keeps %u .. %u (%u in the frustum)\n", wall,
           k->counts[0], CULL_COUNT, least, most, in_frustum);
    assert_true(least + 10 < in_frustum && least > 10);
    assert_true(k->counts[0] >= least && k->counts[0] <= most);
    assert_true(render_covered_pixels(kept) > 200);
    float largest = render_largest_difference(culled, kept);
    printf("  culled against not: largest difference %.4f\n", largest);
    assert_true(largest == 0.0f);
    assert_int_equal(plume_system_destroy(fixture_context(), k->system), PLUME_OK);
    free(culled);
    free(kept);
    free(k);
    mesh_reference_free(&sphere);
}

static void test_lod_refusals_name_the_field(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube();
    const float at[1][3] = {{0, 0, -3}};
    plume_system_desc good = still_spheres(&cube, at, 1, 1.0f);
    plume_system_desc bad[3] = {good, good, good};
    bad[0].meshes.lod.coarse_below_pixels = -1.0f;
    bad[1].meshes.lod.impostor_below_pixels = NAN;
    bad[2].meshes.lod.cull = true;
    bad[2].meshes.surface = PLUME_MESH_TRANSPARENT;
    test_log_expect_errors();
    for (int i = 0; i < 3; ++i) {
        plume_system system = {0};
        assert_int_equal(plume_system_create(fixture_context(), &bad[i], &system), PLUME_ERROR_INVALID_ARGUMENT);
        assert_int_equal(system.id, 0);
    }
    assert_true(test_log_contains("meshes.lod coarse_below_pixels and impostor_below_pixels must be finite"));
    assert_true(test_log_contains("meshes.lod is set on a transparent surface"));
    plume_system_desc sprites = {.capacity = 4, .seed = 1, .logger = test_logger()};
    sprites.meshes.lod.cull = true;
    assert_int_equal(plume_system_desc_check(&sprites, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("meshes.lod is set with count 0"));
    mesh_reference_free(&cube);
}

const struct CMUnitTest mesh_lod_tests[] = {
    cmocka_unit_test_setup_teardown(test_coarse_mesh_at_the_switch_matches_cpu, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_coarse_mesh_of_host_buffers_matches_cpu, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_impostors_at_the_switch_match_cpu, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_frustum_culling_drops_exactly_the_outside, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_depth_culling_drops_exactly_the_hidden, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_back_faces_culled_change_no_pixel_of_closed_meshes, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_lod_refusals_name_the_field, fixture_setup, fixture_teardown),
};
const size_t mesh_lod_test_count = sizeof mesh_lod_tests / sizeof mesh_lod_tests[0];
