// One invocation per tile: where its run starts and ends in the entries sorted
// by tile (two binary searches), whether the blend covers it, and for the
// chunked composite (u_chunk_entries K > 0) its plan:
//   chunk_table[2 tile], [2 tile + 1]:  the tile's first slot, its chunks
//       (its run cut into chunks of at most K entries; at least one, so
//       that an empty tile's pixels are still written);
//   chunk_table[2 tiles + slot]:        the tile of each slot;
// and the chunked composite's indirect arguments (a 2D dispatch of rows of
// PLUME_TILED_CHUNK_ROW workgroups). A workgroup's tiles take consecutive
// slots (an exclusive scan in shared memory), the workgroups their runs in
// the order they reach the frame's chunk count (one atomic each), and the
// workgroup that finishes last writes the arguments: every workgroup plans
// its own tiles, where one workgroup walking every tile cost a fixed 0.04 ms
// a draw (notes/wave3-draws-h200.md). Where the slots go does not change a
// pixel: a chunk's partial is read back by its tile's first slot and index.
// The slots suffice by construction: max(1, ceil(n / K)) <= n / K + 1, so
// the chunks number at most budget / K + tiles, what
// render/tiled_resources.c (tiled_ensure_chunks) allocates. Dispatched only
// on a frame with entries that fit the budget (the control pass's
// arguments).
#include "render/tiled_common.glsl"

layout(local_size_x = PLUME_TILED_RANGES_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_TILED_ENTRIES) restrict readonly buffer Entries { uvec2 entries[]; };
layout(std430, binding = PLUME_BINDING_TILED_RANGES) restrict writeonly buffer Ranges { uvec2 ranges[]; };
layout(std430, binding = PLUME_BINDING_TILED_COVER) restrict writeonly buffer Cover { uint cover[]; };
layout(std430, binding = PLUME_BINDING_TILED_CHUNK_TABLE) restrict writeonly buffer ChunkTable { uint chunk_table[]; };

uniform uint u_tile_count;
uniform uvec2 u_tiles;
uniform uint u_cover_mode;    // PLUME_TILED_COVER_* (plume_gpu_layout.h)
uniform uint u_chunk_entries; // 0: a workgroup per tile, no plan

const uint GROUP = uint(PLUME_TILED_RANGES_GROUP_SIZE);
shared uint scanned[PLUME_TILED_RANGES_GROUP_SIZE];
shared uint group_first_slot;

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

// This workgroup's tiles' chunks given slots: `chunks` this invocation's
// tile's (0 past the last tile).
void plan_chunks(uint tile, uint chunks) {
    uint lid = gl_LocalInvocationID.x;
    scanned[lid] = chunks;
    memoryBarrierShared();
    barrier();
    for (uint d = 1u; d < GROUP; d <<= 1) {
        uint left = lid >= d ? scanned[lid - d] : 0u;
        barrier();
        scanned[lid] += left;
        memoryBarrierShared();
        barrier();
    }
    if (lid == GROUP - 1u) {
        group_first_slot = atomicAdd(control[PLUME_TILED_CHUNK_COUNT], scanned[lid]);
        // The count's addition before this workgroup is counted done, so
        // that the last one done reads every workgroup's.
        memoryBarrierBuffer();
        if (atomicAdd(control[PLUME_TILED_RANGES_DONE], 1u) == gl_NumWorkGroups.x - 1u) {
            // The others' additions, each made visible before its count
            // done, are read after this one's.
            memoryBarrierBuffer();
            uint total = atomicAdd(control[PLUME_TILED_CHUNK_COUNT], 0u);
            const uint ROW = uint(PLUME_TILED_CHUNK_ROW);
            control[PLUME_TILED_CHUNK_ARGS + 0] = min(total, ROW);
            control[PLUME_TILED_CHUNK_ARGS + 1] = (total + ROW - 1u) / ROW;
        }
    }
    memoryBarrierShared();
    barrier();
    if (chunks == 0u) return;
    uint slot = group_first_slot + scanned[lid] - chunks;
    chunk_table[2u * tile] = slot;
    chunk_table[2u * tile + 1u] = chunks;
    for (uint j = 0u; j < chunks; ++j) chunk_table[2u * u_tile_count + slot + j] = tile;
}

void main() {
    uint tile = gl_GlobalInvocationID.x;
    bool real = tile < u_tile_count;
    uint count = control[PLUME_TILED_SORT_COUNT];
    uvec2 range = uvec2(0u);
    if (real) {
        range = uvec2(lower_bound(tile, count), lower_bound(tile + 1u, count));
        ranges[tile] = range;
        bool covered = u_cover_mode == uint(PLUME_TILED_COVER_EVERY) || range.y > range.x;
        if (!covered && u_cover_mode == uint(PLUME_TILED_COVER_NEIGHBOURS)) {
            // A row's neighbours are consecutive tiles: the row has an entry
            // among them if its first past them comes after its first of
            // them. Two searches a row, where a search pair a neighbour took
            // eight (the empty tiles, most of a frame's, tried them all).
            uvec2 at = uvec2(tile % u_tiles.x, tile / u_tiles.x);
            uint left = at.x > 0u ? at.x - 1u : 0u, right = min(at.x + 1u, u_tiles.x - 1u);
            for (uint y = at.y > 0u ? at.y - 1u : 0u; y <= min(at.y + 1u, u_tiles.y - 1u) && !covered; ++y) {
                uint row = y * u_tiles.x;
                covered = lower_bound(row + right + 1u, count) > lower_bound(row + left, count);
            }
        }
        if (covered) cover[atomicAdd(control[PLUME_TILED_BLEND_ARGS + 1], 1u)] = tile;
    }
    uint k = u_chunk_entries;
    if (k > 0u) plan_chunks(tile, real ? max(1u, (range.y - range.x + k - 1u) / k) : 0u);
}
