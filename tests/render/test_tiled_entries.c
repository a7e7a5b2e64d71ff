/* The tiled path's entries (a tile and a particle each) and their limits,
 * against the raster path on the same particles: a viewport past 2^16
 * tiles (32-bit entry keys); thousands of particles on one tile; a frame
 * whose entries overflow the budget drawn by the raster path instead (and
 * counted), the budget then growing; the entries sorted by bitonic and by
 * radix; tiles' runs cut into many small chunks, composited and resolved
 * to the same picture. */
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
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

#ifndef PLUME_TESTS_THROUGH_TABLE /* tiled_configure is the module's */
#include "render/tiled.h"
#endif

enum { WIDTH = RENDER_WIDTH, HEIGHT = RENDER_HEIGHT };
static const float TOLERANCE = 2.0f / 255.0f;
static const plume_frame_desc RASTER = {.draw_path = PLUME_DRAW_PATH_RASTER};

/* A viewport of more than 2^16 tiles (2100 x 2100 pixels at tiles of 8,
 * 263 x 263 tiles, as a 4K target has) sorts its entries by 32-bit keys:
 * the framebuffer shows the viewport's top rows, whose tiles' indices are
 * past 2^16, where the cloud is, and the tiled picture there matches
 * raster's. */
static void test_tiled_past_two_to_the_sixteen_tiles(void **state) {
    (void)state;
    enum { SIDE = 2100 };
    const int viewport[4] = {WIDTH / 2 - SIDE / 2, HEIGHT - SIDE, SIDE, SIDE};
    assert_true((SIDE - HEIGHT) / 8 * (SIDE / 8 + 1) > 1 << 16);
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    render_camera c = render_make_camera();
    /* The framebuffer's 128 x 96 pixels of the 2100 cover about 0.56 x 0.32
     * m at 6 m, 3.3 m up (y at 0.954 of the view's half height): puffs a
     * few framebuffer pixels across. */
    const float centre[3] = {0.01f, 0.954f * 6.0f * 0.57735f, -6.0f};
    plume_system systems[2] = {render_cloud(centre, 0.25f, 0.03f, 151, seed, true),
                               render_cloud(centre, 0.25f, 0.03f, 151, seed, true)};
    assert_int_equal(plume_system_set_tiled_options(fixture_context(), systems[1], 8, 0), PLUME_OK);
    plume_frame_desc update = {.dt = 0.001f};
    memcpy(update.view, c.view, sizeof update.view);
    memcpy(update.projection, c.projection, sizeof update.projection);
    for (int i = 0; i < 2; ++i) assert_int_equal(plume_system_update(fixture_context(), systems[i], &update), PLUME_OK);
    float *raster = render_new_image(), *tile = render_new_image();
    plume_frame_desc tiled_frame = render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f);
    render_draw_many(&systems[0], 1, &c, &RASTER, viewport, raster);
    render_draw_many(&systems[1], 1, &c, &tiled_frame, viewport, tile);
    /* A few pixels of a puff's edge 2000 pixels from the viewport's origin
     * round apart by up to a few /255 (the raster's snapped corners against
     * the tiled map's floats); wrong keys put whole puffs out of order (54/255
     * where the keys were cut to 16 bits). */
    int covered = render_covered_pixels(raster), over = render_pixels_differing(raster, tile, TOLERANCE);
    float largest = render_largest_difference(raster, tile);
    printf("  %d x %d viewport: %d pixels covered, tiled %.2f/255 from raster, %d pixels over 2/255\n", SIDE, SIDE,
           covered, largest * 255.0f, over);
    assert_true(covered > WIDTH * HEIGHT / 16);
    assert_true(over <= RENDER_TILED_OUTLIERS);
    assert_true(largest <= 12.0f / 255.0f);
    for (int i = 0; i < 2; ++i) assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
    free(raster);
    free(tile);
}

/* Thousands of small particles inside one tile (of 8 or 16 pixels): its run
 * holds them all, in order. */
static void test_tiled_thousands_on_one_tile(void **state) {
    (void)state;
    float *raster = render_new_image(), *tile = render_new_image();
    /* At 6 units a pixel spans 0.072 units: the particles (0.1 to 0.2
     * across, within 0.1 of the centre) cover pixels 66..71 x 50..55, all in
     * the tile of pixels 64..71 x 48..55 (64..79 x 48..63 at 16). */
    const float centre[3] = {0.35f, 0.35f, -6.0f};
    render_draw_both(centre, 0.1f, 0.2f, 3000, 33, RASTER, render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f), 0, 1.0f,
                     raster, tile);
    int covered = render_covered_pixels(raster);
    float largest = render_largest_difference(raster, tile);
    printf("  3000 particles on one tile: %d pixels covered, largest difference %.2f/255\n", covered,
           largest * 255.0f);
    assert_true(covered > 20);
    assert_true(largest <= TOLERANCE);
    free(raster);
    free(tile);
}

#ifndef PLUME_TESTS_THROUGH_TABLE
/* A budget of 64 entries for hundreds of particles: each frame overflows and
 * draws with the raster path, counted in the profile; let grow, the budget
 * follows the frames' counts and the path draws tiled again. The pictures
 * are the raster path's throughout. */
static void test_tiled_entry_overflow(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -6.0f};
    float *raster = render_new_image(), *tile = render_new_image();
    for (int grow = 0; grow < 2; ++grow) {
        plume_system a = render_cloud(centre, 2.0f, 1.0f, 600, 8, true);
        plume_system b = render_cloud(centre, 2.0f, 1.0f, 600, 8, true);
        assert_int_equal(tiled_configure(fixture_context(), b, 0, 64, grow == 0, PLUME_SORT_AUTOMATIC, 0), PLUME_OK);
        assert_int_equal(plume_system_set_profiling(fixture_context(), b, true), PLUME_OK);
        /* Three frames: the first overflows; the budget grows from its count
         * (read behind a fence, passed at glFinish) before the second. */
        for (int frame = 0; frame < 3; ++frame) {
            render_frame(a, &c, RASTER, true, 0, 1.0f, raster);
            render_frame(b, &c, render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f), true, 0, 1.0f, tile);
            glFinish();
            float largest = render_largest_difference(raster, tile);
            if (largest > TOLERANCE) fail_msg("frame %d: %.2f/255 from raster", frame, largest * 255.0f);
        }
        plume_profile profile;
        assert_int_equal(plume_system_get_profile(fixture_context(), b, &profile), PLUME_OK);
        printf("  %s budget: last frame %u entries of %u, %u overflow frames\n", grow ? "growing" : "fixed",
               profile.tiled_entries, profile.tiled_entry_budget, profile.tiled_overflow_frames);
        assert_true(profile.tiled_entries > 64);
        assert_true(profile.tiled_overflow_frames >= 1);
        if (grow) {
            assert_true(profile.tiled_entry_budget >= profile.tiled_entries);
            assert_true(test_log_contains("the tiled path's entries grow from 64"));
        } else {
            assert_int_equal(profile.tiled_entry_budget, 64);
        }
        assert_int_equal(plume_system_destroy(fixture_context(), a), PLUME_OK);
        assert_int_equal(plume_system_destroy(fixture_context(), b), PLUME_OK);
    }
    free(raster);
    free(tile);
}

/* The entries sorted by each backend (the automatic choice takes the bitonic
 * sort at the tests' counts): both keep each tile's run in rank order, so
 * both pictures are the raster path's, within the tiled bound at all but a
 * few pixels and twice it there (on NVIDIA one seed of a few dozen puts a
 * pixel at 2.15/255, the raster back end's rounding); an order fault moves
 * hundreds of pixels by far more. */
static void test_tiled_entry_sort_backends(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {-0.2f, 0.1f, -6.0f};
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    float *raster = render_new_image(), *tile = render_new_image();
    const plume_sort_algorithm backends[2] = {PLUME_SORT_BITONIC, PLUME_SORT_RADIX};
    plume_system a = render_cloud(centre, 2.0f, 1.2f, 501, seed, true);
    render_frame(a, &c, RASTER, true, WIDTH / 4, render_window_depth(&c, 5.8f), raster);
    assert_int_equal(plume_system_destroy(fixture_context(), a), PLUME_OK);
    assert_true(render_covered_pixels(raster) > WIDTH * HEIGHT / 8);
    for (int i = 0; i < 2; ++i) {
        plume_system b = render_cloud(centre, 2.0f, 1.2f, 501, seed, true);
        assert_int_equal(tiled_configure(fixture_context(), b, 0, 0, false, backends[i], 0), PLUME_OK);
        render_frame(b, &c, render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f), true, WIDTH / 4,
                     render_window_depth(&c, 5.8f), tile);
        float largest;
        int over;
        bool within = render_within_tiled_bound(raster, tile, TOLERANCE, &largest, &over);
        printf("  %s entry sort: largest difference %.2f/255 from raster, %d pixels over %.0f/255 (at most %d)\n",
               i ? "radix" : "bitonic", largest * 255.0f, over, TOLERANCE * 255.0f, RENDER_TILED_OUTLIERS);
        assert_true(within);
        assert_int_equal(plume_system_destroy(fixture_context(), b), PLUME_OK);
    }
    free(raster);
    free(tile);
}

/* A cloud drawn through tiled_configure's tile size and chunk entries. */
static plume_system configured_cloud(const float centre[3], uint32_t count, uint32_t seed, uint32_t tile_size,
                                     uint32_t chunk_entries) {
    plume_system system = render_cloud(centre, 2.0f, 1.5f, count, seed, true);
    assert_int_equal(tiled_configure(fixture_context(), system, tile_size, 0, false, PLUME_SORT_AUTOMATIC,
                                     chunk_entries),
                     PLUME_OK);
    return system;
}

/* Chunks of 16 entries, so that each tile's run spans tens of chunks (and a
 * tile of a few entries one): without early termination the raster path's
 * picture; with it (the same particles drawn again), within the threshold
 * of the picture without it, at the three tile sizes (the chunk plan sees
 * a different tile count at each; each composites in its regions' lists,
 * their partials in the tile's pixel order). */
static void test_tiled_small_chunks(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.1f, -0.1f, -6.0f};
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    float *raster = render_new_image(), *whole = render_new_image(), *chunked = render_new_image();
    const int occluder_width = WIDTH / 4;
    const float occluder_depth = render_window_depth(&c, 5.6f);
    plume_system reference = render_cloud(centre, 2.0f, 1.5f, 700, seed, true);
    render_frame(reference, &c, RASTER, true, occluder_width, occluder_depth, raster);
    assert_int_equal(plume_system_destroy(fixture_context(), reference), PLUME_OK);
    assert_true(render_covered_pixels(raster) > WIDTH * HEIGHT / 8);
    const uint32_t tile_sizes[3] = {16, 8, 32};
    for (int t = 0; t < 3; ++t) {
        plume_system small = configured_cloud(centre, 700, seed, tile_sizes[t], 16);
        plume_system unchunked_system = configured_cloud(centre, 700, seed, tile_sizes[t], TILED_UNCHUNKED);
        render_frame(small, &c, render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f), true, occluder_width, occluder_depth,
                     chunked);
        float from_raster;
        int over;
        bool within = render_within_tiled_bound(raster, chunked, TOLERANCE, &from_raster, &over);
        const float threshold = 0.1f;
        render_frame(unchunked_system, &c, render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f), true, occluder_width,
                     occluder_depth, whole);
        float unchunked = render_largest_difference(whole, chunked);
        render_draw(small, &c, render_tiled_frame(PLUME_DRAW_FULL, true, threshold), true, occluder_width,
                    occluder_depth, chunked);
        float ended = render_largest_difference(whole, chunked);
        printf("  tile %u, chunks of 16: %.2f/255 from raster (%d pixels over 2/255), %.2f/255 from unchunked; "
               "threshold %.1f: %.2f/255 from no termination\n",
               tile_sizes[t], from_raster * 255.0f, over, unchunked * 255.0f, threshold, ended * 255.0f);
        assert_true(within);
        assert_true(unchunked <= TOLERANCE);
        assert_true(ended <= threshold);
        assert_true(ended > 1.0f / 255.0f); /* it did end pixels early */
        assert_int_equal(plume_system_destroy(fixture_context(), small), PLUME_OK);
        assert_int_equal(plume_system_destroy(fixture_context(), unchunked_system), PLUME_OK);
    }
    test_log_expect_errors();
    plume_system bad = render_cloud(centre, 2.0f, 1.5f, 10, seed, true);
    assert_int_equal(tiled_configure(fixture_context(), bad, 0, 0, false, PLUME_SORT_AUTOMATIC, (1u << 24) + 1),
                     PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("chunk entries"));
    assert_int_equal(plume_system_destroy(fixture_context(), bad), PLUME_OK);
    free(raster);
    free(whole);
    free(chunked);
}
#endif

const struct CMUnitTest tiled_entries_tests[] = {
    cmocka_unit_test_setup_teardown(test_tiled_past_two_to_the_sixteen_tiles, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_thousands_on_one_tile, fixture_setup, fixture_teardown),
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_tiled_entry_overflow, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_entry_sort_backends, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_small_chunks, fixture_setup, fixture_teardown),
#endif
};
const size_t tiled_entries_test_count = sizeof tiled_entries_tests / sizeof tiled_entries_tests[0];
