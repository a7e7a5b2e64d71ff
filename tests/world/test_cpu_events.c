/* Events to the CPU (plume_cpu_events_desc, plume_system_poll_events, since
 * 1.3): every death and collision is delivered once, with the position,
 * velocity and id the read-back particles had (deaths: before the update;
 * collisions: after it, checked against a CPU reference of a collider plane),
 * in slot order, none invented; a budget overflow, a late poll and a ring of
 * readbacks still in flight count what they drop exactly; polling never
 * waits; reset and destroy with records in flight; bad input. */
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
#ifndef PLUME_TESTS_THROUGH_TABLE
#include "gl_spy.h"
#include "plume_lab.h"
#endif

static const float STEP = 0.05f, GRAVITY = -9.8f, PLANE_Y = 1.0f;
enum { MAX_POLLED = 1 << 16 };

static plume_particle_event polled[MAX_POLLED];

/* Polls everything that has landed; checks the poll's own counts. */
static uint32_t poll_all(plume_system system, plume_event_poll_info *info) {
    assert_int_equal(plume_system_poll_events(fixture_context(), system, polled, MAX_POLLED, info), PLUME_OK);
    assert_true(info->delivered <= MAX_POLLED);
    return info->delivered;
}

/* A burst of `count` particles in a ball above a plane, falling (no drag):
 * they bounce off the plane and die by age over a few tenths of a second. */
static plume_system_desc falling_desc(uint32_t count, uint32_t kinds, uint32_t budget) {
    plume_system_desc desc = {.capacity = count + 13, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .position = {0, 2, 0}, .extents = {0.8f},
                                            .spread = 3.14159f, .speed = {0.5f, 3}, .burst_count = count,
                                            .lifetime = {0.1f, 0.6f}};
    desc.forces.gravity[1] = GRAVITY;
    desc.world.colliders[0] = (plume_collider_desc){
        .shape = PLUME_COLLIDER_PLANE, .position = {0, PLANE_Y, 0},
        .collision = {.response = PLUME_COLLISION_BOUNCE, .restitution = 0.5f}};
    desc.cpu_events = (plume_cpu_events_desc){.kinds = kinds, .budget = budget};
    return desc;
}

static bool live(const plume_particle *p) { return p->age >= 0.0f; }

/* Whether the particle hits the plane in the next step: its free flight
 * ends below it. 1 yes, 0 no, -1 too close to tell in float. */
static int reference_hit(const plume_particle *p) {
    float y = p->position[1] + p->velocity[1] * STEP + GRAVITY * STEP * STEP * 0.5f;
    if (fabsf(y - PLANE_Y) < 1e-4f) return -1;
    return y < PLANE_Y;
}

static void check_motion(const plume_particle_event *e, const plume_particle *p, const char *what) {
    for (int a = 0; a < 3; ++a)
        if (e->position[a] != p->position[a] || e->velocity[a] != p->velocity[a])
            fail_msg("%s record of particle %u: (%g %g %g) (%g %g %g), the particle read back has (%g %g %g) "
                     "(%g %g %g)",
                     what, e->particle_id, e->position[0], e->position[1], e->position[2], e->velocity[0],
                     e->velocity[1], e->velocity[2], p->position[0], p->position[1], p->position[2], p->velocity[0],
                     p->velocity[1], p->velocity[2]);
}

/* The slot holding live particle `id` in `rb`, or -1. */
static int64_t slot_of(const plume_readback *rb, uint32_t capacity, uint32_t id) {
    for (uint32_t slot = 0; slot < capacity; ++slot)
        if (live(&rb->particles[slot]) && rb->particles[slot].id == id) return slot;
    return -1;
}

/* One update's records against the particles before and after it: each
 * record true (a death: live before, free after, its motion from before; a
 * collision: the reference says it hit or cannot tell, its motion from
 * after), in slot order, none twice; every certain event reported. */
static uint32_t check_update_records(const plume_readback *before, const plume_readback *after, uint32_t capacity,
                                     const plume_particle_event *records, uint32_t n, uint64_t update) {
    uint8_t *reported = calloc(capacity, 1);
    int64_t last_slot = -1;
    for (uint32_t i = 0; i < n; ++i) {
        const plume_particle_event *e = &records[i];
        assert_int_equal(e->update, update);
        assert_int_equal(e->emitter, 0);
        assert_int_equal(e->instance, 0);
        int64_t slot = slot_of(before, capacity, e->particle_id);
        if (slot < 0) fail_msg("record %u names particle %u, which was not alive: invented", i, e->particle_id);
        if (slot <= last_slot) fail_msg("record %u (slot %lld) after slot %lld: not in slot order", i, (long long)slot,
                                        (long long)last_slot);
        last_slot = slot;
        reported[slot] = 1;
        const plume_particle *p0 = &before->particles[slot], *p1 = &after->particles[slot];
        if (e->kind == PLUME_PARTICLE_EVENT_DEATH) {
            if (live(p1)) fail_msg("death record of particle %u, which is still alive", e->particle_id);
            check_motion(e, p0, "death");
        } else {
            assert_int_equal(e->kind, PLUME_PARTICLE_EVENT_COLLISION);
            if (!live(p1) || reference_hit(p0) == 0)
                fail_msg("collision record of particle %u, which did not hit the plane", e->particle_id);
            check_motion(e, p1, "collision");
        }
    }
    uint32_t certain = 0;
    for (uint32_t slot = 0; slot < capacity; ++slot) {
        const plume_particle *p0 = &before->particles[slot], *p1 = &after->particles[slot];
        if (!live(p0)) continue;
        bool died = !live(p1), hit = !died && reference_hit(p0) == 1;
        if ((died || hit) && !reported[slot])
            fail_msg("particle %u in slot %u %s but no record came", p0->id, slot, died ? "died" : "hit the plane");
        certain += died || hit;
    }
    free(reported);
    return certain;
}

/* Every death and collision of every update, checked against the particles
 * read back before and after it (the readback waits for the GPU, so every
 * fence has signalled: the poll then hands over that update's records). */
static void check_events_match_the_particles(void) {
    const uint32_t count = 700 + test_random_below(600);
    plume_system_desc desc = falling_desc(count, PLUME_PARTICLE_EVENT_DEATH | PLUME_PARTICLE_EVENT_COLLISION, 65536);
    plume_system system = make_system(desc);
    plume_frame_desc frame = make_frame(STEP, NULL, NULL);
    uint32_t deaths = 0, collisions = 0;
    update(system, &frame); /* born: update 0 */
    plume_event_poll_info info;
    for (uint64_t u = 1; u <= 14; ++u) {
        plume_readback before = read_all(fixture_context(), system);
        poll_all(system, &info); /* update u - 1's records: born this early, nothing dies or hits yet */
        update(system, &frame);
        plume_readback after = read_all(fixture_context(), system);
        uint32_t n = poll_all(system, &info);
        assert_int_equal(info.queued, 0);
        assert_int_equal(info.in_flight, 0);
        assert_int_equal(info.dropped_budget + info.dropped_in_flight + info.dropped_queue, 0);
        check_update_records(&before, &after, desc.capacity, polled, n, u);
        for (uint32_t i = 0; i < n; ++i) {
            deaths += polled[i].kind == PLUME_PARTICLE_EVENT_DEATH;
            collisions += polled[i].kind == PLUME_PARTICLE_EVENT_COLLISION;
        }
        assert_int_equal(poll_all(system, &info), 0); /* each record once */
        free_readback(&before);
        free_readback(&after);
    }
    printf("  %u particles: %u deaths and %u collisions reported\n", count, deaths, collisions);
    assert_int_equal(deaths, count); /* all died within 0.6 s */
    assert_true(collisions > count / 10); /* many met the plane: the checks above saw collisions */
    destroy_system(system);
}

static void test_events_match_the_particles(void **state) {
    (void)state;
    check_events_match_the_particles();
}

/* A burst of `count` that all die in update 1 (lifetime 0.08 s, steps of 0.05 s). */
static plume_system_desc dying_desc(uint32_t count, uint32_t budget) {
    plume_system_desc desc = {.capacity = count, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.burst_count = count, .speed = {1, 2}, .lifetime = {0.08f, 0.08f}};
    desc.cpu_events = (plume_cpu_events_desc){.kinds = PLUME_PARTICLE_EVENT_DEATH, .budget = budget};
    return desc;
}

/* Over the budget: the first `budget` records in slot order come; the rest
 * are counted, exactly. */
static void test_budget_overflow_counts_the_rest(void **state) {
    (void)state;
    const uint32_t count = 301 + test_random_below(300), budget = 37 + test_random_below(200);
    plume_system system = make_system(dying_desc(count, budget));
    plume_frame_desc frame = make_frame(STEP, NULL, NULL);
    update(system, &frame);
    plume_readback before = read_all(fixture_context(), system);
    update(system, &frame);
    plume_readback after = read_all(fixture_context(), system);
    assert_int_equal(after.live_count, 0);
    /* A poll with room for half: half delivered, nothing past them written,
     * the rest queued for the next poll, which gets them and no count twice. */
    const uint32_t half = budget / 2;
    plume_event_poll_info info;
    memset(polled, POISON_BYTE, sizeof polled);
    assert_int_equal(plume_system_poll_events(fixture_context(), system, polled, half, &info), PLUME_OK);
    assert_int_equal(info.delivered, half);
    assert_int_equal(info.queued, budget - half);
    assert_int_equal(info.dropped_budget, count - budget);
    const unsigned char *past = (const unsigned char *)&polled[half];
    for (size_t b = 0; b < sizeof polled - half * sizeof polled[0]; b += 97)
        if (past[b] != POISON_BYTE) fail_msg("the poll wrote past its %u records (byte %zu)", half, b);
    plume_particle_event first_half[128]; /* budget / 2 */
    memcpy(first_half, polled, half * sizeof polled[0]);
    plume_event_poll_info rest;
    assert_int_equal(plume_system_poll_events(fixture_context(), system, polled + half, MAX_POLLED - half, &rest),
                     PLUME_OK);
    assert_int_equal(rest.delivered, budget - half);
    assert_int_equal(rest.queued + rest.dropped_budget + rest.dropped_in_flight + rest.dropped_queue, 0);
    assert_memory_equal(polled, first_half, half * sizeof polled[0]);
    uint32_t n = half + rest.delivered;
    printf("  %u deaths, budget %u: %u delivered (%u, then %u), %llu dropped\n", count, budget, n, half,
           rest.delivered, (unsigned long long)info.dropped_budget);
    assert_int_equal(n, budget);
    for (uint32_t i = 0; i < n; ++i) {
        assert_int_equal(polled[i].particle_id, before.particles[i].id); /* the burst filled slots 0 .. count - 1 */
        check_motion(&polled[i], &before.particles[i], "death");
    }
    free_readback(&before);
    free_readback(&after);
    destroy_system(system);
}

/* A steady stream: `per_update` particles a step, each dying two steps on. */
static plume_system_desc stream_desc(uint32_t per_update, uint32_t budget) {
    plume_system_desc desc = {.capacity = 4 * per_update + 5, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.rate = per_update / STEP, .speed = {1, 2}, .lifetime = {0.075f, 0.075f}};
    desc.cpu_events = (plume_cpu_events_desc){.kinds = PLUME_PARTICLE_EVENT_DEATH, .budget = budget};
    return desc;
}

static uint32_t deaths_so_far(plume_system system) {
    plume_readback rb = read_all(fixture_context(), system);
    uint32_t deaths = rb.emitted_total - rb.live_count;
    free_readback(&rb);
    return deaths;
}

/* Polled late: the records of a readback ring's worth of updates all come,
 * oldest first; past what the CPU queue holds, the newest are counted as
 * dropped, exactly. */
static void test_late_poll_loses_nothing_up_to_the_ring(void **state) {
    (void)state;
    const uint32_t per_update = 40 + test_random_below(40), budget = 2 * per_update;
    plume_system system = make_system(stream_desc(per_update, budget));
    plume_frame_desc frame = make_frame(STEP, NULL, NULL);
    for (int u = 0; u < PLUME_EVENT_READBACK_DEPTH; ++u) {
        update(system, &frame);
        glFinish();
    }
    uint32_t deaths = deaths_so_far(system);
    plume_event_poll_info info;
    uint32_t n = poll_all(system, &info);
    assert_true(deaths > 0);
    assert_int_equal(n, deaths);
    assert_int_equal(info.dropped_budget + info.dropped_in_flight + info.dropped_queue, 0);
    for (uint32_t i = 1; i < n; ++i) assert_true(polled[i].update >= polled[i - 1].update);
    /* Now many more updates than the queue holds: it keeps the oldest. */
    const int more = 4 * PLUME_EVENT_READBACK_DEPTH;
    for (int u = 0; u < more; ++u) {
        update(system, &frame);
        glFinish();
    }
    uint32_t later = deaths_so_far(system) - deaths;
    n = poll_all(system, &info);
    printf("  %u deaths a step, queue of %u: %u delivered late, %llu dropped\n", per_update,
           PLUME_EVENT_READBACK_DEPTH * budget, n, (unsigned long long)info.dropped_queue);
    assert_int_equal(n, PLUME_EVENT_READBACK_DEPTH * budget);
    assert_int_equal(info.dropped_queue, later - n);
    assert_int_equal(info.dropped_budget + info.dropped_in_flight, 0);
    assert_int_equal(polled[0].update, PLUME_EVENT_READBACK_DEPTH);
    for (uint32_t i = 1; i < n; ++i) assert_true(polled[i].update >= polled[i - 1].update);
    destroy_system(system);
}

/* Reset with records in flight and queued: they are forgotten, the counts
 * zero; events after it come as before. Destroy with records in flight
 * leaves no GL object behind. */
static void test_reset_and_destroy_in_flight(void **state) {
    (void)state;
    const uint32_t per_update = 50 + test_random_below(30);
    test_gl_census census;
    test_take_gl_census(&census);
    plume_system system = make_system(stream_desc(per_update, 1000));
    plume_frame_desc frame = make_frame(STEP, NULL, NULL);
    for (int u = 0; u < 6; ++u) update(system, &frame);
    assert_int_equal(plume_system_reset(fixture_context(), system), PLUME_OK);
    glFinish();
    plume_event_poll_info info;
    assert_int_equal(poll_all(system, &info), 0);
    assert_int_equal(info.in_flight + info.queued, 0);
    assert_int_equal(info.dropped_budget + info.dropped_in_flight + info.dropped_queue, 0);
    for (int u = 0; u < 3; ++u) update(system, &frame);
    uint32_t deaths = deaths_so_far(system);
    assert_int_equal(poll_all(system, &info), deaths);
    assert_int_equal(deaths, 2 * per_update); /* the births of the first two steps after the reset died */
    assert_int_equal(polled[0].update, 7);    /* update indices count on from creation */
    for (int u = 0; u < 3; ++u) update(system, &frame);
    destroy_system(system); /* three readbacks in flight */
    test_gl_census now;
    test_take_gl_census(&now);
    test_assert_same_census(&census, &now, "after destroying a system with readbacks in flight");
}

/* Route triggers: a record per route a particle fires, naming the route's
 * index in world.events (route 0 off: the index is not the packed one). */
static void test_route_triggers(void **state) {
    (void)state;
    const uint32_t count = 100 + test_random_below(100);
    plume_system_desc desc = dying_desc(count, 0);
    desc.capacity = 4 * count;
    desc.emitters[1] = (plume_emitter_desc){.lifetime = {5, 5}};
    desc.world.events[2] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .source_emitters = 1,
                                                    .target_emitter = 1, .count = 2};
    desc.cpu_events.kinds = PLUME_PARTICLE_EVENT_DEATH | PLUME_PARTICLE_EVENT_ROUTE;
    plume_system system = make_system(desc);
    plume_frame_desc frame = make_frame(STEP, NULL, NULL);
    for (int u = 0; u < 4; ++u) update(system, &frame);
    glFinish();
    plume_event_poll_info info;
    uint32_t n = poll_all(system, &info);
    assert_int_equal(n, 2 * count); /* a death and a route record a parent; the children live on */
    uint8_t *seen = calloc(count, 1);
    for (uint32_t i = 0; i < n; ++i) {
        const plume_particle_event *e = &polled[i];
        assert_int_equal(e->kind, i % 2 ? PLUME_PARTICLE_EVENT_ROUTE : PLUME_PARTICLE_EVENT_DEATH);
        assert_int_equal(e->route, i % 2 ? 2 : 0);
        assert_int_equal(e->update, 1);
        assert_true(e->particle_id < count);
        const plume_particle_event *death = &polled[i - i % 2];
        assert_int_equal(e->particle_id, death->particle_id);
        assert_memory_equal(e->position, death->position, sizeof e->position);
        if (i % 2 == 0) assert_int_equal(seen[e->particle_id]++, 0);
    }
    free(seen);
    destroy_system(system);
}

static uint32_t gl_object_count(void) {
    uint32_t count = 0;
    assert_int_equal(plume_context_list_gl_objects(fixture_context(), NULL, 0, &count), PLUME_OK);
    return count;
}

/* Bad input is refused with a message and changes nothing; events off make
 * no GL object. */
static void test_bad_input(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_context *context = fixture_context();
    plume_system_desc desc = dying_desc(50, 0);
    /* Programs are the context's cache's, built by the first system of a
     * look: a system with events made first leaves only buffers to count. */
    desc.cpu_events.kinds = PLUME_PARTICLE_EVENT_DEATH;
    plume_system programs_built = make_system(desc);
    desc.cpu_events.kinds = 0;
    uint32_t objects = gl_object_count();
    plume_system quiet = make_system(desc);
    uint32_t quiet_objects = gl_object_count() - objects;
    desc.cpu_events.kinds = PLUME_PARTICLE_EVENT_DEATH;
    plume_system loud = make_system(desc);
    printf("  GL objects: %u with events off, %u on\n", quiet_objects, gl_object_count() - objects - quiet_objects);
    /* Events add their record and group-count buffers and the readback ring. */
    assert_int_equal(gl_object_count() - objects - quiet_objects, quiet_objects + 2 + PLUME_EVENT_READBACK_DEPTH);
    plume_event_poll_info info;
    assert_int_equal(plume_system_poll_events(context, quiet, polled, 4, &info), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_system_poll_events: the system was created without cpu_events.kinds"));
    assert_int_equal(plume_system_poll_events(context, loud, NULL, 4, &info), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("out must not be NULL"));
    assert_int_equal(plume_system_poll_events(context, loud, NULL, 0, &info), PLUME_OK);
    assert_int_equal(plume_system_poll_events(context, loud, polled, 4, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_poll_events(context, (plume_system){12345}, polled, 4, &info),
                     PLUME_ERROR_INVALID_ARGUMENT);
    destroy_system(quiet);
    destroy_system(loud);
    const struct {
        plume_cpu_events_desc events;
        uint32_t path;
        plume_result expected;
        const char *message;
    } cases[] = {
        {{.kinds = 8}, 0, PLUME_ERROR_INVALID_ARGUMENT, "cpu_events.kinds has bits"},
        {{.kinds = 1, .budget = 65537}, 0, PLUME_ERROR_INVALID_ARGUMENT, "cpu_events.budget is over"},
        {{.kinds = 1, .source_emitters = 1u << PLUME_MAX_EMITTERS}, 0, PLUME_ERROR_INVALID_ARGUMENT,
         "cpu_events.source_emitters names"},
        {{.kinds = 1}, PLUME_PATH_FRAGMENT, PLUME_ERROR_GL_UNSUPPORTED, "cpu_events.kinds needs the compute path"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        desc.cpu_events = cases[i].events;
        desc.path = cases[i].path;
        plume_system bad = {0};
        assert_int_equal(plume_system_create(context, &desc, &bad), cases[i].expected);
        assert_int_equal(bad.id, 0);
        if (!test_log_contains(cases[i].message)) fail_msg("case %zu: no message \"%s\"", i, cases[i].message);
    }
    assert_int_equal(gl_object_count(), objects);
    destroy_system(programs_built);
}

/* A prewarm's records (deaths during its steps) carry the index of the
 * update after it: before the first update 0, after two updates 2, so the
 * records of any poll come in order of their update field. */
static void test_prewarm_events_carry_the_next_update(void **state) {
    (void)state;
    const uint32_t per_update = 20 + test_random_below(20);
    plume_system system = make_system(stream_desc(per_update, 1000));
    plume_frame_desc frame = make_frame(STEP, NULL, NULL);
    plume_event_poll_info info;
    const uint64_t expected_first[2] = {0, 2};
    for (int round = 0; round < 2; ++round) {
        /* Four steps of PLUME_PREWARM_STEP: the ring holds each one's records. */
        assert_int_equal(plume_system_prewarm(fixture_context(), system, 4 * PLUME_PREWARM_STEP), PLUME_OK);
        glFinish();
        uint32_t n = poll_all(system, &info);
        printf("  prewarm %d: %u records, updates %llu..%llu\n", round, n,
               (unsigned long long)(n ? polled[0].update : 0), (unsigned long long)(n ? polled[n - 1].update : 0));
        assert_true(n > 0);
        for (uint32_t i = 0; i < n; ++i) assert_int_equal(polled[i].update, expected_first[round]);
        update(system, &frame);
        update(system, &frame);
        glFinish();
        n = poll_all(system, &info);
        for (uint32_t i = 1; i < n; ++i) assert_true(polled[i].update >= polled[i - 1].update);
    }
    destroy_system(system);
}

/* Records name the placement their particle came from: instances spread
 * along x (their indices across 4096, so every bit of the field shows), each
 * particle dying where it was born; an emit's particles are instance 0's. */
static void test_events_name_their_instance(void **state) {
    (void)state;
    const uint32_t first = 4093, count = 3 + test_random_below(4), per_instance = 5;
    plume_system_desc desc = {.capacity = 4099 + 64, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.rate = per_instance / STEP, .lifetime = {0.08f, 0.08f}};
    desc.cpu_events = (plume_cpu_events_desc){.kinds = PLUME_PARTICLE_EVENT_DEATH};
    plume_system system = make_system(desc);
    plume_instance_desc own = {.enabled = false};
    assert_int_equal(plume_system_set_instances(fixture_context(), system, 0, 1, &own), PLUME_OK);
    plume_instance_desc placed[8];
    for (uint32_t i = 0; i < count; ++i)
        placed[i] = (plume_instance_desc){.transform = {.position = {10.0f * (float)(i + 1), 0, 0}}, .enabled = true};
    assert_int_equal(plume_system_set_instances(fixture_context(), system, first, count, placed), PLUME_OK);
    plume_emit_desc emit = {.count = 7, .transform = {.position = {-50, 0, 0}}};
    assert_int_equal(plume_system_emit(fixture_context(), system, &emit), PLUME_OK);
    plume_frame_desc frame = make_frame(STEP, NULL, NULL);
    for (int k = 0; k < 4; ++k) update(system, &frame);
    plume_readback sync = read_all(fixture_context(), system);
    free_readback(&sync);
    plume_event_poll_info info;
    uint32_t n = poll_all(system, &info);
    uint32_t from_emit = 0, per[8] = {0};
    for (uint32_t i = 0; i < n; ++i) {
        const plume_particle_event *e = &polled[i];
        if (e->position[0] < 0.0f) {
            assert_int_equal(e->instance, 0);
            ++from_emit;
            continue;
        }
        uint32_t k = (uint32_t)lroundf(e->position[0] / 10.0f) - 1;
        assert_true(k < count);
        if (e->instance != first + k)
            fail_msg("a death at x %g came from instance %u, recorded as %u", e->position[0], first + k, e->instance);
        ++per[k];
    }
    printf("  %u deaths: %u from the emit, from instances %u..%u:", n, from_emit, first, first + count - 1);
    for (uint32_t k = 0; k < count; ++k) printf(" %u", per[k]);
    printf("\n");
    assert_int_equal(from_emit, emit.count);
    for (uint32_t k = 0; k < count; ++k) assert_true(per[k] >= per_instance);
    destroy_system(system);
}

#ifndef PLUME_TESTS_THROUGH_TABLE
/* The same where the GL has no persistent mapping: the readbacks are read
 * with glGetBufferSubData once their fence has signalled. */
static void test_events_read_by_copy(void **state) {
    (void)state;
    plume_lab_cpu_events_read_by_copy(true);
    check_events_match_the_particles();
    plume_lab_cpu_events_read_by_copy(false);
}

/* While every readback is in flight (the spy's fences never signal) the
 * update copies nothing and never waits; the records of those updates are
 * counted as dropped, exactly, once a copy lands again. */
static void test_ring_in_flight_drops_without_waiting(void **state) {
    (void)state;
    const uint32_t per_update = 30 + test_random_below(30);
    plume_system system = make_system(stream_desc(per_update, 4 * per_update));
    plume_frame_desc frame = make_frame(STEP, NULL, NULL);
    plume_event_poll_info info;
    spy_install();
    spy.fences_pending = true;
    const int stuck = PLUME_EVENT_READBACK_DEPTH + 3;
    for (int u = 0; u < stuck; ++u) {
        update(system, &frame);
        assert_int_equal(poll_all(system, &info), 0);
        assert_int_equal(info.in_flight, u < PLUME_EVENT_READBACK_DEPTH ? u + 1 : PLUME_EVENT_READBACK_DEPTH);
    }
    spy.fences_pending = false;
    glFinish();
    update(system, &frame); /* takes the ring's four, copies its own */
    glFinish();
    uint32_t n = poll_all(system, &info);
    long waits = spy.fence_waits_with_timeout;
    spy_remove();
    uint32_t deaths = deaths_so_far(system);
    printf("  %u deaths: %u delivered, %llu dropped while the ring was in flight\n", deaths, n,
           (unsigned long long)info.dropped_in_flight);
    assert_int_equal(waits, 0);
    assert_int_equal(n + info.dropped_in_flight, deaths);
    assert_int_equal(info.dropped_in_flight, 3 * per_update); /* updates 4, 5, 6: a step's deaths each */
    for (uint32_t i = 0; i < n; ++i)
        assert_true(polled[i].update < PLUME_EVENT_READBACK_DEPTH || polled[i].update == (uint64_t)stuck);
    destroy_system(system);
}
#endif

const struct CMUnitTest world_cpu_events_tests[] = {
    cmocka_unit_test_setup_teardown(test_events_match_the_particles, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_budget_overflow_counts_the_rest, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_late_poll_loses_nothing_up_to_the_ring, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_reset_and_destroy_in_flight, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_route_triggers, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bad_input, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_events_name_their_instance, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_prewarm_events_carry_the_next_update, fixture_setup, fixture_teardown),
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_events_read_by_copy, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_ring_in_flight_drops_without_waiting, fixture_setup, fixture_teardown),
#endif
};
const size_t world_cpu_events_test_count = sizeof world_cpu_events_tests / sizeof world_cpu_events_tests[0];
