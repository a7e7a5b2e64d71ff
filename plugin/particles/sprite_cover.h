/* Where each flipbook frame of a sprite can show: for each frame and mip
 * level (mip_chain.h: the levels plume uploads), an octagon on the
 * particle's quad (the bounds of s, t, s + t and s - t, with (s, t) =
 * (corner_uv.x, 1 - corner_uv.y)) outside which a read of that frame at
 * that level through plume's sprite sampler (trilinear, clamped to the
 * edge, not anisotropic) takes only zero texels. The tiled draw lists a
 * camera-facing splat only in the tiles its frames' octagons overlap, at
 * the two levels a read of its size takes (shaders/render/splat_cover.glsl);
 * the demo's puff (demo/assets/smoke_puff.png) has non-zero texels in about
 * a third of each cell. A transparent texel of a premultiplied sprite is
 * zero, so a splat adds nothing where it is not listed. */
#ifndef PLUME_SPRITE_COVER_H
#define PLUME_SPRITE_COVER_H

#include <stddef.h>
#include <stdint.h>

#include "core/plume_internal.h"
#include "particles/mip_chain.h"

/* An octagon: its four lower bounds, then its four upper bounds. */
enum { SPRITE_COVER_FLOATS = 8 };
/* A frame with no texel that shows at a level: its bounds are +-this. */
#define SPRITE_COVER_EMPTY 4.0f
/* Tables are built for books of up to this many frames times levels (a
 * 64 x 64 book of a 4096-texel atlas is 53248). */
enum { SPRITE_COVER_MOST_OCTAGONS = 65536 };

/* Fills `octagons` (columns * rows * chain->count of them, frame by frame,
 * level by level within a frame) from the sprite's levels (premultiplied
 * RGBA8) laid out as a flipbook of columns x rows. */
plume_result sprite_cover_build(const plume_env *env, const mip_chain *chain, uint32_t columns, uint32_t rows,
                                float *octagons);

/* The largest component of a flipbook motion as the shaders decode it
 * (0..1; times the motion's strength, how far a frame's read slides),
 * from its RG8 pixels. */
float sprite_motion_reach(const unsigned char *rg, size_t pixel_count);

#endif
