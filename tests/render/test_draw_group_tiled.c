/* Draw groups on the tiled path (plume_frame_desc.draw_path, since 1.3 for
 * groups): the group's sorted records composited per tile match the group's
 * raster draw of the same particles within the tiled tests' bounds
 * (test_tiled.c): 2/255 without early termination, the threshold's bound
 * plus 2/255 with it; at 1/2 and 1/4 the low-resolution tests' quality
 * against full-resolution raster, as close as the raster group at that
 * resolution. The systems differ in every way a group lets them: a sprite
 * flipbook and solid squares, lit, an additive part, a velocity-stretched
 * orientation, soft fade distances; an occluder covers part of them. The
 * group's profile times the tiled sub-stages; without a depth texture the
 * group draws raster and says so once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { WIDTH = RENDER_WIDTH, HEIGHT = RENDER_HEIGHT, SYSTEMS = 3 };
static const float TOLERANCE = 2.0f / 255.0f;

static void fire_like_and_stretched(plume_system_desc *d) {
    d->blend_mode = PLUME_BLEND_PREMULTIPLIED_ADDITIVE;
    d->additive_over_life = (plume_curve){2, {{0.0f, 1.0f}, {1.0f, 0.3f}}};
    d->appearance.color_over_life.keys[0].rgba[3] = 0.6f;
    d->orientation = PLUME_ORIENT_VELOCITY_STRETCHED;
    d->stretch_factor = 0.5f;
    d->stretch_limits = (plume_range){1.0f, 3.0f};
    d->emitters[0].speed = (plume_range){1.0f, 3.0f};
    d->emitters[0].spread = 3.14159f;
    d->appearance.soft_fade_distance = 0.5f;
}

static void lit_squares(plume_system_desc *d) {
    d->lit = true;
    d->appearance.soft_fade_distance = 2.0f;
}

static plume_frame_desc lit_frame(uint32_t path, uint32_t resolution, bool terminate) {
    return (plume_frame_desc){.draw_path = path, .draw_resolution = resolution,
                              .disable_early_termination = !terminate, .light_direction = {0.3f, 1.0f, 0.5f},
                              .light_color = {0.9f, 0.8f, 0.7f}, .ambient_color = {0.2f, 0.2f, 0.25f}};
}

/* Three interleaved systems of a random seed (printed), updated once for
 * the camera: two facing the camera (a flipbook cloud, a lit one), one
 * stretched and fire-like. */
static void make_systems(plume_system systems[SYSTEMS], const render_camera *c) {
    uint32_t seed = getenv("TG_SEED") ? (uint32_t)atoi(getenv("TG_SEED")) : test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    const float centre[3] = {0.2f, -0.1f, -6.0f}, beside[3] = {-0.3f, 0.2f, -6.5f};
    systems[0] = render_cloud(centre, 2.5f, 1.5f, 777, seed, true);
    systems[1] = render_cloud_with(centre, 3.0f, 0.8f, 555, seed + 2, true, lit_squares);
    systems[2] = render_cloud_with(beside, 2.5f, 0.6f, 301, seed + 1, true, fire_like_and_stretched);
    plume_frame_desc frame = lit_frame(PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, true);
    frame.dt = 0.001f;
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    for (int i = 0; i < SYSTEMS; ++i)
        assert_int_equal(plume_system_update(fixture_context(), systems[i], &frame), PLUME_OK);
}

static plume_draw_group make_group(const plume_system *systems, uint32_t count) {
    plume_draw_group_desc desc = {.systems = systems, .system_count = count};
    plume_draw_group group = {0};
    assert_int_equal(plume_draw_group_create(fixture_context(), &desc, &group), PLUME_OK);
    return group;
}

static void destroy_systems(plume_system systems[SYSTEMS]) {
    for (int i = 0; i < SYSTEMS; ++i) assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
}

/* The group drawn raster, then tiled with and without early termination,
 * behind an occluder: the largest differences and the PSNR (the worse of
 * the two) from the raster picture. */
static void compare_with_raster(plume_draw_group group, const render_camera *c, float bound, float *largest,
                                float *terminated, int *over_bound, double *psnr) {
    float *raster = render_new_image(), *tiled = render_new_image(), *ended = render_new_image();
    const int occluder = WIDTH / 3;
    const float occluder_depth = render_window_depth(c, 5.5f);
    render_draw_group(group, c, lit_frame(PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, true), true, occluder,
                      occluder_depth, raster);
    assert_true(render_covered_pixels(raster) > WIDTH * HEIGHT / 8);
    render_draw_group(group, c, lit_frame(PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, false), true, occluder,
                      occluder_depth, tiled);
    render_draw_group(group, c, lit_frame(PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, true), true, occluder,
                      occluder_depth, ended);
    *largest = render_largest_difference(raster, tiled);
    *over_bound = render_pixels_differing(raster, tiled, bound);
    *terminated = render_largest_difference(raster, ended);
    *psnr = fmin(render_psnr(raster, tiled), render_psnr(raster, ended));
    free(raster);
    free(tiled);
    free(ended);
}

/* Camera-facing systems: the tiled tests' bounds (test_tiled.c), 2/255 and
 * the threshold's 1/255 more with early termination. With a stretched
 * system: the bounds of quads that do not face the camera (test_look.c),
 * 12/255 and a PSNR of 50 dB: the raster path takes a slanted sprite's mip
 * level from each 2x2 pixel block's differences, the tiled path from the
 * exact derivatives. Either bound holds at every pixel but a few (OUTLIERS,
 * within three times the bound): overlapping clouds of a thousand particles
 * put a pixel or two over it in about one seed of twenty (a seed's largest
 * difference is otherwise 0.4-1.8/255 facing the camera, 1.2-7.5/255 with
 * the stretched system; PLUME_TEST_SEED=1883007705153593 puts one pixel of
 * the stretched system at 25.1/255, a mip level apart); an order or coverage
 * fault changes hundreds of pixels by far more. */
static void test_draw_group_tiled_matches_raster(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    plume_system systems[SYSTEMS];
    make_systems(systems, &c);
    const uint32_t counts[2] = {2, 3};
    const float bounds[2] = {TOLERANCE, 12.0f / 255.0f};
    enum { OUTLIERS = 8 };
    for (int k = 0; k < 2; ++k) {
        plume_draw_group group = make_group(systems, counts[k]);
        float largest, terminated;
        int over_bound;
        double psnr;
        compare_with_raster(group, &c, bounds[k], &largest, &terminated, &over_bound, &psnr);
        printf("  %u systems%s, tiled against raster: largest difference %.2f/255 (at most %.0f/255 at all but %d "
               "pixels, %d over), %.2f/255\n"
               "  with early termination (at most 1/255 more), PSNR %.1f dB (at least 50)\n",
               counts[k], k ? " (one stretched)" : " facing the camera", largest * 255.0f, bounds[k] * 255.0f,
               OUTLIERS, over_bound, terminated * 255.0f, psnr);
        assert_true(over_bound <= OUTLIERS);
        assert_true(largest <= 3.0f * bounds[k] && terminated <= 3.0f * (bounds[k] + 1.0f / 255.0f));
        assert_true(psnr >= 50.0);
        if (k == 0) {
            assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
            continue;
        }
        /* Its profile: the tiled sub-stages and the entries. */
        float *image = render_new_image();
        assert_int_equal(plume_draw_group_set_profiling(fixture_context(), group, true), PLUME_OK);
        for (int frame = 0; frame < 3; ++frame) {
            render_draw_group(group, &c, lit_frame(PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, true), true, 0, 1.0f,
                              image);
            glFinish();
        }
        plume_profile profile;
        assert_int_equal(plume_draw_group_get_profile(fixture_context(), group, &profile), PLUME_OK);
        printf("  profiled: %u entries of a budget of %u, composite %.3f ms\n", profile.tiled_entries,
               profile.tiled_entry_budget, profile.draw_stages[PLUME_DRAW_STAGE_COMPOSITE].mean_ms);
        assert_true(profile.tiled_entries > 0 && profile.tiled_entries <= profile.tiled_entry_budget);
        if (profile.timer_available) {
            assert_true(profile.draw_stages[PLUME_DRAW_STAGE_PROJECT].samples > 0);
            assert_true(profile.draw_stages[PLUME_DRAW_STAGE_COMPOSITE].samples > 0);
        }
        /* Without a depth texture: raster, said once. */
        for (int frame = 0; frame < 2; ++frame)
            render_draw_group(group, &c, lit_frame(PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, true), false, 0, 1.0f,
                              image);
        assert_int_equal(test_log_count("the tiled draw path needs the frame's depth_texture"), 1);
        free(image);
        assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    }
    destroy_systems(systems);
}

static void test_draw_group_tiled_at_low_resolution(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    plume_system systems[SYSTEMS];
    make_systems(systems, &c);
    plume_draw_group group = make_group(systems, SYSTEMS);
    float *full = render_new_image(), *low = render_new_image(), *raster_low = render_new_image();
    render_draw_group(group, &c, lit_frame(PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, true), true, 0, 1.0f, full);
    const uint32_t resolutions[2] = {PLUME_DRAW_HALF, PLUME_DRAW_QUARTER};
    const double least[2] = {30.0, 25.0}; /* the tiled and raster paths' own (test_tiled.c, test_lowres.c) */
    assert_int_equal(plume_draw_group_set_profiling(fixture_context(), group, true), PLUME_OK);
    for (int r = 0; r < 2; ++r) {
        render_draw_group(group, &c, lit_frame(PLUME_DRAW_PATH_RASTER, resolutions[r], false), true, 0, 1.0f,
                          raster_low);
        render_draw_group(group, &c, lit_frame(PLUME_DRAW_PATH_TILED, resolutions[r], false), true, 0, 1.0f, low);
        double quality = render_psnr(full, low), raster_quality = render_psnr(full, raster_low);
        printf("  1/%d: PSNR against the full-resolution raster group %.1f dB tiled, %.1f dB raster (at least "
               "%.0f)\n",
               r == 0 ? 2 : 4, quality, raster_quality, least[r]);
        assert_true(quality >= least[r]);
        assert_true(quality >= raster_quality - 0.5);
    }
    /* The last frame (tiled at 1/4) finished: composited, then upsampled. */
    glFinish();
    render_draw_group(group, &c, lit_frame(PLUME_DRAW_PATH_TILED, PLUME_DRAW_QUARTER, false), true, 0, 1.0f, low);
    plume_profile profile;
    assert_int_equal(plume_draw_group_get_profile(fixture_context(), group, &profile), PLUME_OK);
    assert_true(profile.tiled_entries > 0);
    if (profile.timer_available) {
        assert_true(profile.draw_stages[PLUME_DRAW_STAGE_COMPOSITE].samples > 0);
        assert_true(profile.draw_stages[PLUME_DRAW_STAGE_UPSAMPLE].samples > 0);
    }
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    destroy_systems(systems);
    free(full);
    free(low);
    free(raster_low);
}

const struct CMUnitTest draw_group_tiled_tests[] = {
    cmocka_unit_test_setup_teardown(test_draw_group_tiled_matches_raster, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_draw_group_tiled_at_low_resolution, fixture_setup, fixture_teardown),
};
const size_t draw_group_tiled_test_count = sizeof draw_group_tiled_tests / sizeof draw_group_tiled_tests[0];
