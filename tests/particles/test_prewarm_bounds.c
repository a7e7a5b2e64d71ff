/* Prewarm against plain updates (equal with the same steps, within a stated
 * tolerance against frame-sized steps), the GPU's box against the read-back
 * particles, the descriptor's box against long runs, and skipping frames. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

/* ---- Helpers -------------------------------------------------------------------- */

static void step_by(plume_system system, float dt, int count) {
    for (int k = 0; k < count; ++k) {
        plume_frame_desc frame = make_frame(dt, NULL, NULL);
        update(system, &frame);
    }
}

/* The updates plume_system_prewarm stands for: PLUME_PREWARM_STEP, the last
 * one shorter (the header's plan, restated). */
static void step_as_prewarm(plume_system system, float seconds) {
    int steps = (int)ceil((double)seconds / PLUME_PREWARM_STEP - 1e-3);
    step_by(system, PLUME_PREWARM_STEP, steps - 1);
    double last = (double)seconds - (steps - 1) * (double)PLUME_PREWARM_STEP;
    step_by(system, fabs(last - PLUME_PREWARM_STEP) > 1e-3 * PLUME_PREWARM_STEP ? (float)last : PLUME_PREWARM_STEP,
            1);
}

/* Same live slots holding the same particles, positions and velocities to
 * float rounding (relative 1e-5: the same GPU operations, so in practice
 * bit-equal), the same counts. */
static void assert_same_particles(plume_system a, plume_system b, uint32_t capacity, const char *what) {
    plume_readback ra = read_all(fixture_context(), a), rbk = read_all(fixture_context(), b);
    assert_int_equal(ra.live_count, rbk.live_count);
    assert_int_equal(ra.emitted_total, rbk.emitted_total);
    assert_true(ra.live_count > 0);
    uint32_t live = 0;
    for (uint32_t slot = 0; slot < capacity; ++slot) {
        const plume_particle *p = &ra.particles[slot], *q = &rbk.particles[slot];
        bool alive = p->age >= 0.0f && p->age < p->lifetime;
        if (!alive) continue;
        ++live;
        if (p->id != q->id || fabsf(p->age - q->age) > 1e-5f * (1.0f + p->age))
            fail_msg("%s: slot %u holds id %u age %g, and %u age %g", what, slot, p->id, p->age, q->id, q->age);
        for (int i = 0; i < 3; ++i)
            if (fabsf(p->position[i] - q->position[i]) > 1e-5f * (1.0f + fabsf(p->position[i])) ||
                fabsf(p->velocity[i] - q->velocity[i]) > 1e-5f * (1.0f + fabsf(p->velocity[i])))
                fail_msg("%s: particle %u at %g (%g), velocity %g (%g)", what, p->id, p->position[i], q->position[i],
                         p->velocity[i], q->velocity[i]);
    }
    printf("  %s: %u live particles equal\n", what, live);
    free_readback(&ra);
    free_readback(&rbk);
}

/* ---- Prewarm ------------------------------------------------------------------------ */

/* A prewarmed system (the descriptor's prewarm_time, at creation and after a
 * reset, and the call on a fresh system) against the same system stepped
 * by updates of the prewarm's steps. */
static void test_prewarm_equals_updates_of_its_step(void **state) {
    (void)state;
    float seconds = test_random_float(1.0f, 2.5f);
    printf("  prewarm %.4f s\n", seconds);
    plume_system_desc desc = busy_desc(test_random_u32());
    desc.capacity = 1999;
    plume_system stepped = make_system(desc);
    step_as_prewarm(stepped, seconds);
    plume_system called = make_system(desc);
    assert_int_equal(plume_system_prewarm(fixture_context(), called, seconds), PLUME_OK);
    desc.prewarm_time = seconds;
    plume_system created = make_system(desc);
    assert_same_particles(created, stepped, desc.capacity, "prewarm_time at creation");
    assert_same_particles(called, stepped, desc.capacity, "plume_system_prewarm");
    assert_int_equal(plume_system_reset(fixture_context(), created), PLUME_OK);
    assert_same_particles(created, stepped, desc.capacity, "prewarm_time after a reset");
    /* And the steps go on from there as an update's would. */
    step_by(created, 0.021f, 5);
    step_by(stepped, 0.021f, 5);
    assert_same_particles(created, stepped, desc.capacity, "updates after the prewarm");
    destroy_system(stepped);
    destroy_system(called);
    destroy_system(created);
}

/* Beyond PLUME_PREWARM_MAX_STEPS steps: that many equal, longer steps. */
static void test_prewarm_beyond_the_cap_takes_longer_steps(void **state) {
    (void)state;
    const float seconds = 24.0f;
    plume_system_desc desc = busy_desc(test_random_u32());
    desc.capacity = 1001;
    plume_system stepped = make_system(desc);
    step_by(stepped, seconds / (float)PLUME_PREWARM_MAX_STEPS, (int)PLUME_PREWARM_MAX_STEPS);
    desc.prewarm_time = seconds;
    plume_system created = make_system(desc);
    assert_same_particles(created, stepped, desc.capacity, "24 s in 600 steps");
    destroy_system(stepped);
    destroy_system(created);
}

/* Against frame-sized steps (60 Hz frames; the prewarm's are 30 Hz): a
 * particle is born at the start of the step that emits it, so births move
 * by up to one prewarm step. Tolerance: ages within one prewarm step,
 * positions within that step times the fastest speed a particle reaches
 * (speed.max + |gravity| x lifetime.max), the live count within one step's
 * emission (rate x step + 1) of each other. */
static void test_prewarm_against_frame_steps(void **state) {
    (void)state;
    const float seconds = 3.0f, rate = 600.0f;
    plume_system_desc desc = {.capacity = 4001, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {0.3f}, .rate = rate,
                                            .lifetime = {0.8f, 1.2f}, .speed = {0.5f, 2.0f}, .spread = 1.0f};
    desc.forces = (plume_forces){.gravity = {0, -2, 0}, .drag = 0.3f};
    plume_system frames = make_system(desc);
    step_by(frames, 1.0f / 60.0f, 180);
    desc.prewarm_time = seconds;
    plume_system prewarmed = make_system(desc);
    plume_readback a = read_all(fixture_context(), prewarmed), b = read_all(fixture_context(), frames);
    double count_tolerance = rate * PLUME_PREWARM_STEP + 1.0;
    printf("  live %u prewarmed, %u by frames (tolerance %.0f)\n", a.live_count, b.live_count, count_tolerance);
    assert_true(fabs((double)a.live_count - b.live_count) <= count_tolerance);
    float fastest = 2.0f + 2.0f * 1.2f, worst_age = 0, worst_position = 0;
    uint32_t matched = 0;
    for (uint32_t i = 0; i < a.live_count; ++i) {
        const plume_particle *p = &a.particles[a.draw_order[i]], *q = find_by_id(&b, p->id);
        if (!q) continue;
        ++matched;
        float age = fabsf(p->age - q->age), position = 0;
        for (int c = 0; c < 3; ++c) position = fmaxf(position, fabsf(p->position[c] - q->position[c]));
        worst_age = fmaxf(worst_age, age);
        worst_position = fmaxf(worst_position, position);
        if (age > PLUME_PREWARM_STEP + 1e-4f || position > fastest * (PLUME_PREWARM_STEP + 1e-4f))
            fail_msg("particle %u: ages %g and %g, positions %g apart", p->id, p->age, q->age, position);
    }
    printf("  %u matched by id: ages within %.4f s, positions within %.4f (tolerances %.4f, %.4f)\n", matched,
           worst_age, worst_position, PLUME_PREWARM_STEP, fastest * PLUME_PREWARM_STEP);
    assert_true(matched + count_tolerance >= a.live_count);
    free_readback(&a);
    free_readback(&b);
    destroy_system(frames);
    destroy_system(prewarmed);
}

/* The fragment path prewarms as its updates step. */
static void test_prewarm_on_the_fragment_path(void **state) {
    (void)state;
    plume_system_desc desc = busy_desc(test_random_u32());
    desc.capacity = 777;
    desc.path = PLUME_PATH_FRAGMENT;
    plume_system stepped = make_system(desc);
    step_as_prewarm(stepped, 1.3f);
    desc.prewarm_time = 1.3f;
    plume_system created = make_system(desc);
    assert_same_particles(created, stepped, desc.capacity, "fragment path");
    destroy_system(stepped);
    destroy_system(created);
}

static void test_prewarm_bad_input(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_system_desc desc = busy_desc(test_random_u32());
    desc.capacity = 500;
    plume_system system = make_system(desc);
    step_by(system, 0.02f, 10);
    plume_readback before = read_all(fixture_context(), system);
    const float bad[] = {-0.5f, NAN, INFINITY, PLUME_PREWARM_MAX_SECONDS * 2.0f};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        assert_int_equal(plume_system_prewarm(fixture_context(), system, bad[i]), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_system_prewarm: seconds is"));
    assert_int_equal(plume_system_prewarm(fixture_context(), (plume_system){0}, 1.0f), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_prewarm(fixture_context(), system, 0.0f), PLUME_OK);
    plume_readback after = read_all(fixture_context(), system);
    assert_int_equal(before.emitted_total, after.emitted_total);
    assert_memory_equal(before.particles, after.particles, sizeof(plume_particle) * desc.capacity);
    free_readback(&before);
    free_readback(&after);
    destroy_system(system);

    desc.prewarm_time = -1.0f;
    plume_system none = {0};
    desc.logger = test_logger();
    assert_int_equal(plume_system_create(fixture_context(), &desc, &none), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(none.id, 0);
    assert_true(test_log_contains("plume_system_create: prewarm_time is -1"));
    assert_int_equal(plume_system_desc_check(&desc, NULL), PLUME_ERROR_INVALID_ARGUMENT);
}

/* ---- Bounds ----------------------------------------------------------------------- */

/* The CPU's box of a readback's live particles, each widened by `radius`
 * the way the GPU does it (float sums). */
static bool reference_box(const plume_readback *rb, uint32_t capacity, float radius, float min[3], float max[3]) {
    bool any = false;
    for (uint32_t slot = 0; slot < capacity; ++slot) {
        const plume_particle *p = &rb->particles[slot];
        if (!(p->age >= 0.0f && p->age < p->lifetime)) continue;
        for (int i = 0; i < 3; ++i) {
            float lo = p->position[i] - radius, hi = p->position[i] + radius;
            if (!any || lo < min[i]) min[i] = lo;
            if (!any || hi > max[i]) max[i] = hi;
        }
        any = true;
    }
    return any;
}

/* After a synchronous readback every copy has landed: the box then is the
 * last update's and equals the CPU's box of the read-back particles. Before
 * any update: update 0, nothing live. Never waits: a box comes back for an
 * update at most as new as the last. */
static void test_gpu_bounds_equal_the_particles_box(void **state) {
    (void)state;
    plume_system_desc desc = busy_desc(test_random_u32());
    desc.capacity = 3001;
    desc.appearance.size_over_life = (plume_curve){.key_count = 2, .keys = {{0.0f, 0.5f}, {1.0f, 2.5f}}};
    plume_system system = make_system(desc);
    plume_bounds box;
    assert_int_equal(plume_system_get_bounds(fixture_context(), system, &box), PLUME_OK);
    assert_int_equal(box.update, 0);
    assert_false(box.any_live);
    /* The culling sphere's radius: largest size x largest curve value / 2 x sqrt 2. */
    float radius = 0.3f * 2.5f * 0.5f * sqrtf(2.0f);
    uint64_t updates = 0;
    for (int round = 0; round < 6; ++round) {
        int steps = 1 + (int)test_random_below(9);
        for (int k = 0; k < steps; ++k) {
            step_by(system, test_random_float(0.005f, 0.05f), 1);
            ++updates;
            assert_int_equal(plume_system_get_bounds(fixture_context(), system, &box), PLUME_OK);
            assert_true(box.update <= updates);
        }
        plume_readback rb = read_all(fixture_context(), system);
        assert_int_equal(plume_system_get_bounds(fixture_context(), system, &box), PLUME_OK);
        assert_int_equal(box.update, updates);
        float min[3], max[3];
        bool any = reference_box(&rb, desc.capacity, radius, min, max);
        assert_int_equal(box.any_live, any);
        for (int i = 0; i < 3 && any; ++i)
            if (fabsf(box.min[i] - min[i]) > 1e-6f * (1.0f + fabsf(min[i])) ||
                fabsf(box.max[i] - max[i]) > 1e-6f * (1.0f + fabsf(max[i])))
                fail_msg("update %llu, axis %d: GPU box %g .. %g, particles' %g .. %g", (unsigned long long)updates, i,
                         box.min[i], box.max[i], min[i], max[i]);
        printf("  update %llu: %u live, box (%.3f %.3f %.3f) .. (%.3f %.3f %.3f)\n", (unsigned long long)updates,
               rb.live_count, box.min[0], box.min[1], box.min[2], box.max[0], box.max[1], box.max[2]);
        free_readback(&rb);
    }
    /* A reset forgets the box. */
    assert_int_equal(plume_system_reset(fixture_context(), system), PLUME_OK);
    assert_int_equal(plume_system_get_bounds(fixture_context(), system, &box), PLUME_OK);
    assert_int_equal(box.update, 0);
    assert_false(box.any_live);
    destroy_system(system);
}

/* A host's culling skips updates and draws of an invisible system, then
 * resumes: the box stays the last update's while skipped; caught up with a
 * prewarm of the time skipped, the system is the one that never skipped
 * (nothing lost, no clump); resumed with one frame's dt instead (time
 * stood still), its next update emits one frame's worth, not the skipped
 * time's. */
static void test_skipping_frames_and_resuming(void **state) {
    (void)state;
    const float dt = PLUME_PREWARM_STEP, rate = 700.0f;
    plume_system_desc desc = busy_desc(test_random_u32());
    desc.capacity = 2001;
    plume_system always = make_system(desc), caught_up = make_system(desc), paused = make_system(desc);
    plume_bounds before, during;
    /* The first request starts the box's way back. */
    assert_int_equal(plume_system_get_bounds(fixture_context(), caught_up, &before), PLUME_OK);
    assert_int_equal(before.update, 0);
    step_by(always, dt, 50);
    step_by(caught_up, dt, 30);
    step_by(paused, dt, 30);
    plume_readback sync = read_all(fixture_context(), caught_up);
    free_readback(&sync);
    assert_int_equal(plume_system_get_bounds(fixture_context(), caught_up, &before), PLUME_OK);
    assert_int_equal(before.update, 30);
    /* 20 frames skipped: nothing called but the box. */
    for (int frame = 0; frame < 20; ++frame) {
        assert_int_equal(plume_system_get_bounds(fixture_context(), caught_up, &during), PLUME_OK);
        assert_int_equal(during.update, before.update);
    }
    assert_int_equal(plume_system_prewarm(fixture_context(), caught_up, 20 * dt), PLUME_OK);
    assert_same_particles(caught_up, always, desc.capacity, "caught up after 20 skipped frames");
    step_by(always, dt, 10);
    step_by(caught_up, dt, 10);
    assert_same_particles(caught_up, always, desc.capacity, "10 frames after resuming");

    plume_readback a = read_all(fixture_context(), paused);
    step_by(paused, dt, 1);
    plume_readback b = read_all(fixture_context(), paused);
    uint32_t emitted = b.emitted_total - a.emitted_total, most = (uint32_t)(rate * dt) + 1 + 40;
    printf("  resumed with one frame's dt: %u emitted (at most %u: a frame's rate and a burst)\n", emitted, most);
    assert_true(emitted <= most);
    assert_true(b.live_count > 0);
    free_readback(&a);
    free_readback(&b);
    destroy_system(always);
    destroy_system(caught_up);
    destroy_system(paused);
    assert_int_equal(test_log_error_count(), 0);
}

/* Random emitters and forces, each run for twice its longest lifetime at
 * random steps: every live particle's quad inside the descriptor's box. */
static void test_desc_bounds_contain_every_particle(void **state) {
    (void)state;
    for (int trial = 0; trial < 6; ++trial) {
        plume_system_desc desc = {.capacity = 2503, .seed = test_random_u32()};
        for (int e = 0; e < 2; ++e)
            desc.emitters[e * 5] = (plume_emitter_desc){
                .shape = test_random_below(4),
                .position = {test_random_float(-2, 2), test_random_float(-2, 2), test_random_float(-2, 2)},
                .extents = {test_random_float(0, 1), test_random_float(0, 1), test_random_float(0, 1)},
                .direction = {test_random_float(-1, 1), 1, test_random_float(-1, 1)},
                .spread = test_random_float(0, 3.14f), .rate = test_random_float(100, 800),
                .lifetime = {0.3f, test_random_float(0.4f, 1.5f)}, .speed = {0.0f, test_random_float(0.1f, 4.0f)},
                .size = {0.05f, test_random_float(0.06f, 0.4f)}};
        desc.forces = (plume_forces){
            .gravity = {test_random_float(-1, 1), test_random_float(-9.8f, 0), 0},
            .wind = {test_random_float(-3, 3), 0, test_random_float(-3, 3)}, .drag = test_random_float(0, 2),
            .turbulence = trial % 2 ? test_random_float(0, 4) : 0.0f, .turbulence_scale = 0.8f,
            .turbulence_speed = 0.5f};
        if (trial == 5)
            desc.world.colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .position = {0, -1, 0},
                                                            .collision = {.restitution = 0.9f}};
        plume_bounds box;
        assert_int_equal(plume_system_desc_bounds(&desc, &box), PLUME_OK);
        assert_true(box.bounded && box.any_live);
        plume_system_desc resolved = desc;
        assert_int_equal(plume_system_desc_check(&desc, &resolved), PLUME_OK);
        float radius = 0.0f;
        for (int e = 0; e < 2; ++e) radius = fmaxf(radius, resolved.emitters[e * 5].size.max * 0.5f * sqrtf(2.0f));
        plume_system system = make_system(desc);
        float tightest = INFINITY;
        for (int read = 0; read < 4; ++read) {
            for (int k = 0; k < 12; ++k) step_by(system, test_random_float(0.01f, 0.05f), 1);
            plume_readback rb = read_all(fixture_context(), system);
            float min[3], max[3];
            if (reference_box(&rb, desc.capacity, radius, min, max))
                for (int i = 0; i < 3; ++i) {
                    if (min[i] < box.min[i] || max[i] > box.max[i])
                        fail_msg("trial %d, axis %d: particles reach %g .. %g, the box is %g .. %g", trial, i, min[i],
                                 max[i], box.min[i], box.max[i]);
                    tightest = fminf(tightest, fminf(min[i] - box.min[i], box.max[i] - max[i]));
                }
            free_readback(&rb);
        }
        printf("  trial %d: box (%.2f %.2f %.2f) .. (%.2f %.2f %.2f), closest particle %.3f inside\n", trial,
               box.min[0], box.min[1], box.min[2], box.max[0], box.max[1], box.max[2], tightest);
        destroy_system(system);
    }
}

static void test_desc_bounds_unbounded_and_bad_input(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_system_desc desc = busy_desc(test_random_u32());
    plume_bounds box;
    assert_int_equal(plume_system_desc_bounds(&desc, &box), PLUME_OK);
    assert_true(box.bounded);
    desc.world.attractors[0] = (plume_attractor_desc){.kind = PLUME_ATTRACTOR_POINT, .strength = 5};
    assert_int_equal(plume_system_desc_bounds(&desc, &box), PLUME_OK);
    assert_false(box.bounded);
    assert_true(box.any_live);
    plume_system_desc empty = {.capacity = 10};
    assert_int_equal(plume_system_desc_bounds(&empty, &box), PLUME_OK);
    assert_false(box.any_live);
    assert_int_equal(plume_system_desc_bounds(NULL, &box), PLUME_ERROR_INVALID_ARGUMENT);
    desc.logger = test_logger();
    assert_int_equal(plume_system_desc_bounds(&desc, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_system_desc_bounds: out must not be NULL"));
    desc.capacity = 0;
    box.any_live = true;
    assert_int_equal(plume_system_desc_bounds(&desc, &box), PLUME_ERROR_INVALID_ARGUMENT);
    assert_false(box.any_live);
    assert_true(test_log_contains("plume_system_desc_bounds: capacity"));

    plume_system_desc fragment = busy_desc(1);
    fragment.path = PLUME_PATH_FRAGMENT;
    plume_system system = make_system(fragment);
    assert_int_equal(plume_system_get_bounds(fixture_context(), system, &box), PLUME_ERROR_GL_UNSUPPORTED);
    assert_true(test_log_contains("fragment path"));
    assert_int_equal(plume_system_get_bounds(fixture_context(), system, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    destroy_system(system);
}

const struct CMUnitTest particle_prewarm_bounds_tests[] = {
    cmocka_unit_test_setup_teardown(test_prewarm_equals_updates_of_its_step, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_prewarm_beyond_the_cap_takes_longer_steps, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_prewarm_against_frame_steps, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_prewarm_on_the_fragment_path, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_prewarm_bad_input, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_gpu_bounds_equal_the_particles_box, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_skipping_frames_and_resuming, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_desc_bounds_contain_every_particle, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_desc_bounds_unbounded_and_bad_input, fixture_setup, fixture_teardown),
};
const size_t particle_prewarm_bounds_test_count =
    sizeof particle_prewarm_bounds_tests / sizeof particle_prewarm_bounds_tests[0];
