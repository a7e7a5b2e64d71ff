/* Emission against the CPU's counts: emitted counts and lifetimes, bursts and
 * zero steps, every slot live or dead once after thousands of frames, and
 * integration against the closed form. */
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
#include "test_env.h"
#include "tests.h"

/* ---- Emission and lifetimes ---------------------------------------------- */

/* A rate-only emitter with a fixed lifetime over random time steps. The
 * count due by time T is floor(rate * T), so update k emits
 * floor(rate T_k) - floor(rate T_(k-1)) (an independent way to state the
 * carried fraction). Every particle emitted in update j has, after update k,
 * the float age dt_j + ... + dt_k (summed in that order, as the GPU does), and
 * lives while that age is below its lifetime. A second emitter with random
 * lifetimes checks the range and that young particles live, old ones die. */
static void test_emission_counts_and_lifetimes(void **state) {
    (void)state;
    enum { STEPS = 90 };
    const float rate = 1000.0f, lifetime = 0.3f;
    plume_system_desc desc = {.capacity = 5003, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.rate = rate, .lifetime = {lifetime, lifetime}, .speed = {1, 2},
                                            .spread = 1.0f};
    plume_system fixed = make_system(desc);
    desc.emitters[0].lifetime = (plume_range){0.1f, 0.4f};
    plume_system ranged = make_system(desc);

    float dts[STEPS];
    uint32_t emitted_by[STEPS + 1]; /* emission numbers handed out after update k */
    emitted_by[0] = 0;
    double total_time = 0.0;
    for (int k = 0; k < STEPS; ++k) {
        dts[k] = test_random_float(0.002f, 0.03f);
        double before = floor((double)rate * total_time);
        total_time += dts[k];
        emitted_by[k + 1] = emitted_by[k] + (uint32_t)(floor((double)rate * total_time) - before);
        plume_frame_desc frame = make_frame(dts[k], NULL, NULL);
        update(fixed, &frame);
        update(ranged, &frame);

        if (k % 10 != 9 && k != STEPS - 1) continue;
        /* Expected ages of each cohort after update k. */
        float ages[STEPS];
        for (int j = 0; j <= k; ++j) {
            float age = 0.0f;
            for (int i = j; i <= k; ++i) age += dts[i];
            ages[j] = age;
        }
        uint32_t expected_live = 0;
        for (int j = 0; j <= k; ++j)
            if (ages[j] < lifetime) expected_live += emitted_by[j + 1] - emitted_by[j];

        plume_readback rb = read_all(fixture_context(), fixed);
        assert_int_equal(rb.emitted_total, emitted_by[k + 1]);
        assert_int_equal(rb.live_count, expected_live);
        assert_int_equal(rb.live_count + rb.dead_count, desc.capacity);
        for (int j = 0; j <= k; ++j)
            for (uint32_t id = emitted_by[j]; id < emitted_by[j + 1]; ++id) {
                const plume_particle *p = find_by_id(&rb, id);
                if (ages[j] >= lifetime) {
                    assert_null(p);
                    continue;
                }
                assert_non_null(p);
                assert_float_equal(p->age, ages[j], 1e-6);
                assert_float_equal(p->lifetime, lifetime, 0.0);
            }
        free_readback(&rb);

        rb = read_all(fixture_context(), ranged);
        assert_int_equal(rb.emitted_total, emitted_by[k + 1]);
        for (uint32_t i = 0; i < rb.live_count; ++i) {
            const plume_particle *p = &rb.particles[rb.draw_order[i]];
            assert_true(p->lifetime >= 0.1f && p->lifetime <= 0.4f);
            assert_true(p->age < p->lifetime);
        }
        for (int j = 0; j <= k; ++j)
            for (uint32_t id = emitted_by[j]; id < emitted_by[j + 1]; ++id) {
                const plume_particle *p = find_by_id(&rb, id);
                if (ages[j] < 0.1f) assert_non_null(p);
                if (ages[j] >= 0.4f) assert_null(p);
                if (p) assert_float_equal(p->age, ages[j], 1e-6);
            }
        free_readback(&rb);
    }
    destroy_system(fixed);
    destroy_system(ranged);
}

/* Bursts: a single burst (interval 0) fires once on the first update that
 * moves time; a repeating one fires at 0, I, 2I, ... An update of dt 0 emits
 * nothing and ages nothing. */
static void test_bursts_and_zero_steps(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 1000};
    desc.emitters[0] = (plume_emitter_desc){.burst_count = 17, .lifetime = {100, 100}};
    desc.emitters[3] = (plume_emitter_desc){.burst_count = 5, .burst_interval = 0.25f, .lifetime = {100, 100}};
    plume_system system = make_system(desc);
    /* Steps of 1/8 s: exact in binary, so burst times fall exactly on step
     * boundaries and the half-open rule [t0, t1) is what is tested. */
    plume_frame_desc still = make_frame(0.0f, NULL, NULL), step = make_frame(0.125f, NULL, NULL);
    update(system, &still);
    plume_readback rb = read_all(fixture_context(), system);
    assert_int_equal(rb.live_count, 0);
    free_readback(&rb);
    /* Time 0 .. 1.0 in 8 steps: bursts of emitter 3 at 0, 0.25, 0.5, 0.75 (1.0 is the next update's). */
    for (int k = 0; k < 8; ++k) update(system, &step);
    update(system, &still);
    rb = read_all(fixture_context(), system);
    assert_int_equal(rb.emitted_total, 17 + 4 * 5);
    assert_int_equal(rb.live_count, 17 + 4 * 5);
    /* The last update had dt 0: the oldest particles are exactly 1.0 s old. */
    const plume_particle *first = find_by_id(&rb, 0);
    assert_non_null(first);
    assert_float_equal(first->age, 1.0f, 0.0);
    free_readback(&rb);
    update(system, &step);
    rb = read_all(fixture_context(), system);
    assert_int_equal(rb.emitted_total, 17 + 5 * 5);
    free_readback(&rb);
    destroy_system(system);

    /* A burst over the capacity fills it and emits no more than fits. */
    desc = (plume_system_desc){.capacity = 100};
    desc.emitters[2] = (plume_emitter_desc){.burst_count = 1000, .burst_interval = 0.125f, .lifetime = {100, 100}};
    system = make_system(desc);
    update(system, &step);
    rb = read_all(fixture_context(), system);
    assert_int_equal(rb.live_count, 100);
    assert_int_equal(rb.dead_count, 0);
    assert_int_equal(rb.emitted_total, 100);
    free_readback(&rb);
    update(system, &step);
    rb = read_all(fixture_context(), system);
    check_slots_partition(&rb, 100, 0);
    assert_int_equal(rb.emitted_total, 100);
    free_readback(&rb);
    destroy_system(system);
}

/* ---- Slots: every slot live or dead, once -------------------------------- */


/* Three emitters that together ask for more than the capacity (bursts,
 * a high rate, short random lifetimes), random steps (some 0), sorting
 * toggled: after thousands of updates no slot is lost or doubled. */
static void test_slots_live_or_dead_after_thousands_of_frames(void **state) {
    (void)state;
    enum { FRAMES = 2500 };
    const uint32_t capacity = 777;
    plume_system_desc desc = {.capacity = capacity, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.rate = 6000, .lifetime = {0.01f, 0.2f}, .speed = {0, 3}, .spread = 3.1f};
    desc.emitters[1] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {1, 2, 3}, .burst_count = 300,
                                            .burst_interval = 0.05f, .lifetime = {0.02f, 0.1f}};
    desc.emitters[5] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {2}, .rate = 50,
                                            .burst_count = 1000, .burst_interval = 0.7f, .lifetime = {0.5f, 0.6f}};
    plume_system system = make_system(desc);
    mat4 view, projection;
    glm_lookat((vec3){3, 4, 5}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_perspective(1.0f, 1.0f, 0.1f, 100.0f, projection);
    double time = 0.0;
    uint32_t emitted_total = 0;
    for (int f = 0; f < FRAMES; ++f) {
        if (f % 100 == 0) { /* the rate swings from idle to far over the capacity */
            plume_emitter_desc changed = desc.emitters[0];
            changed.rate = test_random_below(3) == 0 ? 0.0f : test_random_float(100.0f, 30000.0f);
            assert_int_equal(plume_system_set_emitter(fixture_context(), system, 0, &changed), PLUME_OK);
        }
        float dt = test_random_below(10) == 0 ? 0.0f : test_random_float(0.001f, 0.04f);
        time += dt;
        plume_frame_desc frame = make_frame(dt, view, projection);
        frame.disable_sort = test_random_below(4) == 0;
        update(system, &frame);
        if (f % 50 == 49) {
            plume_readback rb = read_all(fixture_context(), system);
            check_slots_partition(&rb, capacity, f);
            emitted_total = rb.emitted_total;
            free_readback(&rb);
        }
    }
    /* The bursts alone asked for more than was emitted: the full dead list
     * clamped emission, and the bookkeeping survived it. */
    double bursts_asked = ceil(time / 0.05 - 1e-9) * 300 + ceil(time / 0.7 - 1e-9) * 1000;
    printf("  slots: %.0f burst particles asked, %u emitted in all\n", bursts_asked, emitted_total);
    assert_true(emitted_total < bursts_asked);
    /* A finite but absurd step: emission is clamped, everything dies in it,
     * and the bookkeeping holds. */
    plume_frame_desc huge = make_frame(1e30f, view, projection);
    update(system, &huge);
    plume_readback rb = read_all(fixture_context(), system);
    check_slots_partition(&rb, capacity, FRAMES);
    assert_int_equal(rb.live_count, 0);
    free_readback(&rb);
    destroy_system(system);
}

/* ---- Integration against the closed form ---------------------------------- */

/* dv/dt = g - k (v - w): v(t) = u + (v0 - u) e^-kt with u = w + g/k, and
 * x(t) = x0 + u t + (v0 - u)(1 - e^-kt)/k; for k = 0, x0 + v0 t + g t^2 / 2. */
static void closed_form(const double x0[3], const double v0[3], const double g[3], const double w[3], double k,
                        double t, double x[3], double v[3]) {
    for (int i = 0; i < 3; ++i) {
        if (k == 0.0) {
            x[i] = x0[i] + v0[i] * t + 0.5 * g[i] * t * t;
            v[i] = v0[i] + g[i] * t;
        } else {
            double u = w[i] + g[i] / k, e = exp(-k * t);
            x[i] = x0[i] + u * t + (v0[i] - u) * (1.0 - e) / k;
            v[i] = u + (v0[i] - u) * e;
        }
    }
}

static void test_positions_match_closed_form(void **state) {
    (void)state;
    enum { STEPS = 120 };
    for (int with_drag = 0; with_drag < 2; ++with_drag) {
        plume_system_desc desc = {.capacity = 1000, .seed = test_random_u32()};
        plume_emitter_desc *e = &desc.emitters[0];
        for (int i = 0; i < 3; ++i) e->position[i] = test_random_float(-5, 5);
        random_direction(e->direction);
        float speed = test_random_float(0.5f, 4.0f);
        *e = (plume_emitter_desc){.position = {e->position[0], e->position[1], e->position[2]},
                                  .direction = {e->direction[0], e->direction[1], e->direction[2]},
                                  .rate = 40, .lifetime = {100, 100}, .speed = {speed, speed}};
        for (int i = 0; i < 3; ++i) {
            desc.forces.gravity[i] = test_random_float(-3, 3);
            desc.forces.wind[i] = test_random_float(-2, 2);
        }
        desc.forces.drag = with_drag ? test_random_float(0.2f, 3.0f) : 0.0f;
        plume_system system = make_system(desc);
        /* At least 3 s of random steps: at 40 a second, over 100 live. */
        double elapsed = 0.0;
        for (int k = 0; k < STEPS || elapsed < 3.0; ++k) {
            plume_frame_desc frame = make_frame(test_random_float(0.004f, 0.05f), NULL, NULL);
            elapsed += frame.dt;
            update(system, &frame);
        }
        plume_readback rb = read_all(fixture_context(), system);
        assert_true(rb.live_count > 100);
        double x0[3], v0[3], g[3], w[3];
        for (int i = 0; i < 3; ++i) {
            x0[i] = e->position[i];
            v0[i] = (double)e->direction[i] * speed;
            g[i] = desc.forces.gravity[i];
            w[i] = desc.forces.wind[i];
        }
        double worst = 0.0;
        for (uint32_t n = 0; n < rb.live_count; ++n) {
            const plume_particle *p = &rb.particles[rb.draw_order[n]];
            double x[3], v[3];
            closed_form(x0, v0, g, w, desc.forces.drag, p->age, x, v);
            for (int i = 0; i < 3; ++i) {
                double error = fabs(p->position[i] - x[i]) / (1.0 + fabs(x[i]));
                double v_error = fabs(p->velocity[i] - v[i]) / (1.0 + fabs(v[i]));
                if (error > worst) worst = error;
                if (error > 2e-4 || v_error > 2e-4)
                    fail_msg("drag %g, age %g: position[%d] %g (closed form %g), velocity %g (%g)", desc.forces.drag,
                             p->age, i, p->position[i], x[i], p->velocity[i], v[i]);
            }
        }
        printf("  integration (drag %.3f): %u particles, worst relative error %.2e\n", desc.forces.drag, rb.live_count,
               worst);
        free_readback(&rb);
        destroy_system(system);
    }
}

const struct CMUnitTest particle_emission_tests[] = {
    cmocka_unit_test_setup_teardown(test_emission_counts_and_lifetimes, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bursts_and_zero_steps, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_slots_live_or_dead_after_thousands_of_frames, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_positions_match_closed_form, fixture_setup, fixture_teardown),
};
const size_t particle_emission_test_count = sizeof particle_emission_tests / sizeof particle_emission_tests[0];
