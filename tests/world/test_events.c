/* GPU events and sub-emitters (plume_world, since 1.2): deaths and
 * collisions spawn particles of another emitter at the parent's position
 * with its velocity inherited; the children's count equals the events' when
 * there is room, and otherwise what is dropped is counted in the profile;
 * routes to another system; the same steps give the same particles; a
 * system holds an event buffer only once a route reaches it. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { PARENTS = 100 };
static const float PARENT_LIFETIME = 0.08f, CHILD_LIFETIME = 50, STEP = 0.05f;

/* PARENTS parents (emitter 0, a burst, lifetime 0.08 s, moving up at about
 * 1 unit/s) whose deaths spawn `children` each of emitter 1 (no speed of its
 * own, half the parent's velocity). */
static plume_system_desc parents_desc(uint32_t capacity, uint32_t children, uint32_t event_capacity) {
    plume_system_desc desc = {.capacity = capacity, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {2}, .spread = 0.5f,
                                            .speed = {0.5f, 1.5f}, .burst_count = PARENTS,
                                            .lifetime = {PARENT_LIFETIME, PARENT_LIFETIME}};
    desc.emitters[1] = (plume_emitter_desc){.lifetime = {CHILD_LIFETIME, CHILD_LIFETIME}};
    desc.world.events[0] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .source_emitters = 1u << 0,
                                                    .target_emitter = 1, .count = children, .inherit_velocity = 0.5f};
    desc.world.event_capacity = event_capacity;
    return desc;
}

static uint32_t count_children(const plume_readback *rb) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < rb->live_count; ++i) n += rb->particles[rb->draw_order[i]].lifetime > 1;
    return n;
}

/* The event counts over every profiled frame so far. */
static void sum_event_profile(plume_system system, uint32_t *children, uint32_t *dropped) {
    plume_frame_profile frames[64];
    uint32_t n = plume_system_get_frame_profiles(fixture_context(), system, 0, frames, 64);
    *children = *dropped = 0;
    for (uint32_t i = 0; i < n; ++i) *children += frames[i].event_children, *dropped += frames[i].event_children_dropped;
}

/* Updates until the parents have died and their children have been emitted,
 * then a few more so the profile's frames come back. */
static void run_past_the_deaths(plume_system system, plume_readback *last_parents) {
    plume_frame_desc frame = make_frame(STEP, NULL, NULL);
    update(system, &frame); /* born, 0.05 s old */
    *last_parents = read_all(fixture_context(), system);
    update(system, &frame); /* 0.10 s: dead; events appended */
    update(system, &frame); /* children emitted */
    plume_readback rb = read_all(fixture_context(), system); /* waits: the frames are done */
    free_readback(&rb);
    for (int k = 0; k < 2; ++k) update(system, &frame);
}

/* The slot of the parent a child of emitter 1 was born from: the
 * one at the child's birth position with twice its velocity (no force acts:
 * the child has moved with its velocity since); -1 if none. */
static int64_t parent_of(const plume_particle *c, const plume_readback *parents) {
    for (uint32_t j = 0; j < parents->live_count; ++j) {
        const plume_particle *p = &parents->particles[parents->draw_order[j]];
        bool same = true;
        for (int a = 0; a < 3; ++a) {
            float born = c->position[a] - c->velocity[a] * c->age;
            same = same && fabsf(born - p->position[a]) < 1e-4f && fabsf(c->velocity[a] - 0.5f * p->velocity[a]) < 1e-5f;
        }
        if (same) return parents->draw_order[j];
    }
    return -1;
}

/* The children's records are written in the parents' slot order (route,
 * then child, within a parent), whatever order the GPU ran the simulate pass
 * in: the burst's parents take slots 0 .. PARENTS - 1, so child c of the
 * parent in slot j has emission number PARENTS + j k + c, and the children
 * kept when there is room for only n are those of the first records. */
static void check_children_in_parent_order(const plume_readback *rb, const plume_readback *parents, uint32_t k) {
    for (uint32_t i = 0; i < rb->live_count; ++i) {
        const plume_particle *c = &rb->particles[rb->draw_order[i]];
        int64_t parent = parent_of(c, parents);
        assert_true(parent < PARENTS);
        if (parent < 0) fail_msg("child %u at (%g, %g, %g) has no parent", c->id, c->position[0], c->position[1], c->position[2]);
        if (c->id < PARENTS || (c->id - PARENTS) / k != parent)
            fail_msg("child %u of the parent in slot %lld: children are not numbered in their parents' slot order", c->id,
                     (long long)parent);
    }
}

/* Death of N parents with k children each gives N k children, each at its
 * parent's last position with half its velocity, numbered in the parents'
 * slot order; the profile counts N k children and none dropped. */
static void test_death_spawns_n_times_k_children(void **state) {
    (void)state;
    const uint32_t k = 1 + test_random_below(6);
    plume_system system = make_system(parents_desc(PARENTS * (k + 1) + 17, k, 0));
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    plume_readback parents;
    run_past_the_deaths(system, &parents);
    assert_int_equal(parents.live_count, PARENTS);
    plume_readback rb = read_all(fixture_context(), system);
    assert_int_equal(rb.live_count, PARENTS * k);
    assert_int_equal(count_children(&rb), PARENTS * k);
    check_children_in_parent_order(&rb, &parents, k);
    /* Every parent has k children: the numbers are distinct (slots are), so
     * N k children numbered by parent give each parent k. */
    uint32_t *matched = calloc(PARENTS, sizeof *matched);
    for (uint32_t i = 0; i < rb.live_count; ++i) ++matched[(rb.particles[rb.draw_order[i]].id - PARENTS) / k];
    for (uint32_t j = 0; j < PARENTS; ++j)
        if (matched[j] != k) fail_msg("parent %u has %u children, expected %u", j, matched[j], k);
    uint32_t children, dropped;
    sum_event_profile(system, &children, &dropped);
    printf("  %u parents x %u children: %u live children, profile: %u requested, %u dropped\n", PARENTS, k,
           rb.live_count, children, dropped);
    assert_int_equal(children, PARENTS * k);
    assert_int_equal(dropped, 0);
    free(matched);
    free_readback(&parents);
    free_readback(&rb);
    destroy_system(system);
}

/* Without room: an event buffer of 64 children keeps 64 of N k; a system of
 * capacity C keeps C of them. The rest are counted as dropped; those kept
 * are the first in the parents' slot order. */
static void test_overflow_is_counted(void **state) {
    (void)state;
    const uint32_t k = 5;
    const struct {
        uint32_t capacity, event_capacity, expected;
    } cases[] = {{1000, 64, 64}, {300, 4096, 300}, {PARENTS * k, PARENTS * k - 1, PARENTS * k - 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        plume_system system = make_system(parents_desc(cases[i].capacity, k, cases[i].event_capacity));
        assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
        plume_readback parents;
        run_past_the_deaths(system, &parents);
        plume_readback rb = read_all(fixture_context(), system);
        uint32_t children, dropped;
        sum_event_profile(system, &children, &dropped);
        printf("  capacity %u, event buffer %u: %u children of %u, %u dropped\n", cases[i].capacity,
               cases[i].event_capacity, rb.live_count, PARENTS * k, dropped);
        assert_int_equal(rb.live_count, cases[i].expected);
        assert_int_equal(children, PARENTS * k);
        assert_int_equal(dropped, PARENTS * k - cases[i].expected);
        assert_int_equal(rb.live_count + rb.dead_count, cases[i].capacity);
        check_children_in_parent_order(&rb, &parents, k);
        for (uint32_t c = 0; c < rb.live_count; ++c)
            assert_true(rb.particles[rb.draw_order[c]].id < PARENTS + cases[i].expected);
        free_readback(&parents);
        free_readback(&rb);
        destroy_system(system);
    }
}

/* Collisions fire events too, only of the source emitters: raindrops
 * (emitter 0) hitting the floor spawn 3 splashes each (emitter 2); the
 * splashes hit the floor as well but spawn nothing. Routes to another
 * system: the drops' deaths by the kill plane spawn one particle each in a
 * second system. */
static void test_collisions_and_other_systems(void **state) {
    (void)state;
    plume_system_desc target_desc = {.capacity = 256, .seed = test_random_u32()};
    target_desc.emitters[3] = (plume_emitter_desc){.lifetime = {CHILD_LIFETIME, CHILD_LIFETIME}};
    plume_system target = make_system(target_desc);
    plume_system_desc desc = {.capacity = 1024, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .position = {0, 1, 0}, .extents = {2, 0.2f, 2},
                                            .direction = {0, -1, 0}, .speed = {10, 10}, .burst_count = 50,
                                            .lifetime = {CHILD_LIFETIME, CHILD_LIFETIME}};
    desc.emitters[2] = (plume_emitter_desc){.direction = {0, 1, 0}, .spread = 1, .speed = {1, 2},
                                            .lifetime = {CHILD_LIFETIME, CHILD_LIFETIME}};
    desc.forces.gravity[1] = -10;
    desc.world.colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .collision = {.restitution = 0.3f}};
    desc.world.colliders[1] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .position = {0, -5, 0},
                                                    .collision = {.response = PLUME_COLLISION_KILL}};
    desc.world.events[1] = (plume_event_route_desc){.trigger = PLUME_EVENT_COLLISION, .source_emitters = 1u << 0,
                                                    .target_emitter = 2, .count = 3};
    plume_system rain = make_system(desc);
    plume_frame_desc frame = make_frame(0.05f, NULL, NULL);
    for (int step = 0; step < 3; ++step) update(rain, &frame); /* every drop hits the floor once (1.2 units at 10+ units/s) */
    update(rain, &frame);  /* the last splashes are emitted */
    plume_readback rb = read_all(fixture_context(), rain);
    uint32_t splashes = 0;
    for (uint32_t i = 0; i < rb.live_count; ++i) {
        const plume_particle *p = &rb.particles[rb.draw_order[i]];
        splashes += p->id >= 50;
        assert_true(p->position[1] >= 0);
    }
    /* A drop bounces back up at 3 units/s: one hit each so far. */
    printf("  50 drops: %u splashes\n", splashes);
    assert_int_equal(splashes, 150);
    free_readback(&rb);
    /* Now the floor is gone (set at run time): the drops and splashes fall
     * to the kill plane, and each drop's death spawns one particle in the
     * other system. */
    plume_world world = system_desc(fixture_context(), rain).world;
    world.colliders[0].shape = PLUME_COLLIDER_NONE;
    world.events[1].trigger = PLUME_EVENT_NONE;
    world.events[2] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .source_emitters = 1u << 0,
                                               .target_system = target, .target_emitter = 3};
    assert_int_equal(plume_system_set_world(fixture_context(), rain, &world), PLUME_OK);
    for (int step = 0; step < 30; ++step) update(rain, &frame); /* 1.5 s: all past y = -5 */
    update(target, &frame);
    plume_readback rain_rb = read_all(fixture_context(), rain), target_rb = read_all(fixture_context(), target);
    assert_int_equal(rain_rb.live_count, 0);
    assert_int_equal(target_rb.live_count, 50);
    for (uint32_t i = 0; i < target_rb.live_count; ++i)
        assert_true(fabsf(target_rb.particles[target_rb.draw_order[i]].position[1] + 5) < 1.0f);
    free_readback(&rain_rb);
    free_readback(&target_rb);
    /* A destroyed target: the route is skipped with a warning. */
    destroy_system(target);
    for (int step = 0; step < 2; ++step) update(rain, &frame);
    assert_true(test_log_contains("was destroyed; the route is skipped"));
    destroy_system(rain);
}

/* The same seed, descriptor and steps give the same particles, in the same
 * slots and the same draw order (ties included), whatever order the GPU runs
 * invocations in: deaths and collisions over a few dozen workgroups every
 * update (which free slots new particles take, which children are numbered
 * how). One system runs alone, two more with their updates interleaved, so
 * that the GPU schedules them differently. */
static void test_events_are_deterministic(void **state) {
    (void)state;
    enum { RUNS = 3, CAPACITY = 9000, STEPS = 20 };
    plume_system_desc desc = parents_desc(CAPACITY, 1, 0);
    desc.emitters[0].rate = 8000;
    desc.emitters[1].spread = 3, desc.emitters[1].speed = (plume_range){0, 1};
    desc.world.colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_SPHERE, .radius = 1.5f,
                                                    .collision = {.restitution = 0.5f}};
    desc.world.events[1] = (plume_event_route_desc){.trigger = PLUME_EVENT_COLLISION, .source_emitters = 1u << 0,
                                                    .target_emitter = 1};
    mat4 view, projection;
    random_camera(view, projection);
    plume_frame_desc frame = make_frame(0.02f, view, projection);
    plume_system systems[RUNS];
    for (int run = 0; run < RUNS; ++run) systems[run] = make_system(desc);
    for (int step = 0; step < STEPS; ++step) update(systems[0], &frame);
    for (int step = 0; step < STEPS; ++step)
        for (int run = 1; run < RUNS; ++run) update(systems[run], &frame);
    plume_readback rb[RUNS];
    for (int run = 0; run < RUNS; ++run) rb[run] = read_all(fixture_context(), systems[run]);
    uint32_t children = count_children(&rb[0]);
    printf("  %u particles, %u of them children\n", rb[0].live_count, children);
    assert_true(children > 3000 && rb[0].live_count < CAPACITY); /* children of deaths and collisions, and room left */
    for (int run = 1; run < RUNS; ++run) {
        assert_int_equal(rb[run].live_count, rb[0].live_count);
        assert_int_equal(rb[run].dead_count, rb[0].dead_count);
        assert_memory_equal(rb[run].draw_order, rb[0].draw_order, sizeof(uint32_t) * rb[0].live_count);
        assert_memory_equal(rb[run].dead_slots, rb[0].dead_slots, sizeof(uint32_t) * rb[0].dead_count);
        for (uint32_t i = 0; i < rb[0].live_count; ++i) {
            uint32_t slot = rb[0].draw_order[i];
            if (memcmp(&rb[run].particles[slot], &rb[0].particles[slot], sizeof(plume_particle)) != 0)
                fail_msg("run %d: slot %u holds particle %u, run 0 particle %u", run, slot, rb[run].particles[slot].id,
                         rb[0].particles[slot].id);
        }
    }
    for (int run = 0; run < RUNS; ++run) {
        free_readback(&rb[run]);
        destroy_system(systems[run]);
    }
}

/* How many of the context's buffers are `bytes` long (an event buffer's
 * size: through the public listing, as a host sees them). */
static uint32_t buffers_of_size(int64_t bytes) {
    uint32_t count = 0, n = 0;
    assert_int_equal(plume_context_list_gl_objects(fixture_context(), NULL, 0, &count), PLUME_OK);
    plume_gl_object *objects = calloc(count + 1, sizeof *objects);
    assert_int_equal(plume_context_list_gl_objects(fixture_context(), objects, count, &count), PLUME_OK);
    for (uint32_t i = 0; i < count; ++i) {
        GLint64 size = 0;
        if (objects[i].type == GL_BUFFER) glGetNamedBufferParameteri64v(objects[i].name, GL_BUFFER_SIZE, &size);
        n += size == bytes;
    }
    free(objects);
    return n;
}

/* A system no route reaches holds no event buffer; a route given later
 * (plume_system_set_world) makes its buffer, header and event_capacity
 * records, and its children come as from a system created with the route;
 * another system created with a route to a plain one makes the plain one's
 * buffer (not one of its own), and the children arrive there. */
static void test_an_event_buffer_only_once_a_route_reaches_the_system(void **state) {
    (void)state;
    const uint32_t k = 1 + test_random_below(4);
    plume_system_desc desc = parents_desc(PARENTS * (k + 1) + 17, k, 0);
    plume_event_route_desc route = desc.world.events[0];
    desc.world.events[0] = (plume_event_route_desc){0};
    plume_system parents = make_system(desc), plain = make_system(desc);
    plume_world world = system_desc(fixture_context(), parents).world;
    int64_t event_bytes = 32 + 32 * (int64_t)world.event_capacity;
    assert_int_equal(buffers_of_size(event_bytes), 0);
    world.events[0] = route;
    assert_int_equal(plume_system_set_world(fixture_context(), parents, &world), PLUME_OK);
    assert_int_equal(buffers_of_size(event_bytes), 1);
    assert_int_equal(plume_system_set_profiling(fixture_context(), parents, true), PLUME_OK);
    plume_readback parents_rb;
    run_past_the_deaths(parents, &parents_rb);
    plume_readback rb = read_all(fixture_context(), parents);
    assert_int_equal(rb.live_count, PARENTS * k);
    check_children_in_parent_order(&rb, &parents_rb, k);
    uint32_t children, dropped;
    sum_event_profile(parents, &children, &dropped);
    assert_true(children == PARENTS * k && dropped == 0);
    free_readback(&parents_rb);
    free_readback(&rb);
    /* A route from a new system to the plain one: the plain one's buffer. */
    desc.world.events[0] = route;
    desc.world.events[0].target_system = plain, desc.world.events[0].count = 1;
    plume_system sender = make_system(desc);
    assert_int_equal(buffers_of_size(event_bytes), 2); /* the plain one's, none of the sender's */
    plume_frame_desc frame = make_frame(STEP, NULL, NULL);
    for (int step = 0; step < 3; ++step) update(sender, &frame); /* the parents die */
    update(plain, &frame);
    rb = read_all(fixture_context(), plain);
    assert_int_equal(count_children(&rb), PARENTS);
    free_readback(&rb);
    destroy_system(sender);
    destroy_system(plain);
    destroy_system(parents);
}

const struct CMUnitTest world_events_tests[] = {
    cmocka_unit_test_setup_teardown(test_an_event_buffer_only_once_a_route_reaches_the_system, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_death_spawns_n_times_k_children, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_overflow_is_counted, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_collisions_and_other_systems, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_events_are_deterministic, fixture_setup, fixture_teardown),
};
const size_t world_events_test_count = sizeof world_events_tests / sizeof world_events_tests[0];
