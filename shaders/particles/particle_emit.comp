// Initialises this update's new particles in the slots the prepare pass
// reserved (age 0 marks a slot live for the simulate pass).
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl"
#include "particles/particle_birth.glsl"
#include "particles/particle_spawn.glsl"

layout(local_size_x = PLUME_EMIT_GROUP_SIZE) in;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= emit_count) return;
    uint e = emitter_of_emission(i);
    uint id = emit_id_base + i;
    uint stream = random_stream(u_seed, id);
    spawn_particle(dead_slots[emit_base + i], id, e, stream, emitters[e].position_shape.xyz, vec3(0.0));
}
