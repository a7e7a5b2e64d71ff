// The fragment path's key of one pair, shared by its two key passes (the
// transform-feedback one, feedback_keys.vert; the render pass of OpenGL ES,
// fragment_keys.frag): pair j is the slot u_first_slot + j round the ring
// (every particle alive was emitted within the last u_bound emissions, so
// the live ones are among those slots), keyed back-to-front by view depth; a
// free or culled slot gets PLUME_GPU_KEY_LAST (sorted behind, skipped by the
// draw).
#include "particles/particle_cull.glsl"
#include "sort/depth_key.glsl"
#include "particles/particle_sort_key.glsl"

uniform sampler2D u_position_age;   // unit 0
uniform uint u_particle_width;
uniform uint u_capacity;
uniform uint u_first_slot;

uvec2 particle_key_pair(uint j) {
    uint slot = (u_first_slot + j) % u_capacity;
    vec4 position_age = texelFetch(u_position_age, ivec2(int(slot % u_particle_width), int(slot / u_particle_width)), 0);
    uint key = PLUME_GPU_KEY_LAST;
    if (position_age.w >= 0.0 && can_be_seen(position_age.xyz))
        key = particle_sort_key(position_age.xyz, position_age.w);
    return uvec2(key, slot);
}
