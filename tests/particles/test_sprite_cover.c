/* The levels plume makes for the textures it loads (particles/mip_chain.h)
 * and where a sprite's frames can show (particles/sprite_cover.h), on the
 * CPU against references of their own, on seeded random images of sizes
 * that do not halve evenly: each level is the area-weighted mean of the
 * one above, rounded to the nearest byte (a 2 x 2 box where a size
 * halves); and every point of a frame's cell where a bilinear read of a
 * level (GL's sample positions, clamped to the edge) takes a non-zero
 * texel lies inside that frame's octagon at that level. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "particles/mip_chain.h"
#include "particles/sprite_cover.h"
#include "test_env.h"
#include "tests.h"

/* The system's allocator, the test's logger (an unexpected error fails). */
static const plume_env *cpu_env(void) {
    static plume_env env;
    plume_logger logger = test_logger();
    assert_int_equal(plume_env_init(&env, &logger, NULL), PLUME_OK);
    return &env;
}

/* Sparse texels: most zero, a few bright (a sprite's transparent margins
 * round small opaque marks). */
static unsigned char *random_image(uint32_t width, uint32_t height, uint32_t channels, uint32_t marks) {
    unsigned char *pixels = calloc((size_t)width * height * channels, 1);
    assert_non_null(pixels);
    for (uint32_t m = 0; m < marks; ++m) {
        uint32_t x = test_random_below(width), y = test_random_below(height);
        for (uint32_t c = 0; c < channels; ++c)
            pixels[((size_t)y * width + x) * channels + c] = (unsigned char)(1 + test_random_below(255));
    }
    return pixels;
}

/* The reference's level from the one above: for each texel the exact
 * overlap of its footprint [i, i + 1) * fine / coarse with each fine
 * texel, in double. */
static void reference_level(const unsigned char *fine, uint32_t fw, uint32_t fh, unsigned char *coarse, bool *tie,
                            uint32_t cw, uint32_t ch, uint32_t channels) {
    for (uint32_t y = 0; y < ch; ++y)
        for (uint32_t x = 0; x < cw; ++x)
            for (uint32_t c = 0; c < channels; ++c) {
                double x0 = (double)x * fw / cw, x1 = (double)(x + 1) * fw / cw;
                double y0 = (double)y * fh / ch, y1 = (double)(y + 1) * fh / ch, sum = 0.0;
                for (uint32_t sy = 0; sy < fh; ++sy)
                    for (uint32_t sx = 0; sx < fw; ++sx) {
                        double ox = fmin(x1, sx + 1.0) - fmax(x0, (double)sx);
                        double oy = fmin(y1, sy + 1.0) - fmax(y0, (double)sy);
                        if (ox > 0.0 && oy > 0.0) sum += ox * oy * fine[((size_t)sy * fw + sx) * channels + c];
                    }
                double mean = sum / ((x1 - x0) * (y1 - y0));
                coarse[((size_t)y * cw + x) * channels + c] = (unsigned char)floor(mean + 0.5);
                /* A mean on a tie (a half), which the two sums'
                 * rounding may put either side: either neighbour will do. */
                tie[((size_t)y * cw + x) * channels + c] = fabs(mean - floor(mean) - 0.5) < 1e-4;
            }
}

static void test_mip_levels_are_area_means(void **state) {
    (void)state;
    const uint32_t sizes[][3] = {{45, 34, 4}, {32, 32, 4}, {7, 19, 2}, {1, 13, 4}, {64, 3, 2}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        uint32_t w = sizes[k][0], h = sizes[k][1], channels = sizes[k][2];
        unsigned char *pixels = random_image(w, h, channels, w * h / 3 + 1);
        mip_chain chain;
        assert_int_equal(mip_chain_build(cpu_env(), pixels, channels, w, h, &chain), PLUME_OK);
        uint32_t levels = 1;
        for (uint32_t s = w > h ? w : h; s > 1; s >>= 1) ++levels;
        assert_int_equal(chain.count, levels);
        assert_ptr_equal(chain.level[0], pixels);
        int wrong = 0;
        for (uint32_t l = 1; l < chain.count; ++l) {
            uint32_t cw = w >> l ? w >> l : 1, chh = h >> l ? h >> l : 1;
            assert_int_equal(chain.width[l], cw);
            assert_int_equal(chain.height[l], chh);
            unsigned char *expected = malloc((size_t)cw * chh * channels);
            bool *tie = malloc((size_t)cw * chh * channels * sizeof(bool));
            reference_level(chain.level[l - 1], chain.width[l - 1], chain.height[l - 1], expected, tie, cw, chh,
                            channels);
            for (size_t i = 0; i < (size_t)cw * chh * channels; ++i) {
                int off = (int)chain.level[l][i] - (int)expected[i];
                bool bad = tie[i] ? abs(off) > 1 : off != 0;
                if (bad && wrong < 8)
                    printf("    level %u texel %zu: %u, the reference %u\n", l, i / channels, chain.level[l][i], expected[i]);
                wrong += bad;
            }
            free(expected);
            free(tie);
        }
        printf("  %ux%u, %u channels: %u levels, %d texels off the reference\n", w, h, channels, chain.count, wrong);
        assert_int_equal(wrong, 0);
        mip_chain_free(cpu_env(), &chain);
        free(pixels);
    }
}

/* Whether a bilinear read of the level at atlas (u, v) takes a non-zero
 * texel: the texels GL weighs at a sample, clamped to the edge. */
static bool read_takes_a_texel(const unsigned char *texels, uint32_t w, uint32_t h, double u, double v) {
    double x = u * w - 0.5, y = v * h - 0.5;
    double x0 = floor(x), y0 = floor(y), fx = x - x0, fy = y - y0;
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i) {
            double weight = (i ? fx : 1.0 - fx) * (j ? fy : 1.0 - fy);
            if (weight <= 0.0) continue;
            long tx = (long)x0 + i, ty = (long)y0 + j;
            tx = tx < 0 ? 0 : tx >= (long)w ? (long)w - 1 : tx;
            ty = ty < 0 ? 0 : ty >= (long)h ? (long)h - 1 : ty;
            const unsigned char *p = &texels[((size_t)ty * w + (size_t)tx) * 4];
            if (p[0] | p[1] | p[2] | p[3]) return true;
        }
    return false;
}

/* `pixels` (RGBA8, w x h)'s levels into *chain and its frames' octagons,
 * frame by frame and level by level (malloc'd). */
static float *frame_octagons(const unsigned char *pixels, uint32_t w, uint32_t h, uint32_t columns, uint32_t rows,
                             mip_chain *chain) {
    assert_int_equal(mip_chain_build(cpu_env(), pixels, 4, w, h, chain), PLUME_OK);
    float *octagons = malloc(sizeof(float) * SPRITE_COVER_FLOATS * columns * rows * chain->count);
    assert_non_null(octagons);
    assert_int_equal(sprite_cover_build(cpu_env(), chain, columns, rows, octagons), PLUME_OK);
    return octagons;
}

static void test_frame_octagons_hold_every_read(void **state) {
    (void)state;
    const uint32_t books[][4] = {{45, 34, 3, 2}, {64, 64, 4, 4}, {30, 7, 5, 1}};
    for (size_t b = 0; b < sizeof books / sizeof books[0]; ++b) {
        uint32_t w = books[b][0], h = books[b][1], columns = books[b][2], rows = books[b][3];
        unsigned char *pixels = random_image(w, h, 4, 3 * columns * rows);
        mip_chain chain;
        float *octagons = frame_octagons(pixels, w, h, columns, rows, &chain);
        long reads = 0, outside = 0, empty = 0, smaller = 0;
        for (uint32_t frame = 0; frame < columns * rows; ++frame)
            for (uint32_t l = 0; l < chain.count; ++l) {
                const float *o = octagons + ((size_t)frame * chain.count + l) * SPRITE_COVER_FLOATS;
                if (o[0] > o[4]) ++empty;
                else if ((o[4] - o[0]) * (o[5] - o[1]) < 0.99f) ++smaller;
                for (int k = 0; k < 4000; ++k) {
                    /* Points of the quad, the cell's edges among them. */
                    double s = k < 4 ? (k & 1) : test_random_float(0.0f, 1.0f);
                    double t = k < 4 ? (k >> 1) : test_random_float(0.0f, 1.0f);
                    double u = (frame % columns + s) / columns, v = (frame / columns + 1.0 - t) / rows;
                    if (!read_takes_a_texel(chain.level[l], chain.width[l], chain.height[l], u, v)) continue;
                    ++reads;
                    const double p[4] = {s, t, s + t, s - t};
                    for (int side = 0; side < 4; ++side)
                        if (p[side] < o[side] || p[side] > o[4 + side]) {
                            ++outside;
                            break;
                        }
                }
            }
        printf("  %ux%u, %ux%u frames: %ld reads of a texel, %ld outside their octagon; %ld octagons empty, %ld "
               "smaller than the quad\n",
               w, h, columns, rows, reads, outside, empty, smaller);
        assert_true(reads > 0);
        assert_int_equal(outside, 0);
        free(octagons);
        mip_chain_free(cpu_env(), &chain);
        free(pixels);
    }

    /* Tight, not only safe: one mark at the middle of one 16x16 frame. At
     * level 0 the reads that take it lie within a texel of it, and every
     * other frame is empty; at level 1 its footprint is two texels of 8. */
    enum { SIZE = 64, CELL = 16, MARKED = 5 };
    unsigned char *pixels = calloc((size_t)SIZE * SIZE * 4, 1);
    assert_non_null(pixels);
    const uint32_t mark = (MARKED / 4 * CELL + CELL / 2) * SIZE + MARKED % 4 * CELL + CELL / 2;
    memset(&pixels[(size_t)mark * 4], 255, 4);
    mip_chain chain;
    float *octagons = frame_octagons(pixels, SIZE, SIZE, 4, 4, &chain);
    for (uint32_t frame = 0; frame < 16; ++frame)
        for (uint32_t l = 0; l < 2; ++l) {
            const float *o = octagons + ((size_t)frame * chain.count + l) * SPRITE_COVER_FLOATS;
            if (frame != MARKED) {
                if (l == 0) assert_true(o[0] > o[4]);
                continue;
            }
            float area = (o[4] - o[0]) * (o[5] - o[1]);
            printf("  one mark, level %u: s %.3f..%.3f, t %.3f..%.3f (%.3f of the quad)\n", l, o[0], o[4], o[1],
                   o[5], area);
            assert_true(o[0] < 0.53f && o[4] > 0.53f && o[1] < 0.47f && o[5] > 0.47f);
            assert_true(area < (l == 0 ? 0.03f : 0.1f));
        }
    free(octagons);
    mip_chain_free(cpu_env(), &chain);
    free(pixels);
}

static void test_motion_reach_is_the_largest_decoded_component(void **state) {
    (void)state;
    const unsigned char still[4] = {128, 128, 128, 128}, some[4] = {128, 150, 100, 128}, most[4] = {0, 128, 128, 255};
    assert_true(sprite_motion_reach(still, 2) == 0.0f);
    assert_true(fabsf(sprite_motion_reach(some, 2) - 28.0f / 127.0f) < 1e-6f);
    assert_true(sprite_motion_reach(most, 2) == 1.0f); /* 0 decodes to -128/127, clamped */
}

const struct CMUnitTest sprite_cover_tests[] = {
    cmocka_unit_test(test_mip_levels_are_area_means),
    cmocka_unit_test(test_frame_octagons_hold_every_read),
    cmocka_unit_test(test_motion_reach_is_the_largest_decoded_component),
};
const size_t sprite_cover_test_count = sizeof sprite_cover_tests / sizeof sprite_cover_tests[0];
