// Built after particle_common.glsl, particle_state.glsl and
// particle_birth.glsl.
// Initialises this update's new particles in the slots the prepare pass
// reserved (age 0 marks a slot live for the simulate pass).
layout(local_size_x = PLUME_EMIT_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_EMITTERS) restrict readonly buffer Emitters { Emitter emitters[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= emit_count) return;
    // A local copy: NVIDIA refuses a restrict readonly buffer's element as a
    // function argument (error C1317).
    Emitter emitter = emitters[emitter_of_emission(i)];
    ParticleMotion m;
    ParticleTraits t;
    give_birth(emitter, emit_id_base + i, m, t);
    uint slot = dead_slots[emit_base + i];
    store_motion(slot, m);
    particle_traits[slot] = t;
}
