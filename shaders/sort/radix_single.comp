// The radix sort of a count that fits one tile (radix.c): one workgroup runs
// every digit pass in one dispatch. The pairs are read once into registers;
// each pass ranks them as the downsweep does (radix_rank.glsl), lays them out
// by digit in shared memory and reads them back in the tile's order, which is
// the input order of the next pass; the last pass's order is written back in
// place. Stable, as the tile passes are: equal keys keep their input order.
layout(local_size_x = PLUME_RADIX_THREADS) in;
layout(std430, binding = PLUME_BINDING_SORT_PAIRS) restrict buffer Pairs { uvec2 pairs[]; };

uniform uvec4 u_pass_shifts; // per digit pass: its lowest key bit
uniform uvec4 u_pass_bits;   // per digit pass: its bits
uniform uint u_pass_count;

shared uvec2 tile_pairs[RADIX_TILE];
shared uint digit_start[PLUME_RADIX_DIGITS]; // the tile's first place of each digit

void main() {
    uint thread = thread_index();
    uint group = thread / LANES, lane = thread % LANES;
    uint count = requested_count(); // at most RADIX_TILE: radix.c dispatches this program only then
    if (count == 0u) return;        // the whole workgroup: no barrier is skipped by some only
    uint first = group * LANES * RADIX_ITEMS + lane;
    uvec2 held[RADIX_ITEMS];
    for (uint r = 0u; r < RADIX_ITEMS; ++r) held[r] = pairs[min(first + r * LANES, count - 1u)];
    for (uint pass = 0u; pass < PLUME_RADIX_MAX_PASSES; ++pass) {
        if (pass >= u_pass_count) break; // uniform: every invocation leaves together
        uint shift = u_pass_shifts[pass], bits = u_pass_bits[pass];
        for (uint i = thread; i < GROUPS * PLUME_RADIX_DIGITS; i += PLUME_RADIX_THREADS) group_counts[i] = 0u;
        barrier();
        uint digits[RADIX_ITEMS], rank[RADIX_ITEMS];
        for (uint r = 0u; r < RADIX_ITEMS; ++r)
            digits[r] = first + r * LANES < count ? (held[r].x >> shift) & ((1u << bits) - 1u) : NO_DIGIT;
        for (uint r = 0u; r < RADIX_ITEMS; ++r) rank[r] = rank_in_group(digits[r], bits, group, lane);
        barrier();
        // Per digit (one invocation each): the groups' counts become their
        // exclusive sum over the groups, then the digit's start in the tile.
        uint digit = thread; // PLUME_RADIX_THREADS == PLUME_RADIX_DIGITS
        uint in_tile = 0u;
        for (uint g = 0u; g < GROUPS; ++g) {
            uint index = g * PLUME_RADIX_DIGITS + digit;
            uint seen = group_counts[index];
            group_counts[index] = in_tile;
            in_tile += seen;
        }
        uint unused_total;
        digit_start[digit] = workgroup_exclusive_sum(in_tile, thread, unused_total);
        barrier();
        for (uint r = 0u; r < RADIX_ITEMS; ++r) {
            if (first + r * LANES >= count) continue;
            uint d = digits[r];
            tile_pairs[digit_start[d] + group_counts[group * PLUME_RADIX_DIGITS + d] + rank[r]] = held[r];
        }
        barrier();
        for (uint r = 0u; r < RADIX_ITEMS; ++r)
            if (first + r * LANES < count) held[r] = tile_pairs[first + r * LANES];
        // No barrier: this pass read group_counts and digit_start before the
        // one above, and the next pass writes tile_pairs after two more.
    }
    for (uint r = 0u; r < RADIX_ITEMS; ++r)
        if (first + r * LANES < count) pairs[first + r * LANES] = held[r];
}
