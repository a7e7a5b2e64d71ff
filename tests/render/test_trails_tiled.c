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

#ifndef PLUME_TESTS_THROUGH_TABLE /* tiled_configure is the module's */
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
    plume_system_desc d = trail_desc(16, 0.1f);
    d.capacity = 1100; /* x 16 pairs: past the automatic pick's 16384 */
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {0.7f, 0.6f, 0.5f},
                                         .lifetime = {20, 20}, .speed = {0.2f, 0.4f}, .size = {0.02f, 0.04f}};
    r = trail_run_begin(d);
    plume_emit_desc many = {.emitter = 0, .count = 1100};
    assert_int_equal(plume_system_emit(fixture_context(), r.system, &many), PLUME_OK);
    for (int k = 0; k < 3; ++k) trail_step(&r);
    automatic = drawn_path(&r, PLUME_DRAW_PATH_AUTOMATIC);
    printf("  automatic, 1100 particles of 16 points: %s\n", automatic == PLUME_DRAW_PATH_TILED ? "tiled" : "raster");
    assert_int_equal(automatic, PLUME_DRAW_PATH_TILED);
    trail_run_end(&r);
    /* The same particles in a system whose tiled ranks would take over
     * 2^21 x 116 bytes (17000 x 16 pairs x 8 triangles): automatic stays
     * raster without trying the tiled path (which on a GL of small storage
     * blocks would refuse with a warning). */
    d.capacity = 17000;
    r = trail_run_begin(d);
    assert_int_equal(plume_system_emit(fixture_context(), r.system, &many), PLUME_OK);
    for (int k = 0; k < 3; ++k) trail_step(&r);
    test_log_expect_errors(); /* none is expected: a warning would count */
    automatic = drawn_path(&r, PLUME_DRAW_PATH_AUTOMATIC);
    int tried = test_log_count("the tiled draw path cannot be made");
    printf("  capacity 17000 of 16 points, 1100 live: automatic %s, the tiled path tried %d times\n",
           automatic == PLUME_DRAW_PATH_TILED ? "tiled" : "raster", tried);
    assert_int_equal(automatic, PLUME_DRAW_PATH_RASTER);
    assert_int_equal(tried, 0);
    trail_run_end(&r);
}

/* A trail system whose triangles' splats would not fit one storage block
 * (capacity x 128 pairs x 8 triangles x 112 bytes past this GL's
 * GL_MAX_SHADER_STORAGE_BLOCK_SIZE) draws with the trail draw where a frame
 * asks for the tiled path, said once. */
static void test_a_trail_too_large_for_the_tiled_path_draws_raster(void **state) {
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
    test_log_expect_errors(); /* the warning */
    trail_compare("too_large", &r, false);
    trail_compare("too_large_again", &r, false);
    assert_int_equal(test_log_count("the tiled draw path cannot be made"), 1);
    trail_run_end(&r);
}

#ifndef PLUME_TESTS_THROUGH_TABLE
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
    /* A profiled frame's numbers are collected at a later frame's start once
     * the GPU has finished it: a GPU that runs behind (NVIDIA's) has none
     * after two frames without this. */
    glFinish();
    trail_step(&r);
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), r.system, &profile), PLUME_OK);
    printf("  tiled frames over the budget of 64 entries: %u (entries %u)\n", profile.tiled_overflow_frames,
           profile.tiled_entries);
    assert_true(profile.tiled_overflow_frames > 0 && profile.tiled_entries > 64);
    trail_run_end(&r);
}
#endif

const struct CMUnitTest trails_tiled_tests[] = {
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_an_overflowing_tiled_trail_draws_every_segment, fixture_setup,
                                    fixture_teardown),
#endif
    cmocka_unit_test_setup_teardown(test_a_trail_system_draws_tiled, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_trails_at_low_resolutions, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_trail_too_large_for_the_tiled_path_draws_raster, fixture_setup,
                                    fixture_teardown),
};
const size_t trails_tiled_test_count = sizeof trails_tiled_tests / sizeof trails_tiled_tests[0];
