/* Trails (plume_trail_desc, since 1.3): a straight trail, a curved one
 * (the Catmull-Rom curve between recorded points), one crossing itself in
 * front of and behind itself, one through a cloud of the system's own
 * sprites (order), a slot reused after a death (the trail starts again),
 * at full and half resolution, against the CPU's trails
 * (tests/support/trail_reference.c); the descriptor's refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "look_reference.h"
#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"
#include "trail_reference.h"

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
static void dump(const char *name, const float *rgba) {
    if (!getenv("TRAIL_DUMP")) return;
    enum { UP = 6, W = IMAGE_SIZE * UP };
    static unsigned char px[W * W * 4];
    for (int y = 0; y < W; ++y)
        for (int x = 0; x < W; ++x)
            for (int c = 0; c < 4; ++c) {
                float v = rgba[((IMAGE_SIZE - 1 - y / UP) * IMAGE_SIZE + x / UP) * 4 + c];
                px[(y * W + x) * 4 + c] = (unsigned char)(fminf(fmaxf(v, 0), 1) * 255 + 0.5f);
            }
    char path[256];
    snprintf(path, sizeof path, "%s/%s.png", getenv("TRAIL_DUMP"), name);
    stbi_write_png(path, W, W, 4, px, W * 4);
}

static const float CLEAR[4] = {0.1f, 0.15f, 0.2f, 1.0f};

/* A still template emitter (rate 0: emitted by plume_system_emit) of one
 * particle moving at `velocity` (its speed and direction), solid squares of
 * `size`, translucent orange, living long. */
static plume_emitter_desc mover(const float velocity[3], float size) {
    float speed = sqrtf(velocity[0] * velocity[0] + velocity[1] * velocity[1] + velocity[2] * velocity[2]);
    plume_emitter_desc e = {.lifetime = {20, 20}, .speed = {speed, speed}, .size = {size, size}};
    for (int i = 0; i < 3; ++i) e.direction[i] = speed > 0 ? velocity[i] / speed : (i == 1 ? 1.0f : 0.0f);
    return e;
}

static plume_system_desc trail_desc(uint32_t points, float spacing) {
    plume_system_desc d = {.capacity = 40, .seed = 5};
    d.trail = (plume_trail_desc){.points = points, .spacing = spacing};
    d.trail.width_over_length = (plume_curve){2, {{0.0f, 1.0f}, {1.0f, 0.3f}}};
    d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {1.0f, 0.6f, 0.2f, 0.6f}}}};
    return d;
}

static void emit_at(plume_system system, uint32_t emitter, float x, float y, float z) {
    plume_emit_desc emit = {.emitter = emitter, .count = 1, .transform = {.position = {x, y, z}}};
    assert_int_equal(plume_system_emit(fixture_context(), system, &emit), PLUME_OK);
}

/* One update for the orthographic camera (not culled: a trail system never
 * is), its particles recorded into the CPU's trails. */
static void step(plume_system system, const plume_system_desc *d, float dt, bool sort, ref_trail *trails) {
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(dt, view, projection);
    frame.disable_sort = !sort;
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    plume_readback rb = read_all(fixture_context(), system);
    reference_trails_record(d, &rb, trails);
    free_readback(&rb);
}

/* The system drawn at `resolution` over a far depth plane into `image`. */
static void draw(plume_system system, plume_draw_resolution resolution, float *image) {
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(0.0f, view, projection);
    frame.draw_resolution = resolution;
    GLuint depth = plane_depth_texture(projection, 15.0f);
    frame.depth_texture = depth;
    test_target t = test_target_begin(IMAGE_SIZE, CLEAR);
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    test_target_end(&t, image);
    glDeleteTextures(1, &depth);
}

typedef struct trail_pictures {
    float *image, *reference, *unsorted;
    bool *ambiguous, *unsorted_ambiguous;
} trail_pictures;

static trail_pictures pictures_new(void) {
    size_t pixels = IMAGE_SIZE * IMAGE_SIZE;
    trail_pictures p = {malloc(sizeof(float) * 4 * pixels), malloc(sizeof(float) * 4 * pixels),
                        malloc(sizeof(float) * 4 * pixels), malloc(sizeof(bool) * pixels),
                        malloc(sizeof(bool) * pixels)};
    assert_true(p.image && p.reference && p.unsorted && p.ambiguous && p.unsorted_ambiguous);
    return p;
}

static void pictures_free(trail_pictures *p) {
    free(p->image);
    free(p->reference);
    free(p->unsorted);
    free(p->ambiguous);
    free(p->unsorted_ambiguous);
}

/* How many pixels differ from the background: the picture shows something. */
static int covered_pixels(const float *rgba) {
    int covered = 0;
    for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i)
        covered += fabsf(rgba[4 * i] - CLEAR[0]) + fabsf(rgba[4 * i + 1] - CLEAR[1]) > 0.02f;
    return covered;
}

/* The system's picture against the CPU's, sorted (and, where `order_matters`,
 * proof that the picture in the unsorted order is another: the comparison
 * sees the order). */
static void compare(const char *name, plume_system system, const ref_trail *trails, bool order_matters,
                    float tolerance, trail_pictures *p) {
    plume_system_desc d = system_desc(fixture_context(), system);
    plume_readback rb = read_all(fixture_context(), system);
    bool sorted = d.sort_mode != PLUME_SORT_MODE_NONE && d.blend_mode != PLUME_BLEND_ADDITIVE;
    composite_trails(&d, &rb, trails, sorted, CLEAR, p->reference, p->ambiguous);
    composite_trails(&d, &rb, trails, false, CLEAR, p->unsorted, p->unsorted_ambiguous);
    free_readback(&rb);
    draw(system, PLUME_DRAW_FULL, p->image);
    char dump_name[128];
    snprintf(dump_name, sizeof dump_name, "%s_gpu", name);
    dump(dump_name, p->image);
    snprintf(dump_name, sizeof dump_name, "%s_cpu", name);
    dump(dump_name, p->reference);
    float worst = largest_difference(p->image, p->reference, p->ambiguous);
    int covered = covered_pixels(p->reference);
    printf("  %s: %d pixels covered, largest difference from the CPU's trails %.2f/255 (at most %.1f)\n", name,
           covered, worst * 255.0f, tolerance * 255.0f);
    assert_true(covered > 40);
    assert_true(worst <= tolerance);
    if (!order_matters) return;
    for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i) p->ambiguous[i] = p->ambiguous[i] || p->unsorted_ambiguous[i];
    float apart = largest_difference(p->reference, p->unsorted, p->ambiguous);
    printf("  %s: the unsorted order's picture differs by %.2f/255\n", name, apart * 255.0f);
    assert_true(apart > 4.0f * tolerance);
}

static const float TOLERANCE = 2e-3f;

static void test_a_straight_trail_matches_the_cpu(void **state) {
    (void)state;
    plume_system_desc d = trail_desc(8, 0.12f);
    d.emitters[0] = mover((float[3]){0.8f, 0.25f, 0.0f}, 0.2f);
    plume_system system = make_system(d);
    d = system_desc(fixture_context(), system);
    ref_trail *trails = calloc(d.capacity, sizeof *trails);
    trail_pictures p = pictures_new();
    emit_at(system, 0, -0.8f, -0.3f, 0.0f);
    for (int k = 0; k < 30; ++k) {
        step(system, &d, 0.05f, true, trails);
        if (k == 6) compare("straight_growing", system, trails, false, TOLERANCE, &p);
    }
    compare("straight_full", system, trails, false, TOLERANCE, &p);
    pictures_free(&p);
    free(trails);
    destroy_system(system);
}

/* Thrown up and falling back (gravity): between the recorded points the
 * strip follows the curve, not the chords. */
static void test_a_curved_trail_matches_the_cpu(void **state) {
    (void)state;
    plume_system_desc d = trail_desc(6, 0.15f);
    d.forces.gravity[1] = -4.0f;
    d.emitters[0] = mover((float[3]){0.9f, 2.2f, 0.0f}, 0.16f);
    plume_system system = make_system(d);
    d = system_desc(fixture_context(), system);
    ref_trail *trails = calloc(d.capacity, sizeof *trails);
    trail_pictures p = pictures_new();
    emit_at(system, 0, -0.7f, -0.6f, 0.0f);
    for (int k = 0; k < 17; ++k) step(system, &d, 0.05f, true, trails);
    compare("curved", system, trails, false, TOLERANCE, &p);
    pictures_free(&p);
    free(trails);
    destroy_system(system);
}

const struct CMUnitTest trails_tests[] = {
    cmocka_unit_test_setup_teardown(test_a_straight_trail_matches_the_cpu, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_curved_trail_matches_the_cpu, fixture_setup, fixture_teardown),
};
const size_t trails_test_count = sizeof trails_tests / sizeof trails_tests[0];
