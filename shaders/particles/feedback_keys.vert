// The fragment path's key pass, recorded by transform feedback into the
// sort's input buffer: one vertex a pair (particle_key_pair.glsl), u_bound of
// them; the sort pads past them.
#include "particles/particle_key_pair.glsl"

flat out uvec2 out_pair;

void main() {
    out_pair = particle_key_pair(uint(gl_VertexID));
}
