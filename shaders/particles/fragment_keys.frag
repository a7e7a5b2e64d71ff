// Built after particle_cull.glsl, depth_key.glsl and fragment_pair.glsl.
// The fragment path's key pass: pair j of the sort's input is the slot
// u_first_slot + j round the ring (every particle alive was emitted within
// the last u_bound emissions, so the live ones are among those slots), keyed
// back-to-front by view depth; a free or culled slot gets PLUME_GPU_KEY_LAST
// (sorted behind, skipped by the draw); past u_bound, padding.
uniform sampler2D u_position_age;   // unit 0
uniform uint u_particle_width;
uniform uint u_capacity;
uniform uint u_first_slot;
uniform uint u_bound;
uniform uint u_list_width;
uniform mat4 u_view;

out uvec2 out_pair;

void main() {
    uint j = pair_index(u_list_width);
    if (j >= u_bound) {
        out_pair = PAD_PAIR;
        return;
    }
    uint slot = (u_first_slot + j) % u_capacity;
    vec4 position_age = texelFetch(u_position_age, ivec2(int(slot % u_particle_width), int(slot / u_particle_width)), 0);
    uint key = PLUME_GPU_KEY_LAST;
    if (position_age.w >= 0.0 && can_be_seen(position_age.xyz))
        key = depth_key(-(u_view * vec4(position_age.xyz, 1.0)).z, true);
    out_pair = uvec2(key, slot);
}
