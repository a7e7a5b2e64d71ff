/* Where each flipbook frame of a sprite can show (sprite_cover.h), from the
 * non-zero texels of each level plume uploads. */
#include "particles/sprite_cover.h"

#include <math.h>
#include <string.h>

static void octagon_empty(float *octagon) {
    for (int k = 0; k < 4; ++k) octagon[k] = SPRITE_COVER_EMPTY, octagon[4 + k] = -SPRITE_COVER_EMPTY;
}

/* Takes in the point (s, t) of the quad. */
static void octagon_add(float *octagon, double s, double t) {
    const double v[4] = {s, t, s + t, s - t};
    for (int k = 0; k < 4; ++k) {
        float lo = (float)v[k], hi = (float)v[k];
        /* Rounded outwards: the bounds are to hold every point. */
        if ((double)lo > v[k]) lo = nextafterf(lo, -INFINITY);
        if ((double)hi < v[k]) hi = nextafterf(hi, INFINITY);
        if (lo < octagon[k]) octagon[k] = lo;
        if (hi > octagon[4 + k]) octagon[4 + k] = hi;
    }
}

/* One frame at one level: every texel whose bilinear reach (the texel and
 * the half texel round it where the sample's weights are not zero, with a
 * little for the hardware's fixed-point coordinates) meets the frame's
 * cell, clipped to the cell, in the quad's (s, t) = (corner_uv.x,
 * 1 - corner_uv.y). */
static void frame_octagon(const uint8_t *mask, uint32_t width, uint32_t height, uint32_t columns, uint32_t rows,
                          uint32_t column, uint32_t row, float *octagon) {
    const double reach = 0.5 + 1.0 / 64.0;
    double cell_u0 = (double)column / columns, cell_u1 = (double)(column + 1) / columns;
    double cell_v0 = (double)row / rows, cell_v1 = (double)(row + 1) / rows;
    double from_x = floor(cell_u0 * width - 1.0 - reach), to_x = ceil(cell_u1 * width + reach);
    double from_y = floor(cell_v0 * height - 1.0 - reach), to_y = ceil(cell_v1 * height + reach);
    uint32_t x0 = from_x > 0.0 ? (uint32_t)from_x : 0, x1 = to_x < width - 1.0 ? (uint32_t)to_x : width - 1;
    uint32_t y0 = from_y > 0.0 ? (uint32_t)from_y : 0, y1 = to_y < height - 1.0 ? (uint32_t)to_y : height - 1;
    octagon_empty(octagon);
    for (uint32_t y = y0; y <= y1; ++y)
        for (uint32_t x = x0; x <= x1; ++x) {
            if (!mask[(size_t)y * width + x]) continue;
            double u0 = fmax((x - reach) / width, cell_u0), u1 = fmin((x + 1.0 + reach) / width, cell_u1);
            double v0 = fmax((y - reach) / height, cell_v0), v1 = fmin((y + 1.0 + reach) / height, cell_v1);
            if (u0 > u1 || v0 > v1) continue;
            double s0 = (u0 - cell_u0) * columns, s1 = (u1 - cell_u0) * columns;
            double t0 = 1.0 - (v1 - cell_v0) * rows, t1 = 1.0 - (v0 - cell_v0) * rows;
            octagon_add(octagon, s0, t0);
            octagon_add(octagon, s1, t0);
            octagon_add(octagon, s0, t1);
            octagon_add(octagon, s1, t1);
        }
}

plume_result sprite_cover_build(const plume_env *env, const mip_chain *chain, uint32_t columns, uint32_t rows,
                                float *octagons) {
    uint8_t *mask = plume_alloc(env, (size_t)chain->width[0] * chain->height[0]);
    if (!mask) return PLUME_ERROR_OUT_OF_MEMORY;
    for (uint32_t level = 0; level < chain->count; ++level) {
        uint32_t w = chain->width[level], h = chain->height[level];
        const unsigned char *texels = chain->level[level];
        for (size_t i = 0; i < (size_t)w * h; ++i)
            mask[i] = (texels[4 * i] | texels[4 * i + 1] | texels[4 * i + 2] | texels[4 * i + 3]) != 0;
        for (uint32_t row = 0; row < rows; ++row)
            for (uint32_t column = 0; column < columns; ++column) {
                uint32_t frame = row * columns + column;
                frame_octagon(mask, w, h, columns, rows, column, row,
                              octagons + ((size_t)frame * chain->count + level) * SPRITE_COVER_FLOATS);
            }
    }
    plume_free(env, mask);
    return PLUME_OK;
}

float sprite_motion_reach(const unsigned char *rg, size_t pixel_count) {
    int largest = 0;
    for (size_t i = 0; i < 2 * pixel_count; ++i) {
        int away = rg[i] > 128 ? rg[i] - 128 : 128 - rg[i];
        if (away > largest) largest = away;
    }
    /* The shader's decoding: (byte - 128) / 127, clamped to [-1, 1]. */
    return largest >= 127 ? 1.0f : (float)largest / 127.0f;
}
