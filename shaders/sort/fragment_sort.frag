// Built with GROUP_BITS (1 .. 4) defined.
// One pass of the bitonic network (seeds 000 and 002) for a group of
// 2^GROUP_BITS pairs whose positions differ only in the bits u_group_bits:
// each fragment reads its group, runs the pass's stages on it in registers
// (each a compare-exchange across one of those bits, ascending where bit
// `level` of the lower position is 0), and writes its own position. With one
// bit this is the seeds' pass: one stage, two reads; with k bits a pass reads
// 2^k texels and runs up to k stages (or every level up to k at once: the
// local sort of the first pass).
#include "sort/pair_order.glsl"
#include "sort/fragment_pair.glsl"

#define GROUP_SIZE (1 << GROUP_BITS)

uniform usampler2D u_pairs;        // the previous pass's output, width 2^u_width_log2
uniform int u_width_log2;
uniform int u_group_bits[GROUP_BITS];
uniform int u_stage_count;
uniform int u_stage_level[PLUME_FRAGMENT_SORT_MAX_STAGES];  // merge level: blocks of 2^level
uniform int u_stage_bit[PLUME_FRAGMENT_SORT_MAX_STAGES];    // index into u_group_bits

out uvec2 out_pair;

void main() {
    uint width_mask = (1u << uint(u_width_log2)) - 1u;
    uint self = uint(gl_FragCoord.y) << uint(u_width_log2) | uint(gl_FragCoord.x);
    uint base = self;
    uint own = 0u;
    for (int t = 0; t < GROUP_BITS; ++t) {
        uint bit = 1u << uint(u_group_bits[t]);
        if ((self & bit) != 0u) own |= 1u << uint(t);
        base &= ~bit;
    }
    uvec2 v[GROUP_SIZE];
    uint position[GROUP_SIZE];
    for (int j = 0; j < GROUP_SIZE; ++j) {
        uint p = base;
        for (int t = 0; t < GROUP_BITS; ++t)
            if ((j & (1 << t)) != 0) p |= 1u << uint(u_group_bits[t]);
        position[j] = p;
        v[j] = texelFetch(u_pairs, ivec2(int(p & width_mask), int(p >> uint(u_width_log2))), 0).rg;
    }
    for (int s = 0; s < u_stage_count; ++s) {
        int across = 1 << u_stage_bit[s];
        uint level = uint(u_stage_level[s]);
        for (int j = 0; j < GROUP_SIZE; ++j) {
            if ((j & across) != 0) continue;
            int partner = j | across;
            bool ascending = ((position[j] >> level) & 1u) == 0u;
            bool swap = ascending ? pair_less(v[partner], v[j]) : pair_less(v[j], v[partner]);
            if (swap) {
                uvec2 t = v[j];
                v[j] = v[partner];
                v[partner] = t;
            }
        }
    }
    out_pair = v[own];
}
