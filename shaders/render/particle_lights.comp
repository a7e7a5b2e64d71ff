// Light from particles (plume_system_write_lights), two passes chosen by
// PARTICLE_LIGHTS_PASS:
//   0 candidates: per workgroup of PLUME_LIGHTS_GROUP_SIZE slots, its
//     brightest live particle above the threshold, as the key {brightness
//     bits, ~slot} (0: none); a positive float's bits order as the float
//     does, and ~slot makes the lower slot win a tie, so the order is total
//     and the result the same run to run;
//   1 select: one workgroup takes the largest key below the last one taken,
//     max_lights times (each round a strided scan and a tree reduction in
//     shared memory), then writes each as a light, the rest of the host's
//     records zero, and the header.
// Why per-workgroup candidates: one pass over the slots with no atomics and
// no sort, a bounded second pass (capacity / 256 candidates), and lights
// spread over the effect: neighbouring slots are born together, so the
// brightest of each group stands for its cluster instead of the N brightest
// sparks of one burst all landing on the same spot.
#include "particles/particle_common.glsl"
#include "render/particle_appearance.glsl"

layout(local_size_x = PLUME_LIGHTS_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { ParticleMotion motions[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };
layout(std430, binding = PLUME_BINDING_LIGHT_CANDIDATES) restrict buffer Candidates { uvec2 candidates[]; };
#if PARTICLE_LIGHTS_PASS == 1
layout(std430, binding = PLUME_BINDING_LIGHTS) restrict writeonly buffer Lights {
    uint light_header[PLUME_LIGHTS_HEADER_WORDS];
    vec4 light_words[];
};
#endif

uniform uint u_slots;         // pass 0: the capacity; pass 1: the candidates
uniform uint u_max_lights;
uniform float u_intensity;    // a factor of the emitted light
uniform float u_min_brightness;
uniform float u_radius;       // world units; 0: RADIUS_PER_SIZE x the drawn size

const float RADIUS_PER_SIZE = 10.0;

// The light a particle gives off: its emitted light plus, where its blend
// adds, the light its colour adds (c a k); times the intensity.
vec3 particle_light(Appearance a) {
    return u_intensity * (a.emissive + a.color.rgb * a.color.a * a.additive);
}

shared uvec2 best[PLUME_LIGHTS_GROUP_SIZE];

bool key_less(uvec2 a, uvec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

// The largest of the workgroup's keys, in every invocation.
uvec2 workgroup_largest(uvec2 key) {
    uint i = gl_LocalInvocationID.x;
    best[i] = key;
    barrier();
    for (uint half_size = PLUME_LIGHTS_GROUP_SIZE / 2u; half_size > 0u; half_size /= 2u) {
        if (i < half_size && key_less(best[i], best[i + half_size])) best[i] = best[i + half_size];
        barrier();
    }
    uvec2 largest = best[0];
    barrier();
    return largest;
}

#if PARTICLE_LIGHTS_PASS == 0
void main() {
    uint slot = gl_GlobalInvocationID.x;
    uvec2 key = uvec2(0u);
    if (slot < u_slots) {
        ParticleMotion m = motions[slot];
        if (m.age >= 0.0 && m.age < m.lifetime) {
            ParticleTraits t = traits[slot]; // a copy: NVIDIA passes no restrict buffer's element (C1317)
            vec3 light = particle_light(particle_appearance(m, t));
            float brightness = max(light.r, max(light.g, light.b));
            if (brightness > u_min_brightness && brightness > 0.0 && !isinf(brightness))
                key = uvec2(floatBitsToUint(brightness), ~slot);
        }
    }
    uvec2 largest = workgroup_largest(key);
    if (gl_LocalInvocationID.x == 0u) candidates[gl_WorkGroupID.x] = largest;
}
#else
shared uint chosen[PLUME_MAX_LIGHTS_PER_CALL]; // the slots taken, brightest first

// The choice first, the lights after: a loop that shades inside the
// selection's loop took Mesa's LLVM minutes to compile.
void main() {
    uint i = gl_LocalInvocationID.x;
    uvec2 last = uvec2(0xFFFFFFFFu);
    uint count = 0u;
    for (uint light = 0u; light < u_max_lights; ++light) {
        uvec2 mine = uvec2(0u);
        for (uint c = i; c < u_slots; c += PLUME_LIGHTS_GROUP_SIZE) {
            uvec2 key = candidates[c];
            if (key_less(key, last) && key_less(mine, key)) mine = key;
        }
        uvec2 taken = workgroup_largest(mine);
        if (taken.x == 0u) break; // uniform: every invocation read the same key
        last = taken;
        count = light + 1u;
        if (i == 0u) chosen[light] = ~taken.y;
    }
    barrier();
    for (uint light = i; light < u_max_lights; light += PLUME_LIGHTS_GROUP_SIZE) {
        vec4 position_radius = vec4(0.0), color = vec4(0.0);
        if (light < count) {
            uint slot = chosen[light];
            ParticleMotion m = motions[slot];
            ParticleTraits t = traits[slot];
            Appearance a = particle_appearance(m, t);
            position_radius = vec4(m.position, u_radius > 0.0 ? u_radius : RADIUS_PER_SIZE * a.size);
            color = vec4(particle_light(a), 0.0);
        }
        light_words[PLUME_LIGHT_VEC4S * light] = position_radius;
        light_words[PLUME_LIGHT_VEC4S * light + 1u] = color;
    }
    if (i == 0u) {
        light_header[0] = count;
        light_header[1] = u_max_lights;
        light_header[2] = 0u;
        light_header[3] = 0u;
    }
}
#endif
