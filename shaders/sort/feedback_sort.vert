// Built with the network's macros defined by feedback_sort.c for a group of
// 2^GROUP_BITS pairs (GROUP_BITS 1 .. 6).
// One pass of the bitonic network through transform feedback (rasterizer
// discard: nothing reaches the ROPs): each vertex owns the GROUP_SIZE pairs
// whose positions differ only in the pass's GROUP_BITS chosen position bits,
// reads them from the previous pass's buffer (a buffer texture), runs the
// pass's stages on them in registers (the network is unrolled by the macros:
// every index is a constant) and writes them, in member order, as its
// GROUP_SIZE / 2 outputs: vertex v's pairs land at v * GROUP_SIZE onwards.
// Where a pair sits in a buffer is a permutation of its position's bits (the
// layout, tracked by feedback_sort.c): a vertex finds its members' storage
// from runs of its own index's bits (u_run_*) and a per-member offset.
//
// LOCAL pass (the first): the chosen bits are the lowest, the layout is
// the identity, and the vertex sorts its block by every merge level up to
// GROUP_BITS (direction of the top level from bit 0 of v, or ascending for
// every block with u_ascending: the merge sort's first pass, whose runs
// feedback_merge.vert then merges); positions from the count on become
// PAD_PAIR, so no pass sees the host's data past it.
// MERGE pass: stages on member bits u_top_bit .. 0 of one merge level,
// descending where bit u_direction_bit of v is set.
#include "sort/pair_order.glsl"

uniform usamplerBuffer u_pairs;        // unit 0: the previous pass's pairs
uniform usamplerBuffer u_host_counts;  // unit 1: the host's count buffer (R32UI)
uniform uint u_count;
uniform bool u_count_from_buffer;
uniform int u_count_index;
uniform bool u_local_sort;
uniform bool u_ascending;
uniform int u_run_count;
uniform int u_run_shift[PLUME_FEEDBACK_SORT_MAX_RUNS];
uniform uint u_run_mask[PLUME_FEEDBACK_SORT_MAX_RUNS];
uniform int u_run_target[PLUME_FEEDBACK_SORT_MAX_RUNS];
uniform uint u_member_offset[GROUP_SIZE];
uniform int u_direction_bit;
uniform int u_top_bit;

DECLARE_OUTPUTS

void main() {
    uint v = uint(gl_VertexID);
    uint base = 0u;
    for (int r = 0; r < u_run_count; ++r)
        base |= ((v >> uint(u_run_shift[r])) & u_run_mask[r]) << uint(u_run_target[r]);
    LOAD_GROUP
    if (u_local_sort) {
        uint count = u_count;
        if (u_count_from_buffer) count = min(count, texelFetch(u_host_counts, u_count_index).r);
        uint first = v << uint(GROUP_BITS);
        PAD_GROUP
        bool up = u_ascending || (v & 1u) == 0u;
        LOCAL_SORT
    } else {
        bool up = ((v >> uint(u_direction_bit)) & 1u) == 0u;
        int top_bit = u_top_bit;
        MERGE_STAGES
    }
    STORE_GROUP
}
