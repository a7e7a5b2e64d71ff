// Onesweep, step 1, once per sort: every digit pass's count of each digit
// over all the pairs, from one read of the keys (the digit passes do not
// count again). A workgroup counts HISTOGRAM_TILE consecutive keys (radix.c:
// at most the 4096-pair tile, whatever the digit passes' tile, since fewer
// workgroups measured slower here). Dispatched for the bound: it also finds
// the count, as the reduce-then-scan's first upsweep does. Besides, for the
// passes after it: workgroup t zeroes the look-back words of every pass of
// digit tile t (there are at least as many workgroups as digit tiles), and
// the first workgroup zeroes the tickets. The counts it adds to were zeroed
// before it (radix.c), by a command of their own: a sort that zeroed them for
// the next one would leave them stale where the next one ran and it did not
// (the host's conditional rendering discards dispatches).
#include "sort/radix_common.glsl"
#include "sort/workgroup_sum.glsl"

layout(local_size_x = RADIX_THREADS) in;
layout(std430, binding = PLUME_BINDING_SORT_PAIRS) restrict readonly buffer Source { uvec2 source[]; };

uniform uvec4 u_pass_shifts; // per digit pass: its lowest key bit
uniform uvec4 u_pass_bits;   // per digit pass: its bits; 0 past the last pass
uniform uint u_pass_count;

shared uint histogram[PLUME_RADIX_MAX_PASSES * PLUME_RADIX_DIGITS];

uint pass_digit(uint key, uint pass) {
    return (key >> u_pass_shifts[pass]) & ((1u << u_pass_bits[pass]) - 1u);
}

// Phases (PHASE_CLOCKS): 1 zeroed, 2 counted, 3 added to the pass's counts.
void main() {
    PHASE_START();
    uint part = gl_WorkGroupID.x, thread = gl_LocalInvocationIndex;
    uint count = requested_count();
    uint tiles = (count + RADIX_TILE - 1u) / RADIX_TILE;
    uint parts = (count + HISTOGRAM_TILE - 1u) / HISTOGRAM_TILE;
    if (part == 0u) {
        if (thread == 0u) publish_count(count, tiles);
        if (thread < PLUME_RADIX_MAX_PASSES) state[PLUME_RADIX_STATE_TICKETS + thread] = 0u;
    }
    if (part >= parts) return; // the whole workgroup: no barrier is skipped by some only
    PHASE_BEGIN(PLUME_RADIX_MAX_PASSES, part);
    for (uint pass = 0u; pass < PLUME_RADIX_MAX_PASSES; ++pass) {
        histogram[pass * PLUME_RADIX_DIGITS + thread] = 0u;
        if (pass < u_pass_count && part < tiles) tile_counts[lookback_index(pass, part, thread)] = 0u;
    }
    barrier();
    PHASE_END(1u);
    // Loads first, all in flight together (clamped: count >= 2 here), then
    // the counting.
    uint first = part * HISTOGRAM_TILE + thread;
    uint keys[HISTOGRAM_ITEMS];
    for (uint i = 0u; i < HISTOGRAM_ITEMS; ++i) keys[i] = source[min(first + i * RADIX_THREADS, count - 1u)].x;
    for (uint i = 0u; i < HISTOGRAM_ITEMS; ++i) {
        if (first + i * RADIX_THREADS >= count) continue;
        for (uint pass = 0u; pass < PLUME_RADIX_MAX_PASSES; ++pass)
            if (pass < u_pass_count) atomicAdd(histogram[pass * PLUME_RADIX_DIGITS + pass_digit(keys[i], pass)], 1u);
    }
    barrier();
    PHASE_END(2u);
    for (uint pass = 0u; pass < PLUME_RADIX_MAX_PASSES; ++pass) {
        uint pairs = histogram[pass * PLUME_RADIX_DIGITS + thread];
        if (pairs != 0u) atomicAdd(state[pass_digit_index(pass, thread)], pairs);
    }
    PHASE_END_ALL(3u);
}
