/* The GPU profiler (profile/profiler.h): statistics against their
 * definitions, timestamp differences, bad descriptors, and no GL call or
 * object while it is off. Against the static library only. */
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

/* ---- Statistics (no GL) ------------------------------------------------------ */

/* Checks one result by definitions rather than by re-running the algorithm:
 * min/max bound every sample and are samples, the mean is the long-double
 * sum over n, and p95 is the sample with at least 95% of samples at or below
 * it and fewer than 95% strictly below. */
static void check_timing_against_definition(const double *samples, uint32_t count, const plume_stage_timing *t) {
    assert_int_equal(t->samples, count);
    long double sum = 0;
    bool min_found = false, max_found = false, p95_found = false;
    uint32_t at_or_below = 0, below = 0;
    for (uint32_t i = 0; i < count; ++i) {
        sum += samples[i];
        assert_true(samples[i] >= t->min_ms);
        assert_true(samples[i] <= t->max_ms);
        min_found |= samples[i] == t->min_ms;
        max_found |= samples[i] == t->max_ms;
        p95_found |= samples[i] == t->p95_ms;
        at_or_below += samples[i] <= t->p95_ms;
        below += samples[i] < t->p95_ms;
    }
    assert_true(min_found && max_found && p95_found);
    double mean = (double)(sum / count);
    assert_true(fabs(t->mean_ms - mean) <= 1e-12 * fmax(1.0, fabs(mean)));
    /* at_or_below >= 0.95 n and below < 0.95 n, in integers (x100). */
    assert_true((uint64_t)at_or_below * 100 >= (uint64_t)count * 95);
    assert_true((uint64_t)below * 100 < (uint64_t)count * 95);
}

static void test_statistics_match_definitions_on_random_samples(void **state) {
    (void)state;
    enum { MAX_COUNT = 1000 };
    double *samples = malloc(sizeof(double) * MAX_COUNT), *scratch = malloc(sizeof(double) * MAX_COUNT);
    assert_non_null(samples);
    assert_non_null(scratch);
    /* 20 and 100: 0.95 n is a whole number; 19, 21, 101: it is not. */
    const uint32_t fixed_counts[] = {1, 2, 3, 19, 20, 21, 100, 101, 120};
    for (int round = 0; round < 60; ++round) {
        uint32_t count = round < 9 ? fixed_counts[round] : 1 + test_random_below(MAX_COUNT);
        int shape = round % 4;
        for (uint32_t i = 0; i < count; ++i) {
            switch (shape) {
            case 0: samples[i] = test_random_float(0.0f, 5.0f); break;
            case 1: samples[i] = (double)test_random_below(4) * 0.25; break;   /* many ties */
            case 2: samples[i] = test_random_below(20) ? 1.0 : 80.0; break;    /* rare spikes */
            default: samples[i] = (double)(count - i) * 0.01; break;           /* descending */
            }
        }
        plume_stage_timing t;
        memset(&t, 0xAB, sizeof t);
        profiler_timing_from_samples(samples, count, scratch, &t);
        check_timing_against_definition(samples, count, &t);
        assert_true(t.last_ms == 0.0);
        /* The median: no more than half the samples on either side of it. */
        memcpy(scratch, samples, sizeof(double) * count);
        double middle = profiler_median(scratch, count);
        uint32_t below = 0, above = 0;
        for (uint32_t i = 0; i < count; ++i) below += samples[i] < middle, above += samples[i] > middle;
        assert_true(2 * below <= count && 2 * above <= count);
        assert_true(middle >= t.min_ms && middle <= t.max_ms);
    }
    plume_stage_timing empty;
    memset(&empty, 0xAB, sizeof empty);
    profiler_timing_from_samples(samples, 0, scratch, &empty);
    assert_int_equal(empty.samples, 0);
    assert_true(empty.mean_ms == 0.0 && empty.p95_ms == 0.0 && empty.max_ms == 0.0);
    free(samples);
    free(scratch);
}

static void test_timestamp_differences(void **state) {
    (void)state;
    uint64_t ns = 0;
    uint64_t begin = ((uint64_t)test_random_u32() << 20) | test_random_below(1u << 20);
    uint32_t step = 1 + test_random_below(1000000);
    assert_true(profiler_timestamp_delta(begin, begin + step, 64, &ns));
    assert_true(ns == step);
    /* A 64-bit end before its begin is no duration. */
    assert_false(profiler_timestamp_delta(begin + step, begin, 64, &ns));
    /* A 32-bit counter wraps: 0xFFFFFF00 -> 0x00000100 is 0x200 ticks. */
    assert_true(profiler_timestamp_delta(0xFFFFFF00u, 0x100u, 32, &ns));
    assert_true(ns == 0x200);
}

static void test_create_refuses_bad_descriptors(void **state) {
    (void)state;
    plume_env env = test_plume_env();
    test_log_expect_errors();
    const profiler_desc bad[] = {{.ring_depth = 1}, {.ring_depth = PROFILER_MAX_RING_DEPTH + 1},
                                 {.window = PROFILER_MAX_WINDOW + 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        plume_profiler *profiler = (plume_profiler *)&env; /* must be reset to NULL */
        assert_int_equal(profiler_create(&env, &bad[i], &profiler), PLUME_ERROR_INVALID_ARGUMENT);
        assert_null(profiler);
    }
    assert_int_equal(test_log_error_count(), 3);
    assert_true(test_log_contains("ring depth"));
    plume_profiler *profiler = NULL;
    assert_int_equal(profiler_create(&env, NULL, &profiler), PLUME_ERROR_INVALID_ARGUMENT);
}

/* ---- Off costs nothing --------------------------------------------------------- */

static void test_disabled_profiler_makes_no_gl_call(void **state) {
    (void)state;
    plume_env env = test_plume_env();
    GLuint source = test_buffer_create(16, NULL);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &env);
    spy_install();
    plume_profiler *profiler = make_profiler(&env, 3, 10);
    for (uint64_t frame = 0; frame < 8; ++frame) {
        run_empty_frame(profiler, frame, source, &scope);
        profiler_set_u32(profiler, PROFILER_VALUE_SORT_PASSES, 5);
        profiler_frame_end(profiler);
        profiler_collect(profiler, &scope);
    }
    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    long calls_while_off = spy.calls;
    profiler_counters counters = profiler_get_counters(profiler);
    profiler_destroy(profiler);
    long calls_at_destroy = spy.calls - calls_while_off;
    spy_remove();
    plume_gl_scope_end(&scope);
    glDeleteBuffers(1, &source);

    assert_int_equal(calls_while_off, 0);
    assert_int_equal(calls_at_destroy, 0);
    assert_int_equal(spy.query_count, 0);
    assert_int_equal(counters.queries_alive, 0);
    assert_true(counters.frames_begun == 0 && counters.frames_measured == 0);
    assert_false(profile.enabled);
    for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) assert_int_equal(profile.stages[stage].samples, 0);
}

/* Switching on creates the ring; switching off deletes every query and
 * buffer, so a switched-off profiler holds no GL object. */
static void test_switching_off_deletes_every_gl_object(void **state) {
    (void)state;
    test_allocator_stats stats = {0};
    plume_env env;
    plume_logger logger = test_logger();
    plume_allocator allocator = test_counting_allocator(&stats);
    assert_int_equal(plume_env_init(&env, &logger, &allocator), PLUME_OK);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &env);
    spy_install();
    plume_profiler *profiler = make_profiler(&env, 3, 10);
    assert_int_equal(spy.calls, 0);
    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);
    assert_int_equal(profiler_get_counters(profiler).queries_alive, 3 * 2 * PROFILER_SPAN_COUNT);
    assert_int_equal(spy.query_count, 3 * 2 * PROFILER_SPAN_COUNT);
    for (uint64_t frame = 0; frame < 3; ++frame) {
        profiler_frame_begin(profiler, frame, &scope);
        profiler_stage_begin(profiler, PLUME_STAGE_SORT);
        profiler_stage_end(profiler, PLUME_STAGE_SORT);
    }
    profiler_frame_end(profiler);
    spy_remove();
    /* Used queries exist now; frames are still in flight when switched off. */
    int existing = 0;
    for (int i = 0; i < spy.query_count; ++i) existing += glIsQuery(spy.queries[i]);
    assert_true(existing >= 3 * 2);
    assert_int_equal(profiler_set_enabled(profiler, false), PLUME_OK);
    assert_int_equal(profiler_get_counters(profiler).queries_alive, 0);
    for (int i = 0; i < spy.query_count; ++i) assert_false(glIsQuery(spy.queries[i]));
    for (int i = 0; i < spy.buffer_count; ++i) assert_false(glIsBuffer(spy.buffers[i]));
    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    assert_false(profile.enabled);

    /* On again, then destroyed while on and with frames in flight. */
    spy_install();
    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);
    profiler_frame_begin(profiler, 7, &scope);
    profiler_stage_begin(profiler, PLUME_STAGE_DRAW);
    profiler_stage_end(profiler, PLUME_STAGE_DRAW);
    profiler_frame_begin(profiler, 8, &scope);
    profiler_destroy(profiler);
    spy_remove();
    plume_gl_scope_end(&scope);
    for (int i = 0; i < spy.query_count; ++i) assert_false(glIsQuery(spy.queries[i]));
    for (int i = 0; i < spy.buffer_count; ++i) assert_false(glIsBuffer(spy.buffers[i]));
    assert_int_equal(stats.live_blocks, 0);
    assert_true(stats.total_allocations > 0);
}

const struct CMUnitTest profile_statistics_tests[] = {
    cmocka_unit_test_setup_teardown(test_statistics_match_definitions_on_random_samples, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_timestamp_differences, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_create_refuses_bad_descriptors, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_disabled_profiler_makes_no_gl_call, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_switching_off_deletes_every_gl_object, fixture_setup, fixture_teardown),
};
const size_t profile_statistics_test_count = sizeof profile_statistics_tests / sizeof profile_statistics_tests[0];
