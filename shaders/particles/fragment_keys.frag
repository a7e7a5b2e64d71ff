// The fragment path's key pass on OpenGL ES 3.0 (no transform feedback into
// a sortable buffer, no buffer textures): a render pass writes pair j
// (particle_key_pair.glsl) into texel (j % u_particle_width, j /
// u_particle_width) of the list texture, which the render-pass sort then
// sorts in place and the draw reads.
#include "particles/particle_key_pair.glsl"
#include "sort/fragment_pair.glsl"

layout(location = 0) out uvec2 out_pair;

void main() {
    out_pair = particle_key_pair(pair_index(u_particle_width));
}
