// Built after particle_common.glsl, particle_state.glsl, particle_birth.glsl
// and particle_spawn.glsl.
// Initialises this update's new particles in the slots the prepare pass
// reserved (age 0 marks a slot live for the simulate pass).
layout(local_size_x = PLUME_EMIT_GROUP_SIZE) in;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= emit_count) return;
    uint e = emitter_of_emission(i);
    uint id = emit_id_base + i;
    uint stream = random_stream(u_seed, id);
    spawn_particle(dead_slots[emit_base + i], id, e, stream, emitters[e].position_shape.xyz, vec3(0.0));
}
