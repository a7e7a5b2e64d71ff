/* The GPU profiler's ring never waits on the GPU; frames carry their values
 * and the window's statistics; stage times follow the work; no timer, no
 * times; stages are named debug groups and objects are labelled. Against the
 * static library only. */
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
#include "profiler_fixture.h"
#include "test_env.h"
#include "tests.h"

/* ---- The ring never waits ------------------------------------------------------ */

/* Frames whose GPU work takes far longer than issuing it: every profiler call
 * returns at once, no result is read before it is available, a frame that
 * finds the ring full goes unmeasured, and figures appear only once the GPU
 * has finished. */
static void test_ring_never_waits_for_the_gpu(void **state) {
    (void)state;
    enum { SIZE = 512, DEPTH = 2, FRAMES = 4 };
    plume_env env = test_plume_env();
    heavy_draw draw = make_heavy_draw();
    const float clear[4] = {0, 0, 0, 0};
    test_target target = test_target_begin(SIZE, clear);
    /* Calibrate: iterations so that one draw takes about 150 ms here. */
    uint32_t iterations = 50;
    double draw_ms = 0;
    for (;;) {
        double t0 = now_ms();
        run_heavy_draw(&draw, iterations);
        glFinish();
        draw_ms = now_ms() - t0;
        if (draw_ms > 150 || iterations > 100000) break;
        iterations *= draw_ms < 15 ? 8 : 2;
    }
    plume_profiler *profiler = make_profiler(&env, DEPTH, 16);
    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &env);
    spy_install();
    double slowest_call_ms = 0;
    for (uint64_t frame = 0; frame < FRAMES; ++frame) {
        double t0 = now_ms();
        profiler_frame_begin(profiler, frame, &scope);
        profiler_stage_begin(profiler, PLUME_STAGE_DRAW);
        double t1 = now_ms();
        run_heavy_draw(&draw, iterations);
        double t2 = now_ms();
        profiler_stage_end(profiler, PLUME_STAGE_DRAW);
        profiler_frame_end(profiler);
        double t3 = now_ms();
        slowest_call_ms = fmax(slowest_call_ms, fmax(t1 - t0, t3 - t2));
        /* No frame has come back yet: no figure. */
        plume_profile profile;
        profiler_get_profile(profiler, &profile);
        assert_int_equal(profile.stages[PLUME_STAGE_DRAW].samples, 0);
    }
    profiler_counters before_finish = profiler_get_counters(profiler);
    long polls_not_ready = spy.fence_not_ready + spy.availability_false;
    glFinish();
    profiler_collect(profiler, &scope);
    profiler_counters after = profiler_get_counters(profiler);
    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    spy_remove();
    plume_gl_scope_end(&scope);
    print_message("one draw: %.0f ms of GPU work; slowest profiler call: %.2f ms; frames measured %llu, skipped %llu\n",
                  draw_ms, slowest_call_ms, (unsigned long long)before_finish.frames_measured,
                  (unsigned long long)before_finish.frames_skipped);

    assert_int_equal(spy.result_reads_unavailable, 0);
    assert_int_equal(spy.fence_waits_with_timeout, 0);
    assert_true(polls_not_ready > 0);                  /* it looked, found the GPU busy, and went on */
    /* A call that waited for the GPU would take about a whole draw (the
     * frame's queries end with it); half a draw leaves room for a machine
     * whose other work delays a call (the spy's counts above are the exact
     * proof: no read of an unavailable result, no fence wait). */
    assert_true(slowest_call_ms < draw_ms / 2);
    assert_int_equal(before_finish.frames_completed, 0);
    assert_int_equal(before_finish.frames_measured, DEPTH); /* the ring filled ... */
    assert_int_equal(before_finish.frames_skipped, FRAMES - DEPTH); /* ... and later frames were not measured */
    assert_int_equal(after.frames_completed, DEPTH);
    assert_true(spy.result_reads > 0);
    assert_true(profile.enabled && profile.timer_available);
    assert_true(profile.frame == DEPTH - 1);
    assert_int_equal(profile.stages[PLUME_STAGE_DRAW].samples, DEPTH);
    assert_int_equal(profile.stages[PLUME_STAGE_SORT].samples, 0); /* never measured: no figure, not zero */
    profiler_destroy(profiler);
    destroy_heavy_draw(&draw);
    test_target_end(&target, NULL);
}

/* ---- Results ----------------------------------------------------------------- */

/* Values captured on the GPU come back with their own frame, even though the
 * source buffer changes every frame; statistics cover the last `window`
 * frames and agree with the pure function on the frames returned. */
static void test_frames_carry_their_values_and_window_statistics(void **state) {
    (void)state;
    enum { WINDOW = 6, FRAMES = 15, DEPTH = 3 };
    plume_env env = test_plume_env();
    GLuint program = make_spin_program(&env);
    GLuint data = test_buffer_create(64 * 4 * 4, NULL);
    /* The live count sits at an odd word offset among other words. */
    uint32_t words[5] = {0xDEADBEEFu, 0xDEADBEEFu, 0xDEADBEEFu, 0, 0xDEADBEEFu};
    GLuint counter = test_buffer_create(sizeof words, words);
    uint32_t live[FRAMES], passes[FRAMES];
    plume_profiler *profiler = make_profiler(&env, DEPTH, WINDOW);
    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);
    spy_install();
    plume_gl_scope scope;
    for (uint64_t frame = 0; frame < FRAMES; ++frame) {
        live[frame] = test_random_u32();
        passes[frame] = test_random_below(100);
        test_buffer_write(counter, 3 * 4, 4, &live[frame]);
        plume_gl_scope_begin(&scope, &env);
        profiler_frame_begin(profiler, 100 + frame, &scope);
        profiler_stage_begin(profiler, PLUME_STAGE_UPDATE);
        profiler_stage_begin(profiler, PLUME_STAGE_SIMULATE);
        glUseProgram(program);
        glUniform1ui(glGetUniformLocation(program, "u_iterations"), 200 + 100 * (uint32_t)(frame % 4));
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, data);
        glDispatchCompute(4, 1, 1);
        profiler_stage_end(profiler, PLUME_STAGE_SIMULATE);
        profiler_capture_u32(profiler, PROFILER_VALUE_LIVE_COUNT, counter, 3 * 4, &scope);
        profiler_set_u32(profiler, PROFILER_VALUE_SORT_PASSES, passes[frame]);
        profiler_stage_end(profiler, PLUME_STAGE_UPDATE);
        plume_gl_scope_end(&scope);
        if (frame == 0) {
            plume_profile profile;
            profiler_get_profile(profiler, &profile);
            for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) assert_int_equal(profile.stages[stage].samples, 0);
        }
        glFinish(); /* so every frame comes back before its slot is needed */
    }
    plume_gl_scope_begin(&scope, &env);
    drain_profiler(profiler, &scope);
    plume_gl_scope_end(&scope);
    spy_remove();
    assert_int_equal(spy.result_reads_unavailable, 0);

    profiler_counters counters = profiler_get_counters(profiler);
    assert_true(counters.frames_completed == FRAMES && counters.frames_skipped == 0);
    /* llvmpipe stamps a timestamp when a rasterizer thread reaches it, and
     * the first frame after a framebuffer change (the tests before this one
     * draw) can come back with its end before its begin: the profiler drops
     * such a sample and counts it. Allow that, but no more. */
    assert_true(counters.samples_rejected <= 2);
    profiler_frame frames[WINDOW + 1];
    assert_int_equal(profiler_frames_from(profiler, 0, frames, WINDOW + 1), WINDOW);
    double simulate[WINDOW], scratch[WINDOW];
    uint32_t simulate_count = 0, missing = 0;
    const uint32_t timed = (1u << PLUME_STAGE_SIMULATE) | (1u << PLUME_STAGE_UPDATE);
    for (int i = 0; i < WINDOW; ++i) {
        uint64_t frame = FRAMES - WINDOW + (uint64_t)i;
        assert_true(frames[i].index == 100 + frame);
        assert_int_equal(frames[i].value_mask,
                         (1u << PROFILER_VALUE_LIVE_COUNT) | (1u << PROFILER_VALUE_SORT_PASSES));
        assert_int_equal(frames[i].values[PROFILER_VALUE_LIVE_COUNT], live[frame]);
        assert_int_equal(frames[i].values[PROFILER_VALUE_SORT_PASSES], passes[frame]);
        assert_int_equal(frames[i].stage_mask & ~timed, 0);
        missing += (frames[i].stage_mask & timed) != timed;
        if (frames[i].stage_mask & (1u << PLUME_STAGE_SIMULATE)) {
            simulate[simulate_count] = frames[i].stage_ms[PLUME_STAGE_SIMULATE];
            assert_true(simulate[simulate_count] > 0);
            /* UPDATE encloses SIMULATE. */
            if (frames[i].stage_mask & (1u << PLUME_STAGE_UPDATE))
                assert_true(frames[i].stage_ms[PLUME_STAGE_UPDATE] >= simulate[simulate_count]);
            ++simulate_count;
        }
    }
    assert_true(missing <= counters.samples_rejected);
    assert_true(simulate_count >= WINDOW - 2);
    assert_int_equal(profiler_frames_from(profiler, 100 + FRAMES - 2, frames, WINDOW), 2);
    assert_int_equal(profiler_frames_from(profiler, 100 + FRAMES, frames, WINDOW), 0);

    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    plume_stage_timing expected;
    profiler_timing_from_samples(simulate, simulate_count, scratch, &expected);
    const plume_stage_timing *got = &profile.stages[PLUME_STAGE_SIMULATE];
    assert_true(profile.frame == 100 + FRAMES - 1);
    assert_int_equal(profile.live_count, live[FRAMES - 1]);
    assert_int_equal(profile.sort_passes, passes[FRAMES - 1]);
    assert_int_equal(got->samples, simulate_count);
    assert_true(got->last_ms == simulate[simulate_count - 1]);
    assert_true(got->mean_ms == expected.mean_ms && got->p95_ms == expected.p95_ms);
    assert_true(got->min_ms == expected.min_ms && got->max_ms == expected.max_ms);
    assert_int_equal(profile.stages[PLUME_STAGE_DRAW].samples, 0);
    assert_int_equal(profile.stages[PLUME_STAGE_SORT].samples, 0);
    test_buffer_read(counter, 0, sizeof words, words);
    assert_int_equal(words[0], 0xDEADBEEFu); /* the capture only reads its source */

    profiler_destroy(profiler);
    glDeleteProgram(program);
    GLuint buffers[2] = {data, counter};
    glDeleteBuffers(2, buffers);
}

/* Stage times on llvmpipe: non-zero, and a sort of 2^18 pairs measures longer
 * than one of 2^12 pairs; a spin loop 8x longer measures longer. */
static void test_stage_times_follow_the_work(void **state) {
    (void)state;
    enum { ROUNDS = 5, SMALL = 1 << 12, LARGE = 1 << 18 };
    plume_env env = test_plume_env();
    plume_sorter_desc sorter_desc = {.capacity = LARGE};
    plume_sorter sorter = {0};
    assert_int_equal(plume_sorter_create(fixture_context(), &sorter_desc, &sorter), PLUME_OK);
    uint32_t *pairs = malloc(sizeof(uint32_t) * 2 * LARGE);
    assert_non_null(pairs);
    for (uint32_t i = 0; i < 2 * LARGE; ++i) pairs[i] = test_random_u32();
    GLuint pair_buffer = test_buffer_create(sizeof(uint32_t) * 2 * LARGE, pairs);
    GLuint spin = make_spin_program(&env);
    GLuint data = test_buffer_create(256 * 64 * 4, NULL);
    plume_profiler *profiler = make_profiler(&env, 4, 2 * ROUNDS);
    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);

    uint64_t frame = 0;
    double sort_ms[2][ROUNDS], spin_ms[2][ROUNDS];
    int sort_count[2] = {0, 0}, spin_count[2] = {0, 0};
    for (int round = 0; round < ROUNDS; ++round) {
        for (int large = 0; large < 2; ++large) {
            test_buffer_write(pair_buffer, 0, sizeof(uint32_t) * 2 * LARGE, pairs); /* unsorted again */
            plume_gl_scope scope;
            plume_gl_scope_begin(&scope, &env);
            profiler_frame_begin(profiler, frame, &scope);
            profiler_stage_begin(profiler, PLUME_STAGE_UPDATE);
            profiler_stage_begin(profiler, PLUME_STAGE_SIMULATE);
            glUseProgram(spin);
            glUniform1ui(glGetUniformLocation(spin, "u_iterations"), large ? 4000 : 500);
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, data);
            glDispatchCompute(256, 1, 1);
            profiler_stage_end(profiler, PLUME_STAGE_SIMULATE);
            profiler_stage_begin(profiler, PLUME_STAGE_SORT);
            assert_int_equal(plume_sort(fixture_context(), sorter, pair_buffer, large ? LARGE : SMALL), PLUME_OK);
            profiler_stage_end(profiler, PLUME_STAGE_SORT);
            profiler_stage_end(profiler, PLUME_STAGE_UPDATE);
            drain_profiler(profiler, &scope);
            plume_gl_scope_end(&scope);
            profiler_frame result;
            assert_int_equal(profiler_frames_from(profiler, frame, &result, 1), 1);
            /* A stage llvmpipe stamped out of order is dropped (see the test
             * above); the medians use the rest. */
            const double *ms = result.stage_ms;
            if (result.stage_mask & (1u << PLUME_STAGE_SORT)) {
                assert_true(ms[PLUME_STAGE_SORT] > 0);
                sort_ms[large][sort_count[large]++] = ms[PLUME_STAGE_SORT];
                if (result.stage_mask & (1u << PLUME_STAGE_UPDATE))
                    assert_true(ms[PLUME_STAGE_UPDATE] >= ms[PLUME_STAGE_SORT]);
            }
            if (result.stage_mask & (1u << PLUME_STAGE_SIMULATE)) {
                assert_true(ms[PLUME_STAGE_SIMULATE] > 0);
                spin_ms[large][spin_count[large]++] = ms[PLUME_STAGE_SIMULATE];
                if (result.stage_mask & (1u << PLUME_STAGE_UPDATE))
                    assert_true(ms[PLUME_STAGE_UPDATE] >= ms[PLUME_STAGE_SIMULATE]);
            }
            ++frame;
        }
    }
    for (int large = 0; large < 2; ++large) {
        assert_true(sort_count[large] >= ROUNDS - 1);
        assert_true(spin_count[large] >= ROUNDS - 1);
    }
    assert_true(profiler_get_counters(profiler).samples_rejected <= 2);
    double sort_small = profiler_median(sort_ms[0], (uint32_t)sort_count[0]);
    double sort_large = profiler_median(sort_ms[1], (uint32_t)sort_count[1]);
    double spin_short = profiler_median(spin_ms[0], (uint32_t)spin_count[0]);
    double spin_long = profiler_median(spin_ms[1], (uint32_t)spin_count[1]);
    print_message("llvmpipe medians: sort 2^12 %.3f ms, 2^18 %.3f ms; spin x1 %.3f ms, x8 %.3f ms\n", sort_small,
                  sort_large, spin_short, spin_long);
    assert_true(sort_large > sort_small);
    assert_true(spin_long > spin_short);
    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    assert_int_equal(profile.stages[PLUME_STAGE_SORT].samples, (uint32_t)(sort_count[0] + sort_count[1]));
    assert_true(profile.stages[PLUME_STAGE_SORT].min_ms > 0);

    profiler_destroy(profiler);
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
    glDeleteProgram(spin);
    GLuint buffers[2] = {pair_buffer, data};
    glDeleteBuffers(2, buffers);
    free(pairs);
}

/* No timer (GL_QUERY_COUNTER_BITS 0, as EXT_disjoint_timer_query allows): no
 * query is created and no time reported, not even zeros; values still come. */
static void test_without_a_timer_no_times_are_reported(void **state) {
    (void)state;
    plume_env env = test_plume_env();
    uint32_t live = test_random_u32();
    GLuint counter = test_buffer_create(sizeof live, &live);
    plume_profiler *profiler = make_profiler(&env, 2, 8);
    spy_install();
    spy.fake_timer_bits = 0;
    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);
    assert_false(profiler_timer_available(profiler));
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &env);
    for (uint64_t frame = 0; frame < 3; ++frame) {
        run_empty_frame(profiler, frame, counter, &scope);
        glFinish();
    }
    drain_profiler(profiler, &scope);
    plume_gl_scope_end(&scope);
    spy_remove();
    assert_int_equal(spy.query_count, 0);
    assert_int_equal(spy.result_reads, 0);
    assert_true(test_log_contains("no timer"));
    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    assert_true(profile.enabled);
    assert_false(profile.timer_available);
    assert_true(profile.frame == 2);
    assert_int_equal(profile.live_count, live);
    for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) assert_int_equal(profile.stages[stage].samples, 0);
    profiler_destroy(profiler);
    glDeleteBuffers(1, &counter);
}

/* ---- Debug groups, labels, GL state ------------------------------------------- */

static void test_stages_are_named_debug_groups_and_objects_are_labeled(void **state) {
    (void)state;
    plume_env env = test_plume_env();
    GLuint host_copy_read = test_buffer_create(4, NULL), host_copy_write = test_buffer_create(4, NULL);
    GLuint counter = test_buffer_create(4, NULL);
    plume_profiler *profiler = make_profiler(&env, 2, 4);
    GLint depth_before = 0, depth_in_simulate = 0, depth_after = 0;
    glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth_before);

    spy_install();
    /* Off: no group. */
    profiler_stage_begin(profiler, PLUME_STAGE_SIMULATE);
    profiler_stage_end(profiler, PLUME_STAGE_SIMULATE);
    assert_int_equal(spy.debug_pushes, 0);

    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);
    glBindBuffer(GL_COPY_READ_BUFFER, host_copy_read);
    glBindBuffer(GL_COPY_WRITE_BUFFER, host_copy_write);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &env);
    profiler_frame_begin(profiler, 0, &scope);
    profiler_stage_begin(profiler, PLUME_STAGE_UPDATE);
    profiler_stage_begin(profiler, PLUME_STAGE_SIMULATE);
    spy_uncounted_get_integerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth_in_simulate);
    profiler_stage_end(profiler, PLUME_STAGE_SIMULATE);
    profiler_capture_u32(profiler, PROFILER_VALUE_LIVE_COUNT, counter, 0, &scope);
    profiler_stage_begin(profiler, PLUME_STAGE_SORT);
    profiler_stage_end(profiler, PLUME_STAGE_SORT);
    profiler_stage_end(profiler, PLUME_STAGE_UPDATE);
    profiler_stage_begin(profiler, PLUME_STAGE_DRAW);
    profiler_stage_end(profiler, PLUME_STAGE_DRAW);
    drain_profiler(profiler, &scope);
    plume_gl_scope_end(&scope);
    spy_remove();
    glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth_after);
    GLint copy_read = 0, copy_write = 0;
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &copy_read);
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &copy_write);

    assert_int_equal(depth_in_simulate, depth_before + 2); /* update, then simulate inside it */
    assert_int_equal(depth_after, depth_before);
    assert_int_equal(spy.debug_pushes, 4);
    assert_int_equal(spy.debug_pops, 4);
    assert_string_equal(spy.debug_group_names[0], "plume update");
    assert_string_equal(spy.debug_group_names[1], "plume simulate");
    assert_string_equal(spy.debug_group_names[2], "plume sort");
    assert_string_equal(spy.debug_group_names[3], "plume draw");
    assert_int_equal(copy_read, (GLint)host_copy_read);
    assert_int_equal(copy_write, (GLint)host_copy_write);

    /* Slot 0's used queries and every readback buffer carry labels. */
    char label[128];
    GLsizei length = 0;
    glGetObjectLabel(GL_QUERY, spy.queries[2 * PLUME_STAGE_SORT + 1], sizeof label, &length, label);
    assert_string_equal(label, "plume profiler: sort end, slot 0");
    assert_int_equal(spy.buffer_count, 2);
    glGetObjectLabel(GL_BUFFER, spy.buffers[1], sizeof label, &length, label);
    assert_string_equal(label, "plume profiler: values, slot 1");
    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    assert_int_equal(profile.stages[PLUME_STAGE_DRAW].samples, 1);

    profiler_destroy(profiler);
    GLuint buffers[3] = {host_copy_read, host_copy_write, counter};
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glDeleteBuffers(3, buffers);
}

const struct CMUnitTest profile_ring_tests[] = {
    cmocka_unit_test_setup_teardown(test_ring_never_waits_for_the_gpu, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_frames_carry_their_values_and_window_statistics, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_stage_times_follow_the_work, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_without_a_timer_no_times_are_reported, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_stages_are_named_debug_groups_and_objects_are_labeled, fixture_setup,
                                    fixture_teardown),
};
const size_t profile_ring_test_count = sizeof profile_ring_tests / sizeof profile_ring_tests[0];
