// Shared by the sort passes. Pairs are uvec2 {key, value}, ordered by key and
// then by value: a total order, so equal keys never trade places between runs.
layout(std430, binding = PLUME_BINDING_SORT_PAIRS) restrict buffer SortPairs { uvec2 pairs[]; };

// Positions at or past the count hold this virtual maximum. Every compare-and-
// swap puts the smaller pair at the lower position, so a maximum sitting past
// the count never moves: those positions are neither read nor written.
const uvec2 PAIR_INFINITY = uvec2(0xFFFFFFFFu);

bool pair_greater(uvec2 a, uvec2 b) {
    return a.x > b.x || (a.x == b.x && a.y > b.y);
}

// After the call, low <= high.
void compare_swap(inout uvec2 low, inout uvec2 high) {
    bool swap = pair_greater(low, high);
    uvec2 smaller = swap ? high : low;
    high = swap ? low : high;
    low = smaller;
}

// The load is unconditional, at a clamped position (count >= 1), so an
// invocation's loads are all in flight together: a load behind a branch on
// the count waits for the one before it.
uvec2 load_pair(uint position, uint count) {
    uvec2 pair = pairs[min(position, count - 1u)];
    return position < count ? pair : PAIR_INFINITY;
}

void store_pair(uint position, uvec2 pair, uint count) {
    if (position < count) pairs[position] = pair;
}
