// A mesh particle's orientation (plume_mesh.h, since 1.3): a quaternion and
// an angular velocity per slot, in a buffer only mesh systems have (a
// sprite system's records are unchanged). Simulate integrates it; the mesh
// draw reads it. The record is made the first time simulate meets the
// particle (its emission number + 1 differs from the record's), so the emit
// passes know nothing of meshes.
#include "particles/particle_common.glsl"

struct ParticleSpin {     // 32 bytes in std430
    vec4 orientation;     // unit quaternion (xyz, w): mesh space to world
    vec3 angular_velocity; // world space, radians per second
    uint born;            // the emission number + 1 this record belongs to (0: none)
};

#ifndef PARTICLE_SPIN_ACCESS
#define PARTICLE_SPIN_ACCESS readonly
#endif
layout(std430, binding = PLUME_BINDING_SPIN) restrict PARTICLE_SPIN_ACCESS buffer ParticleSpins { ParticleSpin spins[]; };

uniform uint u_mesh_count;
uniform uint u_mesh_pick;   // plume_mesh_pick
uniform uint u_mesh_seed;

// The mesh a particle draws: at random by its emission number, or by its
// emitter (the tag in its lifetime's low bits).
uint mesh_of(ParticleTraits t, float lifetime) {
    if (u_mesh_pick == 1u) return (floatBitsToUint(lifetime) & 7u) % u_mesh_count;
    return hash_u32(t.id ^ hash_u32(u_mesh_seed ^ 0x6D657368u)) % u_mesh_count;
}

vec4 quaternion_product(vec4 a, vec4 b) {
    return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz));
}

// The turn by `angle` radians about the unit `axis`.
vec4 quaternion_turn(vec3 axis, float angle) {
    return vec4(axis * sin(0.5 * angle), cos(0.5 * angle));
}
