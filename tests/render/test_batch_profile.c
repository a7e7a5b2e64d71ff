/* The batch calls' profile (plume_batch_set_profiling, plume_batch_get_profile,
 * since 1.3): off and empty until switched on; on, each batch update and
 * batch draw is a frame timed by stage, and the last update's counts say how
 * many systems it updated, how many of them ran their passes over tables of
 * systems (on how many pool pages) and how many on their own (a system
 * profiled by itself); the draw's counts as a draw group's; off again, no
 * stage is timed; bad input refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "batch_looks.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { SYSTEMS = 5, FRAMES = 6 };

/* A batch update (no sorts of their own: the batch draw sorts) and a batch
 * draw of every live system, raster, for the camera. */
static void batch_frame(const render_camera *c, float *image) {
    plume_frame_desc frame = {.dt = 1.0f / 60.0f, .disable_sort = true, .draw_path = PLUME_DRAW_PATH_RASTER};
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    assert_int_equal(plume_batch_update(fixture_context(), NULL, 0, &frame), PLUME_OK);
    render_draw_batch(NULL, 0, c, frame, true, image);
}

static void test_batch_profile_times_stages_and_counts_systems(void **state) {
    (void)state;
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    render_camera c = render_make_camera();
    plume_batch_profile profile;
    memset(&profile, 0xAB, sizeof profile);
    assert_int_equal(plume_batch_get_profile(fixture_context(), &profile), PLUME_OK);
    assert_false(profile.update.enabled || profile.draw.enabled);
    assert_int_equal(profile.systems + profile.drawn_systems, 0);

    const float centre[3] = {0.2f, -0.1f, -6.0f};
    plume_system systems[SYSTEMS];
    for (uint32_t k = 0; k < SYSTEMS; ++k)
        systems[k] = render_cloud_with(centre, 2.5f, 0.8f, 211 + 61 * k, seed + k, k % 2 == 0, k % 3 ? plain : lit);
    /* Profiled by itself: updated on its own inside the batch call. */
    assert_int_equal(plume_system_set_profiling(fixture_context(), systems[SYSTEMS - 1], true), PLUME_OK);
    assert_int_equal(plume_batch_set_profiling(fixture_context(), true), PLUME_OK);
    float *image = render_new_image();
    for (int f = 0; f < FRAMES; ++f) {
        batch_frame(&c, image);
        glFinish();
    }
    assert_true(render_covered_pixels(image) > 0);
    batch_frame(&c, image); /* reads the finished frames */
    assert_int_equal(plume_batch_get_profile(fixture_context(), &profile), PLUME_OK);
    printf("  %u systems: %u over tables on %u page(s), %u alone; drew %u systems, %u particles; update %.3f ms "
           "(simulate %.3f, sort %.3f), draw %.3f ms (%s timer)\n",
           profile.systems, profile.systems_in_tables, profile.table_pages, profile.systems_alone,
           profile.drawn_systems, profile.draw.drawn_count, profile.update.stages[PLUME_STAGE_UPDATE].mean_ms,
           profile.update.stages[PLUME_STAGE_SIMULATE].mean_ms, profile.update.stages[PLUME_STAGE_SORT].mean_ms,
           profile.draw.stages[PLUME_STAGE_DRAW].mean_ms, profile.update.timer_available ? "a" : "no");
    assert_true(profile.update.enabled && profile.draw.enabled);
    assert_int_equal(profile.systems, SYSTEMS);
    assert_int_equal(profile.systems_alone, 1);
    assert_int_equal(profile.systems_in_tables, SYSTEMS - 1);
    assert_true(profile.table_pages >= 1 && profile.table_pages <= profile.systems_in_tables);
    assert_int_equal(profile.drawn_systems, SYSTEMS);
    assert_true(profile.draw.drawn_count > 0);
    if (profile.update.timer_available) {
        const plume_stage_timing *u = profile.update.stages, *d = profile.draw.stages;
        assert_true(u[PLUME_STAGE_UPDATE].samples > 0 && u[PLUME_STAGE_SIMULATE].samples > 0 &&
                    u[PLUME_STAGE_SORT].samples > 0);
        assert_true(u[PLUME_STAGE_UPDATE].mean_ms >= u[PLUME_STAGE_SIMULATE].mean_ms);
        assert_true(d[PLUME_STAGE_DRAW].samples > 0 && d[PLUME_STAGE_SORT].samples > 0);
    }

    /* Off: no stage timed any more, the counts kept. */
    assert_int_equal(plume_batch_set_profiling(fixture_context(), false), PLUME_OK);
    batch_frame(&c, image);
    assert_int_equal(plume_batch_get_profile(fixture_context(), &profile), PLUME_OK);
    assert_false(profile.update.enabled || profile.draw.enabled);
    assert_int_equal(profile.update.stages[PLUME_STAGE_UPDATE].samples, 0);
    assert_int_equal(profile.systems, SYSTEMS);
    free(image);
    for (uint32_t k = 0; k < SYSTEMS; ++k) assert_int_equal(plume_system_destroy(fixture_context(), systems[k]), PLUME_OK);
}

static void test_batch_profile_bad_input(void **state) {
    (void)state;
    test_log_expect_errors();
    /* Without a context the message goes to stderr (no logger to take it). */
    assert_int_equal(plume_batch_set_profiling(NULL, true), PLUME_ERROR_INVALID_ARGUMENT);
    plume_batch_profile profile;
    memset(&profile, 0xAB, sizeof profile);
    assert_int_equal(plume_batch_get_profile(NULL, &profile), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(profile.systems, 0);
    assert_int_equal(plume_batch_get_profile(fixture_context(), NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(test_log_count("plume_batch_get_profile: context and out must not be NULL"), 1);
    /* Switching off what was never on changes nothing. */
    assert_int_equal(plume_batch_set_profiling(fixture_context(), false), PLUME_OK);
    assert_int_equal(plume_batch_get_profile(fixture_context(), &profile), PLUME_OK);
    assert_false(profile.update.enabled);
}

const struct CMUnitTest batch_profile_tests[] = {
    cmocka_unit_test_setup_teardown(test_batch_profile_times_stages_and_counts_systems, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_batch_profile_bad_input, fixture_setup, fixture_teardown),
};
const size_t batch_profile_test_count = sizeof batch_profile_tests / sizeof batch_profile_tests[0];
