// The first dispatch of a radix sort: the count (the host's, read on the GPU
// and clamped, or the CPU's), its tiles and the tile passes' indirect
// arguments. One invocation.
// Defines: RADIX_TILE.
layout(local_size_x = 1) in;
layout(std430, binding = PLUME_BINDING_SORT_STATE) restrict writeonly buffer RadixState { uint state[]; };
layout(std430, binding = PLUME_BINDING_SORT_HOST_COUNT) restrict readonly buffer HostCounts { uint host_counts[]; };

uniform uint u_indirect;     // 1: the count is host_counts[u_count_index], at most u_max_count
uniform uint u_direct_count;
uniform uint u_count_index;
uniform uint u_max_count;

void main() {
    uint count = u_indirect != 0u ? min(host_counts[u_count_index], u_max_count) : u_direct_count;
    if (count < 2u) count = 0u; // already sorted: every tile pass gets no workgroup
    uint tiles = (count + RADIX_TILE - 1u) / RADIX_TILE;
    state[PLUME_RADIX_STATE_COUNT] = count;
    state[PLUME_RADIX_STATE_TILES] = tiles;
    state[PLUME_RADIX_STATE_DISPATCH + 0] = tiles;
    state[PLUME_RADIX_STATE_DISPATCH + 1] = 1u;
    state[PLUME_RADIX_STATE_DISPATCH + 2] = 1u;
}
