/* The world's descriptors (plume_world, since 1.2): bad colliders,
 * attractors, fields and event routes refused at creation and by
 * plume_system_set_world with a message naming the field and nothing
 * changed; the defaults; a 1.1 host's smaller plume_system_desc. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume/plume_plugin.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

/* Bad case `which` applied to a valid world; false past the last case. */
static bool make_bad_world(int which, plume_world *w, plume_system other, plume_system third, const char **message) {
    switch (which) {
    case 0: w->colliders[0].shape = 9, *message = "world.colliders[0].shape"; break;
    case 1: w->colliders[1] = (plume_collider_desc){.shape = PLUME_COLLIDER_SPHERE}, *message = "world.colliders[1].radius"; break;
    case 2: w->colliders[2] = (plume_collider_desc){.shape = PLUME_COLLIDER_BOX, .extents = {1, 0, 1}}, *message = "world.colliders[2].extents"; break;
    case 3: w->colliders[3] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .normal = {NAN, 1, 0}}, *message = "world.colliders[3].normal"; break;
    case 4: w->colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .position = {INFINITY, 0, 0}}, *message = "world.colliders[0].position"; break;
    case 5: w->colliders[7] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .collision = {.restitution = 1.5f}}, *message = "world.colliders[7].collision.restitution"; break;
    case 6: w->colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .collision = {.friction = -1}}, *message = "world.colliders[0].collision.friction"; break;
    case 7: w->colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .collision = {.response = 3}}, *message = "world.colliders[0].collision.response"; break;
    case 8: w->colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .collision = {.rest_speed = NAN}}, *message = "world.colliders[0].collision.rest_speed"; break;
    case 9: w->depth_collision.thickness = -1, *message = "world.depth_collision.thickness"; break;
    case 10: w->depth_collision.collision.restitution = -0.1f, *message = "world.depth_collision.collision.restitution"; break;
    case 11: w->attractors[2] = (plume_attractor_desc){.kind = 3}, *message = "world.attractors[2].kind"; break;
    case 12: w->attractors[0] = (plume_attractor_desc){.kind = PLUME_ATTRACTOR_POINT, .strength = NAN}, *message = "world.attractors[0].strength"; break;
    case 13: w->attractors[1] = (plume_attractor_desc){.kind = PLUME_ATTRACTOR_VORTEX, .radius = -2}, *message = "world.attractors[1].radius"; break;
    case 14: w->attractors[1] = (plume_attractor_desc){.kind = PLUME_ATTRACTOR_VORTEX, .axis = {0, INFINITY, 0}}, *message = "world.attractors[1].axis"; break;
    case 15: w->vector_field = (plume_vector_field_desc){.texture = 5, .bounds_max = {1, 0, 1}}, *message = "world.vector_field.bounds_max"; break;
    case 16: w->events[0] = (plume_event_route_desc){.trigger = 7}, *message = "world.events[0].trigger"; break;
    case 17: w->events[1] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .target_emitter = 8}, *message = "world.events[1].target_emitter"; break;
    case 18: w->events[2] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .count = 65}, *message = "world.events[2].count"; break;
    case 19: w->events[3] = (plume_event_route_desc){.trigger = PLUME_EVENT_COLLISION, .source_emitters = 1u << 8}, *message = "world.events[3].source_emitters"; break;
    case 20: w->events[0] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .inherit_velocity = NAN}, *message = "world.events[0].inherit_velocity"; break;
    case 21: w->events[1] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .target_system = {0x1234}}, *message = "world.events[1].target_system names no live"; break;
    case 22:
        w->events[0] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .target_system = other};
        w->events[2] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .target_system = third};
        *message = "world.events[2].target_system is a second system";
        break;
    case 23: w->event_capacity = (1u << 21) + 1, *message = "world.event_capacity"; break;
    default: return false;
    }
    return true;
}

static void test_bad_world_descriptors_are_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_system_desc base = {.capacity = 64, .seed = 3};
    base.emitters[0] = (plume_emitter_desc){.rate = 100, .lifetime = {1, 1}};
    plume_system other = make_system(base), third = make_system(base), live = make_system(base);
    plume_world good = {.colliders[0] = {.shape = PLUME_COLLIDER_PLANE}};
    assert_int_equal(plume_system_set_world(fixture_context(), live, &good), PLUME_OK);
    int cases = 0;
    for (int which = 0;; ++which) {
        plume_system_desc desc = base;
        const char *message = NULL;
        if (!make_bad_world(which, &desc.world, other, third, &message)) break;
        int errors = test_log_error_count();
        plume_system system = {0xABABABABABABABABull};
        plume_result result = plume_system_create(fixture_context(), &desc, &system);
        if (result != PLUME_ERROR_INVALID_ARGUMENT || system.id != 0 || !test_log_contains(message) ||
            test_log_error_count() == errors)
            fail_msg("create, case %d: %s, message \"%s\" %s", which, plume_result_string(result), message,
                     test_log_contains(message) ? "logged" : "missing");
        if (which == 23) { ++cases; continue; } /* set_world keeps the creation's capacity */
        errors = test_log_error_count();
        result = plume_system_set_world(fixture_context(), live, &desc.world);
        if (result != PLUME_ERROR_INVALID_ARGUMENT || test_log_error_count() != errors + 1)
            fail_msg("set_world, case %d: %s", which, plume_result_string(result));
        plume_world now = system_desc(fixture_context(), live).world;
        if (now.colliders[0].shape != PLUME_COLLIDER_PLANE || now.colliders[1].shape != PLUME_COLLIDER_NONE ||
            now.events[0].trigger != PLUME_EVENT_NONE || now.attractors[0].kind != PLUME_ATTRACTOR_NONE)
            fail_msg("set_world, case %d changed the world", which);
        ++cases;
    }
    assert_int_equal(cases, 24);
    assert_int_equal(plume_system_set_world(fixture_context(), live, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_set_world(fixture_context(), (plume_system){0}, &good), PLUME_ERROR_INVALID_ARGUMENT);
    destroy_system(other);
    destroy_system(third);
    destroy_system(live);
}

/* Zero fields take the documented defaults; unit normals and axes. */
static void test_world_defaults(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 32};
    desc.world.colliders[4] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .normal = {0, 0, 3}};
    desc.world.colliders[5] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE};
    desc.world.attractors[1] = (plume_attractor_desc){.kind = PLUME_ATTRACTOR_VORTEX, .axis = {2, 0, 0}};
    desc.world.vector_field = (plume_vector_field_desc){.texture = 9, .bounds_max = {1, 1, 1}};
    desc.world.events[3] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH};
    plume_system system = make_system(desc);
    plume_world w = system_desc(fixture_context(), system).world;
    assert_int_equal(w.event_capacity, 4096);
    assert_float_equal(w.depth_collision.thickness, 0.5, 0);
    assert_false(w.depth_collision.enabled);
    assert_float_equal(w.colliders[4].normal[2], 1, 0);
    assert_float_equal(w.colliders[5].normal[1], 1, 0);
    assert_float_equal(w.attractors[1].axis[0], 1, 0);
    assert_float_equal(w.vector_field.strength, 1, 0);
    assert_int_equal(w.events[3].count, 1);
    assert_int_equal(w.colliders[0].shape, PLUME_COLLIDER_NONE);
    /* The event buffer's size is the creation's, whatever set_world says. */
    w.event_capacity = 7;
    w.vector_field.texture = 0; /* a name that is no texture would be warned about at update */
    assert_int_equal(plume_system_set_world(fixture_context(), system, &w), PLUME_OK);
    assert_int_equal(system_desc(fixture_context(), system).world.event_capacity, 4096);
    destroy_system(system);
}

/* A host built against 1.1 has a plume_system_desc without `world`: the
 * 1.1 table reads only that much (ASan sees an over-read) and gives no world. */
static void test_a_1_1_host_has_no_world(void **state) {
    (void)state;
    const plume_api *api = NULL;
    assert_int_equal(plume_get_api(PLUME_ABI_MAJOR, 1, NULL, &api), PLUME_OK);
    size_t size_1_1 = offsetof(plume_system_desc, world);
    /* Bytes, not a plume_system_desc: the host's struct is that much shorter. */
    unsigned char *small = calloc(1, size_1_1);
    uint32_t capacity = 16;
    memcpy(small + offsetof(plume_system_desc, capacity), &capacity, sizeof capacity);
    plume_system system = {0};
    assert_int_equal(api->system_create(fixture_context(), (const plume_system_desc *)(void *)small, &system),
                     PLUME_OK);
    memset(small, 0xAB, size_1_1);
    assert_int_equal(api->system_get_desc(fixture_context(), system, (plume_system_desc *)(void *)small), PLUME_OK);
    memcpy(&capacity, small + offsetof(plume_system_desc, capacity), sizeof capacity);
    assert_int_equal(capacity, 16);
    plume_system_desc full = system_desc(fixture_context(), system);
    assert_int_equal(full.world.colliders[0].shape, PLUME_COLLIDER_NONE);
    assert_int_equal(full.world.events[0].trigger, PLUME_EVENT_NONE);
    free(small);
    destroy_system(system);
}

const struct CMUnitTest world_descriptors_tests[] = {
    cmocka_unit_test_setup_teardown(test_bad_world_descriptors_are_refused, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_world_defaults, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_1_1_host_has_no_world, fixture_setup, fixture_teardown),
};
const size_t world_descriptors_test_count = sizeof world_descriptors_tests / sizeof world_descriptors_tests[0];
