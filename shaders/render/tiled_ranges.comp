// One invocation per tile: where its run starts and ends in the entries sorted
// by tile (two binary searches).
// Dispatched only on a frame with entries that fit the budget (the control
// pass's arguments).
#include "render/tiled_common.glsl"

layout(local_size_x = PLUME_TILED_RANGES_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_TILED_ENTRIES) restrict readonly buffer Entries { uvec2 entries[]; };
layout(std430, binding = PLUME_BINDING_TILED_RANGES) restrict writeonly buffer Ranges { uvec2 ranges[]; };

uniform uint u_tile_count;

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
    ranges[tile] = uvec2(lower_bound(tile, count), lower_bound(tile + 1u, count));
}
