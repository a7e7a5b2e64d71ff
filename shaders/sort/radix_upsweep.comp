// A radix pass, step 1: how many pairs of each digit a tile holds. The first
// pass's upsweep also finds the count (the host's, read on the GPU and
// clamped, or the CPU's): it is dispatched for the bound, its tiles past the
// count leave at once, and its first workgroup writes the count, the tiles and
// the later tile passes' indirect arguments to the state.
layout(local_size_x = PLUME_RADIX_THREADS) in;
layout(std430, binding = PLUME_BINDING_SORT_PAIRS) restrict readonly buffer Source { uvec2 source[]; };
layout(std430, binding = PLUME_BINDING_SORT_HOST_COUNT) restrict readonly buffer HostCounts { uint host_counts[]; };

uniform uint u_first_pass;   // 1: find the count from the uniforms below
uniform uint u_indirect;     // 1: the count is host_counts[u_count_index], at most u_max_count
uniform uint u_direct_count;
uniform uint u_count_index;
uniform uint u_max_count;

shared uint histogram[PLUME_RADIX_DIGITS];

uint sort_count() {
    if (u_first_pass == 0u) return state[PLUME_RADIX_STATE_COUNT];
    uint count = u_indirect != 0u ? min(host_counts[u_count_index], u_max_count) : u_direct_count;
    return count < 2u ? 0u : count; // already sorted: no tile pass gets a workgroup
}

void main() {
    uint tile = gl_WorkGroupID.x, thread = gl_LocalInvocationIndex;
    uint count = sort_count();
    uint tiles = (count + RADIX_TILE - 1u) / RADIX_TILE;
    if (u_first_pass != 0u && tile == 0u && thread == 0u) {
        state[PLUME_RADIX_STATE_COUNT] = count;
        state[PLUME_RADIX_STATE_TILES] = tiles;
        state[PLUME_RADIX_STATE_DISPATCH + 0] = tiles;
        state[PLUME_RADIX_STATE_DISPATCH + 1] = 1u;
        state[PLUME_RADIX_STATE_DISPATCH + 2] = 1u;
    }
    if (tile >= tiles) return; // the whole workgroup: no barrier is skipped by some only
    histogram[thread] = 0u; // PLUME_RADIX_THREADS == PLUME_RADIX_DIGITS
    barrier();
    // Loads first, all in flight together (clamped: count >= 2 here), then
    // the counting.
    uint first = tile * RADIX_TILE + thread;
    uint keys[RADIX_ITEMS];
    for (uint i = 0u; i < RADIX_ITEMS; ++i) keys[i] = source[min(first + i * PLUME_RADIX_THREADS, count - 1u)].x;
    for (uint i = 0u; i < RADIX_ITEMS; ++i)
        if (first + i * PLUME_RADIX_THREADS < count) atomicAdd(histogram[digit_of(keys[i])], 1u);
    barrier();
    if (thread < (1u << u_digit_bits)) tile_counts[tile_count_index(thread, tile)] = histogram[thread];
}
