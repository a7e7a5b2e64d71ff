// Built after particle_common.glsl, particle_state.glsl and
// particle_spawn.glsl.
// Initialises this update's new particles in the slots the prepare pass
// reserved (age 0 marks a slot live for the simulate pass). Emission i belongs
// to the first emitter whose running total u_emit_end[e] exceeds i.
layout(local_size_x = PLUME_EMIT_GROUP_SIZE) in;

uniform uint u_seed;
uniform uint u_emit_end[PLUME_GPU_MAX_EMITTERS];

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= emit_count) return;
    uint e = 0u;
    while (e + 1u < uint(PLUME_GPU_MAX_EMITTERS) && i >= u_emit_end[e]) ++e;
    uint id = emit_id_base + i;
    uint stream = random_stream(u_seed, id);
    spawn_particle(dead_slots[emit_base + i], id, e, stream, emitters[e].position_shape.xyz, vec3(0.0));
}
