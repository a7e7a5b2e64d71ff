/* The particle system against CPU references: emission counts and lifetimes,
 * the slot bookkeeping (live + dead = every slot, once), integration, the
 * back-to-front order, determinism, an image composited on the CPU, bad
 * descriptors, GL state and several systems at once. */
#define _DEFAULT_SOURCE 1 /* mkstemp, mkstemps */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include "headless_gl.h"
#include "plume/plume_particles.h"
#include "plume/plume_sort.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { POISON_BYTE = 0xAB };

static void *malloc_for_partial_allocator_test(size_t size, void *user) {
    (void)user;
    return malloc(size);
}

/* ---- Helpers ------------------------------------------------------------- */

/* In the test's context, whose logger the system inherits. */
static plume_system make_system(plume_system_desc desc) {
    plume_system system = {0};
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    assert_int_not_equal(system.id, 0);
    return system;
}

static plume_system_desc system_desc(plume_context *context, plume_system system) {
    plume_system_desc desc;
    assert_int_equal(plume_system_get_desc(context, system, &desc), PLUME_OK);
    return desc;
}

static void destroy_system(plume_system system) {
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

/* Everything the readback can give, in poisoned arrays so unwritten entries
 * show. */
static plume_readback read_all(plume_context *context, plume_system system) {
    uint32_t capacity = system_desc(context, system).capacity;
    plume_readback rb = {0};
    rb.particles = malloc(sizeof(plume_particle) * capacity);
    rb.draw_order = malloc(sizeof(uint32_t) * capacity);
    rb.draw_keys = malloc(sizeof(uint32_t) * capacity);
    rb.dead_slots = malloc(sizeof(uint32_t) * capacity);
    assert_true(rb.particles && rb.draw_order && rb.draw_keys && rb.dead_slots);
    memset(rb.particles, POISON_BYTE, sizeof(plume_particle) * capacity);
    memset(rb.draw_order, POISON_BYTE, sizeof(uint32_t) * capacity);
    memset(rb.draw_keys, POISON_BYTE, sizeof(uint32_t) * capacity);
    memset(rb.dead_slots, POISON_BYTE, sizeof(uint32_t) * capacity);
    assert_int_equal(plume_system_read_back(context, system, &rb), PLUME_OK);
    assert_true(rb.live_count <= capacity);
    assert_true(rb.dead_count <= capacity);
    return rb;
}

static void free_readback(plume_readback *rb) {
    free(rb->particles);
    free(rb->draw_order);
    free(rb->draw_keys);
    free(rb->dead_slots);
}

/* The live particle with emission number `id`, or NULL. */
static const plume_particle *find_by_id(const plume_readback *rb, uint32_t id) {
    for (uint32_t i = 0; i < rb->live_count; ++i)
        if (rb->particles[rb->draw_order[i]].id == id) return &rb->particles[rb->draw_order[i]];
    return NULL;
}

/* Without culling: these tests find every live particle in the draw list
 * (culling has tests of its own). */
static plume_frame_desc make_frame(float dt, mat4 view, mat4 projection) {
    plume_frame_desc frame = {.dt = dt, .disable_culling = true};
    if (view) memcpy(frame.view, view, sizeof frame.view);
    if (projection) memcpy(frame.projection, projection, sizeof frame.projection);
    return frame;
}

static void update(plume_system system, const plume_frame_desc *frame) {
    assert_int_equal(plume_system_update(fixture_context(), system, frame), PLUME_OK);
}

/* A random unit vector. */
static void random_direction(float out[3]) {
    float length;
    do {
        for (int i = 0; i < 3; ++i) out[i] = test_random_float(-1.0f, 1.0f);
        length = sqrtf(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
    } while (length < 0.1f || length > 1.0f);
    for (int i = 0; i < 3; ++i) out[i] /= length;
}

static void check_slots_partition(const plume_readback *rb, uint32_t capacity, int frame);

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

static void check_slots_partition(const plume_readback *rb, uint32_t capacity, int frame) {
    assert_int_equal(rb->live_count + rb->dead_count, capacity);
    unsigned char *seen = calloc(capacity, 1);
    assert_non_null(seen);
    for (uint32_t i = 0; i < rb->live_count; ++i) {
        uint32_t slot = rb->draw_order[i];
        if (slot >= capacity || seen[slot]) fail_msg("frame %d: live slot %u out of range or listed twice", frame, slot);
        seen[slot] = 1;
        const plume_particle *p = &rb->particles[slot];
        if (!(p->age < p->lifetime)) fail_msg("frame %d: live slot %u has age %g >= lifetime %g", frame, slot, p->age, p->lifetime);
    }
    for (uint32_t i = 0; i < rb->dead_count; ++i) {
        uint32_t slot = rb->dead_slots[i];
        if (slot >= capacity || seen[slot]) fail_msg("frame %d: dead slot %u out of range or listed twice", frame, slot);
        seen[slot] = 1;
    }
    free(seen);
}

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
        for (int k = 0; k < STEPS; ++k) {
            plume_frame_desc frame = make_frame(test_random_float(0.004f, 0.05f), NULL, NULL);
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

static void random_camera(mat4 view, mat4 projection) {
    vec3 eye, target = {test_random_float(-1, 1), test_random_float(-1, 1), test_random_float(-1, 1)};
    random_direction(eye);
    glm_vec3_scale(eye, test_random_float(4.0f, 12.0f), eye);
    glm_lookat(eye, target, (vec3){0, 1, 0}, view);
    glm_perspective(test_random_float(0.5f, 1.5f), test_random_float(0.5f, 2.0f), 0.1f, 100.0f, projection);
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

/* ---- Determinism and reset ------------------------------------------------- */

static plume_system_desc busy_desc(uint32_t seed) {
    plume_system_desc desc = {.capacity = 1500, .seed = seed};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .position = {1, 0, 0}, .extents = {0.5f},
                                            .rate = 700, .lifetime = {0.3f, 1.5f}, .speed = {0.2f, 1.5f},
                                            .spread = 1.2f, .size = {0.1f, 0.3f}, .rotation = {-3, 3},
                                            .spin = {-2, 2}};
    desc.emitters[6] = (plume_emitter_desc){.shape = PLUME_SHAPE_CONE, .position = {-1, 0, 0}, .extents = {0.3f},
                                            .direction = {0, 0, 2}, .spread = 0.3f, .burst_count = 40,
                                            .burst_interval = 0.2f, .lifetime = {0.5f, 0.9f}, .speed = {1, 2}};
    desc.forces = (plume_forces){.gravity = {0, -1, 0}, .wind = {0.5f, 0, 0}, .drag = 0.4f, .turbulence = 3,
                                 .turbulence_scale = 0.7f, .turbulence_speed = 0.5f};
    return desc;
}

typedef struct run_result {
    uint32_t live_count, emitted_total;
    plume_particle *in_draw_order; /* live_count particles */
} run_result;

/* The live particles of a readback in draw order (frees the readback). */
static run_result result_of(plume_readback *rb) {
    run_result result = {rb->live_count, rb->emitted_total, malloc(sizeof(plume_particle) * (rb->live_count + 1))};
    assert_non_null(result.in_draw_order);
    for (uint32_t i = 0; i < rb->live_count; ++i) result.in_draw_order[i] = rb->particles[rb->draw_order[i]];
    free_readback(rb);
    return result;
}

static run_result run_steps(plume_system system, const float *dts, int steps, mat4 view, mat4 projection) {
    for (int k = 0; k < steps; ++k) {
        plume_frame_desc frame = make_frame(dts[k], view, projection);
        update(system, &frame);
    }
    plume_readback rb = read_all(fixture_context(), system);
    return result_of(&rb);
}

/* Identical particles in identical draw order (slots may differ: they are
 * not part of plume_particle). */
static bool same_run(const run_result *a, const run_result *b) {
    return a->live_count == b->live_count && a->emitted_total == b->emitted_total &&
           memcmp(a->in_draw_order, b->in_draw_order, sizeof(plume_particle) * a->live_count) == 0;
}

/* Random steps and camera, and what a busy system of a random seed gives for
 * them running alone: what the tests of several systems compare with. */
enum { MAX_REFERENCE_STEPS = 60 };
typedef struct reference_run {
    int steps;
    float dts[MAX_REFERENCE_STEPS];
    mat4 view, projection;
    uint32_t seed;
    run_result alone;
} reference_run;

static void make_reference_run(reference_run *r, int steps) {
    assert_true(steps <= MAX_REFERENCE_STEPS);
    r->steps = steps;
    for (int k = 0; k < steps; ++k) r->dts[k] = test_random_float(0.005f, 0.03f);
    random_camera(r->view, r->projection);
    r->seed = test_random_u32();
    plume_system alone = make_system(busy_desc(r->seed));
    r->alone = run_steps(alone, r->dts, steps, r->view, r->projection);
    destroy_system(alone);
}

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

/* ---- Images ------------------------------------------------------------------ */

enum { IMAGE_SIZE = 64 };

/* The test's own evaluation of a curve / gradient (piecewise linear). */
static double curve_at(const plume_curve *curve, double t) {
    if (curve->key_count == 0) return 1.0;
    if (t <= curve->keys[0].time) return curve->keys[0].value;
    for (uint32_t k = 1; k < curve->key_count; ++k)
        if (t < curve->keys[k].time) {
            double f = (t - curve->keys[k - 1].time) / (curve->keys[k].time - curve->keys[k - 1].time);
            return curve->keys[k - 1].value + f * (curve->keys[k].value - curve->keys[k - 1].value);
        }
    return curve->keys[curve->key_count - 1].value;
}

static void gradient_at(const plume_gradient *g, double t, double rgba[4]) {
    int low = 0, high = 0;
    double f = 0.0;
    if (t <= g->keys[0].time) low = high = 0;
    else {
        low = high = (int)g->key_count - 1;
        for (uint32_t k = 1; k < g->key_count; ++k)
            if (t < g->keys[k].time) {
                low = (int)k - 1, high = (int)k;
                f = (t - g->keys[low].time) / (g->keys[high].time - g->keys[low].time);
                break;
            }
    }
    for (int c = 0; c < 4; ++c) rgba[c] = g->keys[low].rgba[c] + f * (g->keys[high].rgba[c] - g->keys[low].rgba[c]);
}

typedef struct sprite_ref {
    double depth, x0, x1, y0, y1; /* window pixels */
    double rgba[4];               /* premultiplied */
} sprite_ref;

static int by_depth_far_first(const void *a, const void *b) {
    double da = ((const sprite_ref *)a)->depth, db = ((const sprite_ref *)b)->depth;
    return da > db ? -1 : da < db ? 1 : 0;
}

/* Composites the read-back particles as solid squares, back to front by
 * the CPU's own depths, for the orthographic camera of the image tests
 * (view: eye at z = 5 looking down -z; 2 world units across the image).
 * ambiguous[pixel] marks pixel centres closer to a square's edge than the
 * rasteriser's vertex snapping (2^-GL_SUBPIXEL_BITS px, plus float slack),
 * where coverage may go either way. */
static void composite_reference(const plume_readback *rb, const plume_appearance *look, const float clear[4],
                                float *rgba, bool *ambiguous) {
    sprite_ref *sprites = malloc(sizeof(sprite_ref) * (rb->live_count + 1));
    assert_non_null(sprites);
    const double pixels_per_unit = IMAGE_SIZE / 2.0;
    GLint subpixel_bits = 4; /* the least GL allows */
    glGetIntegerv(GL_SUBPIXEL_BITS, &subpixel_bits);
    const double snap = ldexp(1.0, -subpixel_bits) + 1e-4;
    for (uint32_t i = 0; i < rb->live_count; ++i) {
        const plume_particle *p = &rb->particles[rb->draw_order[i]];
        double life = p->age / p->lifetime;
        life = life < 0 ? 0 : life > 1 ? 1 : life;
        double half = 0.5 * p->size * curve_at(&look->size_over_life, life) * pixels_per_unit;
        double cx = (p->position[0] + 1.0) * pixels_per_unit, cy = (p->position[1] + 1.0) * pixels_per_unit;
        sprite_ref *s = &sprites[i];
        *s = (sprite_ref){.depth = 5.0 - p->position[2], .x0 = cx - half, .x1 = cx + half, .y0 = cy - half, .y1 = cy + half};
        double color[4];
        gradient_at(&look->color_over_life, life, color);
        double alpha = color[3] * curve_at(&look->opacity_over_life, life);
        for (int c = 0; c < 3; ++c) s->rgba[c] = color[c] * alpha;
        s->rgba[3] = alpha;
    }
    qsort(sprites, rb->live_count, sizeof(sprite_ref), by_depth_far_first);
    for (int y = 0; y < IMAGE_SIZE; ++y)
        for (int x = 0; x < IMAGE_SIZE; ++x) {
            double px = x + 0.5, py = y + 0.5, out[4] = {clear[0], clear[1], clear[2], clear[3]};
            bool edge = false;
            for (uint32_t i = 0; i < rb->live_count; ++i) {
                const sprite_ref *s = &sprites[i];
                if (fabs(px - s->x0) < snap || fabs(px - s->x1) < snap || fabs(py - s->y0) < snap || fabs(py - s->y1) < snap)
                    edge = true;
                if (px <= s->x0 || px >= s->x1 || py <= s->y0 || py >= s->y1) continue;
                for (int c = 0; c < 4; ++c) out[c] = s->rgba[c] + out[c] * (1.0 - s->rgba[3]);
            }
            for (int c = 0; c < 4; ++c) rgba[4 * (y * IMAGE_SIZE + x) + c] = (float)out[c];
            ambiguous[y * IMAGE_SIZE + x] = edge;
        }
    free(sprites);
}

static void ortho_camera(mat4 view, mat4 projection) {
    glm_lookat((vec3){0, 0, 5}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_ortho(-1, 1, -1, 1, 0.1f, 20.0f, projection);
}

/* Overlapping translucent squares flying toward the camera, so the oldest
 * are in front: the emission order is front to back, the wrong one. */
static plume_system_desc overlap_desc(uint32_t seed) {
    plume_system_desc desc = {.capacity = 64, .seed = seed};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .position = {0, 0, -1},
                                            .extents = {0.35f, 0.35f, 0.02f}, .direction = {0, 0, 1},
                                            .rate = 12, .lifetime = {3, 3}, .speed = {0.6f, 0.6f},
                                            .size = {0.5f, 0.8f}};
    plume_appearance *look = &desc.appearance;
    look->color_over_life = (plume_gradient){3, {{0.0f, {1, 0.2f, 0, 0.8f}}, {0.5f, {0.1f, 1, 0.3f, 0.5f}},
                                                 {1.0f, {0.2f, 0.3f, 1, 0.7f}}}};
    look->opacity_over_life = (plume_curve){2, {{0.0f, 1.0f}, {1.0f, 0.6f}}};
    look->size_over_life = (plume_curve){2, {{0.0f, 0.8f}, {1.0f, 1.3f}}};
    return desc;
}

typedef struct image_compare {
    float worst;          /* largest channel difference off the ambiguous pixels */
    int differing;        /* pixels with a channel off by more than the tolerance */
    int covered;          /* pixels the reference changed from the clear colour */
} image_compare;

static image_compare compare_images(const float *image, const float *reference, const bool *ambiguous,
                                    const float clear[4], float tolerance) {
    image_compare result = {0};
    for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i) {
        bool changed = false, differs = false;
        for (int c = 0; c < 4; ++c) {
            changed = changed || fabsf(reference[4 * i + c] - clear[c]) > 1e-4f;
            float d = fabsf(image[4 * i + c] - reference[4 * i + c]);
            if (!ambiguous[i] && d > result.worst) result.worst = d;
            differs = differs || d > tolerance;
        }
        result.covered += changed;
        result.differing += differs && !ambiguous[i];
    }
    return result;
}

static void test_image_matches_cpu_compositing_and_needs_the_sort(void **state) {
    (void)state;
    const float clear[4] = {0.1f, 0.15f, 0.2f, 1.0f};
    mat4 view, projection;
    ortho_camera(view, projection);
    uint32_t seed = test_random_u32();
    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    float *reference = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    bool *ambiguous = malloc(sizeof(bool) * IMAGE_SIZE * IMAGE_SIZE);
    assert_true(image && reference && ambiguous);
    image_compare results[2];
    for (int sorted = 1; sorted >= 0; --sorted) {
        plume_system_desc desc = overlap_desc(seed);
        plume_system system = make_system(desc);
        plume_frame_desc frame = make_frame(1.0f / 15.0f, view, projection);
        frame.disable_sort = !sorted;
        for (int k = 0; k < 30; ++k) update(system, &frame);
        test_target t = test_target_begin(IMAGE_SIZE, clear);
        assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
        test_target_end(&t, image);
        plume_readback rb = read_all(fixture_context(), system);
        assert_true(rb.live_count >= 20);
        check_slots_partition(&rb, 64, 0);
        plume_system_desc resolved = system_desc(fixture_context(), system);
        composite_reference(&rb, &resolved.appearance, clear, reference, ambiguous);
        free_readback(&rb);
        destroy_system(system);
        results[sorted] = compare_images(image, reference, ambiguous, clear, 2e-3f);
        printf("  image (%s): %d pixels covered, %d differ from the CPU reference, worst %.4f\n",
               sorted ? "sorted" : "unsorted", results[sorted].covered, results[sorted].differing,
               results[sorted].worst);
    }
    assert_true(results[1].covered > 400);
    assert_int_equal(results[1].differing, 0);
    /* Unsorted (emission order: front to back here), the same particles
     * composite visibly wrong. */
    assert_true(results[0].differing > 100);
    assert_true(results[0].worst > 0.1f);
    free(image);
    free(reference);
    free(ambiguous);
}

/* One particle of `size` at the origin, alive for a long time, in constant
 * colour `rgba`: the building block of the pixel-level tests below. */
static plume_system_desc single_particle_desc(float size, const float rgba[4]) {
    plume_system_desc desc = {.capacity = 3};
    desc.emitters[1] = (plume_emitter_desc){.burst_count = 1, .lifetime = {4, 4}, .size = {size, size}};
    desc.appearance.color_over_life = (plume_gradient){1, {{0.0f, {rgba[0], rgba[1], rgba[2], rgba[3]}}}};
    return desc;
}

static void pixel_at(const float *image, int x, int y, float out[4]) {
    memcpy(out, &image[4 * (y * IMAGE_SIZE + x)], sizeof(float) * 4);
}

static void assert_pixel(const float *image, int x, int y, const float expected[4], float tolerance, const char *what) {
    float got[4];
    pixel_at(image, x, y, got);
    for (int c = 0; c < 4; ++c)
        if (fabsf(got[c] - expected[c]) > tolerance)
            fail_msg("%s: pixel (%d, %d) is (%.4f %.4f %.4f %.4f), expected (%.4f %.4f %.4f %.4f)", what, x, y, got[0],
                     got[1], got[2], got[3], expected[0], expected[1], expected[2], expected[3]);
}

/* ---- Soft particles ---------------------------------------------------------- */

/* A depth texture holding a plane at view depth `plane` for `projection`. */
static GLuint plane_depth_texture(mat4 projection, float plane) {
    vec4 clip;
    glm_mat4_mulv(projection, (vec4){0, 0, -plane, 1}, clip);
    float window = 0.5f * clip[2] / clip[3] + 0.5f;
    float *depths = malloc(sizeof(float) * IMAGE_SIZE * IMAGE_SIZE);
    assert_non_null(depths);
    for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i) depths[i] = window;
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, IMAGE_SIZE, IMAGE_SIZE, 0, GL_DEPTH_COMPONENT, GL_FLOAT,
                 depths);
    /* A shadow-map setup: the module's own sampler must override it. */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glBindTexture(GL_TEXTURE_2D, 0);
    free(depths);
    return texture;
}

/* The particle sits at view depth 5; a scene plane d behind it fades it to
 * alpha * clamp(d / 0.5, 0, 1) (default fade distance), for an orthographic
 * and a perspective camera (whose depth is not linear). */
static void test_soft_particles_fade_against_scene_depth(void **state) {
    (void)state;
    const float white[4] = {1, 1, 1, 0.8f}, clear[4] = {0, 0, 0, 0};
    plume_system system = make_system(single_particle_desc(1.0f, white));
    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    assert_non_null(image);
    for (int perspective = 0; perspective < 2; ++perspective) {
        mat4 view, projection;
        ortho_camera(view, projection);
        if (perspective) glm_perspective(1.0f, 1.0f, 0.5f, 50.0f, projection);
        plume_frame_desc frame = make_frame(0.25f, view, projection);
        update(system, &frame);
        const float planes[] = {7.0f, 5.25f, 5.1f, 4.9f};
        for (int i = 0; i <= 4; ++i) {
            GLuint depth = i < 4 ? plane_depth_texture(projection, planes[i]) : 0;
            frame.depth_texture = depth;
            if (i == 1) frame.viewport_size[0] = frame.viewport_size[1] = IMAGE_SIZE; /* given, not queried */
            test_target t = test_target_begin(IMAGE_SIZE, clear);
            assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
            test_target_end(&t, image);
            glDeleteTextures(1, &depth);
            float fade = i < 4 ? glm_clamp((planes[i] - 5.0f) / 0.5f, 0.0f, 1.0f) : 1.0f;
            float a = 0.8f * fade, expected[4] = {a, a, a, a};
            char what[64];
            snprintf(what, sizeof what, "%s, plane %g", perspective ? "perspective" : "orthographic", i < 4 ? planes[i] : 0.0);
            assert_pixel(image, IMAGE_SIZE / 2, IMAGE_SIZE / 2, expected, 2e-3f, what);
        }
    }
    free(image);
    destroy_system(system);
}

/* ---- Sprites: texture orientation, flipbook frames, frame blending --------- */

/* 16x16 RGBA8, 2x2 frames of 8x8: red, green (top row), blue, half-transparent
 * white (bottom row); rows from the top. */
static unsigned char *flipbook_pixels(void) {
    static const unsigned char colors[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 128}};
    unsigned char *pixels = malloc(16 * 16 * 4);
    assert_non_null(pixels);
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) memcpy(&pixels[4 * (y * 16 + x)], colors[(y / 8) * 2 + x / 8], 4);
    return pixels;
}

static void test_flipbook_frames_by_age_with_blending(void **state) {
    (void)state;
    const float white[4] = {1, 1, 1, 1}, clear[4] = {0, 0, 0, 0};
    /* Premultiplied frames as the module stores them (alpha 128 rounds to 128). */
    const float h = 128.0f / 255.0f;
    const float frames[4][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {h, h, h, h}};
    unsigned char *pixels = flipbook_pixels();
    char path[] = "/tmp/plume_flipbook_XXXXXX.png";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    close(fd);
    assert_true(stbi_write_png(path, 16, 16, 4, pixels, 16 * 4) != 0);

    mat4 view, projection;
    ortho_camera(view, projection);
    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    assert_non_null(image);
    /* Ages 0.5, 1.5, 2.5, 3.75 of a 4 s life over 4 frames: frame 0.5 (red to
     * green), 1.5, 2.5, 3.75 (the last frame holds). */
    const float steps[] = {0.5f, 1.0f, 1.0f, 1.25f};
    const int first[] = {0, 1, 2, 3}, next[] = {1, 2, 3, 3};
    const float mix_by_age[] = {0.5f, 0.5f, 0.5f, 0.0f};
    for (int variant = 0; variant < 3; ++variant) { /* pixels + blend, file + blend, pixels without blend */
        plume_system_desc desc = single_particle_desc(1.5f, white);
        plume_texture_desc *texture = &desc.appearance.texture;
        *texture = (plume_texture_desc){.columns = 2, .rows = 2, .disable_frame_blend = variant == 2};
        if (variant == 1) texture->path = path;
        else *texture = (plume_texture_desc){.pixels = pixels, .width = 16, .height = 16, .columns = 2, .rows = 2,
                                             .disable_frame_blend = variant == 2};
        plume_system system = make_system(desc);
        assert_int_equal(system_desc(fixture_context(), system).appearance.texture.width, 16);
        for (int k = 0; k < 4; ++k) {
            plume_frame_desc frame = make_frame(steps[k], view, projection);
            update(system, &frame);
            test_target t = test_target_begin(IMAGE_SIZE, clear);
            assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
            test_target_end(&t, image);
            float f = variant == 2 ? 0.0f : mix_by_age[k], expected[4];
            for (int c = 0; c < 4; ++c) expected[c] = frames[first[k]][c] * (1 - f) + frames[next[k]][c] * f;
            char what[64];
            snprintf(what, sizeof what, "variant %d, step %d", variant, k);
            assert_pixel(image, IMAGE_SIZE / 2, IMAGE_SIZE / 2, expected, 3e-3f, what);
        }
        destroy_system(system);
    }
    /* Orientation: the top-left quarter of the quad shows the frame's
     * top-left texels; with one frame (no flipbook) the quad's top-left is red
     * and its bottom-right white. */
    plume_system_desc desc = single_particle_desc(1.5f, white);
    desc.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = 16, .height = 16};
    plume_system system = make_system(desc);
    plume_frame_desc frame = make_frame(0.5f, view, projection);
    update(system, &frame);
    test_target t = test_target_begin(IMAGE_SIZE, clear);
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    test_target_end(&t, image);
    /* The quad spans 48 px around the centre; rows of the image go up. */
    assert_pixel(image, IMAGE_SIZE / 2 - 12, IMAGE_SIZE / 2 + 12, frames[0], 3e-3f, "top left");
    assert_pixel(image, IMAGE_SIZE / 2 + 12, IMAGE_SIZE / 2 + 12, frames[1], 3e-3f, "top right");
    assert_pixel(image, IMAGE_SIZE / 2 - 12, IMAGE_SIZE / 2 - 12, frames[2], 3e-3f, "bottom left");
    assert_pixel(image, IMAGE_SIZE / 2 + 12, IMAGE_SIZE / 2 - 12, frames[3], 3e-3f, "bottom right");
    destroy_system(system);
    remove(path);
    free(pixels);
    free(image);
}

/* Spin pi/4 per second for 1 s turns the square into a diamond: a corner of
 * the upright square is left, a point past its side along an axis is covered. */
static void test_rotation_and_spin_turn_the_quad(void **state) {
    (void)state;
    const float white[4] = {1, 1, 1, 1}, clear[4] = {0, 0, 0, 0}, none[4] = {0, 0, 0, 0};
    mat4 view, projection;
    ortho_camera(view, projection);
    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    assert_non_null(image);
    for (int spinning = 0; spinning < 2; ++spinning) {
        plume_system_desc desc = single_particle_desc(1.0f, white); /* 32 px wide */
        if (spinning) desc.emitters[1].spin = (plume_range){GLM_PI_4f, GLM_PI_4f};
        plume_system system = make_system(desc);
        plume_frame_desc frame = make_frame(0.5f, view, projection);
        update(system, &frame);
        update(system, &frame);
        plume_readback rb = read_all(fixture_context(), system);
        assert_int_equal(rb.live_count, 1);
        assert_float_equal(rb.particles[rb.draw_order[0]].rotation, spinning ? GLM_PI_4f : 0.0f, 1e-6);
        free_readback(&rb);
        test_target t = test_target_begin(IMAGE_SIZE, clear);
        assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
        test_target_end(&t, image);
        const int c = IMAGE_SIZE / 2;
        assert_pixel(image, c + 13, c + 13, spinning ? none : white, 1e-4f, "near the square's corner");
        assert_pixel(image, c + 20, c, spinning ? white : none, 1e-4f, "past the square's side");
        destroy_system(system);
    }
    free(image);
}

/* ---- Bad input ---------------------------------------------------------------- */

/* Bad case `which` applied to a valid descriptor; false past the last case. */
static bool make_bad_desc(int which, plume_system_desc *d, plume_result *expected, const char **message,
                          const char *missing_path, const char *not_an_image, const void *pixels) {
    static const unsigned char few_pixels[4 * 4 * 4];
    *expected = PLUME_ERROR_INVALID_ARGUMENT;
    GLint64 block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    switch (which) {
    case 0: d->capacity = 0, *message = "capacity is 0"; break;
    case 1: d->capacity = 0xFFFFFFFFu, *message = "over this GL's limit"; break;
    case 2: d->capacity = (uint32_t)(block / 32 + 1), *message = "over this GL's limit"; break; /* 32 bytes of motion */
    case 3: d->emitters[0].lifetime = (plume_range){-1, 1}, *message = "emitters[0].lifetime"; break;
    case 4: d->emitters[0].lifetime = (plume_range){2, 1}, *message = "min 2 over max 1"; break;
    case 5: d->emitters[0].lifetime = (plume_range){NAN, 1}, *message = "emitters[0].lifetime must be finite"; break;
    case 6: d->emitters[0].rate = NAN, *message = "emitters[0].rate"; break;
    case 7: d->emitters[3].rate = -5, *message = "emitters[3].rate"; break;
    case 8: d->forces.gravity[1] = NAN, *message = "forces.gravity"; break;
    case 9: d->forces.drag = -1, *message = "forces.drag"; break;
    case 10: d->forces.turbulence_scale = INFINITY, *message = "forces.turbulence_scale"; break;
    case 11: d->emitters[2].spread = 4, *message = "emitters[2].spread"; break;
    case 12: d->emitters[0].size = (plume_range){0, 0.5f}, *message = "emitters[0].size"; break;
    case 13: d->emitters[7].shape = (plume_emitter_shape)7, *message = "emitters[7].shape"; break;
    case 14: d->emitters[0].extents[2] = -1, *message = "emitters[0].extents"; break;
    case 15: d->appearance.size_over_life = (plume_curve){2, {{0.5f, 1}, {0.2f, 1}}}, *message = "appearance.size_over_life"; break;
    case 16: d->appearance.opacity_over_life.key_count = 9, *message = "appearance.opacity_over_life has 9 keys"; break;
    case 17: d->appearance.color_over_life = (plume_gradient){1, {{0, {2, 0, 0, 1}}}}, *message = "color_over_life"; break;
    case 18: d->appearance.texture.path = missing_path, *expected = PLUME_ERROR_IO, *message = "cannot open texture file"; break;
    case 19: d->appearance.texture.path = not_an_image, *expected = PLUME_ERROR_IO, *message = "not an image"; break;
    case 20:
        d->appearance.texture = (plume_texture_desc){.path = not_an_image, .pixels = pixels, .width = 16, .height = 16};
        *message = "both a path and pixels";
        break;
    case 21: d->appearance.texture = (plume_texture_desc){.pixels = pixels}, *message = "zero width or height"; break;
    case 22:
        d->appearance.texture = (plume_texture_desc){.pixels = few_pixels, .width = 4, .height = 4, .columns = 5};
        *message = "flipbook";
        break;
    case 23: d->appearance.soft_fade_distance = -1, *message = "appearance.soft_fade_distance"; break;
    case 24: d->emitters[4].spin = (plume_range){0, INFINITY}, *message = "emitters[4].spin"; break;
    case 25: d->emitters[0].direction[0] = NAN, *message = "emitters[0].direction"; break;
    default: return false;
    }
    return true;
}

static void test_bad_descriptors_are_refused_cleanly(void **state) {
    (void)state;
    test_log_expect_errors();
    char not_an_image[] = "/tmp/plume_not_an_image_XXXXXX";
    int fd = mkstemp(not_an_image);
    assert_true(fd >= 0);
    assert_true(write(fd, "just text\n", 10) == 10);
    close(fd);
    unsigned char *pixels = flipbook_pixels();
    static test_gl_census before, now;
    test_take_gl_census(&before);
    int cases = 0;
    for (int which = 0;; ++which) {
        test_allocator_stats stats = {0};
        plume_system_desc desc = overlap_desc(1);
        plume_result expected;
        const char *message = NULL;
        if (!make_bad_desc(which, &desc, &expected, &message, "/tmp/plume/no/such/file.png", not_an_image, pixels))
            break;
        desc.allocator = test_counting_allocator(&stats);
        int errors_before = test_log_error_count();
        plume_system system = {0xABABABABABABABABull}; /* must be reset to {0} */
        plume_result result = plume_system_create(fixture_context(), &desc, &system);
        if (result != expected || system.id != 0 || !test_log_contains(message) ||
            test_log_error_count() == errors_before)
            fail_msg("case %d: result %s (expected %s), handle 0x%llx, message \"%s\" %s", which,
                     plume_result_string(result), plume_result_string(expected), (unsigned long long)system.id,
                     message, test_log_contains(message) ? "logged" : "missing");
        if (stats.live_blocks != 0) fail_msg("case %d: %ld blocks leaked", which, stats.live_blocks);
        uint32_t filed = 0;
        assert_int_equal(plume_context_list_gl_objects(fixture_context(), NULL, 0, &filed), PLUME_OK);
        if (filed != 0) fail_msg("case %d: %u GL objects left filed in the context", which, filed);
        ++cases;
    }
    assert_true(cases >= 25);
    /* A partial allocator and null pointers. */
    plume_system_desc desc = overlap_desc(1);
    desc.allocator.allocate = malloc_for_partial_allocator_test;
    plume_system system = {0};
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("allocator"));
    assert_int_equal(plume_system_create(fixture_context(), NULL, &system), PLUME_ERROR_INVALID_ARGUMENT);
    desc.allocator = (plume_allocator){0};
    assert_int_equal(plume_system_create(fixture_context(), &desc, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_create(NULL, &desc, &system), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(system.id, 0);
    /* Whatever any case made is gone (asked of the GL, not of the module). */
    test_take_gl_census(&now);
    test_assert_same_census(&before, &now, "after the refused descriptors");
    remove(not_an_image);
    free(pixels);
}

/* Calls with bad arguments on a live system: an error and a message, and the
 * system is unchanged (same particles after, same emitter). */
static void test_bad_calls_change_nothing(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_system system = make_system(busy_desc(test_random_u32()));
    plume_frame_desc frame = make_frame(0.02f, NULL, NULL);
    for (int k = 0; k < 10; ++k) update(system, &frame);
    plume_readback before = read_all(fixture_context(), system);

    const float bad_dts[] = {-0.01f, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad_dts / sizeof bad_dts[0]; ++i) {
        plume_frame_desc bad = make_frame(bad_dts[i], NULL, NULL);
        assert_int_equal(plume_system_update(fixture_context(), system, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    }
    assert_true(test_log_contains("dt is"));
    plume_frame_desc bad_matrix = make_frame(0.01f, NULL, NULL);
    bad_matrix.view[5] = NAN;
    assert_int_equal(plume_system_update(fixture_context(), system, &bad_matrix), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_draw(fixture_context(), system, &bad_matrix), PLUME_ERROR_INVALID_ARGUMENT);
    plume_frame_desc bad_texture = make_frame(0.0f, NULL, NULL);
    bad_texture.depth_texture = 987654;
    assert_int_equal(plume_system_draw(fixture_context(), system, &bad_texture), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("is not a texture"));
    assert_int_equal(plume_system_update(fixture_context(), system, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_draw(fixture_context(), system, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_read_back(fixture_context(), system, NULL), PLUME_ERROR_INVALID_ARGUMENT);

    plume_system_desc desc_before = system_desc(fixture_context(), system);
    plume_emitter_desc emitter = desc_before.emitters[0];
    assert_int_equal(plume_system_set_emitter(fixture_context(), system, PLUME_MAX_EMITTERS, &emitter), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_set_emitter(fixture_context(), system, 0, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    emitter.rate = NAN;
    assert_int_equal(plume_system_set_emitter(fixture_context(), system, 0, &emitter), PLUME_ERROR_INVALID_ARGUMENT);
    plume_forces forces = desc_before.forces;
    forces.drag = NAN;
    assert_int_equal(plume_system_set_forces(fixture_context(), system, &forces), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_set_forces(fixture_context(), system, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    plume_system_desc desc_after = system_desc(fixture_context(), system);
    assert_memory_equal(&desc_before, &desc_after, sizeof desc_before);

    plume_readback after = read_all(fixture_context(), system);
    assert_int_equal(after.live_count, before.live_count);
    assert_int_equal(after.emitted_total, before.emitted_total);
    for (uint32_t i = 0; i < before.live_count; ++i)
        assert_memory_equal(&before.particles[before.draw_order[i]], &after.particles[after.draw_order[i]],
                            sizeof(plume_particle));
    free_readback(&before);
    free_readback(&after);
    destroy_system(system);
}

/* ---- Defaults ------------------------------------------------------------------- */

static void test_zero_descriptor_fields_take_documented_defaults(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 10};
    desc.emitters[0].rate = 5;
    plume_system system = make_system(desc);
    plume_system_desc d = system_desc(fixture_context(), system);
    const plume_emitter_desc *e = &d.emitters[0];
    assert_int_equal(e->shape, PLUME_SHAPE_POINT);
    assert_true(e->direction[0] == 0 && e->direction[1] == 1 && e->direction[2] == 0);
    assert_true(e->lifetime.min == 1.0f && e->lifetime.max == 1.0f);
    assert_true(e->size.min == 0.1f && e->size.max == 0.1f);
    assert_true(e->speed.min == 0.0f && e->spread == 0.0f);
    assert_true(d.forces.turbulence_scale == 1.0f && d.forces.drag == 0.0f);
    assert_true(d.appearance.soft_fade_distance == 0.5f);
    assert_int_equal(d.appearance.size_over_life.key_count, 1);
    assert_true(d.appearance.size_over_life.keys[0].value == 1.0f);
    assert_int_equal(d.appearance.color_over_life.key_count, 1);
    assert_true(d.appearance.color_over_life.keys[0].rgba[3] == 1.0f);
    assert_true(d.appearance.texture.columns == 1 && d.appearance.texture.rows == 1);
    assert_null(d.appearance.texture.path);
    /* The defaults act: 5 particles a second, alive 1 s, 0.1 wide, at rest. */
    plume_frame_desc frame = make_frame(0.25f, NULL, NULL); /* zero matrices: identity */
    for (int k = 0; k < 8; ++k) update(system, &frame);
    plume_readback rb = read_all(fixture_context(), system);
    assert_int_equal(rb.emitted_total, 10);
    /* Emitted per update: 1 1 1 2 1 1 1 2. Alive: ages below 1.0, the last
     * three updates' 1 + 1 + 2 (the 2 of age exactly 1.0 died). */
    assert_int_equal(rb.live_count, 4);
    for (uint32_t i = 0; i < rb.live_count; ++i) {
        const plume_particle *p = &rb.particles[rb.draw_order[i]];
        assert_true(p->size == 0.1f && p->lifetime == 1.0f);
        assert_true(p->position[0] == 0 && p->position[1] == 0 && p->position[2] == 0);
    }
    free_readback(&rb);
    destroy_system(system);
}

/* ---- GL state ---------------------------------------------------------------------- */

enum { STATE_VALUES = 128 };

/* Everything the module might touch, as integers. */
static int snapshot_gl_state(GLint64 *v) {
    int n = 0;
    const GLenum singles[] = {GL_CURRENT_PROGRAM, GL_SHADER_STORAGE_BUFFER_BINDING, GL_DISPATCH_INDIRECT_BUFFER_BINDING,
                              GL_DRAW_INDIRECT_BUFFER_BINDING, GL_COPY_READ_BUFFER_BINDING,
                              GL_COPY_WRITE_BUFFER_BINDING, GL_PIXEL_UNPACK_BUFFER_BINDING, GL_UNPACK_ALIGNMENT,
                              GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_PIXELS, GL_UNPACK_SKIP_ROWS,
                              GL_VERTEX_ARRAY_BINDING, GL_ARRAY_BUFFER_BINDING, GL_ELEMENT_ARRAY_BUFFER_BINDING,
                              GL_UNIFORM_BUFFER_BINDING, GL_ACTIVE_TEXTURE, GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB,
                              GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA, GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA,
                              GL_DEPTH_FUNC, GL_DEPTH_WRITEMASK, GL_DRAW_FRAMEBUFFER_BINDING,
                              GL_READ_FRAMEBUFFER_BINDING};
    for (size_t i = 0; i < sizeof singles / sizeof singles[0]; ++i) glGetInteger64v(singles[i], &v[n++]);
    const GLenum capabilities[] = {GL_BLEND, GL_DEPTH_TEST, GL_CULL_FACE, GL_SCISSOR_TEST, GL_DEBUG_OUTPUT_SYNCHRONOUS};
    for (size_t i = 0; i < sizeof capabilities / sizeof capabilities[0]; ++i) v[n++] = glIsEnabled(capabilities[i]);
    for (GLuint i = 0; i < 8; ++i) {
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_BINDING, i, &v[n++]);
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, i, &v[n++]);
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, i, &v[n++]);
    }
    GLint active = 0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    for (GLuint unit = 0; unit < 4; ++unit) {
        glActiveTexture(GL_TEXTURE0 + unit);
        glGetInteger64v(GL_TEXTURE_BINDING_2D, &v[n++]);
        glGetInteger64v(GL_SAMPLER_BINDING, &v[n++]);
    }
    glActiveTexture((GLenum)active);
    GLint viewport[4];
    glGetIntegerv(GL_VIEWPORT, viewport);
    for (int i = 0; i < 4; ++i) v[n++] = viewport[i];
    void *callback = NULL, *user = NULL;
    glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION, &callback);
    glGetPointerv(GL_DEBUG_CALLBACK_USER_PARAM, &user);
    v[n++] = (GLint64)(intptr_t)callback;
    v[n++] = (GLint64)(intptr_t)user;
    assert_true(n <= STATE_VALUES);
    return n;
}

static void assert_state_unchanged(const GLint64 *before, int count, const char *after_what) {
    GLint64 now[STATE_VALUES];
    int n = snapshot_gl_state(now);
    assert_int_equal(n, count);
    for (int i = 0; i < n; ++i)
        if (now[i] != before[i])
            fail_msg("GL state value %d changed by %s: %lld became %lld", i, after_what, (long long)before[i],
                     (long long)now[i]);
}

static void test_particle_calls_restore_gl_state(void **state) {
    (void)state;
    mat4 view, projection;
    ortho_camera(view, projection);
    GLuint depth = plane_depth_texture(projection, 6.0f);
    /* A host with unusual state everywhere the module might touch. */
    GLint alignment = 0;
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
    GLuint buffers[14];
    for (int i = 0; i < 14; ++i) buffers[i] = test_buffer_create(4096, NULL);
    for (GLuint i = 0; i < 8; ++i) {
        if (i % 2) glBindBufferRange(GL_SHADER_STORAGE_BUFFER, i, buffers[i], alignment, 512);
        else glBindBufferBase(GL_SHADER_STORAGE_BUFFER, i, buffers[i]);
    }
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[8]);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, buffers[9]);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, buffers[10]);
    glBindBuffer(GL_COPY_READ_BUFFER, buffers[11]);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffers[12]);
    GLuint host_vao = 0;
    glGenVertexArrays(1, &host_vao);
    glBindVertexArray(host_vao);
    const char *source = "#version 430 core\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
    GLuint shader = glCreateShader(GL_COMPUTE_SHADER), program = glCreateProgram();
    glShaderSource(shader, 1, &source, NULL);
    glCompileShader(shader);
    glAttachShader(program, shader);
    glLinkProgram(program);
    glUseProgram(program);
    GLuint textures[4], samplers[4];
    glGenTextures(4, textures);
    glGenSamplers(4, samplers);
    for (GLuint unit = 0; unit < 4; ++unit) {
        glActiveTexture(GL_TEXTURE0 + unit);
        glBindTexture(GL_TEXTURE_2D, textures[unit]);
        glBindSampler(unit, samplers[unit]);
    }
    glActiveTexture(GL_TEXTURE3);
    glDisable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_DST_COLOR, GL_ZERO, GL_CONSTANT_ALPHA);
    glBlendEquationSeparate(GL_FUNC_REVERSE_SUBTRACT, GL_MAX);
    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_GEQUAL);
    glEnable(GL_CULL_FACE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 3);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffers[13]);
    const float clear[4] = {0, 0, 0, 0};
    test_target t = test_target_begin(IMAGE_SIZE, clear);

    GLint64 before[STATE_VALUES];
    int count = snapshot_gl_state(before);
    unsigned char *pixels = flipbook_pixels();
    plume_system_desc desc = overlap_desc(3);
    desc.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = 16, .height = 16, .columns = 2};
    plume_system system = make_system(desc);
    assert_state_unchanged(before, count, "create");
    plume_frame_desc frame = make_frame(0.1f, view, projection);
    frame.depth_texture = depth;
    update(system, &frame);
    assert_state_unchanged(before, count, "update");
    frame.disable_sort = true;
    update(system, &frame);
    assert_state_unchanged(before, count, "update without sorting");
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    assert_state_unchanged(before, count, "draw");
    plume_readback rb = read_all(fixture_context(), system);
    free_readback(&rb);
    assert_state_unchanged(before, count, "read_back");
    plume_emitter_desc emitter = {.rate = 3};
    assert_int_equal(plume_system_set_emitter(fixture_context(), system, 2, &emitter), PLUME_OK);
    assert_state_unchanged(before, count, "set_emitter");
    assert_int_equal(plume_system_reset(fixture_context(), system), PLUME_OK);
    assert_state_unchanged(before, count, "reset");
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    assert_state_unchanged(before, count, "set_profiling (on)");
    frame.disable_sort = false;
    for (int k = 0; k < 3; ++k) { /* the second frame on reads the first one's results */
        update(system, &frame);
        assert_state_unchanged(before, count, "update, profiled");
        assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
        assert_state_unchanged(before, count, "draw, profiled");
        glFinish();
    }
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
    assert_true(profile.enabled);
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, false), PLUME_OK);
    assert_state_unchanged(before, count, "set_profiling (off)");
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    update(system, &frame);
    destroy_system(system); /* profiling on, a frame in flight */
    assert_state_unchanged(before, count, "destroy");

    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    test_target_end(&t, image);
    free(image);
    free(pixels);
    glDeleteTextures(1, &depth);
    glUseProgram(0);
    glDeleteProgram(program);
    glDeleteShader(shader);
    glBindVertexArray(0);
    glDeleteVertexArrays(1, &host_vao);
    glDeleteTextures(4, textures);
    glDeleteSamplers(4, samplers);
    glDeleteBuffers(14, buffers);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glBlendFunc(GL_ONE, GL_ZERO);
    glBlendEquation(GL_FUNC_ADD);
    glDepthFunc(GL_LESS);
    glDisable(GL_CULL_FACE);
    glActiveTexture(GL_TEXTURE0);
}

/* ---- Several systems; nothing left behind ---------------------------------------- */

/* System A alone, then A again next to B (created, updated, drawn and
 * destroyed in between): A's particles are the same. */
static void test_two_systems_do_not_interfere(void **state) {
    (void)state;
    enum { STEPS = 60 };
    static reference_run ref;
    make_reference_run(&ref, STEPS);
    plume_system a = make_system(busy_desc(ref.seed));
    plume_system_desc other = overlap_desc(ref.seed);
    other.capacity = 333;
    other.emitters[0].rate = 500;
    plume_system b = make_system(other);
    bool b_alive = true;
    const float clear[4] = {0, 0, 0, 0};
    for (int k = 0; k < STEPS; ++k) {
        plume_frame_desc frame = make_frame(ref.dts[k], ref.view, ref.projection);
        if (b_alive) {
            plume_frame_desc b_frame = make_frame(0.02f, NULL, NULL);
            b_frame.disable_sort = k % 2;
            update(b, &b_frame);
        }
        update(a, &frame);
        test_target t = test_target_begin(IMAGE_SIZE, clear);
        assert_int_equal(plume_system_draw(fixture_context(), a, &frame), PLUME_OK);
        if (b_alive) assert_int_equal(plume_system_draw(fixture_context(), b, &frame), PLUME_OK);
        glDeleteFramebuffers(1, &t.framebuffer);
        glDeleteTextures(1, &t.color);
        glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)t.previous_framebuffer);
        if (b_alive && k == STEPS / 2) {
            plume_readback rb = read_all(fixture_context(), b);
            assert_true(rb.live_count > 0);
            check_slots_partition(&rb, 333, k);
            free_readback(&rb);
            destroy_system(b);
            b_alive = false;
        }
    }
    plume_readback rb = read_all(fixture_context(), a);
    run_result together = result_of(&rb);
    destroy_system(a);
    assert_true(same_run(&ref.alone, &together));
    free(ref.alone.in_draw_order);
    free(together.in_draw_order);
}

/* A system with everything that owns GL objects (texture, profiler queries
 * used in every slot, its sorter) and a counting allocator: the context lists
 * exactly the GL objects its creation and use brought to life, every one of
 * them is gone after destroy (asked with glIs*), and every block is freed. */
static void test_destroy_leaves_no_gl_object_and_no_allocation(void **state) {
    (void)state;
    plume_context *context = fixture_context();
    static test_gl_census before, during, listed, after;
    test_take_gl_census(&before);
    test_allocator_stats stats = {0};
    unsigned char *pixels = flipbook_pixels();
    plume_system_desc desc = busy_desc(5);
    desc.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = 16, .height = 16};
    desc.allocator = test_counting_allocator(&stats);
    plume_system system = make_system(desc);
    assert_int_equal(plume_system_set_profiling(context, system, true), PLUME_OK);
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(0.05f, view, projection);
    const float clear[4] = {0, 0, 0, 0};
    for (int k = 0; k < 6; ++k) { /* more frames than the profiler's ring has slots */
        update(system, &frame);
        test_target t = test_target_begin(IMAGE_SIZE, clear);
        assert_int_equal(plume_system_draw(context, system, &frame), PLUME_OK);
        test_target_end(&t, NULL);
        plume_readback counts = {0}; /* waits for the GPU, so every frame's queries come back */
        assert_int_equal(plume_system_read_back(context, system, &counts), PLUME_OK);
    }
    test_take_gl_census(&during);

    uint32_t total = 0;
    assert_int_equal(plume_context_list_gl_objects(context, NULL, 0, &total), PLUME_OK);
    plume_gl_object *all = malloc(sizeof *all * (total + 1));
    assert_non_null(all);
    assert_int_equal(plume_context_list_gl_objects(context, all, total, &total), PLUME_OK);
    uint32_t kinds[8] = {0};
    memcpy(&listed, &before, sizeof listed);
    for (uint32_t i = 0; i < total; ++i) {
        if (!test_gl_object_alive(all[i])) fail_msg("listed GL object %u (type 0x%04x) is not alive", all[i].name, all[i].type);
        if (all[i].name >= TEST_CENSUS_NAMES) fail_msg("GL name %u is past the census", all[i].name);
        listed.kinds[all[i].name] |= test_census_bit(all[i].type);
        for (int k = 0; k < 8; ++k) kinds[k] += (test_census_bit(all[i].type) >> k) & 1u;
    }
    /* Census bits: buffer, program, shader, query, vertex array, texture,
     * framebuffer, sampler. The system's 5 buffers, the sorter's 2 and one
     * per profiler slot; 5 programs and the sorter's 2 (local sort, merge);
     * 2 queries per stage per slot. */
    assert_true(kinds[0] >= 5 + 2 + 4 && kinds[1] >= 5 + 2 && kinds[3] == 4 * 2 * PLUME_STAGE_COUNT);
    assert_true(kinds[2] == 0 && kinds[4] == 1 && kinds[5] == 1 && kinds[6] == 0 && kinds[7] == 2);
    test_assert_same_census(&listed, &during, "the context's list and what lived before");

    assert_true(stats.live_blocks >= 3); /* the system, its profiler, its sorter at least */
    destroy_system(system);
    for (uint32_t i = 0; i < total; ++i)
        if (test_gl_object_alive(all[i])) fail_msg("GL object %u (type 0x%04x) outlived its system", all[i].name, all[i].type);
    assert_int_equal(plume_context_list_gl_objects(context, NULL, 0, &total), PLUME_OK);
    assert_int_equal(total, 0);
    test_take_gl_census(&after);
    test_assert_same_census(&before, &after, "after destroy");
    assert_int_equal(stats.live_blocks, 0);
    free(all);
    free(pixels);
}

/* A host that forgets its objects: destroying the context frees a system
 * (its profiler on), the system's own sorter (filed before the system, freed
 * by it) and a host sorter filed after it; one warning for each object the
 * host made, none for the system's sorter; no GL object and no block left. */
static void test_context_destroy_frees_a_forgotten_system(void **state) {
    (void)state;
    test_allocator_stats stats = {0};
    plume_context_desc context_desc = {.logger = test_logger(), .allocator = test_counting_allocator(&stats)};
    plume_context *context = NULL;
    assert_int_equal(plume_context_create(&context_desc, &context), PLUME_OK);
    static test_gl_census before, after;
    test_take_gl_census(&before);
    plume_system_desc desc = busy_desc(9);
    plume_system system;
    assert_int_equal(plume_system_create(context, &desc, &system), PLUME_OK);
    assert_int_equal(plume_system_set_profiling(context, system, true), PLUME_OK);
    plume_frame_desc frame = make_frame(0.05f, NULL, NULL);
    for (int k = 0; k < 2; ++k) assert_int_equal(plume_system_update(context, system, &frame), PLUME_OK);
    plume_sorter_desc sorter_desc = {.capacity = 100};
    plume_sorter sorter;
    assert_int_equal(plume_sorter_create(context, &sorter_desc, &sorter), PLUME_OK);
    assert_true(fixture_destroy_context_checked(context) > 0);
    test_take_gl_census(&after);
    test_assert_same_census(&before, &after, "after destroying the context");
    assert_int_equal(stats.live_blocks, 0);
    char expected[128];
    snprintf(expected, sizeof expected, "a system (handle 0x%016llx) is still alive", (unsigned long long)system.id);
    assert_true(test_log_contains(expected));
    snprintf(expected, sizeof expected, "a sorter (handle 0x%016llx) is still alive", (unsigned long long)sorter.id);
    assert_true(test_log_contains(expected));
    assert_int_equal(test_log_count("is still alive"), 2);
    assert_int_equal(test_log_error_count(), 0);
}

/* Every call that takes a system refuses `system` with INVALID_ARGUMENT, one
 * message each containing `reason` (through the context's logger; a NULL
 * context has none, its messages go to stderr), and writes nothing useful. */
static void assert_system_refused(plume_context *context, plume_system system, const char *reason) {
    int errors_before = test_log_error_count();
    plume_frame_desc frame = make_frame(0.01f, NULL, NULL);
    plume_emitter_desc emitter = {.rate = 10};
    plume_forces forces = {.drag = 1};
    assert_int_equal(plume_system_update(context, system, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_draw(context, system, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_reset(context, system), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_set_emitter(context, system, 0, &emitter), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_set_forces(context, system, &forces), PLUME_ERROR_INVALID_ARGUMENT);
    plume_readback readback;
    memset(&readback, 0, sizeof readback);
    assert_int_equal(plume_system_read_back(context, system, &readback), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_set_profiling(context, system, true), PLUME_ERROR_INVALID_ARGUMENT);
    plume_profile profile;
    memset(&profile, 0xAB, sizeof profile);
    assert_int_equal(plume_system_get_profile(context, system, &profile), PLUME_ERROR_INVALID_ARGUMENT);
    assert_false(profile.enabled);
    plume_frame_profile frames[2];
    assert_int_equal(plume_system_get_frame_profiles(context, system, 0, frames, 2), 0);
    plume_system_desc desc;
    memset(&desc, 0xAB, sizeof desc);
    assert_int_equal(plume_system_get_desc(context, system, &desc), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(desc.capacity, 0);
    int calls = 10;
    if (system.id != 0) { /* destroying {0} is a no-op */
        assert_int_equal(plume_system_destroy(context, system), PLUME_ERROR_INVALID_ARGUMENT);
        ++calls;
    }
    if (context) {
        assert_int_equal(test_log_error_count(), errors_before + calls);
        assert_true(test_log_contains(reason));
    }
}

/* Destroyed, foreign, null, garbage and wrong-kind handles are refused by
 * every system call, with a message, and nothing crashes (under
 * config=sanitize also: no freed memory is read). The live systems still
 * work afterwards. */
static void test_destroyed_and_foreign_system_handles_are_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_context *context = fixture_context();
    plume_system_desc desc = {.capacity = 100};
    desc.emitters[0] = (plume_emitter_desc){.rate = 500, .lifetime = {5, 5}};
    plume_system doomed = make_system(desc), copy = doomed; /* handles are values: copies go stale together */
    destroy_system(doomed);
    assert_system_refused(context, copy, "destroyed");
    assert_true(test_log_contains("plume_system_update: system handle 0x"));

    plume_system mine = make_system(desc);
    assert_int_not_equal(mine.id, doomed.id); /* the slot may be reused, the handle is not */
    assert_system_refused(context, doomed, "destroyed");
    plume_context *other = fixture_context_with_another_tag(mine.id);
    plume_system theirs;
    assert_int_equal(plume_system_create(other, &desc, &theirs), PLUME_OK);
    assert_system_refused(context, theirs, "another plume context");
    assert_system_refused(other, mine, "another plume context");
    assert_system_refused(context, (plume_system){0}, "null handle");
    assert_system_refused(NULL, mine, "context is NULL");
    plume_sorter_desc sorter_desc = {.capacity = 10};
    plume_sorter sorter;
    assert_int_equal(plume_sorter_create(context, &sorter_desc, &sorter), PLUME_OK);
    assert_system_refused(context, (plume_system){sorter.id}, "another kind");
    assert_int_equal(plume_sorter_destroy(context, sorter), PLUME_OK);
    uint64_t tag_bits = mine.id & 0xFFFF000000000000ull;
    for (int i = 0; i < 100; ++i) {
        uint64_t id = (uint64_t)test_random_u32() << 32 | test_random_u32();
        if (i % 2) id = tag_bits | (id & 0xFFFFFFFFFFFFull); /* right tag, garbage slot and generation */
        if (id == mine.id || id == 0) continue;
        plume_frame_desc frame = make_frame(0.01f, NULL, NULL);
        assert_int_equal(plume_system_update(context, (plume_system){id}, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    }
    assert_int_equal(plume_system_destroy(context, (plume_system){0}), PLUME_OK); /* a no-op, like free(NULL) */

    /* Both live systems still run. */
    plume_frame_desc frame = make_frame(0.1f, NULL, NULL);
    update(mine, &frame);
    assert_int_equal(plume_system_update(other, theirs, &frame), PLUME_OK);
    plume_readback counts = {0};
    assert_int_equal(plume_system_read_back(context, mine, &counts), PLUME_OK);
    assert_int_equal(counts.live_count, 50);
    memset(&counts, 0, sizeof counts);
    assert_int_equal(plume_system_read_back(other, theirs, &counts), PLUME_OK);
    assert_int_equal(counts.live_count, 50);
    assert_int_equal(plume_system_destroy(other, theirs), PLUME_OK);
    plume_context_destroy(other);
    destroy_system(mine);
}

/* A system per GL context, each with its own plume context (no sharing, so
 * both GL contexts hand out the same buffer and program names), updated and
 * drawn in turn: system A's particles match A run alone, and destroying A in
 * its GL context leaves B, whose GL names are the same numbers, working. */
static void test_two_systems_in_two_gl_contexts(void **state) {
    (void)state;
    enum { STEPS = 24 };
    static reference_run ref;
    make_reference_run(&ref, STEPS);
    headless_gl gl[2];
    plume_context *context[2];
    plume_system system[2];
    plume_system_desc descs[2] = {busy_desc(ref.seed), overlap_desc(ref.seed + 1)};
    descs[1].emitters[0].rate = 400;
    plume_context_desc context_desc = {.logger = test_logger()};
    char error[256];
    for (int i = 0; i < 2; ++i) {
        if (!headless_gl_create(&gl[i], true, NULL, error, sizeof error)) fail_msg("GL context %d: %s", i, error);
        assert_int_equal(plume_context_create(&context_desc, &context[i]), PLUME_OK);
        assert_int_equal(plume_system_create(context[i], &descs[i], &system[i]), PLUME_OK);
    }
    const float clear[4] = {0, 0, 0, 0};
    for (int k = 0; k < STEPS; ++k)
        for (int i = 1; i >= 0; --i) {
            assert_true(headless_gl_make_current(&gl[i]));
            plume_frame_desc frame = make_frame(i == 0 ? ref.dts[k] : 0.02f, ref.view, ref.projection);
            frame.disable_sort = i == 1 && k % 2;
            assert_int_equal(plume_system_update(context[i], system[i], &frame), PLUME_OK);
            test_target t = test_target_begin(16, clear);
            assert_int_equal(plume_system_draw(context[i], system[i], &frame), PLUME_OK);
            test_target_end(&t, NULL);
        }
    assert_true(headless_gl_make_current(&gl[0]));
    plume_readback rb = read_all(context[0], system[0]);
    run_result together = result_of(&rb);
    assert_true(same_run(&ref.alone, &together));

    uint32_t count = 0;
    plume_gl_object objects[64];
    assert_int_equal(plume_context_list_gl_objects(context[0], objects, 64, &count), PLUME_OK);
    assert_true(count > 0 && count <= 64);
    assert_int_equal(plume_system_destroy(context[0], system[0]), PLUME_OK);
    for (uint32_t i = 0; i < count; ++i) assert_false(test_gl_object_alive(objects[i]));
    assert_true(headless_gl_make_current(&gl[1]));
    uint32_t alive_in_b = 0;
    for (uint32_t i = 0; i < count; ++i) alive_in_b += test_gl_object_alive(objects[i]);
    assert_true(alive_in_b > 0); /* the same numbers name B's objects here */
    plume_frame_desc frame = make_frame(0.1f, NULL, NULL);
    assert_int_equal(plume_system_update(context[1], system[1], &frame), PLUME_OK);
    plume_readback counts = {0};
    assert_int_equal(plume_system_read_back(context[1], system[1], &counts), PLUME_OK);
    assert_true(counts.live_count > 0 && counts.live_count + counts.dead_count == descs[1].capacity);
    assert_int_equal(plume_system_destroy(context[1], system[1]), PLUME_OK);
    for (int i = 0; i < 2; ++i) {
        assert_true(headless_gl_make_current(&gl[i]));
        plume_context_destroy(context[i]);
        headless_gl_destroy(&gl[i]);
    }
    test_make_main_context_current();
    free(ref.alone.in_draw_order);
    free(together.in_draw_order);
}

const struct CMUnitTest particle_tests[] = {
    cmocka_unit_test_setup_teardown(test_emission_counts_and_lifetimes, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bursts_and_zero_steps, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_slots_live_or_dead_after_thousands_of_frames, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_positions_match_closed_form, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_draw_list_is_back_to_front, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_same_seed_same_particles_and_reset_restarts, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_image_matches_cpu_compositing_and_needs_the_sort, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_soft_particles_fade_against_scene_depth, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_flipbook_frames_by_age_with_blending, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_rotation_and_spin_turn_the_quad, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bad_descriptors_are_refused_cleanly, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bad_calls_change_nothing, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_zero_descriptor_fields_take_documented_defaults, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_particle_calls_restore_gl_state, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_two_systems_do_not_interfere, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_destroy_leaves_no_gl_object_and_no_allocation, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_context_destroy_frees_a_forgotten_system, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_destroyed_and_foreign_system_handles_are_refused, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_two_systems_in_two_gl_contexts, fixture_setup, fixture_teardown),
};
const size_t particle_test_count = sizeof particle_tests / sizeof particle_tests[0];
