/* A texture's mipmap levels made on the CPU, for the textures plume loads
 * itself (the sprite, a flipbook's motion): each level the area-weighted
 * mean of the one above, rounded to the nearest byte (for sizes that halve
 * evenly, GL's usual 2 x 2 box). Uploaded level by level, so that plume
 * knows every texel a draw can read: where a level is zero
 * (sprite_cover.h), not what some driver's glGenerateMipmap made. */
#ifndef PLUME_MIP_CHAIN_H
#define PLUME_MIP_CHAIN_H

#include <stdint.h>

#include "core/plume_internal.h"

enum { MIP_CHAIN_MOST_LEVELS = 32 };

typedef struct mip_chain {
    uint32_t count;    /* levels, down to 1 x 1 */
    uint32_t channels; /* bytes a texel */
    uint32_t width[MIP_CHAIN_MOST_LEVELS], height[MIP_CHAIN_MOST_LEVELS];
    /* Level 0 is the caller's pixels; the rest are the env's allocator's. */
    const unsigned char *level[MIP_CHAIN_MOST_LEVELS];
} mip_chain;

/* The chain of `pixels` (width x height texels of `channels` bytes, rows
 * tightly packed), which it borrows as level 0 until mip_chain_free. */
plume_result mip_chain_build(const plume_env *env, const unsigned char *pixels, uint32_t channels, uint32_t width,
                             uint32_t height, mip_chain *out);
void mip_chain_free(const plume_env *env, mip_chain *chain);

#endif
