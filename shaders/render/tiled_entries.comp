// One invocation per rank: its run of entries (from the inclusive scan of the
// tile counts) gets {tile, rank} for each tile of its box the projection
// counted, so the entries come out in rank order: every tile where it
// counted the whole box, else those the splat may show in
// (splat_row_tiles, as the projection found them). Nothing on a frame that
// overflows the budget.
#include "render/tiled_common.glsl"
#include "render/splat_cover.glsl"

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
    uint base = rank * SPLAT_VEC4S;
    vec4 box = splats[base + SPLAT_TILES];
    uvec2 tile0 = splat_word_pixel(box.x) / TILE_SIZE, tile1 = splat_word_pixel(box.y) / TILE_SIZE;
    vec4 map[SPLAT_MAP_VEC4S];
    for (uint k = 0u; k < uint(SPLAT_MAP_VEC4S); ++k) map[k] = splats[base + k];
    SplatCover cover = splat_cover(map, floatBitsToUint(box.z), box.w);
    bool whole_box = end - at == (tile1.x - tile0.x + 1u) * (tile1.y - tile0.y + 1u);
    for (uint y = tile0.y; y <= tile1.y; ++y) {
        ivec2 span = whole_box ? ivec2(tile0.x, tile1.x) : splat_row_tiles(map, cover, y, uvec2(tile0.x, tile1.x));
        for (int x = span.x; x <= span.y && at < end; ++x) entries[at++] = uvec2(y * u_tiles.x + uint(x), rank);
    }
    // The projection counted the same tiles; were it ever to count more,
    // the rest of the run names no tile (past the last, which the ranges
    // pass never reads), rather than whatever an earlier frame left there.
    while (at < end) entries[at++] = uvec2(u_tiles.x * u_tiles.y, rank);
}
