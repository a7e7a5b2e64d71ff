/* What the frame benchmark reports beside the times: the pixels the draw
 * blends (its fill), estimated from the particles read back, so that the
 * table gives entries and blended pixels per millisecond of draw. */
#ifndef PLUME_BENCH_FRAME_BENCH_MEASURE_H
#define PLUME_BENCH_FRAME_BENCH_MEASURE_H

#include <stdint.h>

#include "plume/plume_particles.h"

/* The pixels the drawn particles' quads cover on a target of width x
 * height / `factor` (1, 2, 4: the draw resolution), summed over the
 * particles (a pixel under n quads counts n times: the blends a raster path
 * does, the splat-pixel pairs the tiled path composites without early
 * termination). Camera-facing quads of the particle's size (the benchmark's
 * look: its size over life is constant); other orientations are counted as
 * camera-facing. Reads the system back (waits for the GPU: outside the
 * timed frames). Negative where the read-back fails. */
double frame_bench_blended_pixels(plume_context *context, plume_system system, uint32_t capacity,
                                  const plume_frame_desc *frame, int width, int height, int factor);

/* The --smoke scene's sprite: FRAME_BENCH_SPRITE_SIZE texels square, RGBA8
 * straight alpha, a soft puff transparent from 0.4 of the quad's side from
 * its centre, so that its alpha footprint (plume_lab_tiled_knobs.footprint,
 * a texel past it for the bilinear filter) is FRAME_BENCH_SPRITE_FOOTPRINT.
 * NULL: out of memory; the caller frees it. */
enum { FRAME_BENCH_SPRITE_SIZE = 64 };
#define FRAME_BENCH_SPRITE_FOOTPRINT 0.42f
uint8_t *frame_bench_smoke_sprite(void);

/* `amount` per millisecond of `ms`, NAN without a time. */
double frame_bench_per_ms(double amount, double ms);

#endif
