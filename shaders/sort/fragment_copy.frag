// Copies pairs between layouts: the host's texture (or the staging texture of
// a buffer sort) into the network's, padding up to its power of two, and the
// sorted pairs back. The count is u_count, or with u_count_from_buffer the
// uint at u_count_index of the host's count buffer (a buffer texture), at
// most u_count: positions from it on are padding going in, and are left as
// they are (discarded) going out.
#include "sort/pair_order.glsl"
#include "sort/fragment_pair.glsl"

uniform usampler2D u_source;
uniform uint u_source_width;
uniform uint u_target_width;
uniform uint u_count;
uniform bool u_count_from_buffer;
#ifndef PLUME_GLSL_ES // OpenGL ES 3.0 has no buffer textures: the sorter reads no count from a buffer there
uniform usamplerBuffer u_host_counts;
#endif
uniform int u_count_index;
uniform bool u_discard_past_count;

out uvec2 out_pair;

void main() {
    uint i = pair_index(u_target_width);
    uint count = u_count;
#ifndef PLUME_GLSL_ES
    if (u_count_from_buffer) count = min(count, texelFetch(u_host_counts, u_count_index).r);
#endif
    if (i >= count) {
        if (u_discard_past_count) discard;
        out_pair = PAD_PAIR;
        return;
    }
    out_pair = fetch_pair(u_source, u_source_width, i);
}
