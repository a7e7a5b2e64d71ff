// A particle's birth, shared by the compute path's emit pass (which places
// it by its spawn batch, particle_emit.comp), its events_emit pass (through
// particle_spawn.glsl) and the fragment path's simulate pass, where emission
// i of an update belongs to the first emitter whose running total
// u_emit_end[e] exceeds i. Its attributes depend only on the seed and its
// emission number, so both paths give the same particles. No storage blocks
// here: GLSL 330 builds it too.
#include "particles/particle_common.glsl"

#ifndef PLUME_SYSTEM_TABLE // a table's record carries the seed (particle_system_table.glsl)
uniform uint u_seed;
#endif
uniform uint u_emit_end[PLUME_GPU_MAX_EMITTERS];

struct Emitter {
    vec4 position_shape;   // xyz: position; w: shape (0 point, 1 sphere, 2 box, 3 cone)
    vec4 extents_spread;   // xyz: extents; w: spread half-angle
    vec4 direction;        // xyz: unit direction
    vec4 lifetime_speed;   // lifetime min, max; speed min, max
    vec4 size_rotation;    // size min, max; rotation min, max
    vec4 spin;             // spin min, max
};

// True when the system has event routes (the compute path only): a
// particle's lifetime then carries its emitter's index in its three lowest
// mantissa bits (at most 7 ulp, a relative change under 1e-6), so the
// simulate pass knows which routes it fires without reading its traits.
// Without routes (unset: false) lifetimes are untouched.
#ifndef PLUME_SYSTEM_TABLE
uniform bool u_tag_emitter;
#endif

float tagged_lifetime(float lifetime, uint emitter) {
    if (!u_tag_emitter) return lifetime;
    return uintBitsToFloat((floatBitsToUint(lifetime) & ~7u) | emitter);
}

// Two unit vectors completing `n` to an orthonormal basis.
void complete_basis(vec3 n, out vec3 t, out vec3 b) {
    vec3 other = abs(n.x) < 0.9 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0);
    t = normalize(cross(n, other));
    b = cross(n, t);
}

// Uniform over the cap of the unit sphere within `spread` of `axis`. With
// spread 0 the result is exactly `axis`.
vec3 direction_in_cone(inout uint stream, vec3 axis, float spread) {
    float cos_theta = 1.0 - random_unit(stream) * (1.0 - cos(spread));
    float sin_theta = sqrt(max(0.0, 1.0 - cos_theta * cos_theta));
    float phi = 2.0 * PI * random_unit(stream);
    vec3 t, b;
    complete_basis(axis, t, b);
    return axis * cos_theta + (t * cos(phi) + b * sin(phi)) * sin_theta;
}

vec3 start_position(inout uint stream, Emitter e, vec3 origin) {
    int shape = int(e.position_shape.w);
    vec3 extents = e.extents_spread.xyz;
    // Always three draws, so the shape does not shift the later attributes.
    vec3 r = vec3(random_unit(stream), random_unit(stream), random_unit(stream));
    if (shape == 1) {  // ball: uniform direction, radius by the cube root
        float z = 2.0 * r.x - 1.0;
        float phi = 2.0 * PI * r.y;
        vec3 dir = vec3(sqrt(max(0.0, 1.0 - z * z)) * vec2(cos(phi), sin(phi)), z);
        return origin + dir * extents.x * pow(r.z, 1.0 / 3.0);
    }
    if (shape == 2) return origin + (2.0 * r - 1.0) * extents;
    if (shape == 3) {  // disc facing the direction: radius by the square root
        vec3 t, b;
        complete_basis(e.direction.xyz, t, b);
        float phi = 2.0 * PI * r.x;
        return origin + (t * cos(phi) + b * sin(phi)) * extents.x * sqrt(r.y);
    }
    return origin;
}

uint emitter_of_emission(uint i) {
    uint e = 0u;
    while (e + 1u < uint(PLUME_GPU_MAX_EMITTERS) && i >= u_emit_end[e]) ++e;
    return e;
}

// Particle `id` (age 0) of `emitter` (index e): its shape round `origin`, its
// attributes from `stream`, `extra_velocity` added.
void birth_from_stream(Emitter emitter, uint e, uint id, inout uint stream, vec3 origin, vec3 extra_velocity,
                       out ParticleMotion m, out ParticleTraits t) {
    m.position = start_position(stream, emitter, origin);
    vec3 direction = direction_in_cone(stream, emitter.direction.xyz, emitter.extents_spread.w);
    m.velocity = direction * random_range(stream, emitter.lifetime_speed.zw) + extra_velocity;
    m.lifetime = tagged_lifetime(random_range(stream, emitter.lifetime_speed.xy), e);
    m.age = 0.0;
    t.size = random_range(stream, emitter.size_rotation.xy);
    t.rotation = random_range(stream, emitter.size_rotation.zw);
    t.spin = random_range(stream, emitter.spin.xy);
    t.id = id;
    t.instance = 0u;
    t.color_rg = NO_COLOR_MULTIPLIER;
    t.color_ba = NO_COLOR_MULTIPLIER;
    t.reserved = 0u;
}

// Emission number `id` of the update's emitters, at emitter e's position: the
// emit pass's particle (the fragment path's too).
void give_birth(Emitter emitter, uint e, uint id, out ParticleMotion m, out ParticleTraits t) {
    uint stream = random_stream(u_seed, id);
    birth_from_stream(emitter, e, id, stream, emitter.position_shape.xyz, vec3(0.0), m, t);
}
