// The radix sort's ranking of a tile (radix_downsweep.comp, radix_single.comp).
// Pairs are ranked in groups of PLUME_RADIX_LANES: the group of invocation t
// is t / LANES, its lane t % LANES, and a group holds the RADIX_ITEMS x LANES
// consecutive pairs from tile position group * LANES * RADIX_ITEMS, round r
// being the LANES pairs from r * LANES on. So group, then round, then lane is
// the input order. With SUBGROUP_OPS the lanes are a 32-wide subgroup and
// match digits with a ballot per digit bit (measured faster than a subgroup
// partition with 512 invocations a workgroup: notes/sort-performance.md);
// else they match through shared memory.
#include "sort/radix_common.glsl"

const uint LANES = PLUME_RADIX_LANES;
const uint GROUPS = RADIX_THREADS / LANES;
const uint NO_DIGIT = 0xFFFFFFFFu; // a lane past the count

// Per group and digit: pairs seen so far, then the pairs of the digit in
// earlier groups; 16 bits, two digits a word (2w in the low half of word w),
// so that wide workgroups' counts leave room for the tile (a tile holds at
// most 2^16 - 1 pairs: radix.c).
const uint DIGIT_WORDS = PLUME_RADIX_DIGITS / 2u;
shared uint group_counts[GROUPS * DIGIT_WORDS];

uint half_shift(uint digit) {
    return (digit & 1u) * 16u;
}

// The group's count of `digit` in its word.
uint group_count(uint group, uint digit) {
    return (group_counts[group * DIGIT_WORDS + digit / 2u] >> half_shift(digit)) & 0xFFFFu;
}
#if !SUBGROUP_OPS
shared uint lane_digits[RADIX_THREADS];
#endif

// The pair's rank among the pairs of its digit that its group has seen,
// counting this round's lower lanes; adds this round's pairs to the group's
// counts. Every invocation calls it together, once per round.
uint rank_in_group(uint digit, uint digit_bits, uint group, uint lane) {
    bool valid = digit != NO_DIGIT;
#if SUBGROUP_OPS
    uint peers = subgroupBallot(valid).x;
    for (uint bit = 0u; bit < digit_bits; ++bit) {
        bool set = ((digit >> bit) & 1u) != 0u;
        uint lanes_set = subgroupBallot(set).x;
        peers &= set ? lanes_set : ~lanes_set;
    }
    uint below = bitCount(peers & gl_SubgroupLtMask.x);
    // The highest lane of the digit adds the round's pairs and shares the
    // count before them.
    uint leader = valid ? uint(findMSB(peers)) : lane;
    uint before = 0u;
    // Atomic: the leader of the digit that shares the word may add at once.
    if (valid && leader == lane)
        before = atomicAdd(group_counts[group * DIGIT_WORDS + digit / 2u], bitCount(peers) << half_shift(digit));
    before = subgroupShuffle(before, leader);
    return ((before >> half_shift(digit)) & 0xFFFFu) + below;
#else
    uint group_first = group * LANES;
    lane_digits[group_first + lane] = digit;
    barrier();
    uint below = 0u, peers = 0u;
    bool leader = true;
    for (uint other = 0u; other < LANES; ++other) {
        if (lane_digits[group_first + other] != digit) continue;
        ++peers;
        if (other < lane) ++below;
        if (other > lane) leader = false;
    }
    uint before = valid ? group_count(group, digit) : 0u;
    barrier();
    // Atomic: the leaders of the two digits of a word may add at once.
    if (valid && leader) atomicAdd(group_counts[group * DIGIT_WORDS + digit / 2u], peers << half_shift(digit));
    return before + below;
#endif
}
