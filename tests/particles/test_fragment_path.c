/* The particle system's fragment path (plume_system_desc.path =
 * PLUME_PATH_FRAGMENT; what a GL 3.3 context gets): which path runs and how
 * it is reported, the ring that replaces the oldest particles when the
 * system is full, the same particles as the compute path from the same seed,
 * the host's GL state and GL objects, the low draw resolutions' and the
 * tiled draw path's fallback, and the refusal of the world, of a look other
 * than the default and of draw groups.
 * tools/run.sh runs these, and the parts of the particle suite that hold on
 * this path, again in a GL 3.3 core context with compute hidden
 * (tests/run_gl33.sh). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cglm/cglm.h>
#include <epoxy/gl.h>

#include "fragment_state.h"
#include "particle_fixture.h"
#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

static plume_system_desc fragment_desc(plume_system_desc desc) {
    desc.path = PLUME_PATH_FRAGMENT;
    return desc;
}

static void test_path_is_chosen_and_reported(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_context *context = fixture_context();
    plume_system_desc desc = {.capacity = 64};
    desc.emitters[0] = (plume_emitter_desc){.rate = 100, .lifetime = {1, 1}};
    plume_system automatic = make_system(desc);
    uint32_t expected = epoxy_gl_version() >= 43 ? PLUME_PATH_COMPUTE : PLUME_PATH_FRAGMENT;
    if (test_forced_path() != PLUME_PATH_AUTO) expected = test_forced_path(); /* PLUME_TEST_PATH */
    assert_int_equal(system_desc(context, automatic).path, expected);
    destroy_system(automatic);

    plume_system fragment = make_system(fragment_desc(desc));
    assert_int_equal(system_desc(context, fragment).path, PLUME_PATH_FRAGMENT);
    assert_int_equal(plume_system_set_profiling(context, fragment, true), PLUME_OK);
    plume_frame_desc frame = make_frame(0.1f, NULL, NULL);
    for (int i = 0; i < 4; ++i) update(fragment, &frame);
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(context, fragment, &profile), PLUME_OK);
    assert_int_equal(profile.path, PLUME_PATH_FRAGMENT);
    assert_int_equal(plume_system_get_sort_algorithm(context, fragment), PLUME_SORT_BITONIC); /* its network */
    destroy_system(fragment);

    plume_system none = {12345};
    desc.path = 3;
    assert_int_equal(plume_system_create(context, &desc, &none), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("path 3 is not a plume_gpu_path"));
    assert_int_equal(none.id, 0);
    if (epoxy_gl_version() < 43) {
        desc.path = PLUME_PATH_COMPUTE;
        assert_int_equal(plume_system_create(context, &desc, &none), PLUME_ERROR_GL_UNSUPPORTED);
        assert_true(test_log_contains("needs OpenGL 4.3"));
    }
}

/* Bursts of 30 into 100 slots, living 100 s: the ring fills, then each new
 * particle replaces the oldest; every slot holds one particle, the newest 100
 * emitted, each once. The host leaves premultiplied blending on for every
 * draw buffer (glEnable: as a 3.3 host drawing particles would): the
 * simulate pass's four float targets must not blend with what they held (a
 * lifetime of 100 read back as -9800 from the third update on), and the
 * host's blending stays on for each. */
static void test_full_ring_replaces_the_oldest(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 100};
    desc.emitters[2] = (plume_emitter_desc){.burst_count = 30, .burst_interval = 0.125f, .lifetime = {100, 100}};
    plume_system system = make_system(fragment_desc(desc));
    plume_frame_desc step = make_frame(0.125f, NULL, NULL);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    for (int k = 1; k <= 5; ++k) {
        update(system, &step);
        for (GLuint buffer = 0; buffer < 4; ++buffer) assert_true(glIsEnabledi(GL_BLEND, buffer));
        plume_readback rb = read_all(fixture_context(), system);
        uint32_t emitted = 30u * (uint32_t)k, live = emitted < 100 ? emitted : 100;
        assert_int_equal(rb.emitted_total, emitted);
        assert_int_equal(rb.live_count, live);
        assert_int_equal(rb.dead_count, 100 - live);
        check_slots_partition(&rb, 100, k);
        for (uint32_t id = 0; id < emitted; ++id) {
            const plume_particle *p = find_by_id(&rb, id);
            if (id + 100 < emitted) assert_null(p); /* replaced */
            else assert_non_null(p);
        }
        assert_int_equal(rb.drawn_count, live);
        free_readback(&rb);
    }
    glDisable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ZERO);
    destroy_system(system);
}

/* The i-th emission is the same particle on both paths: birth from the seed
 * and the emission number, the same integration and curl noise. */
static void test_same_particles_as_the_compute_path(void **state) {
    (void)state;
    if (epoxy_gl_version() < 43) skip();
    plume_system_desc desc = busy_desc(test_random_u32());
    desc.capacity = 3000;
    desc.sort_key_bits = 32; /* whole keys: the comparison below is to a unit or two */
    plume_system fragment = make_system(fragment_desc(desc));
    desc.path = PLUME_PATH_COMPUTE;
    plume_system compute = make_system(desc);
    mat4 view, projection;
    random_camera(view, projection);
    for (int k = 0; k < 25; ++k) {
        plume_frame_desc frame = make_frame(1.0f / 60.0f, view, projection);
        frame.disable_culling = true;
        update(compute, &frame);
        update(fragment, &frame);
    }
    plume_readback a = read_all(fixture_context(), compute), b = read_all(fixture_context(), fragment);
    assert_true(a.live_count > 100);
    assert_int_equal(a.emitted_total, b.emitted_total);
    assert_int_equal(a.live_count, b.live_count);
    assert_int_equal(a.drawn_count, b.drawn_count);
    double worst = 0.0;
    for (uint32_t slot = 0; slot < 3000; ++slot) {
        const plume_particle *p = &a.particles[slot];
        if (!(p->age >= 0.0f)) continue;
        const plume_particle *q = find_by_id(&b, p->id);
        assert_non_null(q);
        assert_float_equal(q->age, p->age, 1e-6);
        assert_float_equal(q->lifetime, p->lifetime, 0.0);
        assert_float_equal(q->size, p->size, 0.0);
        assert_float_equal(q->rotation, p->rotation, 1e-5);
        for (int i = 0; i < 3; ++i) {
            double error = fabs((double)q->position[i] - p->position[i]) / (1.0 + fabs(p->position[i]));
            if (error > worst) worst = error;
        }
    }
    printf("  fragment against compute path: %u particles, worst relative position error %.2e\n", a.live_count,
           worst);
    assert_true(worst < 1e-4);
    /* Back-to-front on both, with the same keys in the same order up to the
     * last bits: the two paths' shaders are compiled apart, and NVIDIA's
     * contracts their arithmetic differently (positions within 2e-7, keys
     * a unit or two apart; llvmpipe's are bit for bit). A key is the depth's
     * float bits in an order, so element by element the sorted lists differ
     * by at most what each particle's key does. */
    uint32_t worst_key = 0;
    for (uint32_t i = 0; i < a.drawn_count; ++i) {
        uint32_t x = a.draw_keys[i], y = b.draw_keys[i], gap = x > y ? x - y : y - x;
        if (gap > worst_key) worst_key = gap;
        if (i > 0 && (a.draw_keys[i] < a.draw_keys[i - 1] || b.draw_keys[i] < b.draw_keys[i - 1]))
            fail_msg("draw keys out of order at %u", i);
    }
    printf("  draw keys: %u, the largest difference %u\n", a.drawn_count, worst_key);
    assert_true(worst_key <= 64);
    free_readback(&a);
    free_readback(&b);
    destroy_system(compute);
    destroy_system(fragment);
}

static void test_calls_restore_gl_state_and_free_everything(void **state) {
    (void)state;
    plume_context *context = fixture_context();
    static test_gl_census before, after;
    test_take_gl_census(&before);
    plume_system_desc desc = busy_desc(7);
    desc.capacity = 2000;
    plume_system system = make_system(fragment_desc(desc));
    mat4 view, projection;
    random_camera(view, projection);
    plume_frame_desc frame = make_frame(1.0f / 30.0f, view, projection);
    frame.viewport_size[0] = frame.viewport_size[1] = 64;
    host_objects host;
    bind_host_objects(&host);
    watched_state expected, now;
    read_watched_state(&expected);
    for (int k = 0; k < 3; ++k) {
        assert_int_equal(plume_system_update(context, system, &frame), PLUME_OK);
        read_watched_state(&now);
        assert_memory_equal(&now, &expected, sizeof now);
        assert_int_equal(plume_system_draw(context, system, &frame), PLUME_OK);
        read_watched_state(&now);
        assert_memory_equal(&now, &expected, sizeof now);
    }
    plume_readback rb = {0};
    assert_int_equal(plume_system_read_back(context, system, &rb), PLUME_OK);
    assert_true(rb.live_count > 0);
    read_watched_state(&now);
    assert_memory_equal(&now, &expected, sizeof now);
    assert_int_equal(plume_system_reset(context, system), PLUME_OK);
    read_watched_state(&now);
    assert_memory_equal(&now, &expected, sizeof now);
    unbind_host_objects(&host);
    rb = (plume_readback){0};
    assert_int_equal(plume_system_read_back(context, system, &rb), PLUME_OK);
    assert_int_equal(rb.live_count, 0);
    destroy_system(system);
    test_take_gl_census(&after);
    test_assert_same_census(&before, &after, "after the fragment-path system");
}

/* A frame asking for `draw_resolution` and `draw_path`, which the fragment
 * path does not have, draws the picture of its own full-resolution draw, and
 * `warning` is said once over two draws. */
static void check_fallback_once(uint32_t seed, uint32_t draw_resolution, uint32_t draw_path, const char *warning) {
    plume_context *context = fixture_context();
    plume_system system = make_system(fragment_desc(overlap_desc(seed)));
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(0.5f, view, projection);
    for (int k = 0; k < 4; ++k) update(system, &frame);
    enum { SIZE = 48 };
    static float full[SIZE * SIZE * 4], asked[SIZE * SIZE * 4];
    const float clear[4] = {0, 0, 0, 0};
    test_target target = test_target_begin(SIZE, clear);
    assert_int_equal(plume_system_draw(context, system, &frame), PLUME_OK);
    test_target_end(&target, full);
    frame.draw_resolution = draw_resolution;
    frame.draw_path = draw_path;
    for (int k = 0; k < 2; ++k) {
        memset(asked, 0, sizeof asked);
        target = test_target_begin(SIZE, clear);
        assert_int_equal(plume_system_draw(context, system, &frame), PLUME_OK);
        test_target_end(&target, asked);
        assert_memory_equal(full, asked, sizeof full);
    }
    assert_int_equal(test_log_count(warning), 1);
    double sum = 0.0;
    for (int i = 3; i < SIZE * SIZE * 4; i += 4) sum += full[i];
    assert_true(sum > 1.0); /* something was drawn */
    destroy_system(system);
}

/* The fragment path draws at full resolution whatever draw_resolution says,
 * and says so once. */
static void test_low_draw_resolution_falls_back_once(void **state) {
    (void)state;
    check_fallback_once(11, PLUME_DRAW_HALF, PLUME_DRAW_PATH_RASTER, "the fragment path draws at full resolution");
}

/* The tiled draw path needs compute shaders: the fragment path draws such a
 * frame with its own raster draw, and says so once. */
static void test_tiled_draw_path_falls_back_once(void **state) {
    (void)state;
    check_fallback_once(13, PLUME_DRAW_FULL, PLUME_DRAW_PATH_TILED,
                        "draw_path PLUME_DRAW_PATH_TILED needs compute shaders");
}

/* The world needs the compute path: a fragment-path system refuses each of
 * its parts by name, at creation and in plume_system_set_world, and a
 * compute-path system's route cannot target a fragment-path system. An
 * empty world (event_capacity alone) is accepted. */
static void test_world_is_refused_by_name(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_context *context = fixture_context();
    plume_system_desc desc = fragment_desc((plume_system_desc){.capacity = 64});
    desc.emitters[0] = (plume_emitter_desc){.rate = 100, .lifetime = {1, 1}};
    enum { PARTS = 5 };
    plume_world worlds[PARTS];
    memset(worlds, 0, sizeof worlds);
    worlds[0].colliders[1] = (plume_collider_desc){.shape = PLUME_COLLIDER_SPHERE, .radius = 1.0f};
    worlds[1].depth_collision.enabled = true;
    worlds[2].attractors[2] = (plume_attractor_desc){.kind = PLUME_ATTRACTOR_POINT, .strength = 1.0f};
    worlds[3].vector_field = (plume_vector_field_desc){.texture = 1, .bounds_max = {1, 1, 1}};
    worlds[4].events[3] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH};
    const char *const names[PARTS] = {"world.colliders[1] needs the compute path",
                                      "world.depth_collision needs the compute path",
                                      "world.attractors[2] needs the compute path",
                                      "world.vector_field needs the compute path",
                                      "world.events[3] needs the compute path"};
    plume_system accepted = make_system(desc);
    for (int p = 0; p < PARTS; ++p) {
        desc.world = worlds[p];
        plume_system none = {12345};
        assert_int_equal(plume_system_create(context, &desc, &none), PLUME_ERROR_GL_UNSUPPORTED);
        assert_int_equal(none.id, 0);
        assert_int_equal(test_log_count(names[p]), 1);
        assert_int_equal(plume_system_set_world(context, accepted, &worlds[p]), PLUME_ERROR_GL_UNSUPPORTED);
        assert_int_equal(test_log_count(names[p]), 2);
    }
    plume_world empty = {.event_capacity = 16};
    assert_int_equal(plume_system_set_world(context, accepted, &empty), PLUME_OK);
    assert_int_equal(system_desc(context, accepted).world.colliders[1].shape, PLUME_COLLIDER_NONE);
    plume_frame_desc frame = make_frame(0.1f, NULL, NULL);
    update(accepted, &frame); /* still runs */

    if (epoxy_gl_version() >= 43) {
        plume_system_desc source = desc;
        source.path = PLUME_PATH_COMPUTE;
        source.world = (plume_world){0};
        source.world.events[0] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .target_system = accepted};
        plume_system none = {12345};
        assert_int_equal(plume_system_create(context, &source, &none), PLUME_ERROR_INVALID_ARGUMENT);
        assert_true(test_log_contains("world.events[0].target_system runs the fragment path"));
        assert_int_equal(none.id, 0);
    }
    destroy_system(accepted);
}

/* Every look is accepted on the fragment path (its draw is the raster
 * draw's, built with the look's defines; the look tests run on it in
 * tests/run_gl33.sh), and a draw group (compute path only) refuses a
 * fragment-path system by name. */
static void test_every_look_accepted_and_a_draw_group_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_context *context = fixture_context();
    plume_system_desc base = fragment_desc((plume_system_desc){.capacity = 64});
    base.emitters[0] = (plume_emitter_desc){.rate = 100, .lifetime = {1, 1}, .size = {1, 1}};
    enum { LOOKS = 7 };
    plume_system_desc looks[LOOKS];
    for (int l = 0; l < LOOKS; ++l) looks[l] = base;
    looks[0].blend_mode = PLUME_BLEND_ADDITIVE;
    looks[1].blend_mode = PLUME_BLEND_PREMULTIPLIED_ADDITIVE;
    looks[2].orientation = PLUME_ORIENT_WORLD_AXIS;
    looks[2].orientation_axis[1] = 1.0f;
    looks[3].sort_mode = PLUME_SORT_MODE_DISTANCE;
    looks[4].sort_mode = PLUME_SORT_MODE_NONE;
    looks[5].lit = true;
    looks[6].emissive_over_life = (plume_gradient){1, {{0, {1.0f, 0.5f, 0.0f, 1.0f}}}};
    mat4 view, projection;
    glm_lookat((vec3){0, 0, 5}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_perspective(1.0f, 1.0f, 0.1f, 100.0f, projection);
    plume_frame_desc frame = make_frame(0.1f, view, projection);
    frame.ambient_color[0] = frame.ambient_color[1] = frame.ambient_color[2] = 1.0f; /* lit: not black */
    for (int l = 0; l < LOOKS; ++l) {
        plume_system system = make_system(looks[l]);
        plume_system_desc resolved = system_desc(context, system);
        assert_int_equal(resolved.path, PLUME_PATH_FRAGMENT);
        for (int k = 0; k < 3; ++k) update(system, &frame);
        test_target t = test_target_begin(32, (const float[4]){0, 0, 0, 1});
        assert_int_equal(plume_system_draw(context, system, &frame), PLUME_OK);
        float image[32 * 32 * 4];
        test_target_end(&t, image);
        int covered = 0;
        for (int i = 0; i < 32 * 32; ++i) covered += image[4 * i] + image[4 * i + 1] + image[4 * i + 2] > 0.01f;
        if (covered == 0) fail_msg("look %d drew nothing", l);
        destroy_system(system);
    }
    plume_system fragment = make_system(base);

    if (epoxy_gl_version() >= 43) {
        plume_system_desc compute_desc = base;
        compute_desc.path = PLUME_PATH_COMPUTE;
        plume_system compute = make_system(compute_desc);
        plume_system systems[2] = {compute, fragment};
        plume_draw_group_desc group_desc = {.systems = systems, .system_count = 2};
        plume_draw_group group = {12345};
        assert_int_equal(plume_draw_group_create(context, &group_desc, &group), PLUME_ERROR_GL_UNSUPPORTED);
        assert_int_equal(group.id, 0);
        assert_true(test_log_contains("systems[1] runs the fragment path"));
        destroy_system(compute);
    }
    destroy_system(fragment);
}

/* Unsorted systems (additive light, sort_mode NONE) draw their live
 * particles in ascending slot order, also once the ring has wrapped round
 * its end: every live slot, once, in order. */
static void test_unsorted_list_is_ascending_slots_round_the_ring(void **state) {
    (void)state;
    for (int variant = 0; variant < 2; ++variant) {
        plume_system_desc desc = {.capacity = 100};
        if (variant) desc.blend_mode = PLUME_BLEND_ADDITIVE;
        else desc.sort_mode = PLUME_SORT_MODE_NONE;
        desc.emitters[0] = (plume_emitter_desc){.burst_count = 30, .burst_interval = 0.125f, .lifetime = {0.4f, 0.4f}};
        plume_system system = make_system(fragment_desc(desc));
        plume_frame_desc step = make_frame(0.125f, NULL, NULL);
        bool wrapped = false;
        for (int k = 1; k <= 12; ++k) {
            update(system, &step);
            plume_readback rb = read_all(fixture_context(), system);
            assert_int_equal(plume_system_get_sort_algorithm(fixture_context(), system), PLUME_SORT_AUTOMATIC);
            assert_int_equal(rb.drawn_count, rb.live_count);
            uint32_t live_seen = 0;
            for (uint32_t i = 0; i < rb.drawn_count; ++i) {
                uint32_t slot = rb.draw_order[i];
                assert_true(slot < 100);
                assert_true(rb.particles[slot].age >= 0.0f); /* live */
                if (i > 0 && slot <= rb.draw_order[i - 1])
                    fail_msg("%s, update %d: slot %u drawn after %u", variant ? "additive" : "NONE", k, slot,
                             rb.draw_order[i - 1]);
                ++live_seen;
            }
            assert_int_equal(live_seen, rb.live_count);
            /* The live slots straddle the ring's end: 0 and 99 both live. */
            wrapped = wrapped || (rb.particles[0].age >= 0.0f && rb.particles[99].age >= 0.0f);
            free_readback(&rb);
        }
        assert_true(wrapped);
        destroy_system(system);
    }
}

const struct CMUnitTest particle_fragment_tests[] = {
    cmocka_unit_test_setup_teardown(test_path_is_chosen_and_reported, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_full_ring_replaces_the_oldest, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_same_particles_as_the_compute_path, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_calls_restore_gl_state_and_free_everything, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_low_draw_resolution_falls_back_once, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_world_is_refused_by_name, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_draw_path_falls_back_once, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_every_look_accepted_and_a_draw_group_refused, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_unsorted_list_is_ascending_slots_round_the_ring, fixture_setup,
                                    fixture_teardown),
};
const size_t particle_fragment_test_count = sizeof particle_fragment_tests / sizeof particle_fragment_tests[0];
