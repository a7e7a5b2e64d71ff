// Built with the macros feedback_sort.c defines for groups of 2^GROUP_BITS
// pairs (GROUP_BITS 1 .. 6).
// One pass of the merge sort through transform feedback (rasterizer discard):
// the buffer holds sorted runs of 2^u_run_bits pairs (the last one shorter
// where u_total ends it), and the pass merges them two by two into runs of
// twice that, in position order. Vertex v owns the GROUP_SIZE outputs from
// v * GROUP_SIZE of its merged run:
// - where they start on the merge path: a binary search for how many of the
//   first k outputs come from the first run A (the rest from B), taking A's
//   pair first where two are equal, so that every vertex splits the same way;
// - its outputs are then the GROUP_SIZE least of A's next GROUP_SIZE pairs and
//   B's next GROUP_SIZE: A's t-th against B's (GROUP_SIZE - 1 - t)-th keeps the
//   lesser (the first stage of a bitonic merge, A ascending against B
//   descending), which leaves them a bitonic sequence, and the merge's other
//   GROUP_BITS stages sort it (the network unrolled: registers only).
// Past a run's end a pair reads as PAD_PAIR, which no pair sorts behind; a
// pair equal to it is the same pair, so which of them is kept never shows.
#include "sort/pair_order.glsl"

uniform usamplerBuffer u_pairs;        // unit 0: the previous pass's pairs
uniform uint u_total;                  // pairs in the buffer, a multiple of GROUP_SIZE
uniform uint u_run_bits;               // the input runs hold 2^u_run_bits pairs

DECLARE_OUTPUTS

uvec2 pair_at(uint i) {
    return texelFetch(u_pairs, int(i)).rg;
}

// Pair i of a run that ends at `end`, PAD_PAIR past it.
uvec2 run_pair(uint i, uint end) {
    return i < end ? pair_at(i) : PAD_PAIR;
}

uvec2 lesser(uvec2 a, uvec2 b) {
    return pair_less(b, a) ? b : a;
}

void main() {
    uint first = uint(gl_VertexID) << uint(GROUP_BITS);
    uint run = 1u << u_run_bits;
    uint a_begin = first & ~(2u * run - 1u);
    uint a_end = min(a_begin + run, u_total);
    uint b_end = min(a_begin + 2u * run, u_total);
    uint b_begin = a_end;
    uint k = first - a_begin;               // outputs of the merged run before this vertex's
    uint low = k > b_end - b_begin ? k - (b_end - b_begin) : 0u;
    uint high = min(k, a_end - a_begin);
    while (low < high) {
        uint middle = (low + high) >> 1;
        // A's pair `middle` comes after B's pair k - 1 - middle: fewer of A's.
        if (pair_less(pair_at(b_begin + k - 1u - middle), pair_at(a_begin + middle)))
            high = middle;
        else
            low = middle + 1u;
    }
    uint a = a_begin + low, b = b_begin + (k - low);
    HALF_CLEAN
    bool up = true;
    int top_bit = GROUP_BITS - 1;
    MERGE_STAGES
    STORE_GROUP
}
