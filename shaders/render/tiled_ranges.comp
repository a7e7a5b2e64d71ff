// One invocation per tile: where its run starts and ends in the entries sorted
// by tile (two binary searches).
// Dispatched only on a frame with entries that fit the budget (the control
// pass's arguments).
#include "render/tiled_common.glsl"

layout(local_size_x = PLUME_TILED_RANGES_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_TILED_ENTRIES) restrict readonly buffer Entries { uvec2 entries[]; };
layout(std430, binding = PLUME_BINDING_TILED_RANGES) restrict writeonly buffer Ranges { uvec2 ranges[]; };
layout(std430, binding = PLUME_BINDING_TILED_COVER) restrict writeonly buffer Cover { uint cover[]; };

uniform uint u_tile_count;
uniform uvec2 u_tiles;
uniform uint u_cover_mode; // PLUME_TILED_COVER_* (plume_gpu_layout.h)

// The first of the `count` entries whose tile is at least `tile`.
uint lower_bound(uint tile, uint count) {
    uint lo = 0u, hi = count;
    while (lo < hi) {
        uint mid = (lo + hi) >> 1;
        if (entries[mid].x < tile) lo = mid + 1u;
        else hi = mid;
    }
    return lo;
}

void main() {
    uint tile = gl_GlobalInvocationID.x;
    if (tile >= u_tile_count) return;
    uint count = control[PLUME_TILED_SORT_COUNT];
    uvec2 range = uvec2(lower_bound(tile, count), lower_bound(tile + 1u, count));
    ranges[tile] = range;
    bool covered = u_cover_mode == uint(PLUME_TILED_COVER_EVERY) || range.y > range.x;
    if (!covered && u_cover_mode == uint(PLUME_TILED_COVER_NEIGHBOURS)) {
        ivec2 at = ivec2(tile % u_tiles.x, tile / u_tiles.x);
        for (int dy = -1; dy <= 1 && !covered; ++dy)
            for (int dx = -1; dx <= 1 && !covered; ++dx) {
                ivec2 n = at + ivec2(dx, dy);
                if (any(lessThan(n, ivec2(0))) || any(greaterThanEqual(n, ivec2(u_tiles)))) continue;
                uint neighbour = uint(n.y) * u_tiles.x + uint(n.x);
                covered = lower_bound(neighbour + 1u, count) > lower_bound(neighbour, count);
            }
    }
    if (covered) cover[atomicAdd(control[PLUME_TILED_BLEND_ARGS + 1], 1u)] = tile;
}
