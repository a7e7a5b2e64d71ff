// An indirect sort's write-back: pair i of the sorted buffer goes to the
// geometry shader with whether it lies under the GPU count (min(u_count, the
// host's count)).
#include "shared/plume_gpu_layout.h"

uniform usamplerBuffer u_pairs;        // unit 0: the sorted pairs
uniform usamplerBuffer u_host_counts;  // unit 1: the host's count buffer (R32UI)
uniform uint u_count;
uniform int u_count_index;

flat out uvec2 v_pair;
flat out uint v_keep;

void main() {
    int i = gl_VertexID;
    v_pair = texelFetch(u_pairs, i).rg;
    uint count = min(u_count, texelFetch(u_host_counts, u_count_index).r);
    v_keep = uint(i) < count ? 1u : 0u;
}
