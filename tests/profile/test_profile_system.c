/* Profiling through the particle system: frames that match the readback,
 * sort times that grow with the live count, and no GL call while profiling is
 * off. plume_plugin_host compiles this file a second time through the plugin
 * table; the test that uses the module's median runs only here. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gl_spy.h"
#include "plume/plume_particles.h"
#include "plume/plume_sort.h"
#include "plume_fixture.h"
/* In plume_plugin_host only its inline helpers (plume_next_pow2) may be used. */
#include "core/plume_internal.h"
#ifndef PLUME_TESTS_THROUGH_TABLE
#include "profiler_fixture.h"
#endif
#include "test_env.h"
#include "tests.h"

/* ---- Through the particle system ------------------------------------------------ */

/* In the test's context, whose logger the system inherits. */
static plume_system make_profiled_system(plume_system_desc desc, bool profiling) {
    plume_system system = {0};
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    if (profiling) assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    return system;
}

/* One frame of the full pipeline into the bound framebuffer. */
static void run_frame(plume_system system, float dt) {
    plume_frame_desc frame = {.dt = dt};
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
}

static uint32_t read_live_count(plume_system system) {
    plume_readback counts = {0}; /* no arrays: the counts only */
    assert_int_equal(plume_system_read_back(fixture_context(), system, &counts), PLUME_OK);
    return counts.live_count;
}

/* Every frame's live count, sort size and passes against the readback of the
 * same frame and the sorter's own pass count; the statistics count exactly
 * the frames that carry each stage; the host's copy-buffer bindings and debug
 * group stack survive; no result is read before it is available. */
static void test_system_frames_match_the_readback(void **state) {
    (void)state;
    enum { FRAMES = 12, CAPACITY = 5000 };
    plume_system_desc desc = {.capacity = CAPACITY, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.rate = 15000.0f, .lifetime = {0.02f, 0.3f}, .speed = {0.1f, 1.0f},
                                            .spread = 3.0f, .size = {0.01f, 0.02f}};
    plume_system system = make_profiled_system(desc, true);
    /* The system's own sorter's key bits: its pass counts. */
    plume_system_desc resolved = {0};
    assert_int_equal(plume_system_get_desc(fixture_context(), system, &resolved), PLUME_OK);
    plume_sorter_desc sorter_desc = {.capacity = CAPACITY, .key_bits = resolved.sort_key_bits};
    plume_sorter reference_sorter = {0};
    assert_int_equal(plume_sorter_create(fixture_context(), &sorter_desc, &reference_sorter), PLUME_OK);
    GLuint host_buffers[2] = {test_buffer_create(4, NULL), test_buffer_create(4, NULL)};
    glBindBuffer(GL_COPY_READ_BUFFER, host_buffers[0]);
    glBindBuffer(GL_COPY_WRITE_BUFFER, host_buffers[1]);
    GLint depth_before = 0, depth_after = 0, copy_read = 0, copy_write = 0;
    glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth_before);
    const float clear[4] = {0, 0, 0, 0};
    test_target target = test_target_begin(32, clear);

    spy_install();
    uint32_t live[FRAMES];
    for (int k = 0; k < FRAMES; ++k) {
        run_frame(system, test_random_float(0.005f, 0.03f));
        live[k] = read_live_count(system); /* waits for the GPU: a test's privilege */
    }
    run_frame(system, 0.01f); /* closes the last frame */
    glFinish();
    run_frame(system, 0.01f); /* reads it */
    spy_remove();
    test_target_end(&target, NULL);
    glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth_after);
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &copy_read);
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &copy_write);
    assert_int_equal(depth_after, depth_before);
    assert_int_equal(copy_read, (GLint)host_buffers[0]);
    assert_int_equal(copy_write, (GLint)host_buffers[1]);
    assert_int_equal(spy.result_reads_unavailable, 0);
    assert_int_equal(spy.fence_waits_with_timeout, 0);
    assert_true(spy.debug_pushes == spy.debug_pops && spy.debug_pushes >= 4 * FRAMES);

    plume_frame_profile frames[64];
    uint32_t count = plume_system_get_frame_profiles(fixture_context(), system, 0, frames, 64);
    assert_true(count >= FRAMES && count <= FRAMES + 2);
    uint32_t with_stage[PLUME_STAGE_COUNT] = {0};
    bool live_varied = false;
    for (uint32_t i = 0; i < count; ++i) {
        const plume_frame_profile *f = &frames[i];
        assert_true(f->frame == i); /* none skipped: the readback kept the ring empty */
        for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) with_stage[stage] += (f->stage_mask >> stage) & 1u;
        if (i >= FRAMES) continue;
        assert_int_equal(f->live_count, live[i]);
        assert_int_equal(f->sort_padded_count, live[i] < 2 ? 0 : plume_next_pow2(live[i]));
        assert_int_equal(f->sort_passes, plume_sorter_pass_count(fixture_context(), reference_sorter, live[i]));
        live_varied |= i > 0 && live[i] != live[i - 1];
    }
    assert_true(live_varied);
    for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) assert_true(with_stage[stage] >= count - 2);

    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
    assert_true(profile.enabled && profile.timer_available);
    assert_true(profile.frame == frames[count - 1].frame);
    assert_int_equal(profile.live_count, frames[count - 1].live_count);
    assert_int_equal(profile.sort_passes, frames[count - 1].sort_passes);
    for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) {
        assert_int_equal(profile.stages[stage].samples, with_stage[stage]);
        assert_true(profile.stages[stage].min_ms > 0);
        assert_true(profile.stages[stage].p95_ms <= profile.stages[stage].max_ms);
    }
    /* From a frame on: only the later ones. */
    assert_int_equal(plume_system_get_frame_profiles(fixture_context(), system, count - 3, frames, 64), 3);
    assert_true(frames[0].frame == count - 3);

    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    assert_int_equal(plume_sorter_destroy(fixture_context(), reference_sorter), PLUME_OK);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glDeleteBuffers(2, host_buffers);
}

#ifndef PLUME_TESTS_THROUGH_TABLE /* profiler_median is the module's */
/* The median sort time over a few frames of a system holding `count`
 * particles (one burst, long lives). */
static double system_sort_median_ms(uint32_t count, uint32_t *padded, uint32_t *passes) {
    enum { FRAMES = 4 };
    plume_system_desc desc = {.capacity = count, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.burst_count = count, .lifetime = {1000.0f, 1000.0f},
                                            .speed = {0.1f, 1.0f}, .spread = 3.0f, .size = {0.01f, 0.02f}};
    plume_system system = make_profiled_system(desc, true);
    const float clear[4] = {0, 0, 0, 0};
    test_target target = test_target_begin(16, clear);
    for (int k = 0; k < FRAMES + 2; ++k) {
        run_frame(system, 1.0f / 60.0f);
        glFinish(); /* so that every frame comes back */
    }
    test_target_end(&target, NULL);
    plume_frame_profile frames[FRAMES + 2];
    uint32_t n = plume_system_get_frame_profiles(fixture_context(), system, 0, frames, FRAMES + 2);
    double sort_ms[FRAMES + 2];
    int sorted = 0;
    for (uint32_t i = 0; i < n; ++i) {
        assert_int_equal(frames[i].live_count, count);
        *padded = frames[i].sort_padded_count;
        *passes = frames[i].sort_passes;
        if (frames[i].stage_mask & (1u << PLUME_STAGE_SORT)) sort_ms[sorted++] = frames[i].stage_ms[PLUME_STAGE_SORT];
    }
    assert_true(sorted >= FRAMES - 1);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    return profiler_median(sort_ms, (uint32_t)sorted);
}

static void test_system_sort_time_grows_with_the_live_count(void **state) {
    (void)state;
    const uint32_t small = 1000 + test_random_below(1000), large = 60000 + test_random_below(5000);
    uint32_t small_padded = 0, small_passes = 0, large_padded = 0, large_passes = 0;
    double small_ms = system_sort_median_ms(small, &small_padded, &small_passes);
    double large_ms = system_sort_median_ms(large, &large_padded, &large_passes);
    print_message("llvmpipe, through the system: sort of %u particles %.3f ms (%u passes), of %u %.3f ms (%u passes)\n",
                  small, small_ms, small_passes, large, large_ms, large_passes);
    assert_int_equal(small_padded, plume_next_pow2(small));
    assert_int_equal(large_padded, plume_next_pow2(large));
    assert_true(large_passes > small_passes);
    assert_true(small_ms > 0);
    assert_true(large_ms > small_ms);
}

#endif

/* Profiling off: update and draw issue no query or debug group and no fence
 * but the spawn table's (one an update: core/upload_ring.c), and the profile
 * says so. Switching off deletes what switching on made, and so
 * does destroying a profiled system. */
static void test_system_profiling_off_costs_no_gl_call(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 777};
    desc.emitters[0] = (plume_emitter_desc){.rate = 5000.0f, .lifetime = {0.1f, 0.5f}, .size = {0.01f, 0.02f}};
    plume_system system = make_profiled_system(desc, false);
    const float clear[4] = {0, 0, 0, 0};
    test_target target = test_target_begin(16, clear);
    spy_install();
    for (int k = 0; k < 3; ++k) run_frame(system, 0.02f);
    long queries_off = spy.query_count, timestamps_off = spy.timestamps, fences_off = spy.fences;
    long pushes_off = spy.debug_pushes;
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    for (int k = 0; k < 3; ++k) run_frame(system, 0.02f);
    long timestamps_on = spy.timestamps;
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, false), PLUME_OK);
    for (int k = 0; k < 3; ++k) run_frame(system, 0.02f);
    long timestamps_after = spy.timestamps - timestamps_on;
    spy_remove();
    assert_int_equal(queries_off, 0);
    assert_int_equal(timestamps_off, 0);
    assert_int_equal(fences_off, 3); /* the spawn tables' ring */
    assert_int_equal(pushes_off, 0);
    assert_int_equal(timestamps_on, 3 * 2 * PLUME_STAGE_COUNT);
    assert_int_equal(timestamps_after, 0);
    assert_true(spy.query_count > 0);
    for (int i = 0; i < spy.query_count; ++i) assert_false(glIsQuery(spy.queries[i]));
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
    assert_false(profile.enabled);
    for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) assert_int_equal(profile.stages[stage].samples, 0);

    /* Destroyed while profiling, frames in flight. */
    spy_install();
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    run_frame(system, 0.02f);
    run_frame(system, 0.02f);
    spy_remove();
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    test_target_end(&target, NULL);
    for (int i = 0; i < spy.query_count; ++i) assert_false(glIsQuery(spy.queries[i]));
    for (int i = 0; i < spy.buffer_count; ++i) assert_false(glIsBuffer(spy.buffers[i]));

}

const struct CMUnitTest profile_system_tests[] = {
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_system_sort_time_grows_with_the_live_count, fixture_setup, fixture_teardown),
#endif
    cmocka_unit_test_setup_teardown(test_system_frames_match_the_readback, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_system_profiling_off_costs_no_gl_call, fixture_setup, fixture_teardown),
};
const size_t profile_system_test_count = sizeof profile_system_tests / sizeof profile_system_tests[0];
