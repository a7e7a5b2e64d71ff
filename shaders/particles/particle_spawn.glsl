// The compute path's new particle from an emitter written into a slot: what
// the emit pass does for the emitters' rates and bursts and the events_emit
// pass for GPU events (an event's child starts at its parent's position, with
// a part of its velocity).
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl"
#include "particles/particle_birth.glsl"

layout(std430, binding = PLUME_BINDING_EMITTERS) restrict readonly buffer Emitters { Emitter emitters[]; };

// Writes particle `id` of emitter `e` into `slot`: its shape round `origin`,
// its attributes from `stream`, `extra_velocity` added.
void spawn_particle(uint slot, uint id, uint e, inout uint stream, vec3 origin, vec3 extra_velocity) {
    // A local copy: NVIDIA refuses a restrict readonly buffer's element as a
    // function argument (error C1317).
    Emitter emitter = emitters[e];
    ParticleMotion m;
    ParticleTraits t;
    birth_from_stream(emitter, e, id, stream, origin, extra_velocity, m, t);
    store_motion(slot, m);
    particle_traits[slot] = t;
}
