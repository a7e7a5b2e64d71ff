/* The compute raster of small meshes (test_mesh_compute.c) from the host's
 * side, on llvmpipe: the host's depth, reversed depth and viewport; two
 * systems in one frame; the host's mesh buffers rewritten; a host that left
 * hostile GL state; the raster path, transparent surfaces and meshes round
 * the eye never taken; the module's default threshold; the lab's refusals.
 * Shared steps: mesh_compute_fixture.h. Lab calls: plume_tests only (not
 * through the table). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hostile_host.h"
#include "mesh_compute_fixture.h"
#include "mesh_pictures.h"
#include "mesh_reference.h"
#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "plume_lab.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

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
    const mesh_placed pair[2] = {{&sphere, at_sphere, up, 1.4f}, {&cube, at_cube, turned, 0.5f}};
    plume_system_desc desc = mesh_pair_desc(pair);
    render_camera c = render_make_camera();
    plume_system system = mesh_create_updated(&desc, &c);
    const int wall_width = RENDER_WIDTH / 2;
    const float wall = render_window_depth(&c, 2.5f);
    float *open = render_new_image(), *walled = render_new_image(), *with_texture = render_new_image();
    float *raster = render_new_image();
    const plume_frame_desc lit = mesh_lit_frame();
    uint32_t counts[3] = {mesh_draw_below(system, EVERY_MESH, &c, lit, false, 0, 1.0f, open),
                          mesh_draw_below(system, EVERY_MESH, &c, lit, false, wall_width, wall, walled),
                          mesh_draw_below(system, EVERY_MESH, &c, lit, true, wall_width, wall, with_texture)};
    uint32_t none = mesh_draw_below(system, NO_MESH, &c, lit, false, wall_width, wall, raster);
    printf("  rasterized in compute: %u without the wall, %u behind it, %u with its depth texture; %u at 0\n",
           counts[0], counts[1], counts[2], none);
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[1], 2);
    assert_true(counts[2] >= 1);
    assert_int_equal(none, 0);
    int hidden = 0, hidden_right = 0, changed_right = 0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) {
        bool was = mesh_covers(open, i), gone = mesh_is_background(walled, i);
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
    mesh_instance instances[2];
    mesh_pair_instances(pair, instances);
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
    plume_system_desc desc = mesh_crossing_desc(&cube, &sphere);
    const int wall_width = RENDER_WIDTH / 2;
    render_camera standard_camera = render_make_camera();
    plume_system system = mesh_create_updated(&desc, &standard_camera);
    float *standard = render_new_image(), *compute = render_new_image(), *raster = render_new_image();
    float *open = render_new_image();
    uint32_t counts[4];
    counts[0] = mesh_draw_below(system, EVERY_MESH, &standard_camera, mesh_lit_frame(), false, wall_width,
                                render_window_depth(&standard_camera, 2.75f), standard);
    set_host_depth_convention(true);
    render_camera c = render_make_reversed_camera();
    const float wall = render_window_depth(&c, 2.75f);
    counts[1] = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, wall_width, wall, compute);
    counts[2] = mesh_draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, wall_width, wall, raster);
    counts[3] = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 0.0f, open);
    set_host_depth_convention(false);
    printf("  rasterized in compute: %u in the default convention, %u reversed, %u reversed at 0, %u without "
           "the wall; the wall at window depth %.4f\n", counts[0], counts[1], counts[2], counts[3], wall);
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[1], 2);
    assert_int_equal(counts[2], 0);
    assert_int_equal(counts[3], 2);
    int hidden = 0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i)
        hidden += mesh_is_background(compute, i) && mesh_covers(open, i);
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
    plume_system_desc desc = mesh_pair_desc((const mesh_placed[2]){{&sphere, at_sphere, up, 1.2f},
                                                                    {&cube, at_cube, turned, 1.0f}});
    render_camera c = render_make_camera();
    plume_system system = mesh_create_updated(&desc, &c);
    const int viewport[4] = {17, 9, 90, 70};
    float *compute = render_new_image(), *raster = render_new_image();
    plume_frame_desc frame = mesh_lit_frame();
    mesh_compute_below(system, EVERY_MESH);
    render_draw_many(&system, 1, &c, &frame, viewport, compute);
    uint32_t in_compute = mesh_computed(system);
    mesh_compute_below(system, NO_MESH);
    render_draw_many(&system, 1, &c, &frame, viewport, raster);
    uint32_t none = mesh_computed(system);
    int outside = 0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) {
        int x = i % RENDER_WIDTH, y = i / RENDER_WIDTH;
        bool in = x >= viewport[0] && x < viewport[0] + viewport[2] && y >= viewport[1] &&
                  y < viewport[1] + viewport[3];
        outside += !in && !mesh_is_background(compute, i);
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
    plume_system_desc descs[2] = {mesh_still_system_desc(), mesh_still_system_desc()};
    descs[0].emitters[0] = mesh_still_emitter(CROSSING_SPHERE_AT, CROSSING_UP, 1.0f);
    descs[0].meshes.meshes[0] = mesh_reference_desc(&sphere);
    descs[1].emitters[0] = mesh_still_emitter(CROSSING_CUBE_AT, CROSSING_CUBE_AXIS, 1.2f);
    descs[1].meshes.meshes[0] = mesh_reference_desc(&cube);
    render_camera c = render_make_camera();
    plume_system systems[2] = {mesh_create_updated(&descs[0], &c), mesh_create_updated(&descs[1], &c)};
    plume_frame_desc frames[2] = {mesh_lit_frame(), mesh_lit_frame()};
    float *compute = render_new_image(), *raster = render_new_image();
    uint32_t counts[4];
    for (int k = 0; k < 2; ++k) mesh_compute_below(systems[k], EVERY_MESH);
    render_draw_many(systems, 2, &c, frames, NULL, compute);
    counts[0] = mesh_computed(systems[0]), counts[1] = mesh_computed(systems[1]);
    for (int k = 0; k < 2; ++k) mesh_compute_below(systems[k], NO_MESH);
    render_draw_many(systems, 2, &c, frames, NULL, raster);
    counts[2] = mesh_computed(systems[0]), counts[3] = mesh_computed(systems[1]);
    printf("  rasterized in compute: %u and %u (at 0: %u and %u)\n", counts[0], counts[1], counts[2], counts[3]);
    assert_true(counts[0] == 1 && counts[1] == 1 && counts[2] == 0 && counts[3] == 0);
    assert_compute_matches_raster(compute, raster, 800, 12, "two systems in one frame");
    mesh_instance instances[2] = {mesh_still_instance(&sphere, CROSSING_SPHERE_AT, CROSSING_UP, 1.0f),
                                  mesh_still_instance(&cube, CROSSING_CUBE_AT, CROSSING_CUBE_AXIS, 1.2f)};
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
 * from byte 6, the buffer a whole number of words), in compute, as the CPU
 * draws it; then the host writes new positions into its buffer (the sphere
 * flattened to half its height, within its reach: plume_mesh.h leaves the
 * contents to the host): the compute raster draws the new mesh, as the
 * raster draw does, and again once the host has turned every triangle
 * round (its own mesh is never taken for a closed one whose turned-away
 * faces may be skipped). The same indices in a buffer that ends inside a word
 * (which the raster, reading a word at a time, would read past) stay on
 * the raster draw, with its picture. */
static void test_mesh_compute_reads_the_host_buffers(void **state) {
    (void)state;
    mesh_arrays sphere = mesh_reference_sphere(12, 20);
    enum { HEAD = 16, STRIDE = 32, INDEX_HEAD = 6 };
    size_t vertex_bytes = HEAD + (size_t)STRIDE * sphere.vertex_count;
    unsigned char *vertices = calloc(1, vertex_bytes);
    size_t index_bytes = INDEX_HEAD + (size_t)sphere.index_count * 2, padded = (index_bytes + 3) / 4 * 4;
    assert_true(index_bytes % 4 != 0);
    uint16_t *indices = calloc(padded / 2, sizeof(uint16_t));
    for (uint32_t v = 0; v < sphere.vertex_count; ++v) {
        memcpy(vertices + HEAD + STRIDE * v, sphere.positions + 3 * v, 12);
        memcpy(vertices + HEAD + STRIDE * v + 12, sphere.normals + 3 * v, 12);
        memcpy(vertices + HEAD + STRIDE * v + 24, sphere.texcoords + 2 * v, 8);
    }
    for (uint32_t k = 0; k < sphere.index_count; ++k) indices[INDEX_HEAD / 2 + k] = (uint16_t)sphere.indices[k];
    GLuint buffers[3] = {test_buffer_create(vertex_bytes, vertices), test_buffer_create(padded, indices),
                         test_buffer_create(index_bytes, indices)};
    const float at[3] = {0.2f, -0.1f, -3.0f}, axis[3] = {0.3f, 1.0f, 0.2f};
    plume_system_desc desc = mesh_still_system_desc();
    desc.emitters[0] = mesh_still_emitter(at, axis, 1.4f);
    desc.meshes.meshes[0] = (plume_mesh_desc){
        .vertex_count = sphere.vertex_count, .index_count = sphere.index_count, .index_type = GL_UNSIGNED_SHORT,
        .positions = {buffers[0], HEAD, STRIDE}, .normals = {buffers[0], HEAD + 12, STRIDE},
        .texcoords = {buffers[0], HEAD + 24, STRIDE}, .indices = {buffers[1], INDEX_HEAD, 0}};
    render_camera c = render_make_camera();
    plume_system system = mesh_create_updated(&desc, &c);
    float *round = render_new_image(), *flat = render_new_image(), *raster = render_new_image();
    uint32_t counts[2];
    counts[0] = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, round);
    mesh_instance instance = mesh_still_instance(&sphere, at, axis, 1.4f);
    float *cpu = mesh_cpu_picture(&instance, 1, 0, 1.0f);
    mesh_assert_images_agree(round, cpu, 800, "a sphere from the host's buffers, in compute");
    for (uint32_t v = 0; v < sphere.vertex_count; ++v) {
        float y = sphere.positions[3 * v + 1] * 0.5f;
        test_buffer_write(buffers[0], HEAD + STRIDE * (size_t)v + 4, 4, &y);
    }
    counts[1] = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, flat);
    uint32_t none = mesh_draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
    int changed = render_pixels_differing(round, raster, 0.02f);
    printf("  rasterized in compute: %u round, %u flattened (%u at 0); flattening changed %d pixels of the raster's "
           "picture\n", counts[0], counts[1], none, changed);
    assert_true(counts[0] == 1 && counts[1] == 1 && none == 0);
    assert_true(changed > 200);
    assert_compute_matches_raster(flat, raster, 400, 12, "the host's sphere flattened");
    /* The host turns every triangle round: a closed mesh of its own is not
     * taken for one whose turned-away faces may be skipped. */
    for (uint32_t k = 0; k < sphere.index_count; k += 3) {
        uint16_t turned[3] = {indices[INDEX_HEAD / 2 + k], indices[INDEX_HEAD / 2 + k + 2],
                              indices[INDEX_HEAD / 2 + k + 1]};
        test_buffer_write(buffers[1], INDEX_HEAD + 2 * (size_t)k, sizeof turned, turned);
    }
    uint32_t turned = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, flat);
    mesh_draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
    assert_int_equal(turned, 1);
    assert_compute_matches_raster(flat, raster, 400, 12, "the host's sphere turned inside out");
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    desc.meshes.meshes[0].indices.buffer = buffers[2];
    system = mesh_create_updated(&desc, &c);
    mesh_draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
    uint32_t unpadded = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, round);
    printf("  indices ending inside a word: %u rasterized in compute, largest difference from the raster draw %.4f\n",
           unpadded, render_largest_difference(round, raster));
    assert_int_equal(unpadded, 0);
    assert_true(render_largest_difference(round, raster) == 0.0f);
    free(round);
    free(flat);
    free(raster);
    free(cpu);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    glDeleteBuffers(3, buffers);
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
    plume_system_desc desc = mesh_crossing_desc(&cube, &sphere);
    render_camera c = render_make_camera();
    plume_system system = mesh_create_updated(&desc, &c);
    mesh_compute_below(system, EVERY_MESH);
    plume_frame_desc frame = mesh_lit_frame();
    memcpy(frame.view, c.view, sizeof frame.view);
    memcpy(frame.projection, c.projection, sizeof frame.projection);
    float *clean = malloc(sizeof(float) * 4 * HOSTILE_SIZE * HOSTILE_SIZE);
    float *hostile = malloc(sizeof(float) * 4 * HOSTILE_SIZE * HOSTILE_SIZE);
    assert_true(clean && hostile);
    hostile_target target = begin_hostile_target();
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    end_hostile_target(&target, clean);
    uint32_t counts[2] = {mesh_computed(system), 0};
    target = begin_hostile_target();
    host_objects host = make_hostile(HOSTILE_SIZE);
    GLint64 before[HOSTILE_MAX_VALUES];
    int values = snapshot(before);
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    assert_unchanged(before, values, "a mesh draw in compute");
    end_hostile(&host);
    end_hostile_target(&target, hostile);
    counts[1] = mesh_computed(system);
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

/* ---- Paths taken and the threshold ---------------------------------------------- */

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
        plume_system system = mesh_create_updated(&desc, &c);
        assert_int_equal(mesh_draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster), 0);
        assert_true(mesh_pixels(raster) > 500);
        for (int p = 0; p < 4; ++p) {
            plume_frame_desc frame = mesh_lit_frame();
            frame.draw_path = paths[p];
            uint32_t in_compute = mesh_draw_below(system, EVERY_MESH, &c, frame, false, 0, 1.0f, image);
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
    plume_system system = mesh_create_updated(&desc, &c);
    uint32_t in_compute = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, image);
    uint32_t none = mesh_draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
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
    plume_system system = mesh_create_updated(&desc, &c);
    uint32_t before = UINT32_MAX;
    assert_int_equal(plume_lab_mesh_draw_compute_count(fixture_context(), system, &before), PLUME_OK);
    float *image = render_new_image(), *raster = render_new_image();
    render_draw(system, &c, mesh_lit_frame(), false, 0, 1.0f, image);
    uint32_t fresh = mesh_computed(system);
    uint32_t every = mesh_draw_below(system, EVERY_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
    uint32_t again = mesh_draw_below(system, -1.0f, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
    uint32_t none = mesh_draw_below(system, NO_MESH, &c, mesh_lit_frame(), false, 0, 1.0f, raster);
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
    expect_refused(plume_lab_mesh_draw_compute_count(context, b, NULL), &errors, "a NULL count");
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

const struct CMUnitTest mesh_compute_host_tests[] = {
    cmocka_unit_test_setup_teardown(test_mesh_compute_hidden_by_the_host_depth, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_in_reversed_depth, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_keeps_to_the_viewport, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_two_systems_in_one_frame, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_reads_the_host_buffers, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_inside_a_hostile_host, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_not_on_the_raster_path_nor_transparent_nor_round_the_eye,
                                    fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_default_threshold_takes_small_meshes, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_mesh_compute_lab_refusals, fixture_setup, fixture_teardown),
};
const size_t mesh_compute_host_test_count = sizeof mesh_compute_host_tests / sizeof mesh_compute_host_tests[0];
