/* The automatic draw path (PLUME_DRAW_PATH_AUTOMATIC, since 1.3, the
 * default of a zero frame): per frame, the tiled path where the particles
 * are many enough (render/draw_tuning.h: from 16 K) and the frame gives a
 * depth texture, at 1/2 where the frame lets the draw lower its resolution
 * and they are many more (from 64 K), the raster path otherwise and on the
 * fragment path (what a GL without compute shaders runs); tiled too where
 * the raster draw's measured fill is large, whatever the count; the profile
 * says which ran. Draw groups choose the same way by the sum of their
 * systems (and their own draw's fill: tests/render/test_fill_probe.c).
 * Hosts built against 1.0 - 1.2, through the tables they asked for, keep
 * the raster path for a zero draw_path, and their profiles end where theirs
 * did. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume/plume_plugin.h"
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

#ifndef PLUME_TESTS_THROUGH_TABLE /* draw_decide and its tuning are the module's own */
#include "render/draw_path.h"
#include "render/draw_tuning.h"
#endif

enum { FEW = 400, MANY = 20011, MORE = 70001 }; /* under, over the tiled threshold; over the half one */

static const float CENTRE[3] = {0.0f, 0.0f, -8.0f};

/* Frames of `frame` (updated, drawn into a fresh host frame with a depth
 * texture or none), each finished before the next: the profile of a late
 * one. Several, as a host's: the profile's timestamps and the tiled path's
 * entry budget come back a frame or more later on a GPU that runs behind
 * the CPU (the first tiled frame may fall back to raster for its budget). */
static plume_profile drawn_with(plume_system system, plume_frame_desc frame, bool with_depth) {
    render_camera c = render_make_camera();
    float *image = render_new_image();
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    for (int k = 0; k < 4; ++k) {
        render_frame(system, &c, frame, with_depth, 0, 1.0f, image);
        glFinish();
    }
    render_frame(system, &c, frame, with_depth, 0, 1.0f, image);
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
    free(image);
    return profile;
}

static void expect_drawn_with(plume_system system, plume_frame_desc frame, bool with_depth, uint32_t path,
                              uint32_t resolution, const char *what) {
    plume_profile profile = drawn_with(system, frame, with_depth);
    printf("  %s: %s at 1/%d\n", what, profile.draw_path == PLUME_DRAW_PATH_TILED ? "tiled" : "raster",
           1 << profile.draw_resolution);
    if (profile.draw_path != path || profile.draw_resolution != resolution)
        fail_msg("%s: drew with path %u at resolution %u; expected %u at %u", what, profile.draw_path,
                 profile.draw_resolution, path, resolution);
}

static void fragment_path(plume_system_desc *desc) { desc->path = PLUME_PATH_FRAGMENT; }

static void test_automatic_path_per_frame(void **state) {
    (void)state;
    const plume_frame_desc automatic = {0}, named = {.draw_path = PLUME_DRAW_PATH_AUTOMATIC};
    const plume_frame_desc may_lower = {.draw_quality = PLUME_DRAW_QUALITY_MAY_LOWER};
    const plume_frame_desc raster = {.draw_path = PLUME_DRAW_PATH_RASTER};
    plume_system few = render_cloud(CENTRE, 4.0f, 0.3f, FEW, 3, false);
    expect_drawn_with(few, automatic, true, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, "400 particles");
    assert_int_equal(plume_system_destroy(fixture_context(), few), PLUME_OK);

    plume_system many = render_cloud(CENTRE, 4.0f, 0.1f, MANY, 5, false);
    expect_drawn_with(many, automatic, true, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, "20 K particles");
    expect_drawn_with(many, named, true, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, "20 K, AUTOMATIC named");
    expect_drawn_with(many, may_lower, true, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, "20 K that may lower");
    expect_drawn_with(many, automatic, false, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, "20 K without depth");
    expect_drawn_with(many, raster, true, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, "20 K, RASTER named");
    assert_int_equal(test_log_count("needs the frame's depth_texture"), 0); /* automatic warns of nothing */
    test_log_expect_errors();
    plume_frame_desc bad = {.draw_quality = 2};
    assert_int_equal(plume_system_draw(fixture_context(), many, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("draw_quality 2 is not a plume_draw_quality"));
    assert_int_equal(plume_system_destroy(fixture_context(), many), PLUME_OK);

    plume_system more = render_cloud(CENTRE, 4.0f, 0.05f, MORE, 7, false);
    expect_drawn_with(more, may_lower, true, PLUME_DRAW_PATH_TILED, PLUME_DRAW_HALF, "70 K that may lower");
    expect_drawn_with(more, automatic, true, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, "70 K at full resolution");
    assert_int_equal(plume_system_destroy(fixture_context(), more), PLUME_OK);

    plume_system fragment = render_cloud_with(CENTRE, 4.0f, 0.1f, MANY, 5, false, fragment_path);
    expect_drawn_with(fragment, automatic, true, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, "20 K, fragment path");
    assert_int_equal(plume_system_destroy(fixture_context(), fragment), PLUME_OK);
}

/* Few particles that cover the screen many times over (a dust storm of
 * puffs metres across): the raster draw's fill, counted by the probe's
 * occlusion query and read a frame later, takes the automatic path to the
 * tiled one (the 400 small ones above stay raster). With the host's own
 * GL_SAMPLES_PASSED query running through the frames the probe waits (one
 * query of a kind runs at a time): raster, no error, and the host's query
 * counts the draws' samples. */
static void test_automatic_path_follows_the_fill(void **state) {
    (void)state;
    const plume_frame_desc automatic = {0};
    plume_system large = render_cloud(CENTRE, 1.5f, 6.0f, FEW, 9, false);
    expect_drawn_with(large, automatic, true, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL,
                      "400 particles each a few metres across");
    assert_int_equal(plume_system_destroy(fixture_context(), large), PLUME_OK);

    plume_system again = render_cloud(CENTRE, 1.5f, 6.0f, FEW, 9, false);
    GLuint host_query = 0, samples = 0;
    glGenQueries(1, &host_query);
    glBeginQuery(GL_SAMPLES_PASSED, host_query);
    plume_profile profile = drawn_with(again, automatic, true);
    glEndQuery(GL_SAMPLES_PASSED);
    glGetQueryObjectuiv(host_query, GL_QUERY_RESULT, &samples);
    glDeleteQueries(1, &host_query);
    printf("  the same under the host's own occlusion query: %s, %u samples counted by it\n",
           profile.draw_path == PLUME_DRAW_PATH_TILED ? "tiled" : "raster", samples);
    assert_int_equal(profile.draw_path, PLUME_DRAW_PATH_RASTER);
    assert_true(samples > 0);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    assert_int_equal(plume_system_destroy(fixture_context(), again), PLUME_OK);
}

/* A group of two systems, each under the threshold, together over it. */
static void test_automatic_path_of_a_group(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    plume_system systems[2] = {render_cloud(CENTRE, 4.0f, 0.1f, MANY / 2 + 7, 9, false),
                               render_cloud(CENTRE, 3.0f, 0.1f, MANY / 2 + 9, 11, false)};
    float *image = render_new_image();
    for (int i = 0; i < 2; ++i) render_frame(systems[i], &c, (plume_frame_desc){0}, true, 0, 1.0f, image);
    plume_draw_group group;
    plume_draw_group_desc desc = {.systems = systems, .system_count = 2};
    assert_int_equal(plume_draw_group_create(fixture_context(), &desc, &group), PLUME_OK);
    assert_int_equal(plume_draw_group_set_profiling(fixture_context(), group, true), PLUME_OK);
    const uint32_t expected[2] = {PLUME_DRAW_PATH_TILED, PLUME_DRAW_PATH_RASTER};
    for (int with_depth = 1; with_depth >= 0; --with_depth) {
        render_draw_group(group, &c, (plume_frame_desc){0}, with_depth, 0, 1.0f, image);
        glFinish();
        render_draw_group(group, &c, (plume_frame_desc){0}, with_depth, 0, 1.0f, image);
        plume_profile profile;
        assert_int_equal(plume_draw_group_get_profile(fixture_context(), group, &profile), PLUME_OK);
        printf("  a group of 2 x 10 K %s a depth texture: %s\n", with_depth ? "with" : "without",
               profile.draw_path == PLUME_DRAW_PATH_TILED ? "tiled" : "raster");
        assert_int_equal(profile.draw_path, expected[1 - with_depth]);
    }
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    for (int i = 0; i < 2; ++i) assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
    free(image);
}

/* Hosts of 1.0, 1.1 and 1.2: a zero frame draws raster where a 1.3 host's
 * draws tiled; a 1.2 host's profile is written no further than its
 * struct. */
static void test_old_hosts_keep_the_raster_path(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    plume_system many = render_cloud(CENTRE, 4.0f, 0.1f, MANY, 5, false);
    float *image = render_new_image();
    render_frame(many, &c, (plume_frame_desc){0}, true, 0, 1.0f, image);
    assert_int_equal(plume_system_set_profiling(fixture_context(), many, true), PLUME_OK);
    for (uint32_t minor = 0; minor <= PLUME_ABI_MINOR; ++minor) {
        const plume_api *api = NULL;
        assert_int_equal(plume_get_api(PLUME_ABI_MAJOR, minor, NULL, &api), PLUME_OK);
        plume_frame_desc frame = {.dt = 0.001f};
        memcpy(frame.view, c.view, sizeof frame.view);
        memcpy(frame.projection, c.projection, sizeof frame.projection);
        for (int k = 0; k < 5; ++k) { /* as drawn_with's: the profile comes back frames later */
            assert_int_equal(api->system_update(fixture_context(), many, &frame), PLUME_OK);
            enum { SIZE = 64 };
            test_target target = test_target_begin(SIZE, RENDER_BACKGROUND);
            GLuint depth = test_texture_create(GL_DEPTH_COMPONENT32F, SIZE, SIZE);
            frame.depth_texture = depth;
            assert_int_equal(api->system_draw(fixture_context(), many, &frame), PLUME_OK);
            frame.depth_texture = 0;
            glDeleteTextures(1, &depth);
            test_target_end(&target, NULL);
            glFinish();
        }
        plume_profile profile;
        assert_int_equal(plume_system_get_profile(fixture_context(), many, &profile), PLUME_OK);
        printf("  a 1.%u host's zero frame, 20 K particles: %s\n", minor,
               profile.draw_path == PLUME_DRAW_PATH_TILED ? "tiled" : "raster");
        assert_int_equal(profile.draw_path, minor < 3 ? PLUME_DRAW_PATH_RASTER : PLUME_DRAW_PATH_TILED);
        if (minor != 2) continue;
        unsigned char poisoned[sizeof(plume_profile)];
        memset(poisoned, 0xAB, sizeof poisoned);
        assert_int_equal(api->system_get_profile(fixture_context(), many, (plume_profile *)poisoned), PLUME_OK);
        for (size_t i = offsetof(plume_profile, draw_path); i < sizeof poisoned; ++i)
            assert_int_equal(poisoned[i], 0xAB);
    }
    assert_int_equal(plume_system_destroy(fixture_context(), many), PLUME_OK);
    free(image);
}

#ifndef PLUME_TESTS_THROUGH_TABLE
/* Trails whose least ranks (a quad a segment pair) pass the tuning's most
 * draw raster where the path is automatic, and that is the choice kept for
 * the next frame's thresholds; asked for, the tiled path is taken all the
 * same; at the most, or without trails, the count decides. */
static void test_trails_past_the_most_ranks_stay_raster_when_automatic(void **state) {
    (void)state;
    plume_frame_desc frame = {.depth_texture = 1, .draw_path = PLUME_DRAW_PATH_AUTOMATIC};
    uint64_t most = DRAW_TUNING.trail_tiled_most_ranks;
    uint32_t many = 4 * DRAW_TUNING.tiled_from;
    draw_decision kept = {.tiled = true, .factor = 1};
    assert_false(draw_decide(&frame, many, 0.0f, most + 1, &kept).tiled);
    assert_false(kept.tiled);
    assert_true(draw_decide(&frame, many, 0.0f, most, &kept).tiled);
    assert_true(kept.tiled);
    assert_true(draw_decide(&frame, many, 0.0f, 0, &kept).tiled);
    assert_false(draw_decide(&frame, DRAW_TUNING.tiled_from / 2, 0.0f, 0, &kept).tiled);
    frame.draw_path = PLUME_DRAW_PATH_TILED;
    assert_true(draw_decide(&frame, many, 0.0f, most + 1, NULL).tiled);
    frame.draw_path = PLUME_DRAW_PATH_RASTER;
    assert_false(draw_decide(&frame, many, 0.0f, 0, NULL).tiled);
}
#endif

const struct CMUnitTest draw_automatic_tests[] = {
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test(test_trails_past_the_most_ranks_stay_raster_when_automatic),
#endif
    cmocka_unit_test_setup_teardown(test_automatic_path_per_frame, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_automatic_path_of_a_group, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_automatic_path_follows_the_fill, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_old_hosts_keep_the_raster_path, fixture_setup, fixture_teardown),
};
const size_t draw_automatic_test_count = sizeof draw_automatic_tests / sizeof draw_automatic_tests[0];
