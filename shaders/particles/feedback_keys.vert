// The fragment path's key pass, recorded by transform feedback into the
// sort's input buffer: pair j is the slot u_first_slot + j round the ring
// (every particle alive was emitted within the last u_bound emissions, so
// the live ones are among those slots), keyed back-to-front by view depth; a
// free or culled slot gets PLUME_GPU_KEY_LAST (sorted behind, skipped by the
// draw). One vertex a pair, u_bound of them; the sort pads past them.
#include "particles/particle_cull.glsl"
#include "sort/depth_key.glsl"
#include "particles/particle_sort_key.glsl"

uniform sampler2D u_position_age;   // unit 0
uniform uint u_particle_width;
uniform uint u_capacity;
uniform uint u_first_slot;

flat out uvec2 out_pair;

void main() {
    uint slot = (u_first_slot + uint(gl_VertexID)) % u_capacity;
    vec4 position_age = texelFetch(u_position_age, ivec2(int(slot % u_particle_width), int(slot / u_particle_width)), 0);
    uint key = PLUME_GPU_KEY_LAST;
    if (position_age.w >= 0.0 && can_be_seen(position_age.xyz))
        key = particle_sort_key(position_age.xyz, position_age.w);
    out_pair = uvec2(key, slot);
}
