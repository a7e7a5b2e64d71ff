// One invocation per rank: its run of entries (from the inclusive scan of the
// tile counts) gets {tile, rank} for each tile of its box, so the entries come
// out in rank order. Nothing on a frame that overflows the budget.
#include "render/tiled_common.glsl"

layout(local_size_x = PLUME_TILED_PROJECT_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_TILED_COUNTS) restrict readonly buffer Counts { uint counts[]; };
layout(std430, binding = PLUME_BINDING_TILED_SPLATS) restrict readonly buffer Splats { vec4 splats[]; };
layout(std430, binding = PLUME_BINDING_TILED_ENTRIES) restrict writeonly buffer Entries { uvec2 entries[]; };

uniform uint u_capacity;
uniform uvec2 u_tiles;

void main() {
    uint rank = gl_GlobalInvocationID.x;
    if (rank >= u_capacity || rank >= drawn_ranks() || control[PLUME_TILED_OVERFLOW] != 0u)
        return;
    uint end = counts[rank], at = rank > 0u ? counts[rank - 1u] : 0u;
    if (end == at) return;
    vec4 box = splats[rank * SPLAT_VEC4S + SPLAT_TILES];
    uint first = floatBitsToUint(box.x), last = floatBitsToUint(box.y);
    uvec2 tile0 = uvec2(first & 0xFFFFu, first >> 16), tile1 = uvec2(last & 0xFFFFu, last >> 16);
    for (uint y = tile0.y; y <= tile1.y; ++y)
        for (uint x = tile0.x; x <= tile1.x; ++x) entries[at++] = uvec2(y * u_tiles.x + x, rank);
}
