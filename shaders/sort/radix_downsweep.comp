// A radix pass, step 3: each tile's pairs go to their place in the
// destination, stably. A pair's rank among the tile's pairs of its digit
// (radix_rank.glsl) is: the pairs of its digit in earlier groups, in earlier
// rounds of its group, in lower lanes of its round. The tile is then laid out
// by digit in shared memory and written from there, consecutive invocations
// writing consecutive places of one digit.
//
// Where the tile's pairs of a digit go: after every pair of a smaller digit
// and the digit's pairs in earlier tiles. Reduce-then-scan (ONESWEEP 0) has
// both from its upsweep and scan. Onesweep (ONESWEEP 1) has the first from
// the histogram pass and finds the second itself, by decoupled look-back:
// a workgroup takes its tile from a counter (so every earlier tile belongs to
// a workgroup that started before it), publishes its count of each digit
// (aggregate), sums the earlier tiles' words back to the first inclusive one,
// and publishes its own inclusive count. A word not yet published is waited
// for at most u_wait_limit reads; then the workgroup counts that tile's pairs
// of the digit itself from the source: no workgroup depends on another's
// progress for more than that bounded wait, so the pass is correct whatever
// the GL schedules, and only slower where a predecessor does not run.
// A look-back word is written and read through its coherent volatile view
// (a 32-bit store or load is whole: no reader sees half a word): a stale
// copy is an older state of the word (unpublished, or the aggregate before
// the inclusive count), which costs a longer walk, never a wrong sum; loads
// measured faster than atomic reads, stores slightly faster than atomic
// exchanges (notes/sort-performance.md).
#include "sort/radix_common.glsl"
#include "sort/workgroup_sum.glsl"
#include "sort/radix_rank.glsl"

layout(local_size_x = RADIX_THREADS) in;
layout(std430, binding = PLUME_BINDING_SORT_PAIRS) restrict readonly buffer Source { uvec2 source[]; };
layout(std430, binding = PLUME_BINDING_RADIX_DESTINATION) restrict writeonly buffer Destination { uvec2 destination[]; };

// RADIX_SHARED_PAIRS (radix.c): the tile's places laid out at once; a tile
// larger than that (8192 pairs in 48 KB, or wider workgroups' tiles beside
// their larger counts) goes through in parts of that many places, one after
// the other.
shared uvec2 tile_pairs[RADIX_SHARED_PAIRS];
shared uint digit_start[PLUME_RADIX_DIGITS];  // the tile's first place of each digit
shared uint digit_target[PLUME_RADIX_DIGITS]; // destination index minus tile place, per digit

#if ONESWEEP
uniform uint u_pass;       // the digit pass: its ticket, look-back words and counts
uniform uint u_wait_limit; // reads of an unpublished look-back word before counting the tile itself
shared uint taken_tile;
layout(std430, binding = PLUME_BINDING_RADIX_TILE_COUNTS) coherent volatile buffer LookbackWords {
    uint lookback_words[];
};

// The pairs of `digit` in tile `tile`, counted from the source (a word that
// was not published in time).
uint count_in_tile(uint tile, uint digit, uint count) {
    uint first = tile * RADIX_TILE, last = min(first + RADIX_TILE, count), pairs = 0u;
    for (uint i = first; i < last; ++i) pairs += digit_of(source[i].x) == digit ? 1u : 0u;
    return pairs;
}

// The tile's count of `digit` as its look-back word, before the earlier
// tiles' are known (the first tile's is already inclusive).
void publish_aggregate(uint tile, uint digit, uint in_tile) {
    uint word = (tile == 0u ? PLUME_RADIX_LOOKBACK_INCLUSIVE : PLUME_RADIX_LOOKBACK_AGGREGATE) | in_tile;
    lookback_words[lookback_index(u_pass, tile, digit)] = word;
}

// The pairs of `digit` in the tiles before `tile`, from their look-back
// words; then publishes this tile's inclusive count (`in_tile` its own).
uint look_back(uint tile, uint digit, uint in_tile, uint count) {
    uint sum = 0u;
    for (uint earlier = tile; earlier > 0u;) {
        --earlier;
        uint index = lookback_index(u_pass, earlier, digit);
        uint word = lookback_words[index];
        for (uint wait = 0u; word < PLUME_RADIX_LOOKBACK_AGGREGATE && wait < u_wait_limit; ++wait)
            word = lookback_words[index];
        if (word < PLUME_RADIX_LOOKBACK_AGGREGATE)
            word = PLUME_RADIX_LOOKBACK_AGGREGATE | count_in_tile(earlier, digit, count);
        sum += word & PLUME_RADIX_LOOKBACK_COUNT_MASK;
        if (word >= PLUME_RADIX_LOOKBACK_INCLUSIVE) break;
    }
    if (tile != 0u)
        lookback_words[lookback_index(u_pass, tile, digit)] = PLUME_RADIX_LOOKBACK_INCLUSIVE | (sum + in_tile);
    return sum;
}
#endif

// Phases (PHASE_CLOCKS): 1 loads issued, 2 ranked, 3 summed (thread 0's
// look-back starts), 4 looked back, 5 written.
void main() {
    PHASE_START();
    uint thread = thread_index();
    uint group = thread / LANES, lane = thread % LANES;
    uint count = state[PLUME_RADIX_STATE_COUNT];
    for (uint i = thread; i < GROUPS * DIGIT_WORDS; i += RADIX_THREADS) group_counts[i] = 0u;
    // The per-digit steps: one invocation each, the first PLUME_RADIX_DIGITS
    // of a wider workgroup (the others add zeros to its sums). The digit's
    // pairs in the whole pass are read now, so that the read is in flight
    // while ranking.
    uint digit = thread;
    bool is_digit = digit < PLUME_RADIX_DIGITS;
    bool used = digit < (1u << u_digit_bits);
#if ONESWEEP
    uint digit_pairs = used ? state[pass_digit_index(u_pass, digit)] : 0u;
    if (thread == 0u) taken_tile = atomicAdd(state[PLUME_RADIX_STATE_TICKETS + u_pass], 1u);
    barrier();
    uint tile = taken_tile;
    PHASE_BEGIN(u_pass, tile);
#else
    uint digit_pairs = used ? state[PLUME_RADIX_STATE_DIGIT_TOTALS + digit] : 0u;
    uint tile = gl_WorkGroupID.x;
#endif

    // Loads first, all in flight together (clamped: count >= 2 here).
    uint first = tile * RADIX_TILE + group * LANES * RADIX_ITEMS + lane;
    uvec2 held[RADIX_ITEMS];
    uint rank[RADIX_ITEMS];
    for (uint r = 0u; r < RADIX_ITEMS; ++r) held[r] = source[min(first + r * LANES, count - 1u)];
    barrier();
    PHASE_END(1u);
    for (uint r = 0u; r < RADIX_ITEMS; ++r) {
        uint d = first + r * LANES < count ? digit_of(held[r].x) : NO_DIGIT;
        rank[r] = rank_in_group(d, u_digit_bits, group, lane);
    }
    barrier();
    PHASE_END(2u);

    // Per digit: the groups' counts become their exclusive sum over the
    // groups (a word of two digits at a time: neither half overflows into
    // the other, a tile having fewer than 2^16 pairs), the digit's count in
    // the tile going through digit_start; then the digit's start in the
    // tile, and where the tile's pairs of the digit go: after every pair of a
    // smaller digit and the digit's pairs of earlier tiles.
    if (thread < DIGIT_WORDS) {
        uint in_tile_word = 0u;
        for (uint g = 0u; g < GROUPS; ++g) {
            uint index = g * DIGIT_WORDS + thread;
            uint seen = group_counts[index];
            group_counts[index] = in_tile_word;
            in_tile_word += seen;
        }
        digit_start[2u * thread] = in_tile_word & 0xFFFFu;
        digit_start[2u * thread + 1u] = in_tile_word >> 16u;
    }
    barrier();
    uint in_tile = is_digit ? digit_start[digit] : 0u;
#if ONESWEEP
    // Published at once, so that later tiles wait as little as possible.
    if (used) publish_aggregate(tile, digit, in_tile);
#endif
    uint unused_total;
    uint start = workgroup_exclusive_sum(in_tile, thread, unused_total);
    uint smaller_digits = workgroup_exclusive_sum(digit_pairs, thread, unused_total);
    if (is_digit) digit_start[digit] = start; // every in_tile was read before the sums' barriers
#if ONESWEEP
    PHASE_END(3u);
    uint earlier_tiles = used ? look_back(tile, digit, in_tile, count) : 0u;
    if (used) digit_target[digit] = smaller_digits + earlier_tiles - start;
#else
    if (used) digit_target[digit] = smaller_digits + tile_counts[tile_count_index(digit, tile)] - start;
#endif
    barrier();
    PHASE_END(4u);

    for (uint r = 0u; r < RADIX_ITEMS; ++r) {
        uint d = digit_of(held[r].x);
        rank[r] += digit_start[d] + group_count(group, d); // the place in the tile
    }
    uint tile_size = min(count - tile * RADIX_TILE, RADIX_TILE);
    for (uint part = 0u; part < RADIX_TILE; part += RADIX_SHARED_PAIRS) {
        if (part != 0u) barrier(); // the part before has been read
        for (uint r = 0u; r < RADIX_ITEMS; ++r)
            if (first + r * LANES < count && rank[r] - part < RADIX_SHARED_PAIRS) tile_pairs[rank[r] - part] = held[r];
        barrier();
        uint part_end = min(tile_size, part + RADIX_SHARED_PAIRS);
        for (uint place = part + gl_LocalInvocationIndex; place < part_end; place += RADIX_THREADS) {
            uvec2 pair = tile_pairs[place - part];
            destination[digit_target[digit_of(pair.x)] + place] = pair;
        }
    }
    PHASE_END_ALL(5u);
}
