/* The steady-state detector the demo and the frame benchmark measure after
 * (host/steady_state.c): a growing series is not steady, a settled one is
 * from the first block after it settled, noise under the tolerance does not
 * hold it back, the lifetimes' floor and the give-up cap hold. Seeded noise
 * (PLUME_TEST_SEED). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "steady_state.h"
#include "test_env.h"
#include "tests.h"

/* Pushes `frames` frames of live count and coverage from `series`; returns
 * the frame count at which it said steady (0: never). */
typedef double (*series_fn)(uint32_t frame, uint32_t *rng, int which);

static uint32_t run(steady_state *s, uint32_t frames, series_fn series, uint32_t *rng) {
    for (uint32_t f = 0; f < frames; ++f)
        if (steady_state_push(s, series(f, rng, 0), series(f, rng, 1))) return s->reached_at;
    return 0;
}

static double noise(uint32_t *rng) {
    *rng = *rng * 1664525u + 1013904223u;
    return (double)(*rng >> 8) / (double)(1u << 24) - 0.5; /* -0.5 .. 0.5 */
}

/* The live count settles at frame 300 (a lifetime), the coverage keeps
 * spreading until frame 900, both with 0.5 % noise. */
static double growing_then_flat(uint32_t frame, uint32_t *rng, int which) {
    double settle = which == 0 ? 300.0 : 900.0;
    double level = frame < settle ? 1000.0 * frame / settle : 1000.0;
    return (level + 1.0) * (1.0 + 0.01 * noise(rng));
}

static double always_growing(uint32_t frame, uint32_t *rng, int which) {
    (void)rng, (void)which;
    return 100.0 + 10.0 * frame;
}

static void test_steady_state_after_the_coverage_settles(void **state) {
    (void)state;
    uint32_t rng = test_random_u32(); /* test_seed() prints the seed */
    steady_state s;
    steady_state_init(&s, steady_state_lifetime_frames(5.0, 1.0 / 60.0), 5000);
    uint32_t at = run(&s, 5000, growing_then_flat, &rng);
    assert_true(s.steady);
    /* Not while the coverage grows, and within two blocks of its end. */
    assert_true(at > 900);
    assert_true(at <= 900 + 2 * STEADY_STATE_WINDOW);
    char text[160];
    steady_state_describe(&s, text, sizeof text);
    assert_non_null(strstr(text, "steady state from frame"));
}

static void test_steady_state_gives_up_and_says_so(void **state) {
    (void)state;
    uint32_t rng = 1;
    steady_state s;
    steady_state_init(&s, 0, 600);
    assert_int_equal(run(&s, 5000, always_growing, &rng), 600);
    assert_false(s.steady);
    char text[160];
    steady_state_describe(&s, text, sizeof text);
    assert_non_null(strstr(text, "NOT steady after 600 frames"));
}

static double flat(uint32_t frame, uint32_t *rng, int which) {
    (void)frame, (void)which;
    return 500.0 * (1.0 + 0.01 * noise(rng));
}

static void test_steady_state_waits_for_the_lifetimes(void **state) {
    (void)state;
    uint32_t rng = test_random_u32();
    /* Flat from the start: steady at the lifetimes' floor, not before. */
    uint32_t floor = steady_state_lifetime_frames(4.0, 1.0 / 60.0);
    assert_int_equal(floor, 240);
    steady_state s;
    steady_state_init(&s, floor, 5000);
    assert_int_equal(run(&s, 5000, flat, &rng), floor);
    assert_true(s.steady);
    /* Particles that never die, or a tiny lifetime: two blocks. */
    assert_int_equal(steady_state_lifetime_frames(1.0e6, 1.0 / 60.0), 2 * STEADY_STATE_WINDOW);
    assert_int_equal(steady_state_lifetime_frames(0.1, 1.0 / 60.0), 2 * STEADY_STATE_WINDOW);
}

/* A run shorter than the effect's lifetimes (the gallery's candle: 90
 * frames of a flame whose smoke lives 3 s) stops waiting at max_frames
 * all the same, said as not steady. */
static void test_steady_state_a_short_run_measures_its_end(void **state) {
    (void)state;
    uint32_t rng = 7;
    steady_state s;
    steady_state_init(&s, steady_state_lifetime_frames(3.0, 1.0 / 60.0), 45);
    assert_int_equal(run(&s, 90, flat, &rng), 45);
    assert_false(s.steady);
    char text[160];
    steady_state_describe(&s, text, sizeof text);
    assert_non_null(strstr(text, "NOT steady after 45 frames"));
}

const struct CMUnitTest steady_state_tests[] = {
    cmocka_unit_test(test_steady_state_a_short_run_measures_its_end),
    cmocka_unit_test(test_steady_state_after_the_coverage_settles),
    cmocka_unit_test(test_steady_state_gives_up_and_says_so),
    cmocka_unit_test(test_steady_state_waits_for_the_lifetimes),
};
const size_t steady_state_test_count = sizeof steady_state_tests / sizeof steady_state_tests[0];
