/* Culling (plume_frame_desc, since 1.1): particles whose quad cannot touch
 * the view frustum, or beyond cull_distance, are neither sorted nor drawn;
 * the picture does not change; a host asking for ABI 1.0 gets 1.0's structs
 * and 1.0's behaviour (no culling). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "plume/plume_particles.h"
#include "plume/plume_plugin.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { CAPACITY = 4096, IMAGE = 96 };

/* An orthographic camera at z = 5 looking down -z at the square -2 .. 2 of
 * x and y, depths 0.1 .. 20. */
static plume_frame_desc camera_frame(void) {
    mat4 view, projection;
    glm_lookat((vec3){0, 0, 5}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_ortho(-2, 2, -2, 2, 0.1f, 20, projection);
    plume_frame_desc frame = {.dt = 0.0f};
    memcpy(frame.view, view, sizeof frame.view);
    memcpy(frame.projection, projection, sizeof frame.projection);
    return frame;
}

/* One burst of `count` particles of size `size` at each of `points`, frozen
 * (no speed, long lives). */
static plume_system points_system(const float (*points)[3], int point_count, uint32_t count, float size) {
    plume_system_desc desc = {.capacity = CAPACITY, .seed = (uint32_t)test_random_u32()};
    for (int i = 0; i < point_count; ++i)
        desc.emitters[i] = (plume_emitter_desc){.position = {points[i][0], points[i][1], points[i][2]},
                                                .burst_count = count, .lifetime = {100, 100}, .size = {size, size}};
    plume_system system = {0};
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    return system;
}

typedef struct drawn_set {
    uint32_t live, drawn;
    bool drawn_slot[CAPACITY];
    plume_particle particles[CAPACITY];
} drawn_set;

static void read_drawn(plume_system system, drawn_set *out) {
    uint32_t *order = malloc(sizeof(uint32_t) * CAPACITY);
    assert_non_null(order);
    memset(out->drawn_slot, 0, sizeof out->drawn_slot);
    plume_readback rb = {.particles = out->particles, .draw_order = order};
    assert_int_equal(plume_system_read_back(fixture_context(), system, &rb), PLUME_OK);
    out->live = rb.live_count;
    out->drawn = rb.drawn_count;
    assert_true(rb.drawn_count <= rb.live_count);
    for (uint32_t i = 0; i < rb.drawn_count; ++i) {
        assert_true(order[i] < CAPACITY);
        assert_false(out->drawn_slot[order[i]]);
        out->drawn_slot[order[i]] = true;
    }
    free(order);
}

/* Emitter position -> whether its particles must be drawn, for particles of
 * size 0.5 (the culling sphere's radius is 0.5 * sqrt(2) / 2 = 0.354). */
typedef struct cull_case {
    float position[3];
    bool drawn;
    const char *what;
} cull_case;

static void test_particles_outside_the_frustum_are_not_drawn(void **state) {
    (void)state;
    const cull_case cases[] = {
        {{0.0f, 0.0f, 0.0f}, true, "at the centre"},
        {{-10.0f, 0.0f, 0.0f}, false, "far left"},
        {{2.2f, 0.0f, 0.0f}, true, "its centre outside the right plane, its quad reaching in"},
        {{2.5f, 0.0f, 0.0f}, false, "just beyond the right plane"},
        {{0.0f, -2.3f, 0.0f}, true, "its centre below the bottom plane, its quad reaching in"},
        {{0.0f, 2.6f, 0.0f}, false, "above the top plane"},
        {{0.0f, 0.0f, 6.0f}, false, "behind the camera"},
        {{0.0f, 0.0f, -16.0f}, false, "beyond the far plane"},
        {{1.0f, 1.0f, -14.0f}, true, "near the far plane, inside"},
    };
    enum { CASES = sizeof cases / sizeof cases[0], PER_CASE = 50 };
    float points[CASES][3];
    for (int i = 0; i < CASES; ++i) memcpy(points[i], cases[i].position, sizeof points[i]);
    drawn_set *set = malloc(sizeof *set);
    assert_non_null(set);
    /* Eight emitters a system: two systems cover the cases. */
    for (int first = 0; first < CASES; first += PLUME_MAX_EMITTERS) {
        int n = CASES - first < PLUME_MAX_EMITTERS ? CASES - first : PLUME_MAX_EMITTERS;
        plume_system system = points_system(points + first, n, PER_CASE, 0.5f);
        assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
        plume_frame_desc frame = camera_frame();
        frame.dt = 0.001f; /* emits the bursts */
        for (int k = 0; k < 3; ++k) {
            assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
            frame.dt = 0.0f;
            glFinish();
        }
        read_drawn(system, set);
        assert_int_equal(set->live, (uint32_t)(n * PER_CASE));
        uint32_t expected_drawn = 0;
        for (uint32_t slot = 0; slot < CAPACITY; ++slot) {
            const plume_particle *p = &set->particles[slot];
            if (!(p->age >= 0.0f)) continue; /* a free slot */
            int which = -1;
            for (int c = first; c < first + n; ++c)
                if (glm_vec3_distance((float *)p->position, (float *)cases[c].position) < 1e-4f) which = c;
            assert_true(which >= 0);
            if (set->drawn_slot[slot] != cases[which].drawn)
                fail_msg("a particle %s (%g, %g, %g) is %s", cases[which].what, p->position[0], p->position[1],
                         p->position[2], set->drawn_slot[slot] ? "drawn" : "culled");
            expected_drawn += cases[which].drawn;
        }
        assert_int_equal(set->drawn, expected_drawn);
        plume_profile profile;
        assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
        assert_int_equal(profile.live_count, set->live);
        assert_int_equal(profile.drawn_count, expected_drawn);

        /* disable_culling draws them all; so does a frame without a projection. */
        frame.disable_culling = true;
        assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
        read_drawn(system, set);
        assert_int_equal(set->drawn, set->live);
        frame.disable_culling = false;
        memset(frame.projection, 0, sizeof frame.projection);
        assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
        read_drawn(system, set);
        assert_int_equal(set->drawn, set->live);
        assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    }
    free(set);
}

static void test_cull_distance_limits_what_is_drawn(void **state) {
    (void)state;
    /* Both inside the frustum; 3 and 13 units from the eye at z = 5. */
    const float points[2][3] = {{0.0f, 0.0f, 2.0f}, {0.0f, 0.0f, -8.0f}};
    plume_system system = points_system(points, 2, 40, 0.5f);
    plume_frame_desc frame = camera_frame();
    frame.dt = 0.001f;
    frame.cull_distance = 8.0f;
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    drawn_set *set = malloc(sizeof *set);
    assert_non_null(set);
    read_drawn(system, set);
    assert_int_equal(set->live, 80);
    assert_int_equal(set->drawn, 40);
    for (uint32_t slot = 0; slot < set->live; ++slot)
        assert_int_equal(set->drawn_slot[slot], set->particles[slot].position[2] > 0.0f);
    test_log_expect_errors();
    frame.cull_distance = -1.0f;
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("cull_distance"));
    free(set);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

/* The same cloud, half of it outside the view, drawn with and without
 * culling: the same picture. */
static void test_culling_leaves_the_picture_unchanged(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = CAPACITY, .seed = (uint32_t)test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.position = {1.5f, 0.0f, 0.0f}, .shape = PLUME_SHAPE_BOX,
                                            .extents = {3.0f, 3.0f, 3.0f}, .burst_count = 1500,
                                            .lifetime = {100, 100}, .size = {0.1f, 0.6f}};
    desc.appearance.size_over_life.key_count = 2;
    desc.appearance.size_over_life.keys[0] = (plume_curve_key){.time = 0.0f, .value = 1.5f};
    desc.appearance.size_over_life.keys[1] = (plume_curve_key){.time = 1.0f, .value = 0.5f};
    desc.appearance.color_over_life.key_count = 1;
    desc.appearance.color_over_life.keys[0] = (plume_color_key){.time = 0, .rgba = {0.3f, 0.6f, 0.9f, 0.3f}};
    float *images[2];
    uint32_t drawn[2];
    for (int culled = 0; culled < 2; ++culled) {
        plume_system system = {0};
        assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
        plume_frame_desc frame = camera_frame();
        frame.dt = 0.001f;
        frame.disable_culling = !culled;
        assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
        const float clear[4] = {0, 0, 0, 0};
        test_target target = test_target_begin(IMAGE, clear);
        assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
        images[culled] = malloc(sizeof(float) * 4 * IMAGE * IMAGE);
        assert_non_null(images[culled]);
        test_target_end(&target, images[culled]);
        plume_readback rb = {0};
        assert_int_equal(plume_system_read_back(fixture_context(), system, &rb), PLUME_OK);
        drawn[culled] = rb.drawn_count;
        assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    }
    assert_true(drawn[1] < drawn[0]);       /* culling took some out */
    assert_true(drawn[1] > drawn[0] / 10);  /* and kept those in view */
    int covered = 0;
    for (int i = 0; i < 4 * IMAGE * IMAGE; ++i) {
        covered += images[0][i] != 0.0f;
        if (images[0][i] != images[1][i])
            fail_msg("value %d: %f without culling, %f with", i, images[0][i], images[1][i]);
    }
    assert_true(covered > IMAGE * IMAGE / 4);
    free(images[0]);
    free(images[1]);
}

/* The uint32_t at byte `offset` of a struct a 1.0 host has (only its 1.0
 * prefix exists, so no field is reached through the full type). */
static uint32_t u32_at(const void *base, size_t offset) {
    uint32_t value;
    memcpy(&value, (const char *)base + offset, sizeof value);
    return value;
}

/* A host built against 1.0: its frame, readback and profile end before the
 * 1.1 fields (allocated to exactly that size, so a sanitizer sees any read or
 * write past them), and its particles are never culled. */
static void test_a_1_0_host_gets_1_0_structs_and_no_culling(void **state) {
    (void)state;
    const plume_api *api = NULL;
    assert_int_equal(plume_get_api(PLUME_ABI_MAJOR, 0, NULL, &api), PLUME_OK);
    const float points[2][3] = {{0.0f, 0.0f, 0.0f}, {-10.0f, 0.0f, 0.0f}};
    plume_system system = points_system(points, 2, 30, 0.5f);
    plume_frame_desc full = camera_frame();
    full.dt = 0.001f;
    plume_frame_desc *frame = malloc(offsetof(plume_frame_desc, disable_culling));
    assert_non_null(frame);
    memcpy(frame, &full, offsetof(plume_frame_desc, disable_culling));
    assert_int_equal(api->system_set_profiling(fixture_context(), system, true), PLUME_OK);
    for (int k = 0; k < 3; ++k) {
        assert_int_equal(api->system_update(fixture_context(), system, frame), PLUME_OK);
        glFinish();
    }
    const float clear[4] = {0, 0, 0, 0};
    test_target target = test_target_begin(16, clear);
    assert_int_equal(api->system_draw(fixture_context(), system, frame), PLUME_OK);
    test_target_end(&target, NULL);

    uint32_t order[60];
    memset(order, 0xFF, sizeof order); /* poison: every entry must be written */
    unsigned char *rb = calloc(1, offsetof(plume_readback, drawn_count));
    assert_non_null(rb);
    uint32_t *order_pointer = order;
    memcpy(rb + offsetof(plume_readback, draw_order), &order_pointer, sizeof order_pointer);
    assert_int_equal(api->system_read_back(fixture_context(), system, (plume_readback *)rb), PLUME_OK);
    assert_int_equal(u32_at(rb, offsetof(plume_readback, live_count)), 60);
    for (int i = 0; i < 60; ++i) assert_true(order[i] < CAPACITY); /* all 60 in the draw list */
    unsigned char *profile = malloc(offsetof(plume_profile, drawn_count));
    assert_non_null(profile);
    assert_int_equal(api->system_get_profile(fixture_context(), system, (plume_profile *)profile), PLUME_OK);
    assert_int_equal(u32_at(profile, offsetof(plume_profile, live_count)), 60);
    /* all 60 sorted: nothing culled */
    assert_int_equal(u32_at(profile, offsetof(plume_profile, sort_padded_count)), 64);
    /* Frame profiles at 1.0's stride. */
    size_t prefix = offsetof(plume_frame_profile, drawn_count);
    size_t stride = (prefix + _Alignof(plume_frame_profile) - 1) / _Alignof(plume_frame_profile) *
                    _Alignof(plume_frame_profile);
    unsigned char *frames = malloc(2 * stride);
    assert_non_null(frames);
    uint32_t got = api->system_get_frame_profiles(fixture_context(), system, 0, (plume_frame_profile *)frames, 2);
    assert_true(got >= 1);
    for (uint32_t i = 0; i < got; ++i) {
        plume_frame_profile one;
        memcpy(&one, frames + i * stride, prefix);
        assert_int_equal(one.live_count, 60);
        if (i > 0) assert_true(one.frame > 0);
    }
    free(frames);
    free(profile);
    free(rb);
    free(frame);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

const struct CMUnitTest culling_tests[] = {
    cmocka_unit_test_setup_teardown(test_particles_outside_the_frustum_are_not_drawn, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_cull_distance_limits_what_is_drawn, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_culling_leaves_the_picture_unchanged, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_1_0_host_gets_1_0_structs_and_no_culling, fixture_setup, fixture_teardown),
};
const size_t culling_test_count = sizeof culling_tests / sizeof culling_tests[0];
