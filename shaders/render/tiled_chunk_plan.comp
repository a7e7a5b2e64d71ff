// One workgroup, after the ranges: each tile's run cut into chunks of at most
// u_chunk_entries entries (at least one chunk, so that an empty tile's pixels
// are still written), an exclusive scan of the chunk counts over the tiles in
// blocks (any tile count: the block's total carries into the next), and
//   chunk_table[2 tile], [2 tile + 1]:  the tile's first slot, its chunks;
//   chunk_table[2 tiles + slot]:        the tile of each slot;
// then the chunked composite's indirect arguments (a 2D dispatch of rows of
// PLUME_TILED_CHUNK_ROW workgroups). The slots suffice by construction:
// max(1, ceil(n / K)) <= n / K + 1, so the chunks number at most
// budget / K + tiles, what render/tiled.c allocates. Dispatched only on a
// frame with entries that fit the budget (the control pass's arguments).
#include "render/tiled_common.glsl"

layout(local_size_x = PLUME_TILED_CHUNK_PLAN_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_TILED_RANGES) restrict readonly buffer Ranges { uvec2 ranges[]; };
layout(std430, binding = PLUME_BINDING_TILED_CHUNK_TABLE) restrict writeonly buffer ChunkTable { uint chunk_table[]; };

uniform uint u_tile_count;
uniform uint u_chunk_entries;

const uint GROUP = uint(PLUME_TILED_CHUNK_PLAN_GROUP_SIZE);
const uint PER = uint(PLUME_TILED_CHUNK_PLAN_PER_INVOCATION);
shared uint partial[PLUME_TILED_CHUNK_PLAN_GROUP_SIZE];

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint carry = 0u;
    for (uint block = 0u; block < u_tile_count; block += GROUP * PER) {
        uint first_tile = block + lid * PER;
        uint chunks[PLUME_TILED_CHUNK_PLAN_PER_INVOCATION];
        uint total = 0u;
        for (uint k = 0u; k < PER; ++k) {
            uint tile = first_tile + k;
            uvec2 run = tile < u_tile_count ? ranges[tile] : uvec2(0u);
            chunks[k] = tile < u_tile_count ? max(1u, (run.y - run.x + u_chunk_entries - 1u) / u_chunk_entries) : 0u;
            total += chunks[k];
        }
        partial[lid] = total;
        memoryBarrierShared();
        barrier();
        for (uint d = 1u; d < GROUP; d <<= 1) {
            uint left = lid >= d ? partial[lid - d] : 0u;
            barrier();
            partial[lid] += left;
            memoryBarrierShared();
            barrier();
        }
        uint slot = carry + (lid > 0u ? partial[lid - 1u] : 0u);
        for (uint k = 0u; k < PER; ++k) {
            uint tile = first_tile + k;
            if (tile >= u_tile_count) break;
            chunk_table[2u * tile] = slot;
            chunk_table[2u * tile + 1u] = chunks[k];
            for (uint j = 0u; j < chunks[k]; ++j) chunk_table[2u * u_tile_count + slot + j] = tile;
            slot += chunks[k];
        }
        carry += partial[GROUP - 1u];
        barrier(); // every invocation has read partial[] before the next block writes it
    }
    if (lid == 0u) {
        const uint ROW = uint(PLUME_TILED_CHUNK_ROW);
        control[PLUME_TILED_CHUNK_COUNT] = carry;
        control[PLUME_TILED_CHUNK_ARGS + 0] = min(carry, ROW);
        control[PLUME_TILED_CHUNK_ARGS + 1] = (carry + ROW - 1u) / ROW;
        control[PLUME_TILED_CHUNK_ARGS + 2] = 1u;
    }
}
