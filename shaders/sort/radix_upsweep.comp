// A radix pass, step 1: how many pairs of each digit a tile holds. The first
// pass's upsweep also finds the count (the host's, read on the GPU and
// clamped, or the CPU's): it is dispatched for the bound, its tiles past the
// count leave at once, and its first workgroup writes the count, the tiles and
// the later tile passes' indirect arguments to the state.
#include "sort/radix_common.glsl"
#include "sort/workgroup_sum.glsl"

layout(local_size_x = RADIX_THREADS) in;
layout(std430, binding = PLUME_BINDING_SORT_PAIRS) restrict readonly buffer Source { uvec2 source[]; };
uniform uint u_first_pass; // 1: find the count (radix_common.glsl)

shared uint histogram[PLUME_RADIX_DIGITS];

void main() {
    uint tile = gl_WorkGroupID.x, thread = gl_LocalInvocationIndex;
    uint count = u_first_pass != 0u ? requested_count() : state[PLUME_RADIX_STATE_COUNT];
    uint tiles = (count + RADIX_TILE - 1u) / RADIX_TILE;
    if (u_first_pass != 0u && tile == 0u && thread == 0u) publish_count(count, tiles);
    if (tile >= tiles) return; // the whole workgroup: no barrier is skipped by some only
    histogram[thread] = 0u; // RADIX_THREADS == PLUME_RADIX_DIGITS here
    barrier();
    // Loads first, all in flight together (clamped: count >= 2 here), then
    // the counting.
    uint first = tile * RADIX_TILE + thread;
    uint keys[RADIX_ITEMS];
    for (uint i = 0u; i < RADIX_ITEMS; ++i) keys[i] = source[min(first + i * RADIX_THREADS, count - 1u)].x;
    for (uint i = 0u; i < RADIX_ITEMS; ++i)
        if (first + i * RADIX_THREADS < count) atomicAdd(histogram[digit_of(keys[i])], 1u);
    barrier();
    if (thread < (1u << u_digit_bits)) tile_counts[tile_count_index(thread, tile)] = histogram[thread];
}
