/* plume_batch_update (plume_batch.h): every system of a batch is updated
 * exactly as its own plume_system_update would update it (read back: every
 * slot, the draw order and keys, the dead list, events to the CPU), for
 * seeded systems of different looks, sizes and non-power-of-two capacities,
 * with event routes, trails, local space, profiling and systems linked by a
 * route; NULL with 0 takes every live system of the context, systems made
 * and destroyed between frames included; each pass that runs over a table
 * of systems (particles/update_table.c) alone and all of them, with systems
 * that fit beside systems that do not, and a batch's pass dispatches the same
 * for 3 fitting systems as for 12; a batch whose passes run over tables
 * leaves a hostile host's GL state as it found it; bad input (a NULL list with a count, a destroyed handle, a system named twice,
 * a fragment-path system, no frame, a bad frame) is refused with a message
 * and changes no system. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <epoxy/gl.h>

#include "hostile_host.h"
#include "particle_fixture.h"
#include "plume/plume_batch.h"
#ifndef PLUME_TESTS_THROUGH_TABLE /* the lab's switches and counts are the module's */
#include "plume_lab.h"
#endif
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { KINDS = 4, STEPS = 6 };

/* System `kind` of the batch tests: its own seed, capacity (none a power of
 * two), emitters, forces and look. */
static plume_system_desc kind_desc(int kind, uint32_t seed) {
    static const uint32_t capacities[KINDS] = {777, 1500, 509, 1023};
    plume_system_desc d = busy_desc(seed + (uint32_t)kind);
    d.capacity = capacities[kind];
    if (kind == 1) d.lit = true;
    if (kind == 2) {
        d.emitters[0].rate = 2000; /* more births than room: the dead list runs dry */
        d.appearance.size_over_life = (plume_curve){2, {{0.0f, 0.5f}, {1.0f, 2.0f}}};
    }
    if (kind == 3) {
        d.sort_mode = PLUME_SORT_MODE_DISTANCE;
        d.forces.turbulence = 0.0f;
        d.emitters[0].position[1] = 2.0f;
    }
    return d;
}

static plume_system create_in(plume_context *context, plume_system_desc desc) {
    plume_system system = {0};
    assert_int_equal(plume_system_create(context, &desc, &system), PLUME_OK);
    return system;
}

/* The same live particles, and some (see assert_same_live_particles). */
static void assert_same_state(plume_context *context_a, plume_system a, plume_context *context_b, plume_system b) {
    assert_true(assert_same_live_particles(context_a, a, context_b, b, "the batched system and its twin") > 0);
}

static void destroy_twins(plume_system *batched, plume_system *alone, int count) {
    for (int k = 0; k < count; ++k) {
        destroy_system(batched[k]);
        destroy_system(alone[k]);
    }
}

static const char *const BATCH_NEEDS_COMPUTE = "a batch updates compute-path systems only";

static void test_batch_updates_each_system_as_alone(void **state) {
    (void)state;
    if (compute_path_forced_off(BATCH_NEEDS_COMPUTE)) return;
    plume_context *context = fixture_context();
    uint32_t seed = test_random_u32();
    plume_system batched[KINDS], alone[KINDS];
    for (int k = 0; k < KINDS; ++k) {
        batched[k] = create_in(context, kind_desc(k, seed));
        alone[k] = create_in(context, kind_desc(k, seed));
    }
    mat4 view, projection;
    random_camera(view, projection);
    for (int step = 0; step < STEPS; ++step) {
        plume_frame_desc frame = make_frame(test_random_float(0.005f, 0.05f), view, projection);
        frame.disable_culling = step % 2 == 0; /* culled by the camera every other frame */
        for (int k = 0; k < KINDS; ++k) assert_int_equal(plume_system_update(context, alone[k], &frame), PLUME_OK);
        assert_int_equal(plume_batch_update(context, batched, KINDS, &frame), PLUME_OK);
    }
    for (int k = 0; k < KINDS; ++k) assert_same_state(context, batched[k], context, alone[k]);
    destroy_twins(batched, alone, KINDS);
}

/* Systems of the stage-major batch's harder cases, with their twins: GPU
 * event routes to themselves and events to the CPU (the compaction's and
 * the CPU passes' route uniforms), a trail (its record pass after the
 * compaction), local space, a profiled system and a pair linked by a route
 * (both updated on their own). */
enum { LINKED = 7 };
static plume_system_desc linked_desc(int kind, uint32_t seed, plume_system target) {
    plume_system_desc d = kind_desc(kind % KINDS, seed + 11u * (uint32_t)kind);
    d.emitters[1] = (plume_emitter_desc){.lifetime = {0.4f, 0.6f}, .speed = {0.1f, 0.3f}, .spread = 1.0f};
    plume_event_route_desc death = {.trigger = PLUME_EVENT_DEATH, .source_emitters = 1u << 0, .target_emitter = 1,
                                    .count = 2, .inherit_velocity = 0.5f};
    if (kind == 0 || kind == 1) d.world.events[0] = death;
    if (kind == 1 || kind == 5)
        d.cpu_events = (plume_cpu_events_desc){.kinds = PLUME_PARTICLE_EVENT_DEATH | PLUME_PARTICLE_EVENT_ROUTE,
                                               .budget = 333};
    if (kind == 2) d.trail = (plume_trail_desc){.points = 4, .spacing = 0.02f};
    if (kind == 3) d.simulation_space = PLUME_SPACE_LOCAL;
    if (kind == 5) d.world.events[1] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .source_emitters = 1,
                                                                .target_system = target, .target_emitter = 1,
                                                                .count = 1};
    return d;
}

static void test_batch_stage_major_with_events_trails_and_links(void **state) {
    (void)state;
    if (compute_path_forced_off(BATCH_NEEDS_COMPUTE)) return;
    plume_context *context = fixture_context();
    uint32_t seed = test_random_u32();
    plume_system batched[LINKED], alone[LINKED];
    /* The linked pair: 5 sends children to 6 (a plain system). */
    batched[6] = create_in(context, kind_desc(0, seed + 6u));
    alone[6] = create_in(context, kind_desc(0, seed + 6u));
    for (int k = 0; k < 6; ++k) {
        batched[k] = create_in(context, linked_desc(k, seed, batched[6]));
        alone[k] = create_in(context, linked_desc(k, seed, alone[6]));
    }
    assert_int_equal(plume_system_set_profiling(context, batched[4], true), PLUME_OK);
    assert_int_equal(plume_system_set_profiling(context, alone[4], true), PLUME_OK);
    mat4 view, projection;
    random_camera(view, projection);
    uint32_t delivered = 0;
    for (int step = 0; step < 3 * STEPS; ++step) {
        plume_frame_desc frame = make_frame(test_random_float(0.02f, 0.08f), view, projection);
        frame.disable_culling = step % 3 == 0;
        for (int k = 0; k < LINKED; ++k) assert_int_equal(plume_system_update(context, alone[k], &frame), PLUME_OK);
        assert_int_equal(plume_batch_update(context, batched, LINKED, &frame), PLUME_OK);
        glFinish();
        for (int k = 1; k < LINKED; k += 4) assert_same_events(context, batched[k], alone[k]);
        plume_readback rb = read_all(context, batched[6]);
        delivered += rb.emitted_total;
        free_readback(&rb);
    }
    assert_true(delivered > 0);
    for (int k = 0; k < LINKED; ++k) assert_same_state(context, batched[k], context, alone[k]);
    destroy_twins(batched, alone, LINKED);
}

/* NULL, 0: the context's live systems, whichever they are this frame. The
 * twins, updated one by one, live in a second context. */
static void test_batch_of_every_live_system_as_they_come_and_go(void **state) {
    (void)state;
    if (compute_path_forced_off(BATCH_NEEDS_COMPUTE)) return;
    plume_context *context = fixture_context();
    plume_context *other = fixture_context_with_another_tag(0);
    uint32_t seed = test_random_u32();
    plume_system batched[KINDS] = {{0}}, alone[KINDS] = {{0}};
    mat4 view, projection;
    random_camera(view, projection);
    for (int step = 0; step < STEPS; ++step) {
        if (step < KINDS) { /* one more system each frame */
            batched[step] = create_in(context, kind_desc(step, seed));
            alone[step] = create_in(other, kind_desc(step, seed));
        }
        if (step == KINDS) { /* and one gone */
            assert_int_equal(plume_system_destroy(context, batched[1]), PLUME_OK);
            assert_int_equal(plume_system_destroy(other, alone[1]), PLUME_OK);
            batched[1] = alone[1] = (plume_system){0};
        }
        plume_frame_desc frame = make_frame(test_random_float(0.005f, 0.05f), view, projection);
        for (int k = 0; k < KINDS; ++k)
            if (alone[k].id) assert_int_equal(plume_system_update(other, alone[k], &frame), PLUME_OK);
        assert_int_equal(plume_batch_update(context, NULL, 0, &frame), PLUME_OK);
    }
    for (int k = 0; k < KINDS; ++k) {
        if (!batched[k].id) continue;
        assert_same_state(context, batched[k], other, alone[k]);
        assert_int_equal(plume_system_destroy(context, batched[k]), PLUME_OK);
        assert_int_equal(plume_system_destroy(other, alone[k]), PLUME_OK);
    }
    fixture_destroy_context_checked(other);
    /* No live system: nothing to do. */
    plume_frame_desc frame = make_frame(0.016f, NULL, NULL);
    assert_int_equal(plume_batch_update(context, NULL, 0, &frame), PLUME_OK);
}

/* A refused call: its code, one message containing `words`, and the
 * system's state as before. */
static void assert_refused(plume_result got, plume_result expected, const char *words, plume_system kept,
                           const plume_readback *before) {
    assert_int_equal(got, expected);
    if (!test_log_contains(words)) fail_msg("no message containing \"%s\"", words);
    plume_readback after = read_all(fixture_context(), kept);
    assert_int_equal(after.live_count, before->live_count);
    assert_int_equal(after.emitted_total, before->emitted_total);
    assert_memory_equal(after.particles, before->particles,
                        sizeof(plume_particle) * system_desc(fixture_context(), kept).capacity);
    free_readback(&after);
}

static void test_batch_refuses_bad_input_and_changes_nothing(void **state) {
    (void)state;
    if (compute_path_forced_off(BATCH_NEEDS_COMPUTE)) return;
    test_log_expect_errors();
    plume_context *context = fixture_context();
    uint32_t seed = test_random_u32();
    plume_system kept = create_in(context, kind_desc(0, seed));
    plume_system gone = create_in(context, kind_desc(2, seed));
    plume_frame_desc frame = make_frame(0.02f, NULL, NULL);
    assert_int_equal(plume_batch_update(context, &kept, 1, &frame), PLUME_OK);
    assert_int_equal(plume_system_destroy(context, gone), PLUME_OK);
    plume_readback before = read_all(context, kept);

    assert_refused(plume_batch_update(context, NULL, 3, &frame), PLUME_ERROR_INVALID_ARGUMENT,
                   "systems is NULL with a system_count", kept, &before);
    assert_refused(plume_batch_update(context, &kept, 1, NULL), PLUME_ERROR_INVALID_ARGUMENT,
                   "frame must not be NULL", kept, &before);
    plume_system with_gone[2] = {kept, gone};
    assert_refused(plume_batch_update(context, with_gone, 2, &frame), PLUME_ERROR_INVALID_ARGUMENT,
                   "systems[1] (handle", kept, &before);
    plume_system twice[3] = {kept, create_in(context, kind_desc(3, seed)), kept};
    assert_refused(plume_batch_update(context, twice, 3, &frame), PLUME_ERROR_INVALID_ARGUMENT,
                   "systems[2] names a system listed before it", kept, &before);
    plume_system_desc fragment_desc = kind_desc(1, seed);
    fragment_desc.path = PLUME_PATH_FRAGMENT;
    fragment_desc.lit = false;
    plume_system fragment = create_in(context, fragment_desc);
    plume_system with_fragment[2] = {kept, fragment};
    assert_refused(plume_batch_update(context, with_fragment, 2, &frame), PLUME_ERROR_GL_UNSUPPORTED,
                   "systems[1] runs the fragment path", kept, &before);
    plume_frame_desc bad = frame;
    bad.dt = -1.0f;
    assert_refused(plume_batch_update(context, &kept, 1, &bad), PLUME_ERROR_INVALID_ARGUMENT, "dt", kept, &before);
    assert_int_equal(plume_batch_update(NULL, &kept, 1, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    /* A system refused once is listed again next time (its mark cleared). */
    assert_int_equal(plume_batch_update(context, twice, 2, &frame), PLUME_OK);
    assert_int_equal(plume_batch_update(context, &kept, 0, &frame), PLUME_OK); /* an empty list: nothing */
    free_readback(&before);
    destroy_system(kept);
    destroy_system(twice[1]);
    destroy_system(fragment);
}


/* Systems that fit a table, batched inside a hostile host: the tables bind
 * the pool's pages, the upload's ranges and the copy buffers; the host's
 * state comes back as it was. */
static void test_batch_tables_leave_a_hostile_host_as_they_found_it(void **state) {
    (void)state;
    if (compute_path_forced_off(BATCH_NEEDS_COMPUTE)) return;
    plume_context *context = fixture_context();
    uint32_t seed = test_random_u32();
    plume_system systems[KINDS];
    for (int k = 0; k < KINDS; ++k) systems[k] = create_in(context, kind_desc(k, seed));
    GLuint color = test_texture_create(GL_RGBA8, 16, 16), target = 0; /* the host's target, bound */
    glGenFramebuffers(1, &target);
    glBindFramebuffer(GL_FRAMEBUFFER, target);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    host_objects host = make_hostile(16);
    GLint64 before[HOSTILE_MAX_VALUES];
    int count = snapshot(before);
    for (int step = 0; step < 3; ++step) {
        plume_frame_desc frame = make_frame(0.02f, NULL, NULL);
        assert_int_equal(plume_batch_update(context, systems, KINDS, &frame), PLUME_OK);
        assert_unchanged(before, count, "a batch update of systems that fit a table");
    }
    end_hostile(&host);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &target);
    glDeleteTextures(1, &color);
    for (int k = 0; k < KINDS; ++k) destroy_system(systems[k]);
}

#ifndef PLUME_TESTS_THROUGH_TABLE
/* ---- The passes over tables of systems (particles/update_table.c) ---- */

enum { TABLE_KINDS = 10, TABLE_STEPS = 6 };

/* A capacity that is not a power of two, in [low, high). */
static uint32_t odd_capacity(uint32_t low, uint32_t high) {
    uint32_t c = low + test_random_below(high - low);
    return (c & (c - 1)) == 0 ? c + 3 : c;
}

/* System `kind` of the table tests: the four looks above, a one-shot burst,
 * events to the CPU (fit a table), and four that do not fit: local space, a
 * collider, a route to itself, and one destroyed and made again. */
static plume_system_desc table_kind_desc(int kind, uint32_t seed, uint32_t capacity) {
    plume_system_desc d = kind_desc(kind % KINDS, seed + 13u * (uint32_t)kind);
    d.capacity = capacity;
    if (kind == 4) { /* a burst at the first step only, then nothing asked */
        d.emitters[0].rate = 0.0f;
        d.emitters[6].burst_interval = 0.0f;
        d.emitters[6].burst_count = 300;
    }
    if (kind == 5)
        d.cpu_events = (plume_cpu_events_desc){.kinds = PLUME_PARTICLE_EVENT_DEATH, .budget = 200};
    if (kind == 6) d.simulation_space = PLUME_SPACE_LOCAL;
    if (kind == 7) d.world.colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_SPHERE, .radius = 0.6f};
    if (kind == 8)
        d.world.events[0] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .source_emitters = 1u << 0,
                                                     .target_emitter = 1, .count = 1};
    if (kind == 8) d.emitters[1] = (plume_emitter_desc){.lifetime = {0.2f, 0.4f}, .speed = {0.1f, 0.3f}};
    return d;
}

static plume_lab_particle_storage pool_counts(plume_context *context) {
    plume_lab_particle_storage s;
    assert_int_equal(plume_lab_particle_storage_of(context, (plume_system){0}, &s), PLUME_OK);
    return s;
}

/* The table systems batched with `passes` over tables, their twins updated
 * one by one; kind 9 destroyed and made again (with its twin) mid-run, a
 * new system among the others, in a block a destroyed one held (poisoned:
 * the fixture's context poisons new storage). */
static void run_tables(uint32_t passes, uint32_t seed) {
    plume_context *context = fixture_context();
    uint32_t capacities[TABLE_KINDS];
    for (int k = 0; k < TABLE_KINDS; ++k) capacities[k] = odd_capacity(40, 2500);
    plume_system batched[TABLE_KINDS], alone[TABLE_KINDS];
    for (int k = 0; k < TABLE_KINDS; ++k) {
        batched[k] = create_in(context, table_kind_desc(k, seed, capacities[k]));
        alone[k] = create_in(context, table_kind_desc(k, seed, capacities[k]));
    }
    plume_lab_batch_tables(passes);
    plume_lab_particle_storage before = pool_counts(context);
    mat4 view, projection;
    random_camera(view, projection);
    for (int step = 0; step < TABLE_STEPS; ++step) {
        if (step == TABLE_STEPS / 2) {
            destroy_system(batched[9]);
            destroy_system(alone[9]);
            plume_system_desc again = table_kind_desc(9, seed + 1u, odd_capacity(40, 2500));
            batched[9] = create_in(context, again);
            alone[9] = create_in(context, again);
        }
        plume_frame_desc frame = make_frame(test_random_float(0.01f, 0.06f), view, projection);
        frame.disable_culling = step % 2 == 0;
        for (int k = 0; k < TABLE_KINDS; ++k) assert_int_equal(plume_system_update(context, alone[k], &frame), PLUME_OK);
        assert_int_equal(plume_batch_update(context, batched, TABLE_KINDS, &frame), PLUME_OK);
    }
    plume_lab_particle_storage after = pool_counts(context);
    plume_lab_batch_tables(PLUME_LAB_TABLE_ALL);
    static const uint32_t SWITCH[5] = {PLUME_LAB_TABLE_PREPARE, PLUME_LAB_TABLE_EMIT, PLUME_LAB_TABLE_SIMULATE,
                                       PLUME_LAB_TABLE_COMPACTION, PLUME_LAB_TABLE_COMPACTION};
    for (int p = 0; p < 5; ++p) { /* the seven that fit (kinds 0-5 and 9), in one page or more */
        uint64_t ran = after.table_pass_systems[p] - before.table_pass_systems[p];
        if (p != 1) assert_int_equal(ran, passes & SWITCH[p] ? 7u * TABLE_STEPS : 0u);
        else assert_true(passes & SWITCH[p] ? ran > 0 : ran == 0); /* a page of which none emits has no dispatch */
        assert_true(after.table_pass_dispatches[p] - before.table_pass_dispatches[p] <= (passes & SWITCH[p] ? ran : 0u));
    }
    for (int k = 0; k < TABLE_KINDS; ++k) {
        char which[48];
        snprintf(which, sizeof which, "tables 0x%x, system %d", passes, k);
        assert_true(assert_same_live_particles(context, batched[k], context, alone[k], which) > 0 || k == 4);
    }
    assert_same_events(context, batched[5], alone[5]);
    destroy_twins(batched, alone, TABLE_KINDS);
}

static void test_batch_tables_update_each_system_as_alone(void **state) {
    (void)state;
    if (compute_path_forced_off(BATCH_NEEDS_COMPUTE)) return;
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    static const uint32_t PASSES[] = {PLUME_LAB_TABLE_PREPARE, PLUME_LAB_TABLE_EMIT, PLUME_LAB_TABLE_COMPACTION,
                                      PLUME_LAB_TABLE_ALL};
    for (size_t i = 0; i < sizeof PASSES / sizeof PASSES[0]; ++i) run_tables(PASSES[i], seed + (uint32_t)i);
}

/* A batch's pass dispatches (every table's and every system's own), a
 * step in which every system emits: as many for 12 systems that fit a table
 * as for 3. */
static uint64_t dispatches_of_a_batch(uint32_t count, uint32_t seed) {
    plume_context *context = fixture_context();
    plume_system systems[12];
    for (uint32_t i = 0; i < count; ++i) systems[i] = create_in(context, table_kind_desc(0, seed + i, 100 + 7 * i));
    assert_int_equal(pool_counts(context).pool_pages, 1); /* a table a page: all in one */
    plume_frame_desc frame = make_frame(0.02f, NULL, NULL);
    assert_int_equal(plume_batch_update(context, systems, count, &frame), PLUME_OK);
    uint64_t before = pool_counts(context).pass_dispatches;
    assert_int_equal(plume_batch_update(context, systems, count, &frame), PLUME_OK);
    uint64_t dispatches = pool_counts(context).pass_dispatches - before;
    for (uint32_t i = 0; i < count; ++i) destroy_system(systems[i]);
    return dispatches;
}

static void test_batch_table_dispatches_do_not_grow_with_systems(void **state) {
    (void)state;
    if (compute_path_forced_off(BATCH_NEEDS_COMPUTE)) return;
    uint32_t seed = test_random_below(1u << 20);
    uint64_t few = dispatches_of_a_batch(3, seed), many = dispatches_of_a_batch(12, seed);
    printf("  seed %u: a batch's pass dispatches, 3 systems %llu, 12 systems %llu\n", seed,
           (unsigned long long)few, (unsigned long long)many);
    assert_int_equal(few, many);
    assert_int_equal(few, 5); /* prepare, emit, simulate, scan, scatter: one each */
}
#endif

const struct CMUnitTest batch_tests[] = {
    cmocka_unit_test_setup_teardown(test_batch_updates_each_system_as_alone, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_batch_stage_major_with_events_trails_and_links, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_batch_of_every_live_system_as_they_come_and_go, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_batch_refuses_bad_input_and_changes_nothing, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_batch_tables_leave_a_hostile_host_as_they_found_it, fixture_setup,
                                    fixture_teardown),
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_batch_tables_update_each_system_as_alone, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_batch_table_dispatches_do_not_grow_with_systems, fixture_setup,
                                    fixture_teardown),
#endif
};
const size_t batch_test_count = sizeof batch_tests / sizeof batch_tests[0];
