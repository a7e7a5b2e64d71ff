/* The particle system against CPU references: emission counts and lifetimes,
 * the slot bookkeeping (live + dead = every slot, once), integration, the
 * back-to-front order, determinism, an image composited on the CPU, bad
 * descriptors, GL state and several systems at once. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "plume/plume_particles.h"
#include "plume/plume_sort.h"
#include "test_env.h"
#include "tests.h"

enum { POISON_BYTE = 0xAB };

/* ---- Helpers ------------------------------------------------------------- */

static plume_system *make_system(plume_system_desc desc) {
    desc.logger = test_logger();
    plume_system *system = NULL;
    assert_int_equal(plume_system_create(&desc, &system), PLUME_OK);
    assert_non_null(system);
    return system;
}

/* Everything the readback can give, in poisoned arrays so unwritten entries
 * show. */
static plume_readback read_all(plume_system *system) {
    uint32_t capacity = plume_system_get_desc(system).capacity;
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
    assert_int_equal(plume_system_read_back(system, &rb), PLUME_OK);
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

static plume_frame_desc make_frame(float dt, mat4 view, mat4 projection) {
    plume_frame_desc frame = {.dt = dt};
    if (view) memcpy(frame.view, view, sizeof frame.view);
    if (projection) memcpy(frame.projection, projection, sizeof frame.projection);
    return frame;
}

static void update(plume_system *system, const plume_frame_desc *frame) {
    assert_int_equal(plume_system_update(system, frame), PLUME_OK);
}

/* Live GL objects of every kind the module creates, over the low names a
 * test run uses: equal counts before and after mean nothing leaked. */
static int count_gl_objects(void) {
    int count = 0;
    for (GLuint name = 1; name < 4096; ++name)
        count += glIsBuffer(name) + glIsTexture(name) + glIsProgram(name) + glIsShader(name) +
                 glIsVertexArray(name) + glIsSampler(name);
    return count;
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
    plume_system *fixed = make_system(desc);
    desc.emitters[0].lifetime = (plume_range){0.1f, 0.4f};
    plume_system *ranged = make_system(desc);

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

        plume_readback rb = read_all(fixed);
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

        rb = read_all(ranged);
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
    plume_system_destroy(fixed);
    plume_system_destroy(ranged);
}

/* Bursts: a single burst (interval 0) fires once on the first update that
 * moves time; a repeating one fires at 0, I, 2I, ... An update of dt 0 emits
 * nothing and ages nothing. */
static void test_bursts_and_zero_steps(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 1000};
    desc.emitters[0] = (plume_emitter_desc){.burst_count = 17, .lifetime = {100, 100}};
    desc.emitters[3] = (plume_emitter_desc){.burst_count = 5, .burst_interval = 0.25f, .lifetime = {100, 100}};
    plume_system *system = make_system(desc);
    /* Steps of 1/8 s: exact in binary, so burst times fall exactly on step
     * boundaries and the half-open rule [t0, t1) is what is tested. */
    plume_frame_desc still = make_frame(0.0f, NULL, NULL), step = make_frame(0.125f, NULL, NULL);
    update(system, &still);
    plume_readback rb = read_all(system);
    assert_int_equal(rb.live_count, 0);
    free_readback(&rb);
    /* Time 0 .. 1.0 in 8 steps: bursts of emitter 3 at 0, 0.25, 0.5, 0.75 (1.0 is the next update's). */
    for (int k = 0; k < 8; ++k) update(system, &step);
    update(system, &still);
    rb = read_all(system);
    assert_int_equal(rb.emitted_total, 17 + 4 * 5);
    assert_int_equal(rb.live_count, 17 + 4 * 5);
    /* The last update had dt 0: the oldest particles are exactly 1.0 s old. */
    const plume_particle *first = find_by_id(&rb, 0);
    assert_non_null(first);
    assert_float_equal(first->age, 1.0f, 0.0);
    free_readback(&rb);
    update(system, &step);
    rb = read_all(system);
    assert_int_equal(rb.emitted_total, 17 + 5 * 5);
    free_readback(&rb);
    plume_system_destroy(system);

    /* A burst over the capacity fills it and emits no more than fits. */
    desc = (plume_system_desc){.capacity = 100};
    desc.emitters[2] = (plume_emitter_desc){.burst_count = 1000, .burst_interval = 0.125f, .lifetime = {100, 100}};
    system = make_system(desc);
    update(system, &step);
    rb = read_all(system);
    assert_int_equal(rb.live_count, 100);
    assert_int_equal(rb.dead_count, 0);
    assert_int_equal(rb.emitted_total, 100);
    free_readback(&rb);
    update(system, &step);
    rb = read_all(system);
    check_slots_partition(&rb, 100, 0);
    assert_int_equal(rb.emitted_total, 100);
    free_readback(&rb);
    plume_system_destroy(system);
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
    plume_system *system = make_system(desc);
    mat4 view, projection;
    glm_lookat((vec3){3, 4, 5}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_perspective(1.0f, 1.0f, 0.1f, 100.0f, projection);
    double time = 0.0;
    uint32_t emitted_total = 0;
    for (int f = 0; f < FRAMES; ++f) {
        if (f % 100 == 0) { /* the rate swings from idle to far over the capacity */
            plume_emitter_desc changed = desc.emitters[0];
            changed.rate = test_random_below(3) == 0 ? 0.0f : test_random_float(100.0f, 30000.0f);
            assert_int_equal(plume_system_set_emitter(system, 0, &changed), PLUME_OK);
        }
        float dt = test_random_below(10) == 0 ? 0.0f : test_random_float(0.001f, 0.04f);
        time += dt;
        plume_frame_desc frame = make_frame(dt, view, projection);
        frame.disable_sort = test_random_below(4) == 0;
        update(system, &frame);
        if (f % 50 == 49) {
            plume_readback rb = read_all(system);
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
    plume_system_destroy(system);
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
        plume_system *system = make_system(desc);
        for (int k = 0; k < STEPS; ++k) {
            plume_frame_desc frame = make_frame(test_random_float(0.004f, 0.05f), NULL, NULL);
            update(system, &frame);
        }
        plume_readback rb = read_all(system);
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
        plume_system_destroy(system);
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
static void check_back_to_front(plume_system *system, mat4 view, const char *what) {
    plume_readback rb = read_all(system);
    assert_true(rb.live_count > 100);
    check_slots_partition(&rb, plume_system_get_desc(system).capacity, 0);
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

static void test_draw_list_is_back_to_front(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 2999, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {3}, .rate = 3000,
                                            .lifetime = {0.5f, 2}, .speed = {0, 1}, .spread = 3.14159f};
    desc.forces = (plume_forces){.turbulence = 2.0f, .drag = 0.5f};
    plume_system *system = make_system(desc);
    mat4 view, projection;
    for (int k = 0; k < 40; ++k) {
        random_camera(view, projection);
        plume_frame_desc frame = make_frame(1.0f / 60.0f, view, projection);
        update(system, &frame);
    }
    check_back_to_front(system, view, "moving");
    /* A still update (dt 0) for a new camera re-sorts for that camera. */
    random_camera(view, projection);
    plume_frame_desc frame = make_frame(0.0f, view, projection);
    update(system, &frame);
    check_back_to_front(system, view, "new camera, dt 0");
    plume_system_destroy(system);
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

static run_result run_steps(plume_system *system, const float *dts, int steps, mat4 view, mat4 projection) {
    for (int k = 0; k < steps; ++k) {
        plume_frame_desc frame = make_frame(dts[k], view, projection);
        update(system, &frame);
    }
    plume_readback rb = read_all(system);
    run_result result = {rb.live_count, rb.emitted_total, malloc(sizeof(plume_particle) * (rb.live_count + 1))};
    assert_non_null(result.in_draw_order);
    for (uint32_t i = 0; i < rb.live_count; ++i) result.in_draw_order[i] = rb.particles[rb.draw_order[i]];
    free_readback(&rb);
    return result;
}

/* Identical particles in identical draw order (slots may differ: they are
 * not part of plume_particle). */
static bool same_run(const run_result *a, const run_result *b) {
    return a->live_count == b->live_count && a->emitted_total == b->emitted_total &&
           memcmp(a->in_draw_order, b->in_draw_order, sizeof(plume_particle) * a->live_count) == 0;
}

static void test_same_seed_same_particles_and_reset_restarts(void **state) {
    (void)state;
    enum { STEPS = 70 };
    float dts[STEPS];
    for (int k = 0; k < STEPS; ++k) dts[k] = test_random_below(8) == 0 ? 0.0f : test_random_float(0.005f, 0.04f);
    mat4 view, projection;
    random_camera(view, projection);
    uint32_t seed = test_random_u32();

    plume_system *a = make_system(busy_desc(seed));
    run_result first = run_steps(a, dts, STEPS, view, projection);
    assert_true(first.live_count > 200);
    assert_int_equal(plume_system_reset(a), PLUME_OK);
    plume_readback rb = read_all(a);
    assert_int_equal(rb.live_count, 0);
    assert_int_equal(rb.emitted_total, 0);
    check_slots_partition(&rb, 1500, 0);
    free_readback(&rb);
    run_result after_reset = run_steps(a, dts, STEPS, view, projection);
    plume_system_destroy(a);

    plume_system *b = make_system(busy_desc(seed));
    run_result again = run_steps(b, dts, STEPS, view, projection);
    plume_system_destroy(b);

    plume_system *c = make_system(busy_desc(seed + 1));
    run_result other = run_steps(c, dts, STEPS, view, projection);
    plume_system_destroy(c);

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

typedef struct target {
    GLuint framebuffer, color;
    GLint previous_framebuffer, previous_viewport[4];
} target;

static target target_begin(const float clear[4]) {
    target t = {0};
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &t.previous_framebuffer);
    glGetIntegerv(GL_VIEWPORT, t.previous_viewport);
    glGenTextures(1, &t.color);
    glBindTexture(GL_TEXTURE_2D, t.color);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, IMAGE_SIZE, IMAGE_SIZE);
    glBindTexture(GL_TEXTURE_2D, 0);
    glGenFramebuffers(1, &t.framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.color, 0);
    assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    glViewport(0, 0, IMAGE_SIZE, IMAGE_SIZE);
    glClearColor(clear[0], clear[1], clear[2], clear[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    return t;
}

/* Reads the image (rows from the bottom) and releases the target. */
static void target_end(target *t, float *rgba) {
    glReadPixels(0, 0, IMAGE_SIZE, IMAGE_SIZE, GL_RGBA, GL_FLOAT, rgba);
    glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)t->previous_framebuffer);
    glViewport(t->previous_viewport[0], t->previous_viewport[1], t->previous_viewport[2], t->previous_viewport[3]);
    glDeleteFramebuffers(1, &t->framebuffer);
    glDeleteTextures(1, &t->color);
}

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
 * ambiguous[pixel] marks pixel centres within 1e-3 px of a square's edge,
 * where rasterisation may go either way. */
static void composite_reference(const plume_readback *rb, const plume_appearance *look, const float clear[4],
                                float *rgba, bool *ambiguous) {
    sprite_ref *sprites = malloc(sizeof(sprite_ref) * (rb->live_count + 1));
    assert_non_null(sprites);
    const double pixels_per_unit = IMAGE_SIZE / 2.0;
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
                if (fabs(px - s->x0) < 1e-3 || fabs(px - s->x1) < 1e-3 || fabs(py - s->y0) < 1e-3 || fabs(py - s->y1) < 1e-3)
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
        plume_system *system = make_system(desc);
        plume_frame_desc frame = make_frame(1.0f / 15.0f, view, projection);
        frame.disable_sort = !sorted;
        for (int k = 0; k < 30; ++k) update(system, &frame);
        target t = target_begin(clear);
        assert_int_equal(plume_system_draw(system, &frame), PLUME_OK);
        target_end(&t, image);
        plume_readback rb = read_all(system);
        assert_true(rb.live_count >= 20);
        plume_system_desc resolved = plume_system_get_desc(system);
        composite_reference(&rb, &resolved.appearance, clear, reference, ambiguous);
        free_readback(&rb);
        plume_system_destroy(system);
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

const struct CMUnitTest particle_tests[] = {
    cmocka_unit_test_setup_teardown(test_emission_counts_and_lifetimes, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_bursts_and_zero_steps, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_slots_live_or_dead_after_thousands_of_frames, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_positions_match_closed_form, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_draw_list_is_back_to_front, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_same_seed_same_particles_and_reset_restarts, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_image_matches_cpu_compositing_and_needs_the_sort, test_setup, test_teardown),
};
const size_t particle_test_count = sizeof particle_tests / sizeof particle_tests[0];
