/* The tiled compositor's lab knobs (plume_lab_tiled_knobs; the frame
 * benchmark times each alone, bench/compositor_knobs.sh): with each knob on,
 * alone and together, at both tile sizes the knobs meet, the tiled picture
 * stays within the tiled tests' bounds of the raster path's (2/255 without
 * early termination; the threshold's bound with it); a footprint smaller
 * than the sprite's cuts its particles (it bounds their tiles); the opacity cull
 * leaves out exactly the particles under its alpha; a knob out of range or
 * after the first draw is refused with a message naming it; the blend over
 * the particles' tiles is the blend over every tile; a splat listed only in
 * the tiles it may show in draws what it drew listed in its whole box. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "plume_lab.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

static const float TOLERANCE = 2.0f / 255.0f;
/* The fixture's sprite (render_cloud): a disc of 0.45 of a 16-texel frame,
 * transparent past it; what the bilinear filter spreads past its last texel
 * is under 1/255 of alpha by 0.49. */
#define SPRITE_FOOTPRINT 0.49f

/* A cloud with the knobs set, at `tile_size` pixels a tile. */
static plume_system knob_cloud(const float centre[3], uint32_t count, uint32_t seed, uint32_t tile_size,
                               const plume_lab_tiled_knobs *knobs) {
    plume_system system = render_cloud(centre, 2.0f, 1.5f, count, seed, true);
    assert_int_equal(plume_lab_tiled_configure(fixture_context(), system, tile_size, 0, false, PLUME_SORT_AUTOMATIC, 0),
                     PLUME_OK);
    assert_int_equal(plume_lab_tiled_set_knobs(fixture_context(), system, knobs), PLUME_OK);
    return system;
}

static void test_each_knob_keeps_the_tiled_picture(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.2f, 0.1f, -6.0f};
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    const uint32_t count = 901;
    float *raster = render_new_image(), *image = render_new_image(), *whole = render_new_image();
    const int occluder_width = RENDER_WIDTH / 4;
    const float occluder_depth = render_window_depth(&c, 5.6f);
    plume_system reference = render_cloud(centre, 2.0f, 1.5f, count, seed, true);
    render_frame(reference, &c, (plume_frame_desc){.draw_path = PLUME_DRAW_PATH_RASTER}, true, occluder_width,
                 occluder_depth, raster);
    assert_int_equal(plume_system_destroy(fixture_context(), reference), PLUME_OK);
    assert_true(render_covered_pixels(raster) > RENDER_WIDTH * RENDER_HEIGHT / 8);
    const plume_lab_tiled_knobs knobs[] = {
        {.min_alpha = 1.0f / 255.0f}, {.batch = 32}, {.batch = 96}, {.footprint = SPRITE_FOOTPRINT},
        {.min_alpha = 1.0f / 255.0f, .batch = 64, .footprint = SPRITE_FOOTPRINT}, {.whole_splat_batch = true},
        {.whole_splat_batch = true, .batch = 32}};
    const uint32_t tile_sizes[2] = {16, 8};
    for (size_t k = 0; k < sizeof knobs / sizeof knobs[0]; ++k)
        for (int t = 0; t < 2; ++t) {
            plume_system system = knob_cloud(centre, count, seed, tile_sizes[t], &knobs[k]);
            render_frame(system, &c, render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f), true, occluder_width,
                         occluder_depth, whole);
            float from_raster;
            int over;
            bool within = render_within_tiled_bound(raster, whole, TOLERANCE, &from_raster, &over);
            const float threshold = 0.1f;
            render_draw(system, &c, render_tiled_frame(PLUME_DRAW_FULL, true, threshold), true, occluder_width,
                        occluder_depth, image);
            float ended = render_largest_difference(whole, image);
            printf("  min alpha %.4f, batch %u%s, footprint %.2f, tile %u: %.2f/255 from raster (%d pixels over "
                   "2/255); threshold %.1f: %.2f/255 from no termination\n",
                   (double)knobs[k].min_alpha, knobs[k].batch, knobs[k].whole_splat_batch ? " (whole splats)" : "",
                   (double)knobs[k].footprint, tile_sizes[t], from_raster * 255.0f, over, threshold, ended * 255.0f);
            assert_true(within);
            assert_true(ended <= threshold);
            assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
        }
    free(raster);
    free(image);
    free(whole);
}

/* A footprint smaller than the sprite's cuts its particles' edges off, where
 * the tiles past it have no entry: the knob bounds the tiles by it. */
static void test_footprint_bounds_the_tiles(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -6.0f};
    float *raster = render_new_image(), *image = render_new_image();
    plume_system reference = render_cloud(centre, 2.0f, 1.5f, 40, 9, true);
    render_frame(reference, &c, (plume_frame_desc){.draw_path = PLUME_DRAW_PATH_RASTER}, true, 0, 1.0f, raster);
    const plume_lab_tiled_knobs knobs[2] = {{.footprint = 0.5f}, {.footprint = 0.2f}};
    for (int k = 0; k < 2; ++k) {
        plume_system system = knob_cloud(centre, 40, 9, 8, &knobs[k]);
        render_frame(system, &c, render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f), true, 0, 1.0f, image);
        float largest = render_largest_difference(raster, image);
        printf("  footprint %.1f: %.2f/255 from raster\n", (double)knobs[k].footprint, largest * 255.0f);
        if (k == 0) assert_true(largest <= TOLERANCE);
        else assert_true(largest > 10.0f / 255.0f);
        assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    }
    assert_int_equal(plume_system_destroy(fixture_context(), reference), PLUME_OK);
    free(raster);
    free(image);
}

static float faint_alpha;
static void faint(plume_system_desc *desc) { desc->appearance.color_over_life.keys[0].rgba[3] = faint_alpha; }

/* Particles of alpha 0.003 (under 1/255): the cull leaves all of them out,
 * and none at an alpha just above it. */
static void test_opacity_cull_leaves_out_the_faint(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -6.0f};
    float *image = render_new_image();
    const plume_lab_tiled_knobs cull = {.min_alpha = 1.0f / 255.0f};
    const float alphas[2] = {0.003f, 0.02f};
    for (int a = 0; a < 2; ++a) {
        faint_alpha = alphas[a];
        for (int culled = 0; culled < 2; ++culled) {
            plume_system system = render_cloud_with(centre, 2.0f, 1.5f, 500, 77, false, faint);
            assert_int_equal(plume_lab_tiled_set_knobs(fixture_context(), system, culled ? &cull : NULL), PLUME_OK);
            render_frame(system, &c, render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f), true, 0, 1.0f, image);
            int covered = render_covered_pixels(image);
            printf("  alpha %.3f, cull %s: %d pixels covered\n", (double)alphas[a], culled ? "on" : "off", covered);
            if (culled && a == 0) assert_int_equal(covered, 0);
            else assert_true(covered > RENDER_WIDTH * RENDER_HEIGHT / 16);
            assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
        }
    }
    free(image);
}

/* The blend and the upsample cover only the tiles with particles (and, at
 * low resolution, their neighbours, whose texels the upsample reads): a
 * few small puffs, most tiles empty, drawn so and over every tile (the
 * knob: a full-screen pass's pixels) are the same picture to the bit, at
 * full, 1/2 and 1/4 resolution, tiles of 8 and 16, and where the entries
 * overflow the budget (the fallback's picture, any tile). */
static void test_blend_covers_the_tiles_with_particles(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.3f, -0.2f, -6.0f};
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    float *every = render_new_image(), *covered = render_new_image();
    const plume_lab_tiled_knobs cover_every = {.cover_every_tile = true};
    const uint32_t resolutions[3] = {PLUME_DRAW_FULL, PLUME_DRAW_HALF, PLUME_DRAW_QUARTER};
    const uint32_t tile_sizes[2] = {8, 16};
    for (int overflow = 0; overflow < 2; ++overflow)
        for (int t = 0; t < 2; ++t)
            for (int r = 0; r < 3; ++r) {
                float *images[2] = {every, covered};
                for (int k = 0; k < 2; ++k) {
                    plume_system system = render_cloud(centre, 2.5f, 0.9f, 14, seed, true);
                    assert_int_equal(plume_lab_tiled_configure(fixture_context(), system, tile_sizes[t],
                                                               overflow ? 16 : 0, overflow, PLUME_SORT_AUTOMATIC, 0),
                                     PLUME_OK);
                    assert_int_equal(plume_lab_tiled_set_knobs(fixture_context(), system, k == 0 ? &cover_every : NULL),
                                     PLUME_OK);
                    plume_frame_desc frame = render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f);
                    frame.draw_resolution = resolutions[r];
                    render_frame(system, &c, frame, true, RENDER_WIDTH / 5, render_window_depth(&c, 5.8f), images[k]);
                    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
                }
                int pixels = render_covered_pixels(every);
                float largest = render_largest_difference(every, covered);
                printf("  tile %u, 1/%d%s: %d pixels covered, %.3g/255 between every tile and the particles' tiles\n",
                       tile_sizes[t], 1 << r, overflow ? ", over the budget" : "", pixels, (double)(largest * 255.0f));
                assert_true(pixels > 20 && pixels < RENDER_WIDTH * RENDER_HEIGHT / 3);
                assert_true(largest == 0.0f);
            }
    free(every);
    free(covered);
}

static void stretched(plume_system_desc *desc) {
    desc->orientation = PLUME_ORIENT_VELOCITY_STRETCHED;
    desc->stretch_factor = 1.5f;
    desc->stretch_limits = (plume_range){1.0f, 6.0f};
    desc->emitters[0].speed = (plume_range){1.0f, 3.0f};
    desc->emitters[0].spread = 3.14159f;
}

/* Quads in planes of constant x, two metres long in z, round the eye: many
 * cross the eye's plane (their box is the whole screen). */
static void across_the_eye(plume_system_desc *desc) {
    desc->orientation = PLUME_ORIENT_WORLD_FACING;
    desc->orientation_axis[0] = 1.0f;
}

/* Clouds whose splats' boxes hold tiles and pixels they do not cover. */
static const struct {
    const char *name;
    float centre[3], extent, size;
    void (*adjust)(plume_system_desc *desc);
} SCENES[3] = {{"rotated sprites", {0.2f, 0.1f, -6.0f}, 2.0f, 1.5f, NULL},
               {"stretched streaks", {0.0f, 0.0f, -5.0f}, 1.5f, 0.3f, stretched},
               {"quads across the eye's plane", {0.0f, 0.0f, -0.2f}, 1.6f, 2.0f, across_the_eye}};

/* Draws `system` tiled (tiles of `tile_size`, unchunked, without early
 * termination, at `resolution`, the knobs `knobs`: NULL none) into `image`,
 * destroys it and returns the entries its last frame listed. */
static uint32_t draw_listed(plume_system system, const render_camera *c, uint32_t tile_size, uint32_t resolution,
                            const plume_lab_tiled_knobs *knobs, float *image) {
    assert_int_equal(plume_lab_tiled_configure(fixture_context(), system, tile_size, 0, false, PLUME_SORT_AUTOMATIC,
                                               PLUME_LAB_TILED_UNCHUNKED),
                     PLUME_OK);
    assert_int_equal(plume_lab_tiled_set_knobs(fixture_context(), system, knobs), PLUME_OK);
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    plume_frame_desc frame = render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f);
    frame.draw_resolution = resolution;
    /* The profile of a frame is collected at a later one's start, once the
     * GPU has run it. */
    for (int f = 0; f < 4; ++f) {
        render_frame(system, c, frame, true, 0, 1.0f, image);
        glFinish();
    }
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
    assert_int_equal(profile.draw_path, PLUME_DRAW_PATH_TILED);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    return profile.tiled_entries;
}

/* A splat is listed only in the tiles of its pixels' box that it may show
 * in (tiled_common.glsl, splat_row_tiles), the composite walks it only
 * at the pixels of the 8 x 4 regions its box overlaps, and tests an
 * oriented splat's map only at the pixels of that box: rotated sprites
 * (their box's corners), velocity-stretched streaks (their box off the
 * diagonal) and quads across the eye's plane (their box the screen) draw
 * the same picture, to the bit, as listed in every tile of the box, walked
 * and tested at every pixel (the three knobs), at tiles of 16 and 8, full and
 * 1/2 resolution, unchunked (a chunk's cut would move with the entries)
 * and without early termination; with fewer entries. A tile or a pixel
 * left out that the splat shows in changes that pixel. */
static void test_splats_are_listed_in_the_tiles_they_may_show_in(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    const uint32_t tile_sizes[2] = {16, 8}, resolutions[2] = {PLUME_DRAW_FULL, PLUME_DRAW_HALF};
    float *box = render_new_image(), *tested = render_new_image();
    const plume_lab_tiled_knobs box_tiles = {.box_tiles = true, .whole_tile_lists = true};
    for (int k = 0; k < 3; ++k) {
        /* A case of few tiles (the streaks at tiles of 16 and 1/2: 4 x 3
         * tiles) may have no splat whose box holds a tile it misses: the
         * entries are never more, and fewer over the scene's cases. */
        uint32_t saved = 0;
        for (int t = 0; t < 2; ++t)
            for (int r = 0; r < 2; ++r) {
                uint32_t entries[2];
                float *images[2] = {box, tested};
                for (int way = 0; way < 2; ++way) {
                    plume_system system = render_cloud_with(SCENES[k].centre, SCENES[k].extent, SCENES[k].size, 300,
                                                            seed, true, SCENES[k].adjust);
                    entries[way] = draw_listed(system, &c, tile_sizes[t], resolutions[r],
                                               way == 0 ? &box_tiles : NULL, images[way]);
                }
                int pixels = render_covered_pixels(box);
                float largest = render_largest_difference(box, tested);
                printf("  %s, tile %u, 1/%d: %u entries listed by box, %u by the tiles shown in; %d pixels covered, "
                       "%.3g/255 apart\n",
                       SCENES[k].name, tile_sizes[t], 1 << r, entries[0], entries[1], pixels,
                       (double)(largest * 255.0f));
                assert_true(pixels > RENDER_WIDTH * RENDER_HEIGHT / 16);
                assert_true(largest == 0.0f);
                assert_true(entries[1] <= entries[0]);
                saved += entries[0] - entries[1];
            }
        assert_true(saved > 0);
    }
    free(box);
    free(tested);
}

/* A flipbook of 3 x 2 frames of 15 x 17 texels (an atlas that halves
 * unevenly), each frame transparent but for a few seeded opaque texels,
 * anywhere up to its cell's edges (one frame none at all), and a seeded
 * motion texture sliding each read up to 0.2 of a frame: what the cover of
 * the frames (particles/sprite_cover.h) must hold at every level the
 * composite may read. */
enum { MARKED_COLUMNS = 3, MARKED_ROWS = 2, MARKED_W = 45, MARKED_H = 34 };
static unsigned char marked_sprite[MARKED_W * MARKED_H * 4], marked_motion[MARKED_W * MARKED_H * 4];

static void make_marked_book(void) {
    memset(marked_sprite, 0, sizeof marked_sprite);
    for (uint32_t frame = 0; frame + 1 < MARKED_COLUMNS * MARKED_ROWS; ++frame) {
        uint32_t marks = 1 + test_random_below(3), cw = MARKED_W / MARKED_COLUMNS, ch = MARKED_H / MARKED_ROWS;
        for (uint32_t m = 0; m < marks; ++m) {
            uint32_t x = frame % MARKED_COLUMNS * cw + test_random_below(cw);
            uint32_t y = frame / MARKED_COLUMNS * ch + test_random_below(ch);
            unsigned char *p = &marked_sprite[4 * (y * MARKED_W + x)];
            p[0] = (unsigned char)(100 + test_random_below(156));
            p[1] = (unsigned char)test_random_below(256);
            p[2] = 255;
            p[3] = 255;
        }
    }
    for (size_t i = 0; i < sizeof marked_motion; ++i) marked_motion[i] = (unsigned char)test_random_below(256);
}

static void marked_book(plume_system_desc *desc) {
    desc->appearance.texture = (plume_texture_desc){.pixels = marked_sprite, .width = MARKED_W, .height = MARKED_H,
                                                    .columns = MARKED_COLUMNS, .rows = MARKED_ROWS};
    desc->flipbook_motion = (plume_flipbook_motion){
        .pixels = marked_motion, .width = MARKED_W, .height = MARKED_H, .strength = 0.2f};
    /* From a few pixels across (the coarsest levels) to half the target,
     * turned every way; frames cross-faded (lives of a few updates). */
    desc->emitters[0].size = (plume_range){0.02f, 3.5f};
    desc->emitters[0].lifetime = (plume_range){0.003f, 0.009f};
    desc->appearance.color_over_life.keys[0].rgba[3] = 0.6f;
}

/* A camera-facing splat is listed only in the tiles where its sprite's
 * frames have texels to show at the levels its size reads, grown by the
 * motion's slide (the sprite's cover): the marked flipbook above, its
 * particles from a few pixels to half the target across, draws the same
 * picture, to the bit, as listed in the tiles of its whole quad (the lab's
 * whole_quads), at tiles of 16 and 8, full and 1/2 resolution, unchunked
 * and without early termination (each splat left out adds exactly zero
 * where it is); with fewer entries. A tile the cover leaves out that a read
 * takes a texel in changes the pixels there. */
static void test_splats_are_listed_where_their_sprite_shows(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    make_marked_book();
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    const uint32_t tile_sizes[2] = {16, 8}, resolutions[2] = {PLUME_DRAW_FULL, PLUME_DRAW_HALF};
    const float centre[3] = {0.0f, 0.0f, -7.0f};
    float *whole = render_new_image(), *covered = render_new_image();
    const plume_lab_tiled_knobs whole_quads = {.whole_quads = true};
    /* At tiles of 16 and 1/2 the target is 4 x 3 tiles, where random marks
     * may reach every tile a quad touches: the entries are never more, and
     * fewer over the cases. */
    uint32_t saved = 0;
    for (int t = 0; t < 2; ++t)
        for (int r = 0; r < 2; ++r) {
            uint32_t entries[2];
            float *images[2] = {whole, covered};
            for (int way = 0; way < 2; ++way) {
                plume_system system = render_cloud_with(centre, 3.0f, 1.0f, 400, seed, false, marked_book);
                entries[way] = draw_listed(system, &c, tile_sizes[t], resolutions[r],
                                           way == 0 ? &whole_quads : NULL, images[way]);
            }
            int pixels = render_covered_pixels(whole);
            float largest = render_largest_difference(whole, covered);
            printf("  tile %u, 1/%d: %u entries by whole quads, %u by the sprite's cover; %d pixels covered, "
                   "%.3g/255 apart\n",
                   tile_sizes[t], 1 << r, entries[0], entries[1], pixels, (double)(largest * 255.0f));
            assert_true(pixels > RENDER_WIDTH * RENDER_HEIGHT / 50);
            assert_true(largest == 0.0f);
            assert_true(entries[1] <= entries[0]);
            saved += entries[0] - entries[1];
        }
    assert_true(saved > 0);
    free(whole);
    free(covered);
}

/* The composite shades the splats a pixel's tests found, in order (hit
 * lists: trails, oriented quads, lowered resolutions), or each splat as it
 * tests it (camera-facing puffs at full resolution): the same test decides
 * either way, so the scenes above draw the same picture both ways, at tiles
 * of 16 and 8 (the regions' lists), full and 1/2 resolution, but for a
 * pixel centre on a splat's edge, which a GPU may round either way in the
 * two loops (it may contract their arithmetic differently): under one in
 * 200 of the covered pixels. A splat either way left out or shaded twice
 * changes many more (the 32nd of each word: hundreds). With early
 * termination too, where a pixel stops at the same splat either way. */
static void test_hit_lists_shade_what_each_splat_tested_shades(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    const uint32_t tile_sizes[2] = {16, 8}, resolutions[2] = {PLUME_DRAW_FULL, PLUME_DRAW_HALF};
    const plume_lab_tiled_knobs ways[2] = {{.hit_lists = 1}, {.hit_lists = -1}};
    float *images[2] = {render_new_image(), render_new_image()};
    for (int k = 0; k < 6; ++k)
        for (int t = 0; t < 2; ++t)
            for (int r = 0; r < 2; ++r) {
                int scene = k % 3;
                bool terminate = k >= 3;
                for (int way = 0; way < 2; ++way) {
                    plume_system system = render_cloud_with(SCENES[scene].centre, SCENES[scene].extent,
                                                            SCENES[scene].size, 300, seed, true, SCENES[scene].adjust);
                    assert_int_equal(plume_system_set_tiled_options(fixture_context(), system, tile_sizes[t], 0),
                                     PLUME_OK);
                    assert_int_equal(plume_lab_tiled_set_knobs(fixture_context(), system, &ways[way]), PLUME_OK);
                    plume_frame_desc frame = render_tiled_frame(PLUME_DRAW_FULL, terminate, 0.0f);
                    frame.draw_resolution = resolutions[r];
                    render_frame(system, &c, frame, true, 0, 1.0f, images[way]);
                    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
                }
                int pixels = render_covered_pixels(images[0]);
                float largest = render_largest_difference(images[0], images[1]);
                int differing = render_pixels_differing(images[0], images[1], 1.0f / 255.0f);
                printf("  %s%s, tile %u, 1/%d: %d pixels covered, %d over 1/255 apart (%.3g/255 at most)\n",
                       SCENES[scene].name, terminate ? ", early termination" : "", tile_sizes[t], 1 << r, pixels,
                       differing, (double)(largest * 255.0f));
                assert_true(pixels > RENDER_WIDTH * RENDER_HEIGHT / 16);
                assert_true(differing * 200 < pixels);
            }
    free(images[0]);
    free(images[1]);
}

static void test_knobs_out_of_range_are_refused(void **state) {
    (void)state;
    const float centre[3] = {0.0f, 0.0f, -6.0f};
    render_camera c = render_make_camera();
    float *image = render_new_image();
    plume_system system = render_cloud(centre, 2.0f, 1.5f, 50, 5, false);
    test_log_expect_errors();
    const plume_lab_tiled_knobs bad[] = {{.min_alpha = 1.0f}, {.min_alpha = -0.1f}, {.batch = 48}, {.batch = 288},
                                         {.footprint = 0.6f}, {.footprint = -0.1f}, {.hit_lists = 2},
                                         {.hit_lists = -2}};
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b)
        assert_int_equal(plume_lab_tiled_set_knobs(fixture_context(), system, &bad[b]), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(test_log_count("plume_lab_tiled_set_knobs"), 8);
    render_frame(system, &c, render_tiled_frame(PLUME_DRAW_FULL, true, 0.0f), true, 0, 1.0f, image);
    const plume_lab_tiled_knobs late = {.batch = 32};
    assert_int_equal(plume_lab_tiled_set_knobs(fixture_context(), system, &late), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    free(image);
}

const struct CMUnitTest compositor_knobs_tests[] = {
    cmocka_unit_test_setup_teardown(test_each_knob_keeps_the_tiled_picture, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_footprint_bounds_the_tiles, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_opacity_cull_leaves_out_the_faint, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_blend_covers_the_tiles_with_particles, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_splats_are_listed_in_the_tiles_they_may_show_in, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_splats_are_listed_where_their_sprite_shows, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_hit_lists_shade_what_each_splat_tested_shades, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_knobs_out_of_range_are_refused, fixture_setup, fixture_teardown),
};
const size_t compositor_knobs_test_count = sizeof compositor_knobs_tests / sizeof compositor_knobs_tests[0];
