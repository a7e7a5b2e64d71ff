/* Mipmap levels on the CPU (mip_chain.h). */
#include "particles/mip_chain.h"

#include <math.h>
#include <string.h>

/* Texel `i` of a level `coarse` wide covers [i, i + 1) * fine / coarse of
 * the level above: the texels it overlaps and how much of each (weights
 * summing to 1). At most three (a ratio under 3). */
typedef struct area_span {
    uint32_t first, count;
    double weight[3];
} area_span;

static area_span span_of(uint32_t i, uint32_t fine, uint32_t coarse) {
    area_span span = {0};
    double ratio = (double)fine / coarse, from = i * ratio, to = (i + 1) * ratio;
    span.first = (uint32_t)from;
    for (uint32_t k = span.first; k < fine && (double)k < to && span.count < 3; ++k) {
        double lo = fmax(from, (double)k), hi = fmin(to, k + 1.0);
        span.weight[span.count++] = (hi - lo) / ratio;
    }
    return span;
}

/* Level `to` from level `from` (each texel `channels` bytes). */
static void downsample(const unsigned char *from, uint32_t fine_width, uint32_t fine_height, unsigned char *to,
                       uint32_t width, uint32_t height, uint32_t channels, double *row_sums) {
    for (uint32_t y = 0; y < height; ++y) {
        area_span rows = span_of(y, fine_height, height);
        /* Down the rows first: one row of fine texels... */
        memset(row_sums, 0, sizeof(double) * fine_width * channels);
        for (uint32_t r = 0; r < rows.count; ++r) {
            const unsigned char *source = from + (size_t)(rows.first + r) * fine_width * channels;
            for (size_t c = 0; c < (size_t)fine_width * channels; ++c) row_sums[c] += rows.weight[r] * source[c];
        }
        /* ... then across it. */
        for (uint32_t x = 0; x < width; ++x) {
            area_span columns = span_of(x, fine_width, width);
            for (uint32_t c = 0; c < channels; ++c) {
                double sum = 0.0;
                for (uint32_t k = 0; k < columns.count; ++k)
                    sum += columns.weight[k] * row_sums[(size_t)(columns.first + k) * channels + c];
                double rounded = floor(sum + 0.5);
                to[((size_t)y * width + x) * channels + c] = (unsigned char)(rounded > 255.0 ? 255.0 : rounded);
            }
        }
    }
}

plume_result mip_chain_build(const plume_env *env, const unsigned char *pixels, uint32_t channels, uint32_t width,
                             uint32_t height, mip_chain *out) {
    memset(out, 0, sizeof *out);
    out->channels = channels;
    out->level[0] = pixels;
    out->width[0] = width;
    out->height[0] = height;
    out->count = 1;
    double *row_sums = plume_alloc(env, sizeof(double) * width * channels);
    if (!row_sums) return PLUME_ERROR_OUT_OF_MEMORY;
    while ((out->width[out->count - 1] > 1 || out->height[out->count - 1] > 1) && out->count < MIP_CHAIN_MOST_LEVELS) {
        uint32_t k = out->count, w = out->width[k - 1] / 2, h = out->height[k - 1] / 2;
        w = w > 0 ? w : 1;
        h = h > 0 ? h : 1;
        unsigned char *level = plume_alloc(env, (size_t)w * h * channels);
        if (!level) {
            plume_free(env, row_sums);
            mip_chain_free(env, out);
            return PLUME_ERROR_OUT_OF_MEMORY;
        }
        downsample(out->level[k - 1], out->width[k - 1], out->height[k - 1], level, w, h, channels, row_sums);
        out->level[k] = level;
        out->width[k] = w;
        out->height[k] = h;
        out->count = k + 1;
    }
    plume_free(env, row_sums);
    return PLUME_OK;
}

void mip_chain_free(const plume_env *env, mip_chain *chain) {
    for (uint32_t k = 1; k < chain->count; ++k) plume_free(env, (void *)chain->level[k]);
    chain->count = 0;
}
