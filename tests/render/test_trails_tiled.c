/* Trails on the tiled path (since 1.3): a trail system's segments and
 * particles binned into tiles and composited front to back in the order the
 * raster path blends them. At full resolution every picture of
 * test_trails.c is also drawn tiled against the CPU's (trail_run.c); here,
 * at 1/2 and 1/4 as close to the CPU's picture as the trail's raster draw
 * at the same resolution, and the profile naming the tiled path where the
 * frame asks for it and where the automatic pick counts enough segments. */
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

#include "look_reference.h"
#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume/plume_profile.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"
#include "trail_run.h"

#ifndef PLUME_TESTS_THROUGH_TABLE /* tiled_configure is the module's, the lab's bytes the lab's */
#include "plume_lab.h"
#include "render/tiled.h"
#endif

/* Peak signal to noise of `image` against `reference` (RGB, 0..1). */
static double psnr(const float *reference, const float *image) {
    double sum = 0;
    for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i)
        for (int c = 0; c < 3; ++c) sum += pow(reference[4 * i + c] - image[4 * i + c], 2.0);
    double mean = sum / (3.0 * IMAGE_SIZE * IMAGE_SIZE);
    return mean > 0 ? 10.0 * log10(1.0 / mean) : INFINITY;
}

/* At 1/2 and 1/4 the tiled path composites into the low-resolution target
 * and the wrapper upsamples it: as close to the CPU's full-resolution
 * picture as the trail's raster draw at that resolution (the tiled tests'
 * bound, test_tiled.c), and its strip where the CPU's is. */
static void test_tiled_trails_at_low_resolutions(void **state) {
    (void)state;
    uint32_t seed = test_random_u32();
    printf("  seed %u\n", seed);
    trail_run r = trail_spark_through_a_cloud(seed);
    trail_compare("cloud_full", &r, true);
    const uint32_t resolutions[2] = {PLUME_DRAW_HALF, PLUME_DRAW_QUARTER};
    const double least[2] = {20.0, 15.0};
    float *raster = r.pictures.unsorted, *tiled = r.pictures.image;
    for (int k = 0; k < 2; ++k) {
        trail_draw_image(r.system, PLUME_DRAW_PATH_TILED, resolutions[k], tiled);
        trail_draw_image(r.system, PLUME_DRAW_PATH_RASTER, resolutions[k], raster);
        double tiled_quality = psnr(r.pictures.reference, tiled), raster_quality = psnr(r.pictures.reference, raster);
        printf("  1/%d: PSNR against the CPU's full resolution %.1f dB tiled, %.1f dB raster (at least %.0f)\n",
               2 << k, tiled_quality, raster_quality, least[k]);
        assert_true(tiled_quality >= least[k]);
        assert_true(tiled_quality >= raster_quality - 0.5);
    }
    trail_run_end(&r);
}

/* The path a late frame of several (each updated, drawn and finished)
 * drew with: the profile's. */
static uint32_t drawn_path(trail_run *r, uint32_t path) {
    assert_int_equal(plume_system_set_profiling(fixture_context(), r->system, true), PLUME_OK);
    for (int k = 0; k < 4; ++k) {
        trail_step(r);
        trail_draw_image(r->system, path, PLUME_DRAW_FULL, r->pictures.image);
        glFinish();
    }
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), r->system, &profile), PLUME_OK);
    return profile.draw_path;
}

/* The still box the particles below are emitted in, lifetimes from
 * `shortest` to 20 s. */
static plume_emitter_desc box_emitter(float shortest) {
    return (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {0.7f, 0.6f, 0.5f},
                                .lifetime = {shortest, 20}, .speed = {0.2f, 0.4f}, .size = {0.02f, 0.04f}};
}

/* `live` particles of `d` emitted in the box, stepped three times. */
static trail_run run_in_a_box(plume_system_desc d, uint32_t live) {
    trail_run r = trail_run_begin(d);
    plume_emit_desc many = {.emitter = 0, .count = live};
    assert_int_equal(plume_system_emit(fixture_context(), r.system, &many), PLUME_OK);
    for (int k = 0; k < 3; ++k) trail_step(&r);
    return r;
}

/* A trail system of `capacity` particles of 16 points, `live` of them alive
 * in a box, stepped three times. */
static trail_run many_in_a_box(uint32_t capacity, uint32_t live) {
    plume_system_desc d = trail_desc(16, 0.1f);
    d.capacity = capacity;
    d.emitters[0] = box_emitter(20);
    return run_in_a_box(d, live);
}

/* Asked for the tiled path, a trail system draws with it; left to the
 * automatic pick, a system whose segments are many (the particles times
 * their pairs, past the tiled threshold) draws tiled too, and a few
 * particles of short trails raster. */
static void test_a_trail_system_draws_tiled(void **state) {
    (void)state;
    trail_run r = trail_spark_through_a_cloud(7);
    uint32_t asked = drawn_path(&r, PLUME_DRAW_PATH_TILED);
    uint32_t automatic = drawn_path(&r, PLUME_DRAW_PATH_AUTOMATIC);
    printf("  asked for tiled: %s; automatic, 25 particles of 12 points: %s\n",
           asked == PLUME_DRAW_PATH_TILED ? "tiled" : "raster", automatic == PLUME_DRAW_PATH_TILED ? "tiled" : "raster");
    assert_int_equal(asked, PLUME_DRAW_PATH_TILED);
    assert_int_equal(automatic, PLUME_DRAW_PATH_RASTER);
    trail_run_end(&r);
    r = many_in_a_box(1100, 1100); /* x 16 pairs: past the automatic pick's 16384 */
    automatic = drawn_path(&r, PLUME_DRAW_PATH_AUTOMATIC);
    printf("  automatic, 1100 particles of 16 points: %s\n", automatic == PLUME_DRAW_PATH_TILED ? "tiled" : "raster");
    assert_int_equal(automatic, PLUME_DRAW_PATH_TILED);
    trail_run_end(&r);
    /* The same particles in a system whose every pair at the worst case's
     * 4 quads would be over 2^21 ranks (17000 x 16 pairs x 8 triangles):
     * the ranks follow the pairs drawn, so automatic draws tiled too, and
     * nothing refuses. */
    r = many_in_a_box(17000, 1100);
    test_log_expect_errors(); /* none is expected: a warning would count */
    automatic = drawn_path(&r, PLUME_DRAW_PATH_AUTOMATIC);
    int tried = test_log_count("the tiled draw path cannot be made");
    printf("  capacity 17000 of 16 points, 1100 live: automatic %s, the tiled path refused %d times\n",
           automatic == PLUME_DRAW_PATH_TILED ? "tiled" : "raster", tried);
    assert_int_equal(automatic, PLUME_DRAW_PATH_TILED);
    assert_int_equal(tried, 0);
    trail_run_end(&r);
}

/* A trail system whose pairs' triangles at the worst case's 4 quads would
 * not fit one storage block (capacity x 128 pairs x 8 triangles x 112 bytes
 * past this GL's GL_MAX_SHADER_STORAGE_BLOCK_SIZE) draws tiled all the
 * same where a frame asks for it: its ranks are those of the one particle
 * drawn. */
static void test_a_trail_of_a_large_worst_case_draws_tiled(void **state) {
    (void)state;
    GLint64 block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    plume_system_desc d = trail_desc(PLUME_MAX_TRAIL_POINTS, 0.12f);
    d.capacity = (uint32_t)(block / (PLUME_MAX_TRAIL_POINTS * 8 * 112) + 1);
    printf("  %u particles of %u points (storage blocks of %.0f MB)\n", d.capacity, PLUME_MAX_TRAIL_POINTS,
           (double)block / 1e6);
    d.emitters[0] = trail_mover((float[3]){0.8f, 0.25f, 0.0f}, 0.2f);
    trail_run r = trail_run_begin(d);
    trail_emit_at(r.system, 0, -0.8f, -0.3f, 0.0f);
    for (int k = 0; k < 20; ++k) trail_step(&r);
    test_log_expect_errors(); /* none is expected: a warning would count */
    trail_compare("too_large", &r, false);
    uint32_t path = drawn_path(&r, PLUME_DRAW_PATH_TILED);
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), r.system, &profile), PLUME_OK);
    printf("  drew with the %s path, %u entries, %u frames fell back\n",
           path == PLUME_DRAW_PATH_TILED ? "tiled" : "raster", profile.tiled_entries, profile.tiled_overflow_frames);
    assert_int_equal(path, PLUME_DRAW_PATH_TILED);
    assert_true(profile.tiled_entries > 0);
    assert_int_equal(profile.tiled_overflow_frames, 0);
    assert_int_equal(test_log_count("the tiled draw path cannot be made"), 0);
    trail_run_end(&r);
}

#ifndef PLUME_TESTS_THROUGH_TABLE
/* The system's profile once the frames drawn so far are collected. A
 * profiled frame ends at the next frame's start, where its fence is made,
 * and is collected at a later frame's start once the GPU has run it: a GPU
 * that runs behind (NVIDIA's) needs two more frames, each after a wait.
 * The frame between draws with `path` (0: no draw), so that the newest
 * frame collected, either of the two, drew the same way. */
static plume_profile collected_profile(trail_run *r, uint32_t path) {
    glFinish();
    trail_step(r);
    if (path) trail_draw_image(r->system, path, PLUME_DRAW_FULL, r->pictures.image);
    glFinish();
    trail_step(r);
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), r->system, &profile), PLUME_OK);
    return profile;
}

/* A frame whose entries overflow the tiled budget (fixed small here) draws
 * with the trail's raster draw, decided on the GPU: the same picture, every
 * segment there, and the profile counts the overflow. */
static void test_an_overflowing_tiled_trail_draws_every_segment(void **state) {
    (void)state;
    trail_run r = trail_spark_through_a_cloud(11);
    assert_int_equal(tiled_configure(fixture_context(), r.system, 0, 64, true, PLUME_SORT_AUTOMATIC, 0), PLUME_OK);
    assert_int_equal(plume_system_set_profiling(fixture_context(), r.system, true), PLUME_OK);
    trail_step(&r);
    trail_compare("overflow", &r, true);
    trail_step(&r);
    trail_compare("overflow_again", &r, true);
    plume_profile profile = collected_profile(&r, PLUME_DRAW_PATH_TILED);
    printf("  tiled frames over the budget of 64 entries: %u (entries %u)\n", profile.tiled_overflow_frames,
           profile.tiled_entries);
    assert_true(profile.tiled_overflow_frames > 0 && profile.tiled_entries > 64);
    trail_run_end(&r);
}

/* A frame whose pairs need more triangles than the ranks made (16 here)
 * draws with the trail's raster draw, decided on the GPU: the same
 * picture, counted as a fallback; the need read back a few frames later,
 * the ranks grow and the frames draw tiled again, the same picture. */
static void test_a_tiled_trail_past_its_ranks_draws_every_segment_and_grows(void **state) {
    (void)state;
    trail_run r = trail_spark_through_a_cloud(13);
    assert_int_equal(tiled_set_first_ranks(fixture_context(), r.system, 16), PLUME_OK);
    assert_int_equal(plume_system_set_profiling(fixture_context(), r.system, true), PLUME_OK);
    trail_step(&r);
    trail_compare("outgrown", &r, true);
    plume_profile profile = collected_profile(&r, 0);
    printf("  past 16 ranks: %u tiled frames fell back\n", profile.tiled_overflow_frames);
    assert_true(profile.tiled_overflow_frames > 0);
    uint32_t path = drawn_path(&r, PLUME_DRAW_PATH_TILED); /* the need read back: the ranks grow */
    trail_compare("grown", &r, false);
    profile = collected_profile(&r, PLUME_DRAW_PATH_TILED);
    printf("  then: drew with the %s path, %u entries of a budget of %u\n",
           path == PLUME_DRAW_PATH_TILED ? "tiled" : "raster", profile.tiled_entries, profile.tiled_entry_budget);
    assert_int_equal(path, PLUME_DRAW_PATH_TILED);
    assert_true(profile.tiled_entries > 0 && profile.tiled_entries <= profile.tiled_entry_budget);
    trail_run_end(&r);
}

/* Bytes a tiled trail's rank holds: its splat (8 vec4s at most, a lit or
 * emissive trail's), its count, a little of the scan's sums, and its entry
 * of the budget (a trail's is a rank's). */
enum { RANK_BYTES = 8 * 16 + 4 + 1 + 8 };

/* A trail system drawn tiled holds the context's scratch in proportion to
 * the triangles it draws, not to its capacity's worst case (every pair at
 * PLUME_TRAIL_SUBDIVISIONS quads): 400 particles of a capacity of 17000,
 * then 800 more, the ranks made grown before their trails lengthen (a
 * quad a pair of the particles drawn, and what frames needed: at most a
 * quarter more and a scan block), besides a word a pair of the capacity;
 * the pictures the CPU's. */
static void test_a_tiled_trail_holds_memory_for_what_it_draws(void **state) {
    (void)state;
    trail_run r = many_in_a_box(17000, 400);
    uint64_t worst = (uint64_t)17000 * 16 * PLUME_TRAIL_SUBDIVISIONS * 2 * RANK_BYTES;
    uint32_t grew_from = 0, particles = 400;
    for (int burst = 0; burst < 2; ++burst) {
        if (burst) {
            plume_emit_desc more = {.emitter = 0, .count = 800};
            assert_int_equal(plume_system_emit(fixture_context(), r.system, &more), PLUME_OK);
            particles += more.count;
            for (int k = 0; k < 3; ++k) trail_step(&r);
            trail_compare("burst", &r, false);
        }
        drawn_path(&r, PLUME_DRAW_PATH_TILED);
        uint32_t needed = 0, made = 0;
        assert_int_equal(plume_lab_trail_tiled_ranks(fixture_context(), r.system, &needed, &made), PLUME_OK);
        plume_lab_gpu_memory memory;
        assert_int_equal(plume_lab_gpu_memory_of(fixture_context(), r.system, &memory), PLUME_OK);
        uint64_t wanted = 2 * particles * 16 > needed ? 2 * particles * 16 : needed;
        uint64_t most = wanted + wanted / 4 + 1024;
        /* And a word a pair of the capacity (its ranks' scan), the screen's
         * tables (a 64 x 64 target's). */
        uint64_t bound = most * RANK_BYTES + (uint64_t)17000 * 16 * 5 + 1024 * 1024;
        printf("  %u particles: %u ranks needed, %u made: scratch %.1f MB (bound %.1f MB; the worst case's ranks "
               "%.1f MB)\n", particles, needed, made, memory.shared_bytes / 1e6, bound / 1e6, worst / 1e6);
        assert_true(needed > 0 && needed <= made && made <= most);
        assert_true(memory.shared_bytes <= bound);
        if (burst) assert_true(made > grew_from);
        grew_from = made;
    }
    trail_run_end(&r);
}

/* Sparks of wide strips (0.3 across at the head) leaving the orthographic
 * view (x and y in -1 .. 1) by its right edge and its top. A segment whose
 * strip lies wholly past one side needs no ranks (tiled_project.comp:
 * segment_outside_view): a spark whose trail is all past the right edge by
 * more than its strip's half width holds only its own quad's rank, and one
 * rising along the edge, its curve past it by less than that (0.05), still
 * draws its strip's sliver inside, as the CPU's picture has it. */
static void test_trails_past_the_views_edges_draw_what_reaches_into_it(void **state) {
    (void)state;
    plume_system_desc d = trail_desc(8, 0.1f);
    d.emitters[0] = trail_mover((float[3]){1.0f, 0.0f, 0.0f}, 0.3f);
    d.emitters[1] = trail_mover((float[3]){0.0f, 1.0f, 0.0f}, 0.3f);
    trail_run r = trail_run_begin(d);
    for (int k = 0; k < 3; ++k) trail_emit_at(r.system, 0, 1.6f, 0.6f - 0.5f * (float)k, 0.0f);
    for (int k = 0; k < 10; ++k) trail_step(&r);
    drawn_path(&r, PLUME_DRAW_PATH_TILED);
    uint32_t needed = 0, made = 0;
    assert_int_equal(plume_lab_trail_tiled_ranks(fixture_context(), r.system, &needed, &made), PLUME_OK);
    printf("  3 sparks wholly past the right edge: %u ranks needed (their own quads: 3)\n", needed);
    assert_int_equal(needed, 3);
    trail_run_end(&r);

    r = trail_run_begin(d);
    trail_emit_at(r.system, 0, 0.6f, 0.5f, 0.0f);   /* through the right edge */
    trail_emit_at(r.system, 1, 1.05f, -0.6f, 0.0f); /* along it, past it by less than its half width */
    trail_emit_at(r.system, 0, 1.6f, 0.0f, 0.0f);   /* past it by more */
    trail_emit_at(r.system, 1, -0.5f, 0.7f, 0.0f);  /* through the top */
    for (int k = 0; k < 10; ++k) trail_step(&r);
    trail_compare("sparks past the view's edges", &r, false);
    /* The sliver of the spark along the edge: the last column's rows from
     * y = -0.55 to -0.15, covered on the tiled path as on the CPU's. */
    trail_draw_image(r.system, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, r.pictures.image);
    int sliver = 0;
    for (int y = 0; y < IMAGE_SIZE; ++y) {
        float world_y = ((float)y + 0.5f) / IMAGE_SIZE * 2.0f - 1.0f;
        const float *pixel = r.pictures.image + 4 * (y * IMAGE_SIZE + IMAGE_SIZE - 1);
        if (fabsf(world_y + 0.35f) < 0.2f && fabsf(pixel[0] - TRAIL_CLEAR[0]) > 0.02f) ++sliver;
    }
    printf("  the sliver at the right edge: %d pixels of the last column\n", sliver);
    assert_true(sliver >= 8);
    trail_run_end(&r);
}

/* A full-resolution image's tiles at the default 8 pixels, and the bytes of
 * a chunk's slot of partials: a tile's pixels, 8 bytes each. */
static const uint64_t FULL_TILES = (IMAGE_SIZE / 8) * (IMAGE_SIZE / 8), SLOT_BYTES = 8 * 8 * 8;

/* Where the host sets no chunk size, a trail system whose pixels can stop
 * early (no additive part) walks each tile's whole run and makes no chunk
 * table or partials; an additive one, which never stops early, composites
 * its busy tiles in chunks (default_chunk_entries, tiled.c). The context's
 * shared scratch tells: the partials come with the additive system's draw,
 * a slot (SLOT_BYTES) a tile at least. */
static void test_trails_that_stop_early_walk_whole_tiles(void **state) {
    (void)state;
    trail_run painted = many_in_a_box(500, 500);
    trail_draw_image(painted.system, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, painted.pictures.image);
    plume_lab_gpu_memory before, after;
    assert_int_equal(plume_lab_gpu_memory_of(fixture_context(), painted.system, &before), PLUME_OK);
    plume_system_desc d = trail_desc(16, 0.1f);
    d.capacity = 500;
    d.emitters[0] = box_emitter(20);
    d.blend_mode = PLUME_BLEND_ADDITIVE;
    trail_run glowing = run_in_a_box(d, 500);
    trail_draw_image(glowing.system, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, glowing.pictures.image);
    assert_int_equal(plume_lab_gpu_memory_of(fixture_context(), glowing.system, &after), PLUME_OK);
    printf("  shared draw scratch: %.1f KiB after the painted trails' draw, %.1f KiB after the glowing ones'\n",
           (double)before.shared_bytes / 1024.0, (double)after.shared_bytes / 1024.0);
    assert_true(after.shared_bytes >= before.shared_bytes + FULL_TILES * SLOT_BYTES);
    trail_run_end(&glowing);
    trail_run_end(&painted);
}

/* The largest difference of any channel of two RGBA pixels. */
static float pixel_difference(const float *a, const float *b) {
    float largest = 0.0f;
    for (int c = 0; c < 4; ++c) largest = fmaxf(largest, fabsf(a[c] - b[c]));
    return largest;
}

static trail_run coloured_in_a_box(uint32_t count) {
    plume_system_desc d = trail_desc(16, 0.1f);
    d.capacity = count;
    d.emitters[0] = box_emitter(5);
    /* Each particle's colours its own (its lifetimes differ), each
     * segment's along its trail: words read from another splat show. */
    d.appearance.color_over_life = (plume_gradient){2, {{0.0f, {1.0f, 0.2f, 0.1f, 0.8f}}, {1.0f, {0.1f, 0.3f, 1.0f, 0.3f}}}};
    d.trail.color_over_length = (plume_gradient){2, {{0.0f, {1.0f, 1.0f, 1.0f, 1.0f}}, {1.0f, {0.2f, 1.0f, 0.2f, 1.0f}}}};
    return run_in_a_box(d, count);
}

/* The composite's batch of the splats' maps (the shading reads their other
 * words from the splats buffer) draws the picture a batch of whole splats
 * draws (the lab's baseline), and so does a smaller batch of maps; each
 * with tiles walked whole (these trails' default) and in chunks of 16
 * entries (a chunk's batch starts inside its tile's run). The box's tiles
 * hold hundreds of segment triangles each, of colours their own, so words
 * read from another splat, or a batch loaded short, show as whole
 * triangles apart; a pixel centre on a triangle's edge may round either
 * way (under 1 in 200 of the covered pixels). */
static void test_a_batch_of_maps_draws_what_whole_splats_draw(void **state) {
    (void)state;
    const plume_lab_tiled_knobs knobs[] = {{.whole_splat_batch = true}, {.batch = 0}, {.batch = 32}};
    const char *const names[] = {"whole splats", "maps", "maps, batch 32"};
    const uint32_t resolutions[2] = {PLUME_DRAW_FULL, PLUME_DRAW_HALF};
    const size_t image_bytes = sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE;
    float *reference = malloc(image_bytes), *whole_tiles[2] = {malloc(image_bytes), malloc(image_bytes)};
    assert_non_null(reference);
    assert_non_null(whole_tiles[0]);
    assert_non_null(whole_tiles[1]);
    const uint32_t chunks[2] = {0, 16};
    uint64_t unchunked_scratch = 0;
    for (int chunked = 0; chunked < 2; ++chunked) {
        for (int res = 0; res < 2; ++res)
            for (size_t k = 0; k < sizeof knobs / sizeof knobs[0]; ++k) {
                trail_run r = coloured_in_a_box(2000);
                assert_int_equal(plume_lab_tiled_set_knobs(fixture_context(), r.system, &knobs[k]), PLUME_OK);
                assert_int_equal(plume_system_set_tiled_options(fixture_context(), r.system, 8, chunks[chunked]),
                                 PLUME_OK);
                trail_draw_image(r.system, PLUME_DRAW_PATH_TILED, resolutions[res], r.pictures.image);
                plume_lab_gpu_memory memory;
                assert_int_equal(plume_lab_gpu_memory_of(fixture_context(), r.system, &memory), PLUME_OK);
                if (!chunked) unchunked_scratch = memory.shared_bytes;
                /* Chunked, the draws made the partials, a slot a tile at
                 * least: they did cut the runs. */
                else
                    assert_true(memory.shared_bytes >= unchunked_scratch + FULL_TILES * SLOT_BYTES);
                int covered = 0, apart = 0, apart_from_whole_tiles = 0;
                float largest = 0.0f;
                for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i) {
                    const float *pixel = r.pictures.image + 4 * i;
                    float difference = pixel_difference(pixel, reference + 4 * i);
                    if (fabsf(pixel[0] - TRAIL_CLEAR[0]) > 0.02f || fabsf(pixel[2] - TRAIL_CLEAR[2]) > 0.02f)
                        ++covered;
                    if (k > 0 && difference > 1.0f / 255.0f) ++apart;
                    if (chunked && k == 0 && pixel_difference(pixel, whole_tiles[res] + 4 * i) > 1.0f / 255.0f)
                        ++apart_from_whole_tiles;
                    if (k > 0) largest = fmaxf(largest, difference);
                }
                printf("  1/%d, %s, %s: %d pixels covered, %d over 1/255 from whole splats' (%.3g/255 at most)\n",
                       1 << res, chunked ? "chunks of 16" : "whole tiles", names[k], covered, apart,
                       (double)(largest * 255.0f));
                assert_true(covered > IMAGE_SIZE * IMAGE_SIZE / 4);
                assert_true(apart * 200 < covered);
                /* Chunks, resolved, draw the picture of tiles walked whole. */
                if (chunked && k == 0) printf("    %d pixels over 1/255 from whole tiles'\n", apart_from_whole_tiles);
                assert_true(apart_from_whole_tiles * 200 < covered);
                if (k == 0) memcpy(reference, r.pictures.image, image_bytes);
                if (k == 0 && !chunked) memcpy(whole_tiles[res], r.pictures.image, image_bytes);
                trail_run_end(&r);
            }
    }
    free(reference);
    free(whole_tiles[0]);
    free(whole_tiles[1]);
}
#endif

const struct CMUnitTest trails_tiled_tests[] = {
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_an_overflowing_tiled_trail_draws_every_segment, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_tiled_trail_past_its_ranks_draws_every_segment_and_grows, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_tiled_trail_holds_memory_for_what_it_draws, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_trails_past_the_views_edges_draw_what_reaches_into_it, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_batch_of_maps_draws_what_whole_splats_draw, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_trails_that_stop_early_walk_whole_tiles, fixture_setup, fixture_teardown),
#endif
    cmocka_unit_test_setup_teardown(test_a_trail_system_draws_tiled, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_trails_at_low_resolutions, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_trail_of_a_large_worst_case_draws_tiled, fixture_setup,
                                    fixture_teardown),
};
const size_t trails_tiled_test_count = sizeof trails_tiled_tests / sizeof trails_tiled_tests[0];
