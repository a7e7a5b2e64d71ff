/* Order and determinism: the draw list back-to-front for random cameras, the
 * same seed giving the same particles, and reset restarting them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume/plume_sort.h"
#include "plume_fixture.h"
#ifndef PLUME_TESTS_THROUGH_TABLE /* the lab's bound is the module's */
#include "plume_lab.h"
#endif
#include "test_env.h"
#include "tests.h"

/* ---- Back-to-front order -------------------------------------------------- */

/* The float depth a descending key was made from (the inverse of
 * plume_depth_key for numbers). */
static float depth_of_key(uint32_t key) {
    uint32_t sortable = ~key;
    uint32_t bits = (sortable & 0x80000000u) ? sortable & 0x7FFFFFFFu : ~sortable;
    float depth;
    memcpy(&depth, &bits, sizeof depth);
    return depth;
}

static double view_depth(mat4 view, const float position[3]) {
    /* -(view * p).z, in double */
    return -((double)view[0][2] * position[0] + (double)view[1][2] * position[1] + (double)view[2][2] * position[2] +
             (double)view[3][2]);
}

/* After each update the draw list holds exactly the live particles, keys
 * ascending, and the depths the CPU computes from the read-back positions
 * for that update's camera fall from back to front. */
static void check_back_to_front(plume_system system, mat4 view, const char *what) {
    plume_readback rb = read_all(fixture_context(), system);
    assert_true(rb.live_count > 100);
    check_slots_partition(&rb, system_desc(fixture_context(), system).capacity, 0);
    double previous = INFINITY;
    for (uint32_t i = 0; i < rb.live_count; ++i) {
        const plume_particle *p = &rb.particles[rb.draw_order[i]];
        double depth = view_depth(view, p->position);
        if (i > 0 && rb.draw_keys[i] < rb.draw_keys[i - 1]) fail_msg("%s: keys fall at position %u", what, i);
        if (fabs(depth_of_key(rb.draw_keys[i]) - depth) > 1e-4 * (1.0 + fabs(depth)))
            fail_msg("%s: key at %u encodes depth %g, the particle is at %g", what, i, depth_of_key(rb.draw_keys[i]), depth);
        if (depth > previous + 1e-4 * (1.0 + fabs(depth)))
            fail_msg("%s: position %u at depth %g follows depth %g: not back to front", what, i, depth, previous);
        previous = depth;
    }
    free_readback(&rb);
}


/* 150 updates: more than the CPU keeps emission records for within one
 * lifetime (they fold), with the live count well under the capacity, so the
 * sort is sized by the CPU's bound on the live count; a bound that fell short
 * would leave the tail of the list unsorted. The lifetimes shrink midway
 * (particles already alive keep theirs). */
static void test_draw_list_is_back_to_front(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 2999, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {3}, .rate = 800,
                                            .lifetime = {0.5f, 2}, .speed = {0, 1}, .spread = 3.14159f};
    desc.forces = (plume_forces){.turbulence = 2.0f, .drag = 0.5f};
    plume_system system = make_system(desc);
    mat4 view, projection;
    for (int k = 0; k < 150; ++k) {
        if (k == 100) {
            plume_emitter_desc shorter = desc.emitters[0];
            shorter.lifetime = (plume_range){0.2f, 0.4f};
            assert_int_equal(plume_system_set_emitter(fixture_context(), system, 0, &shorter), PLUME_OK);
        }
        random_camera(view, projection);
        plume_frame_desc frame = make_frame(1.0f / 60.0f, view, projection);
        update(system, &frame);
        if (k == 99) check_back_to_front(system, view, "long lifetimes");
    }
    check_back_to_front(system, view, "after shorter lifetimes");
    /* A still update (dt 0) for a new camera re-sorts for that camera. */
    random_camera(view, projection);
    plume_frame_desc frame = make_frame(0.0f, view, projection);
    update(system, &frame);
    check_back_to_front(system, view, "new camera, dt 0");
    destroy_system(system);
}

#ifndef PLUME_TESTS_THROUGH_TABLE
/* The live count read back, which the CPU's bound must reach. */
static uint32_t live_count_of(plume_system system) {
    plume_readback rb = read_all(fixture_context(), system);
    uint32_t live = rb.live_count;
    free_readback(&rb);
    return live;
}

/* The sort is sized by the lifetimes of the particles asked for, not the
 * longest of every emitter: sparks of 0.2 s at 2400 a second beside an
 * emitter of 3 s lifetimes that emits nothing (a template for emit calls)
 * are bounded by about 530 (2400 x (0.2 s widened by 2 % and 1 ms, and a
 * step)), where the 3 s emitter's lifetime would have counted every spark
 * asked for so far (2400 a second for 1 s: 2400). Then 600 particles of the
 * 3 s emitter by an emit call: the bound keeps them for their 3 s, and the
 * list stays back to front after the sparks of the same steps have died. */
static void test_sort_bound_follows_the_lifetimes_asked_for(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 6000, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {2}, .rate = 2400,
                                            .lifetime = {0.15f, 0.2f}, .speed = {0, 1}, .spread = 3.14159f};
    desc.emitters[1] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {3}, .lifetime = {3, 3},
                                            .speed = {0, 0.5f}, .spread = 3.14159f};
    plume_system system = make_system(desc);
    mat4 view, projection;
    for (int k = 0; k < 60; ++k) {
        random_camera(view, projection);
        plume_frame_desc frame = make_frame(1.0f / 60.0f, view, projection);
        update(system, &frame);
    }
    uint32_t bound = plume_lab_system_live_bound(fixture_context(), system), live = live_count_of(system);
    printf("  sparks of 0.2 s beside a 3 s template: %u live, bound %u\n", live, bound);
    assert_true(bound >= live && bound <= 2400 * (0.2 * 1.02 + 0.001 + 1.0 / 60.0) + 2);
    check_back_to_front(system, view, "sparks");
    plume_emit_desc emit = {.emitter = 1, .count = 600};
    assert_int_equal(plume_system_emit(fixture_context(), system, &emit), PLUME_OK);
    for (int k = 0; k < 90; ++k) {
        random_camera(view, projection);
        plume_frame_desc frame = make_frame(1.0f / 60.0f, view, projection);
        update(system, &frame);
        if (k != 30 && k != 89) continue;
        check_back_to_front(system, view, "sparks and the emitted 3 s particles");
        bound = plume_lab_system_live_bound(fixture_context(), system);
        live = live_count_of(system);
        printf("  %.2f s after 600 of 3 s were emitted: %u live, bound %u\n", (k + 1) / 60.0, live, bound);
        assert_true(live >= 600 && bound >= live && bound <= 600 + 2400 * (3.0 * 1.02 + 0.001 + 1.0 / 60.0));
    }
    destroy_system(system);
}
#endif

/* Particles at exactly one depth (a burst at a point, no speed, no forces):
 * the draw list gives them in slot order, whichever backend sorted (the
 * bitonic sort orders ties by slot, the radix sort keeps the list's slot
 * order), every update: no flicker between equal depths. The larger system is
 * past the automatic crossover (radix), the smaller under it (bitonic: with
 * the default 24 key bits Onesweep's radix sort takes 4096 pairs and fewer,
 * and 8192 and more). */
static void test_equal_depths_are_drawn_in_slot_order(void **state) {
    (void)state;
    static const uint32_t capacities[] = {6000, 270000};
    static const plume_sort_algorithm backends[] = {PLUME_SORT_BITONIC, PLUME_SORT_RADIX};
    for (int c = 0; c < 2; ++c) {
        plume_system_desc desc = {.capacity = capacities[c], .seed = test_random_u32()};
        desc.emitters[0] = (plume_emitter_desc){.burst_count = capacities[c], .lifetime = {10, 10}};
        plume_system system = make_system(desc);
        assert_int_equal(plume_system_get_sort_algorithm(fixture_context(), system), PLUME_SORT_AUTOMATIC);
        mat4 view, projection;
        for (int k = 0; k < 2; ++k) {
            random_camera(view, projection);
            plume_frame_desc frame = make_frame(1.0f / 60.0f, view, projection);
            update(system, &frame);
            assert_int_equal(plume_system_get_sort_algorithm(fixture_context(), system), backends[c]);
            plume_readback rb = read_all(fixture_context(), system);
            assert_int_equal(rb.drawn_count, capacities[c]);
            for (uint32_t i = 1; i < rb.drawn_count; ++i) {
                assert_int_equal(rb.draw_keys[i], rb.draw_keys[0]);
                if (rb.draw_order[i] <= rb.draw_order[i - 1])
                    fail_msg("capacity %u, update %d: slot %u drawn after slot %u at one depth", capacities[c], k,
                             rb.draw_order[i], rb.draw_order[i - 1]);
            }
            free_readback(&rb);
        }
        plume_frame_desc unsorted = make_frame(1.0f / 60.0f, view, projection);
        unsorted.disable_sort = true;
        update(system, &unsorted);
        assert_int_equal(plume_system_get_sort_algorithm(fixture_context(), system), PLUME_SORT_AUTOMATIC);
        destroy_system(system);
    }
}

/* Two bursts at view depths 10 and 10 + 10 ulps (under 2^-15 apart): with
 * the default 24 key bits their keys agree, so the particles come in slot
 * order; with 32 the farther burst comes first, whatever its slots. With
 * either backend (the larger system is past the automatic crossover); on the
 * fragment path (its bitonic network) the smaller system only. */
static void test_sort_key_bits_set_the_depth_resolution(void **state) {
    (void)state;
    static const uint32_t bursts[] = {3000, 70000};
    static const plume_sort_algorithm backends[] = {PLUME_SORT_BITONIC, PLUME_SORT_RADIX};
    const float near = 10.0f;
    uint32_t near_bits, far_bits;
    memcpy(&near_bits, &near, 4);
    far_bits = near_bits + 10;
    float far;
    memcpy(&far, &far_bits, 4);
    mat4 view = GLM_MAT4_IDENTITY_INIT, projection;
    glm_perspective(1.0f, 1.0f, 0.1f, 100.0f, projection);
    for (int b = 0; b < 2; ++b) {
        for (uint32_t key_bits = 24; key_bits <= 32; key_bits += 8) {
            plume_system_desc desc = {.capacity = 2 * bursts[b], .seed = test_random_u32(),
                                      .sort_key_bits = key_bits == 24 ? 0 : key_bits};
            /* The far burst is emitter 0, so that slot order and depth order differ. */
            desc.emitters[0] = (plume_emitter_desc){.burst_count = bursts[b], .lifetime = {10, 10},
                                                    .position = {0, 0, -far}};
            desc.emitters[1] = (plume_emitter_desc){.burst_count = bursts[b], .lifetime = {10, 10},
                                                    .position = {0, 0, -near}};
            plume_system system = make_system(desc);
            plume_system_desc resolved = system_desc(fixture_context(), system);
            assert_int_equal(resolved.sort_key_bits, key_bits);
            bool fragment = resolved.path == PLUME_PATH_FRAGMENT;
            if (fragment && b > 0) {
                destroy_system(system);
                continue;
            }
            plume_frame_desc frame = make_frame(1.0f / 60.0f, view, projection);
            update(system, &frame);
            assert_int_equal(plume_system_get_sort_algorithm(fixture_context(), system),
                             fragment ? PLUME_SORT_BITONIC : backends[b]);
            plume_readback rb = read_all(fixture_context(), system);
            assert_int_equal(rb.live_count, 2 * bursts[b]);
            if (!fragment) assert_int_equal(rb.drawn_count, 2 * bursts[b]);
            uint32_t far_drawn = 0;
            for (uint32_t i = 0; i < rb.live_count; ++i) {
                const plume_particle *p = &rb.particles[rb.draw_order[i]];
                bool is_far = p->position[2] == -far;
                assert_true(is_far || p->position[2] == -near);
                far_drawn += is_far;
                if (key_bits == 24) {
                    assert_int_equal(rb.draw_keys[i], rb.draw_keys[0]);
                    assert_int_equal(rb.draw_keys[i] & 0xFFu, 0);
                    if (i > 0 && rb.draw_order[i] <= rb.draw_order[i - 1])
                        fail_msg("24 bits: slot %u drawn after slot %u", rb.draw_order[i], rb.draw_order[i - 1]);
                } else if (is_far != (i < bursts[b])) {
                    fail_msg("32 bits: position %u holds a %s particle", i, is_far ? "far" : "near");
                } else {
                    assert_int_equal(rb.draw_keys[i], plume_depth_key(is_far ? far : near, PLUME_ORDER_DESCENDING));
                }
            }
            assert_int_equal(far_drawn, bursts[b]);
            free_readback(&rb);
            destroy_system(system);
        }
    }
}

/* ---- Determinism and reset ------------------------------------------------- */

static void test_same_seed_same_particles_and_reset_restarts(void **state) {
    (void)state;
    enum { STEPS = 70 };
    float dts[STEPS];
    for (int k = 0; k < STEPS; ++k) dts[k] = test_random_below(8) == 0 ? 0.0f : test_random_float(0.005f, 0.04f);
    mat4 view, projection;
    random_camera(view, projection);
    uint32_t seed = test_random_u32();

    plume_system a = make_system(busy_desc(seed));
    run_result first = run_steps(a, dts, STEPS, view, projection);
    assert_true(first.live_count > 200);
    assert_int_equal(plume_system_reset(fixture_context(), a), PLUME_OK);
    plume_readback rb = read_all(fixture_context(), a);
    assert_int_equal(rb.live_count, 0);
    assert_int_equal(rb.emitted_total, 0);
    check_slots_partition(&rb, 1500, 0);
    free_readback(&rb);
    run_result after_reset = run_steps(a, dts, STEPS, view, projection);
    destroy_system(a);

    plume_system b = make_system(busy_desc(seed));
    run_result again = run_steps(b, dts, STEPS, view, projection);
    destroy_system(b);

    plume_system c = make_system(busy_desc(seed + 1));
    run_result other = run_steps(c, dts, STEPS, view, projection);
    destroy_system(c);

    assert_true(same_run(&first, &again));
    assert_true(same_run(&first, &after_reset));
    /* Another seed: same counts (they depend on rates, not on randomness, as
     * long as lifetimes allow) but other particles. */
    uint32_t equal_positions = 0, compared = first.live_count < other.live_count ? first.live_count : other.live_count;
    for (uint32_t i = 0; i < compared; ++i)
        equal_positions += memcmp(first.in_draw_order[i].position, other.in_draw_order[i].position, 12) == 0;
    assert_true(equal_positions < compared / 10);
    free(first.in_draw_order);
    free(after_reset.in_draw_order);
    free(again.in_draw_order);
    free(other.in_draw_order);
}

/* ---- Sort modes (plume_sort_mode, since 1.2) ------------------------------- */

/* The value a mode's key was made from: descending keys but for the
 * youngest first, whose keys are ascending. */
static double value_of_key(uint32_t key, uint32_t mode) {
    if (mode != PLUME_SORT_MODE_YOUNGEST_FIRST) return depth_of_key(key);
    uint32_t bits = (key & 0x80000000u) ? key & 0x7FFFFFFFu : ~key;
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static double value_for_mode(uint32_t mode, mat4 view, const vec3 eye, const plume_particle *p) {
    switch (mode) {
    case PLUME_SORT_MODE_DISTANCE: {
        double d[3] = {p->position[0] - eye[0], p->position[1] - eye[1], p->position[2] - eye[2]};
        return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }
    case PLUME_SORT_MODE_OLDEST_FIRST:
    case PLUME_SORT_MODE_YOUNGEST_FIRST: return p->age;
    default: return view_depth(view, p->position);
    }
}

/* Keys ascending, each the CPU's value of its particle, equal keys by
 * ascending slot; returns how many keys were equal to the one before. */
static uint32_t check_mode_order(const plume_readback *rb, uint32_t mode, mat4 view, const vec3 eye) {
    uint32_t ties = 0;
    for (uint32_t i = 0; i < rb->drawn_count; ++i) {
        const plume_particle *p = &rb->particles[rb->draw_order[i]];
        double expected = value_for_mode(mode, view, eye, p), got = value_of_key(rb->draw_keys[i], mode);
        if (fabs(got - expected) > 1e-4 * (1.0 + fabs(expected)))
            fail_msg("mode %u: key at %u encodes %g, the particle's value is %g", mode, i, got, expected);
        if (i == 0) continue;
        if (rb->draw_keys[i] < rb->draw_keys[i - 1]) fail_msg("mode %u: keys fall at position %u", mode, i);
        if (rb->draw_keys[i] == rb->draw_keys[i - 1]) {
            ++ties;
            if (rb->draw_order[i] <= rb->draw_order[i - 1])
                fail_msg("mode %u: equal keys at %u not in slot order", mode, i);
        }
    }
    return ties;
}

/* Every mode read back for a wide perspective camera (check_mode_order;
 * the particles of one burst share their age: the age modes' ties), NONE
 * (no sort ran) in slot order, and the orders differ between modes. The
 * bitonic sort runs here; every mode's keys go through the same slot-order
 * packing where the radix sort runs, whose ties
 * test_equal_depths_are_drawn_in_slot_order checks. */
static void test_sort_modes_give_their_total_order(void **state) {
    (void)state;
    mat4 view, projection;
    glm_lookat((vec3){0.5f, 1, 4}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_perspective(2.0f, 1.0f, 0.1f, 100.0f, projection);
    mat4 inverse;
    glm_mat4_inv(view, inverse);
    const vec3 eye = {inverse[3][0], inverse[3][1], inverse[3][2]};
    uint32_t seed = test_random_u32();
    uint32_t *orders[PLUME_SORT_MODE_NONE + 1] = {0}, drawn[PLUME_SORT_MODE_NONE + 1] = {0};
    bool ring = false; /* the fragment path's slots: a ring */
    for (uint32_t mode = 0; mode <= PLUME_SORT_MODE_NONE; ++mode) {
        plume_system_desc desc = {.capacity = 3001, .seed = seed, .sort_mode = mode};
        desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {3}, .burst_count = 150,
                                                .burst_interval = 0.1f, .lifetime = {0.5f, 2}, .speed = {0, 1},
                                                .spread = 3.14159f};
        plume_system system = make_system(desc);
        ring = system_desc(fixture_context(), system).path == PLUME_PATH_FRAGMENT;
        plume_frame_desc frame = make_frame(1.0f / 30.0f, view, projection);
        for (int k = 0; k < 20; ++k) update(system, &frame);
        plume_readback rb = read_all(fixture_context(), system);
        assert_true(rb.drawn_count > 500);
        plume_sort_algorithm algorithm = plume_system_get_sort_algorithm(fixture_context(), system);
        if (mode == PLUME_SORT_MODE_NONE) {
            assert_int_equal(algorithm, PLUME_SORT_AUTOMATIC);
            for (uint32_t i = 1; i < rb.drawn_count; ++i)
                if (rb.draw_order[i] <= rb.draw_order[i - 1])
                    fail_msg("NONE: slot %u after %u", rb.draw_order[i], rb.draw_order[i - 1]);
        } else {
            /* Sorted by the automatic choice, which follows the count and
             * the driver (NVIDIA: the one-workgroup radix sort here). */
            assert_true(algorithm == PLUME_SORT_BITONIC || algorithm == PLUME_SORT_RADIX);
            uint32_t ties = check_mode_order(&rb, mode, view, eye);
            if (mode == PLUME_SORT_MODE_OLDEST_FIRST || mode == PLUME_SORT_MODE_YOUNGEST_FIRST) assert_true(ties > 100);
        }
        drawn[mode] = rb.drawn_count;
        orders[mode] = malloc(sizeof(uint32_t) * rb.drawn_count);
        assert_non_null(orders[mode]);
        memcpy(orders[mode], rb.draw_order, sizeof(uint32_t) * rb.drawn_count);
        free_readback(&rb);
        destroy_system(system);
    }
    /* The same particles (one seed) in other orders; but on the fragment
     * path, whose ring gives slots in emission order, the oldest first is
     * ascending slots (NONE's order) until the ring wraps. */
    for (uint32_t a = 0; a <= PLUME_SORT_MODE_NONE; ++a)
        for (uint32_t b = a + 1; b <= PLUME_SORT_MODE_NONE; ++b) {
            assert_int_equal(drawn[a], drawn[b]);
            if (ring && a == PLUME_SORT_MODE_OLDEST_FIRST && b == PLUME_SORT_MODE_NONE) continue;
            uint32_t same = 0;
            for (uint32_t i = 0; i < drawn[a]; ++i) same += orders[a][i] == orders[b][i];
            if (same > drawn[a] / 2)
                fail_msg("modes %u and %u give nearly the same order (%u of %u)", a, b, same, drawn[a]);
        }
    for (uint32_t mode = 0; mode <= PLUME_SORT_MODE_NONE; ++mode) free(orders[mode]);
}

const struct CMUnitTest particle_order_tests[] = {
    cmocka_unit_test_setup_teardown(test_sort_modes_give_their_total_order, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_draw_list_is_back_to_front, fixture_setup, fixture_teardown),
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_sort_bound_follows_the_lifetimes_asked_for, fixture_setup, fixture_teardown),
#endif
    cmocka_unit_test_setup_teardown(test_same_seed_same_particles_and_reset_restarts, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_equal_depths_are_drawn_in_slot_order, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_sort_key_bits_set_the_depth_resolution, fixture_setup, fixture_teardown),
};
const size_t particle_order_test_count = sizeof particle_order_tests / sizeof particle_order_tests[0];
