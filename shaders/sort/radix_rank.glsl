// The radix sort's ranking of a tile (radix_downsweep.comp, radix_single.comp).
// Pairs are ranked in groups of PLUME_RADIX_LANES: the group of invocation t
// is t / LANES, its lane t % LANES, and a group holds the RADIX_ITEMS x LANES
// consecutive pairs from tile position group * LANES * RADIX_ITEMS, round r
// being the LANES pairs from r * LANES on. So group, then round, then lane is
// the input order. With SUBGROUP_OPS the lanes are a 32-wide subgroup and
// match digits with one subgroup partition (SUBGROUP_PARTITIONS) or a ballot
// per digit bit; else they match through shared memory.
const uint LANES = PLUME_RADIX_LANES;
const uint GROUPS = PLUME_RADIX_THREADS / LANES;
const uint NO_DIGIT = 0xFFFFFFFFu; // a lane past the count

// Per group and digit: pairs seen so far, then the pairs of the digit in
// earlier groups.
shared uint group_counts[GROUPS * PLUME_RADIX_DIGITS];
#if !SUBGROUP_OPS
shared uint lane_digits[PLUME_RADIX_THREADS];
#endif

#if SUBGROUP_OPS
// The lanes of the subgroup whose digit is `digit`.
uint lanes_of_digit(uint digit, uint digit_bits) {
#if SUBGROUP_PARTITIONS
    return subgroupPartitionNV(digit).x;
#else
    uint peers = subgroupBallot(digit != NO_DIGIT).x;
    for (uint bit = 0u; bit < digit_bits; ++bit) {
        bool set = ((digit >> bit) & 1u) != 0u;
        uint lanes_set = subgroupBallot(set).x;
        peers &= set ? lanes_set : ~lanes_set;
    }
    return peers;
#endif
}
#endif

// The pair's rank among the pairs of its digit that its group has seen,
// counting this round's lower lanes; adds this round's pairs to the group's
// counts. Every invocation calls it together, once per round.
uint rank_in_group(uint digit, uint digit_bits, uint group, uint lane) {
    bool valid = digit != NO_DIGIT;
#if SUBGROUP_OPS
    uint peers = lanes_of_digit(digit, digit_bits);
    uint below = bitCount(peers & gl_SubgroupLtMask.x);
    // The highest lane of the digit adds the round's pairs and shares the
    // count before them.
    uint leader = valid ? uint(findMSB(peers)) : lane;
    uint before = 0u;
    if (valid && leader == lane) before = atomicAdd(group_counts[group * PLUME_RADIX_DIGITS + digit], bitCount(peers));
    before = subgroupShuffle(before, leader);
    return before + below;
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
    uint before = valid ? group_counts[group * PLUME_RADIX_DIGITS + digit] : 0u;
    barrier();
    if (valid && leader) group_counts[group * PLUME_RADIX_DIGITS + digit] = before + peers;
    return before + below;
#endif
}

// The ranks of the group's RADIX_ITEMS rounds (digits[r]: this lane's digit in
// round r, NO_DIGIT past the count), as rank_in_group gives them round after
// round. With subgroups and RANK_BATCHED the rounds' steps are interleaved:
// every round's match, then every round's leader atomic (in round order, so
// the counts still follow the input order), then every round's shuffle: their
// latencies overlap instead of adding up.
void rank_rounds(uint digits[RADIX_ITEMS], uint digit_bits, uint group, uint lane, out uint ranks[RADIX_ITEMS]) {
#if SUBGROUP_OPS && RANK_BATCHED
    uint peers[RADIX_ITEMS], before[RADIX_ITEMS];
    for (uint r = 0u; r < RADIX_ITEMS; ++r) peers[r] = lanes_of_digit(digits[r], digit_bits);
    for (uint r = 0u; r < RADIX_ITEMS; ++r) {
        before[r] = 0u;
        if (digits[r] != NO_DIGIT && uint(findMSB(peers[r])) == lane)
            before[r] = atomicAdd(group_counts[group * PLUME_RADIX_DIGITS + digits[r]], bitCount(peers[r]));
    }
    for (uint r = 0u; r < RADIX_ITEMS; ++r) {
        uint leader = digits[r] != NO_DIGIT ? uint(findMSB(peers[r])) : lane;
        ranks[r] = subgroupShuffle(before[r], leader) + bitCount(peers[r] & gl_SubgroupLtMask.x);
    }
#else
    for (uint r = 0u; r < RADIX_ITEMS; ++r) ranks[r] = rank_in_group(digits[r], digit_bits, group, lane);
#endif
}
