/* The compute-tiled draw path (plume_frame_desc.draw_path, since 1.2) against
 * the raster path on the same particles: equal within 2/255 without early
 * termination, within the threshold's bound with it; at 1/2 and 1/4 the
 * low-resolution tests' quality and no halo at a depth edge; nothing drawn
 * when the camera looks away; the profile's sub-stages; the raster path,
 * said once, without a depth texture or where the tiled path cannot be
 * made; the tiled options through the API and a 1.1 host's structs. Its
 * entries and their limits (the budget, chunks, 2^16 tiles) are
 * test_tiled_entries.c's. */
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

#include "plume/plume_particles.h"
#include "plume/plume_plugin.h"
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { WIDTH = RENDER_WIDTH, HEIGHT = RENDER_HEIGHT };
static const float TOLERANCE = 2.0f / 255.0f;

static const plume_frame_desc RASTER = {.draw_path = PLUME_DRAW_PATH_RASTER};

static void test_tiled_matches_raster_without_termination(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    float *raster = render_new_image(), *tile = render_new_image();
    /* Rotated sprites with cross-faded flipbook frames, partly behind an
     * occluder (the depth test) and fading into the far plane's depth (the
     * soft fade); a count that fills no workgroup evenly. */
    const float centre[3] = {0.3f, -0.2f, -6.0f};
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    render_draw_both(centre, 2.5f, 1.5f, 777, seed, RASTER, render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f), WIDTH / 3,
                     render_window_depth(&c, 5.5f), raster, tile);
    assert_true(render_covered_pixels(raster) > WIDTH * HEIGHT / 8);
    /* The tiled bound's few outliers (render_within_tiled_bound): NVIDIA's
     * raster path rounds a pixel or two of some seeds over 2/255. */
    float largest;
    int over;
    bool within = render_within_tiled_bound(raster, tile, TOLERANCE, &largest, &over);
    printf("  tiled against raster: largest difference %.2f/255, %d pixels over 2/255\n", largest * 255.0f, over);
    assert_true(within);
    free(raster);
    free(tile);
}

static void test_tiled_termination_stays_under_its_bound(void **state) {
    (void)state;
    float *raster = render_new_image(), *full = render_new_image(), *ended = render_new_image();
    const float centre[3] = {0.0f, 0.0f, -6.0f};
    const float thresholds[2] = {0.0f, 0.1f}; /* 0: the default, 1/255 */
    /* Dense: most pixels of the cloud's middle end early. The tiled system
     * draws its particles without termination, then again (no update) at
     * each threshold. */
    render_camera c = render_make_camera();
    plume_system raster_system = render_cloud(centre, 1.5f, 2.0f, 1500, 21, true);
    plume_system tiled_system = render_cloud(centre, 1.5f, 2.0f, 1500, 21, true);
    render_frame(raster_system, &c, RASTER, true, 0, 1.0f, raster);
    render_frame(tiled_system, &c, render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f), true, 0, 1.0f, full);
    for (int t = 0; t < 2; ++t) {
        float bound = thresholds[t] > 0.0f ? thresholds[t] : 1.0f / 255.0f;
        render_draw(tiled_system, &c, render_tiled_frame(PLUME_DRAW_FULL, true, thresholds[t]), true, 0, 1.0f, ended);
        float from_raster = render_largest_difference(raster, ended);
        float from_full = render_largest_difference(full, ended);
        printf("  threshold %.4f: largest difference %.2f/255 from raster, %.2f/255 from no termination\n", bound,
               from_raster * 255.0f, from_full * 255.0f);
        assert_true(from_full <= bound);
        assert_true(from_raster <= bound + TOLERANCE);
        if (thresholds[t] > 0.0f) assert_true(from_full > 1.0f / 255.0f); /* it did end pixels early */
    }
    assert_int_equal(plume_system_destroy(fixture_context(), raster_system), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), tiled_system), PLUME_OK);
    free(raster);
    free(full);
    free(ended);
}

/* Each resolution drawn by one system per path: the first frame at 1/2, the
 * same particles drawn again (no update) at 1/4. */
static void draw_at(plume_system system, const render_camera *c, int r, plume_frame_desc frame, int occluder_width,
                    float occluder_depth, float *image) {
    if (r == 0) render_frame(system, c, frame, true, occluder_width, occluder_depth, image);
    else render_draw(system, c, frame, true, occluder_width, occluder_depth, image);
}

static void test_tiled_at_low_resolution(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    float *full = render_new_image(), *low = render_new_image(), *raster_low = render_new_image();
    const uint32_t resolutions[2] = {PLUME_DRAW_HALF, PLUME_DRAW_QUARTER};
    const double least[2] = {30.0, 25.0}; /* as the raster path's (test_lowres.c) */
    const float centre[3] = {0.0f, 0.0f, -8.0f};
    plume_system reference = render_cloud(centre, 3.0f, 1.5f, 400, 5, true);
    plume_system tiled_system = render_cloud(centre, 3.0f, 1.5f, 400, 5, true);
    plume_system raster_system = render_cloud(centre, 3.0f, 1.5f, 400, 5, true);
    render_frame(reference, &c, RASTER, true, 0, 1.0f, full);
    for (int r = 0; r < 2; ++r) {
        draw_at(tiled_system, &c, r, render_tiled_frame(resolutions[r], false, 0.0f), 0, 1.0f, low);
        double quality = render_psnr(full, low);
        draw_at(raster_system, &c, r, (plume_frame_desc){.draw_resolution = resolutions[r]}, 0, 1.0f, raster_low);
        double raster_quality = render_psnr(full, raster_low);
        /* The raster path rounds its RGBA16F target at every blend, the tiled
         * path once: it is as close to full resolution or closer. */
        printf("  1/%d: PSNR against full-resolution raster %.1f dB tiled, %.1f dB raster (at least %.0f)\n",
               r == 0 ? 2 : 4, quality, raster_quality, least[r]);
        assert_true(quality >= least[r]);
        assert_true(quality >= raster_quality - 0.5);
    }
    plume_system systems[3] = {reference, tiled_system, raster_system};
    for (int i = 0; i < 3; ++i) assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
    /* An occluder's edge in front of the cloud: its pixels keep the
     * background, and the particles beside it show. */
    const float behind[3] = {0.0f, 0.0f, -10.0f};
    reference = render_cloud(behind, 4.0f, 2.0f, 300, 9, true);
    tiled_system = render_cloud(behind, 4.0f, 2.0f, 300, 9, true);
    const float occluder_depth = render_window_depth(&c, 4.0f);
    render_frame(reference, &c, RASTER, true, WIDTH / 2, occluder_depth, full);
    for (int r = 0; r < 2; ++r) {
        draw_at(tiled_system, &c, r, render_tiled_frame(resolutions[r], true, 0.0f), WIDTH / 2, occluder_depth, low);
        int shown_beside = 0;
        for (int y = 0; y < HEIGHT; ++y)
            for (int x = 0; x < WIDTH; ++x) {
                const float *p = &low[4 * (y * WIDTH + x)], *q = &full[4 * (y * WIDTH + x)];
                if (x < WIDTH / 2) {
                    for (int k = 0; k < 3; ++k)
                        if (fabsf(p[k] - RENDER_BACKGROUND[k]) > 1.0f / 255.0f)
                            fail_msg("tiled at 1/%d: the occluder's pixel (%d, %d) shows particles (%f)",
                                     r == 0 ? 2 : 4, x, y, p[k]);
                } else if (x < WIDTH / 2 + 8 && fabsf(q[0] - RENDER_BACKGROUND[0]) > 0.05f) {
                    shown_beside += fabsf(p[0] - RENDER_BACKGROUND[0]) > 0.02f;
                }
            }
        printf("  tiled at 1/%d: %d pixels beside the edge show the particles\n", r == 0 ? 2 : 4, shown_beside);
        assert_true(shown_beside > 50);
    }
    assert_int_equal(plume_system_destroy(fixture_context(), reference), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), tiled_system), PLUME_OK);
    free(full);
    free(low);
    free(raster_low);
}

/* Nothing drawn (every pass's workgroups and instances zero, set on the
 * GPU): the host's pixels untouched, at full resolution and at 1/2 (whose
 * downsample and upsample draw no instance then). */
static void test_tiled_looking_away_draws_nothing(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    glm_lookat((vec3){0, 0, 0}, (vec3){0, 0, 1}, (vec3){0, 1, 0}, c.view); /* the cloud is behind */
    const float centre[3] = {0.0f, 0.0f, -6.0f};
    plume_system system = render_cloud(centre, 2.0f, 1.0f, 500, 4, true);
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    float *image = render_new_image();
    for (int i = 0; i < 4; ++i) {
        render_frame(system, &c, render_tiled_frame(i == 0 ? PLUME_DRAW_HALF : PLUME_DRAW_FULL, true, 0.0f), true, 0,
                     1.0f, image);
        glFinish();
    }
    for (int i = 0; i < WIDTH * HEIGHT; ++i)
        for (int k = 0; k < 4; ++k)
            if (image[4 * i + k] != RENDER_BACKGROUND[k])
                fail_msg("pixel %d channel %d shows a particle: %.9g, not %.9g", i, k, image[4 * i + k],
                         RENDER_BACKGROUND[k]);
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
    /* The last completed frame: nothing drawn, no entry, and drawn tiled. */
    if (profile.frame == 0 || profile.drawn_count != 0 || profile.tiled_entries != 0 ||
        profile.tiled_entry_budget == 0)
        fail_msg("profile of frame %llu: %u drawn, %u entries, budget %u", (unsigned long long)profile.frame,
                 profile.drawn_count, profile.tiled_entries, profile.tiled_entry_budget);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    free(image);
}

/* The draw's sub-stages in each frame's profile: every tiled one (and at
 * 1/2 the downsample and upsample) where the tiled path drew, with a
 * composite that took time; none of the tiled ones where the raster path
 * drew, and only the downsample and upsample at 1/2. */
static void test_tiled_profile_times_each_sub_stage(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -6.0f};
    plume_system system = render_cloud(centre, 2.0f, 1.0f, 300, 7, true);
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    float *image = render_new_image();
    const plume_frame_desc frames[3] = {
        render_tiled_frame(PLUME_DRAW_HALF, true, 0.0f), {.draw_resolution = PLUME_DRAW_HALF}, RASTER};
    for (int phase = 0; phase < 3; ++phase)
        for (int i = 0; i < 2 + (phase == 2); ++i) { /* the last frames let the others complete */
            render_frame(system, &c, frames[phase], true, 0, 1.0f, image);
            glFinish();
        }
    const uint32_t lowres = (1u << PLUME_DRAW_STAGE_DOWNSAMPLE) | (1u << PLUME_DRAW_STAGE_UPSAMPLE);
    const uint32_t every = (1u << PLUME_DRAW_STAGE_COUNT) - 1u;
    int seen[3] = {0};
    plume_frame_profile profiles[16];
    uint32_t got = plume_system_get_frame_profiles(fixture_context(), system, 0, profiles, 16);
    for (uint32_t i = 0; i < got; ++i) {
        const plume_frame_profile *f = &profiles[i];
        int phase = f->draw_stage_mask == every ? 0 : f->draw_stage_mask == lowres ? 1 : f->draw_stage_mask == 0 ? 2 : -1;
        if (phase < 0) fail_msg("frame %llu: draw sub-stages 0x%x", (unsigned long long)f->frame, f->draw_stage_mask);
        ++seen[phase];
        for (int k = 0; k < PLUME_DRAW_STAGE_COUNT; ++k)
            if (!(f->draw_stage_mask & (1u << k)) && f->draw_stage_ms[k] != 0.0)
                fail_msg("frame %llu: sub-stage %d not run but %g ms", (unsigned long long)f->frame, k,
                         f->draw_stage_ms[k]);
        if (phase == 0) assert_true(f->draw_stage_ms[PLUME_DRAW_STAGE_COMPOSITE] > 0.0);
    }
    printf("  frames: %d tiled at 1/2, %d raster at 1/2, %d raster\n", seen[0], seen[1], seen[2]);
    assert_true(seen[0] >= 2 && seen[1] >= 2 && seen[2] >= 1);
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
    for (int k = 0; k < PLUME_DRAW_STAGE_COUNT; ++k)
        if (profile.draw_stages[k].samples < (uint32_t)seen[0] || profile.draw_stages[k].max_ms <= 0.0)
            fail_msg("sub-stage %d: %u samples, at most %g ms", k, profile.draw_stages[k].samples,
                     profile.draw_stages[k].max_ms);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    free(image);
}

static void test_tiled_without_depth_draws_raster(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -6.0f};
    float *raster = render_new_image(), *tile = render_new_image();
    plume_system a = render_cloud(centre, 2.0f, 1.0f, 300, 6, true), b = render_cloud(centre, 2.0f, 1.0f, 300, 6, true);
    render_frame(a, &c, RASTER, false, 0, 1.0f, raster);
    render_frame(b, &c, render_tiled_frame(PLUME_DRAW_FULL, true, 0.0f), false, 0, 1.0f, tile);
    assert_int_equal(test_log_count("the tiled draw path needs the frame's depth_texture"), 1);
    assert_memory_equal(raster, tile, sizeof(float) * 4 * WIDTH * HEIGHT);
    render_frame(b, &c, render_tiled_frame(PLUME_DRAW_FULL, true, 0.0f), false, 0, 1.0f, tile); /* said once */
    assert_int_equal(test_log_count("the tiled draw path needs the frame's depth_texture"), 1);
    test_log_expect_errors();
    plume_frame_desc bad = {.draw_path = PLUME_DRAW_PATH_RASTER + 1};
    assert_int_equal(plume_system_draw(fixture_context(), b, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("draw_path 4"));
    const float bad_thresholds[3] = {-0.5f, 1.5f, NAN};
    for (int i = 0; i < 3; ++i) {
        bad = (plume_frame_desc){.transmittance_threshold = bad_thresholds[i]};
        assert_int_equal(plume_system_draw(fixture_context(), b, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    }
    assert_true(test_log_contains("transmittance_threshold"));
    assert_int_equal(plume_system_destroy(fixture_context(), a), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), b), PLUME_OK);
    free(raster);
    free(tile);
}

/* An allocator that fails once told to: the tiled path's objects, made on
 * the first tiled draw, cannot be. */
static void *allocate_unless_failing(size_t size, void *user) { return *(bool *)user ? NULL : malloc(size); }
static void *reallocate_unless_failing(void *block, size_t size, void *user) {
    return *(bool *)user ? NULL : realloc(block, size);
}
static void deallocate(void *block, void *user) {
    (void)user;
    free(block);
}

static plume_system system_with_allocator(bool *failing) {
    plume_system_desc desc = {.capacity = 200, .seed = 3,
                              .allocator = {allocate_unless_failing, reallocate_unless_failing, deallocate, failing}};
    desc.emitters[0] = (plume_emitter_desc){.position = {0.0f, 0.0f, -6.0f}, .shape = PLUME_SHAPE_BOX,
                                            .extents = {2.0f, 2.0f, 1.0f}, .burst_count = 200,
                                            .lifetime = {100, 100}, .size = {0.5f, 1.0f}};
    plume_system system = {0};
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    return system;
}

/* Where the tiled path cannot be made (here: no memory), the
 * draw is the raster path's, said once. */
static void test_tiled_path_that_cannot_be_made_draws_raster(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    bool failing = false;
    plume_system a = system_with_allocator(&failing), b = system_with_allocator(&failing);
    float *raster = render_new_image(), *tile = render_new_image();
    render_frame(a, &c, RASTER, true, 0, 1.0f, raster);
    /* The raster path's objects are made by a system's first draw (they are
     * its fallback here): that draw is given the memory. */
    render_frame(b, &c, RASTER, true, 0, 1.0f, tile);
    test_log_expect_errors(); /* the allocation's failure is logged */
    failing = true;
    for (int i = 0; i < 2; ++i)
        render_frame(b, &c, render_tiled_frame(PLUME_DRAW_FULL, true, 0.0f), true, 0, 1.0f, tile);
    failing = false;
    assert_int_equal(test_log_count("the tiled draw path cannot be made"), 1);
    assert_true(render_covered_pixels(raster) > 100);
    assert_true(render_largest_difference(raster, tile) == 0.0f);
    assert_int_equal(plume_system_destroy(fixture_context(), a), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), b), PLUME_OK);
    free(raster);
    free(tile);
}

/* plume_system_set_tiled_options (since 1.3): an 8-pixel tile whose runs
 * are walked whole draws the raster path's picture (no early termination);
 * values out of range, and any change after the first tiled draw, are
 * refused with a message. */
static void test_tiled_options_through_the_api(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.1f, -6.0f};
    uint32_t seed = test_random_below(1u << 20);
    float *raster = render_new_image(), *tile = render_new_image();
    plume_system reference = render_cloud(centre, 2.0f, 1.5f, 400, seed, true);
    render_frame(reference, &c, RASTER, true, 0, 1.0f, raster);
    assert_int_equal(plume_system_destroy(fixture_context(), reference), PLUME_OK);
    plume_system system = render_cloud(centre, 2.0f, 1.5f, 400, seed, true);
    test_log_expect_errors();
    assert_int_equal(plume_system_set_tiled_options(fixture_context(), system, 12, 0), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_system_set_tiled_options: tile size 12"));
    assert_int_equal(plume_system_set_tiled_options(fixture_context(), system, 0, (1u << 24) + 1),
                     PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("chunk entries"));
    assert_int_equal(plume_system_set_tiled_options(fixture_context(), system, 8, PLUME_TILED_UNCHUNKED), PLUME_OK);
    render_frame(system, &c, render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f), true, 0, 1.0f, tile);
    assert_true(render_covered_pixels(raster) > 100);
    assert_true(render_within_tiled_bound(raster, tile, TOLERANCE, NULL, NULL));
    assert_int_equal(plume_system_set_tiled_options(fixture_context(), system, 16, 0), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    free(raster);
    free(tile);
}

/* A host built against 1.1: its frame and profiles end before the 1.2 fields
 * (allocated to exactly that size, so a sanitizer sees any read or write past
 * them); it draws with the raster path at the resolution it asks for. */
static void test_a_1_1_host_gets_1_1_structs(void **state) {
    (void)state;
    const plume_api *api = NULL;
    assert_int_equal(plume_get_api(PLUME_ABI_MAJOR, 1, NULL, &api), PLUME_OK);
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -6.0f};
    plume_system system = render_cloud(centre, 2.0f, 1.0f, 50, 2, false);
    plume_frame_desc full = {.dt = 0.001f};
    memcpy(full.view, c.view, sizeof full.view);
    memcpy(full.projection, c.projection, sizeof full.projection);
    size_t frame_prefix = offsetof(plume_frame_desc, draw_path);
    plume_frame_desc *frame = malloc(frame_prefix);
    assert_non_null(frame);
    memcpy(frame, &full, frame_prefix);
    assert_int_equal(api->system_set_profiling(fixture_context(), system, true), PLUME_OK);
    const float clear[4] = {0, 0, 0, 0};
    for (int k = 0; k < 3; ++k) {
        assert_int_equal(api->system_update(fixture_context(), system, frame), PLUME_OK);
        test_target target = test_target_begin(16, clear);
        assert_int_equal(api->system_draw(fixture_context(), system, frame), PLUME_OK);
        test_target_end(&target, NULL);
        glFinish();
    }
    size_t profile_prefix = offsetof(plume_profile, tiled_entries);
    unsigned char *profile = malloc(profile_prefix);
    assert_non_null(profile);
    assert_int_equal(api->system_get_profile(fixture_context(), system, (plume_profile *)profile), PLUME_OK);
    uint32_t live;
    memcpy(&live, profile + offsetof(plume_profile, live_count), sizeof live);
    assert_int_equal(live, 50);
    size_t prefix = offsetof(plume_frame_profile, tiled_entries);
    size_t stride = (prefix + _Alignof(plume_frame_profile) - 1) / _Alignof(plume_frame_profile) *
                    _Alignof(plume_frame_profile);
    unsigned char *frames = malloc(2 * stride);
    assert_non_null(frames);
    uint32_t got = api->system_get_frame_profiles(fixture_context(), system, 0, (plume_frame_profile *)frames, 2);
    assert_true(got >= 1);
    for (uint32_t i = 0; i < got; ++i) {
        plume_frame_profile one;
        memcpy(&one, frames + i * stride, prefix);
        assert_int_equal(one.live_count, 50);
    }
    free(frames);
    free(profile);
    free(frame);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

const struct CMUnitTest tiled_tests[] = {
    cmocka_unit_test_setup_teardown(test_tiled_matches_raster_without_termination, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_termination_stays_under_its_bound, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_at_low_resolution, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_looking_away_draws_nothing, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_profile_times_each_sub_stage, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_without_depth_draws_raster, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_path_that_cannot_be_made_draws_raster, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_1_1_host_gets_1_1_structs, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_options_through_the_api, fixture_setup, fixture_teardown),
};
const size_t tiled_test_count = sizeof tiled_tests / sizeof tiled_tests[0];
