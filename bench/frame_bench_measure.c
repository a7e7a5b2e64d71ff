#include "frame_bench_measure.h"

#include <math.h>
#include <stdlib.h>

/* The part of [low, high] inside [0, limit]. */
static double clipped(double low, double high, double limit) {
    double a = low < 0.0 ? 0.0 : low, b = high > limit ? limit : high;
    return b > a ? b - a : 0.0;
}

double frame_bench_blended_pixels(plume_context *context, plume_system system, uint32_t capacity,
                                  const plume_frame_desc *frame, int width, int height, int factor) {
    plume_readback rb = {0};
    rb.particles = malloc(sizeof(plume_particle) * capacity);
    rb.draw_order = malloc(sizeof(uint32_t) * capacity);
    double pixels = -1.0;
    if (rb.particles && rb.draw_order && plume_system_read_back(context, system, &rb) == PLUME_OK) {
        const float *v = frame->view, *p = frame->projection; /* column-major */
        double w = (double)width / factor, h = (double)height / factor;
        pixels = 0.0;
        for (uint32_t i = 0; i < rb.drawn_count; ++i) {
            const plume_particle *q = &rb.particles[rb.draw_order[i]];
            double x = v[0] * q->position[0] + v[4] * q->position[1] + v[8] * q->position[2] + v[12];
            double y = v[1] * q->position[0] + v[5] * q->position[1] + v[9] * q->position[2] + v[13];
            double z = v[2] * q->position[0] + v[6] * q->position[1] + v[10] * q->position[2] + v[14];
            double depth = -z; /* a perspective projection's clip w */
            if (depth <= 1e-6) continue;
            double cx = (p[0] * x + p[8] * z) / depth, cy = (p[5] * y + p[9] * z) / depth;
            double centre_x = (cx * 0.5 + 0.5) * w, centre_y = (cy * 0.5 + 0.5) * h;
            double half_x = 0.5 * q->size * p[0] / depth * 0.5 * w, half_y = 0.5 * q->size * p[5] / depth * 0.5 * h;
            pixels += clipped(centre_x - half_x, centre_x + half_x, w) * clipped(centre_y - half_y, centre_y + half_y, h);
        }
    }
    free(rb.particles);
    free(rb.draw_order);
    return pixels;
}

uint8_t *frame_bench_smoke_sprite(void) {
    uint8_t *pixels = malloc(4 * FRAME_BENCH_SPRITE_SIZE * FRAME_BENCH_SPRITE_SIZE);
    if (!pixels) return NULL;
    for (int y = 0; y < FRAME_BENCH_SPRITE_SIZE; ++y)
        for (int x = 0; x < FRAME_BENCH_SPRITE_SIZE; ++x) {
            double u = (x + 0.5) / FRAME_BENCH_SPRITE_SIZE - 0.5, v = (y + 0.5) / FRAME_BENCH_SPRITE_SIZE - 0.5;
            double r = sqrt(u * u + v * v) / 0.4, alpha = r >= 1.0 ? 0.0 : (1.0 - r * r) * (1.0 - r * r);
            uint8_t *p = &pixels[4 * (y * FRAME_BENCH_SPRITE_SIZE + x)];
            p[0] = p[1] = p[2] = 230;
            p[3] = (uint8_t)lround(255.0 * alpha);
        }
    return pixels;
}

double frame_bench_per_ms(double amount, double ms) { return ms > 0.0 && amount >= 0.0 ? amount / ms : NAN; }
