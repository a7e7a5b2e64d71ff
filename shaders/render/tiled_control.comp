// One invocation, after the scan: the entries the frame needs (the scan's last
// drawn element) against the budget, and the indirect arguments of both paths,
// so that a frame whose entries do not fit draws with the raster path, chosen
// here on the GPU (no readback, no particle dropped), and a frame without
// entries runs no pass over the tiles or the pixels (the ranges pass
// overwrites the chunk arguments where it plans chunks).
#include "render/tiled_common.glsl"

layout(local_size_x = 1) in;

layout(std430, binding = PLUME_BINDING_TILED_COUNTS) restrict readonly buffer Counts { uint counts[]; };

uniform uint u_budget;
uniform uvec2 u_tiles;
uniform bool u_low_resolution; // the target is upsampled onto the host's framebuffer

void main() {
    uint drawn = drawn_ranks();
    uint entries = drawn > 0u ? counts[drawn - 1u] : 0u;
#ifdef TILED_DENSE_RANKS
    // Ranks past those made: none projected, the fallback draws every pair.
    bool overflow = entries > u_budget || control[PLUME_TILED_RANK_OVERFLOW] != 0u;
    uint items = control[PLUME_TILED_DRAWN_ITEMS];
#else
    bool overflow = entries > u_budget;
    uint items = drawn / TILED_RANKS_PER_ITEM;
#endif
    bool composited = entries > 0u && !overflow;
    uint tile_count = u_tiles.x * u_tiles.y;
    control[PLUME_TILED_ENTRY_COUNT] = entries;
    control[PLUME_TILED_OVERFLOW] = overflow ? 1u : 0u;
    control[PLUME_TILED_SORT_COUNT] = overflow ? 0u : entries;
    control[PLUME_TILED_COMPOSITE_ARGS + 0] = composited ? u_tiles.x : 0u;
    control[PLUME_TILED_COMPOSITE_ARGS + 1] = u_tiles.y;
    control[PLUME_TILED_COMPOSITE_ARGS + 2] = 1u;
    control[PLUME_TILED_RANGES_ARGS + 0] =
        composited ? (tile_count + uint(PLUME_TILED_RANGES_GROUP_SIZE) - 1u) / uint(PLUME_TILED_RANGES_GROUP_SIZE) : 0u;
    control[PLUME_TILED_RANGES_ARGS + 1] = 1u;
    control[PLUME_TILED_RANGES_ARGS + 2] = 1u;
    control[PLUME_TILED_RANGES_DONE] = 0u;
    control[PLUME_TILED_CHUNK_COUNT] = 0u;
    control[PLUME_TILED_CHUNK_ARGS + 0] = 0u;
    control[PLUME_TILED_CHUNK_ARGS + 1] = 1u;
    control[PLUME_TILED_CHUNK_ARGS + 2] = 1u;
    control[PLUME_TILED_RESOLVE_ARGS + 0] = composited ? u_tiles.x : 0u;
    control[PLUME_TILED_RESOLVE_ARGS + 1] = u_tiles.y;
    control[PLUME_TILED_RESOLVE_ARGS + 2] = 1u;
    // The ranges pass counts the tiles the blend covers; a low-resolution
    // target over its budget holds the fallback's draw, which any tile may
    // show: the upsample covers them all (tile_cover.vert reads OVERFLOW).
    control[PLUME_TILED_BLEND_ARGS + 0] = 6u;
    control[PLUME_TILED_BLEND_ARGS + 1] = overflow && u_low_resolution ? tile_count : 0u;
    control[PLUME_TILED_BLEND_ARGS + 2] = 0u;
    control[PLUME_TILED_BLEND_ARGS + 3] = 0u;
    // A trail system's fallback draws the pairs, each its quads' vertices.
    control[PLUME_TILED_RASTER_ARGS + 0] = TILED_FALLBACK_VERTICES;
    control[PLUME_TILED_RASTER_ARGS + 1] = overflow ? items : 0u;
    control[PLUME_TILED_RASTER_ARGS + 2] = 0u;
    control[PLUME_TILED_RASTER_ARGS + 3] = 0u;
}
