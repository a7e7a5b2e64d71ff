// The fragment path's update of one slot (a fragment per slot, texel
// (slot % u_width, slot / u_width) of four textures): this update's emission
// fills slots u_emit_first, u_emit_first + 1, ... round the ring (the CPU
// knows how many it asked for: no counter, no dead list), then a live particle
// ages and moves, a dead one is marked free. Reads the previous textures,
// writes the other set (ping-pong).
#include "particles/particle_common.glsl"
#include "particles/particle_noise.glsl"
#include "particles/particle_birth.glsl"
#include "particles/particle_motion.glsl"

uniform sampler2D u_position_age;   // unit 0: position, age (FREE_SLOT_AGE: free)
uniform sampler2D u_velocity;       // unit 1: velocity
uniform sampler2D u_traits;         // unit 2: size, rotation at birth, spin, lifetime
uniform usampler2D u_ids;           // unit 3: emission number
uniform uint u_width;
uniform uint u_capacity;
uniform uint u_emit_first;
uniform uint u_emit_count;
uniform uint u_emit_id_base;
uniform vec4 u_emitters[PLUME_GPU_MAX_EMITTERS * PLUME_EMITTER_VEC4S];

layout(location = 0) out vec4 out_position_age;
layout(location = 1) out vec4 out_velocity;
layout(location = 2) out vec4 out_traits;
layout(location = 3) out uint out_id;

const float FREE_SLOT_AGE = -1.0;

Emitter emitter_at(uint e) {
    int b = int(e) * PLUME_EMITTER_VEC4S;
    return Emitter(u_emitters[b], u_emitters[b + 1], u_emitters[b + 2], u_emitters[b + 3], u_emitters[b + 4],
                   u_emitters[b + 5]);
}

void main() {
    ivec2 texel = ivec2(gl_FragCoord.xy);
    uint slot = uint(texel.y) * u_width + uint(texel.x);
    vec4 position_age = texelFetch(u_position_age, texel, 0);
    vec4 traits = texelFetch(u_traits, texel, 0);
    ParticleMotion p = ParticleMotion(position_age.xyz, position_age.w, texelFetch(u_velocity, texel, 0).xyz, traits.w);
    uint id = texelFetch(u_ids, texel, 0).r;
    uint emission = (slot + u_capacity - u_emit_first) % u_capacity;
    if (emission < u_emit_count) {
        ParticleTraits t;
        uint e = emitter_of_emission(emission);
        give_birth(emitter_at(e), e, u_emit_id_base + emission, p, t);
        traits = vec4(t.size, t.rotation, t.spin, p.lifetime);
        id = t.id;
    }
    if (p.age >= 0.0 && !advance_particle(p)) p.age = FREE_SLOT_AGE;
    out_position_age = vec4(p.position, p.age);
    out_velocity = vec4(p.velocity, 0.0);
    out_traits = traits;
    out_id = id;
}
