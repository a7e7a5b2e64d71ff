// Curl noise: the curl of a vector potential made of three gradient-noise
// fields. A curl has no divergence, so particles swirl without bunching up or
// thinning out. Gradient noise with analytic derivatives (quintic fade), so
// one evaluation per field gives value and gradient.
#include "particles/particle_common.glsl" // hash_u32

// A pseudo-random unit-ish gradient for a lattice point and a field.
vec3 lattice_gradient(ivec3 cell, uint field) {
    uint h = hash_u32(uint(cell.x) * 73856093u ^ hash_u32(uint(cell.y) * 19349663u ^ hash_u32(uint(cell.z) * 83492791u ^ field)));
    vec3 g = vec3(uvec3(h, h >> 10u, h >> 20u) & 1023u) * (2.0 / 1023.0) - 1.0;
    return g;
}

// xyz: gradient of the noise at p; w: the noise value.
vec4 gradient_noise(vec3 p, uint field) {
    vec3 cell_f = floor(p);
    ivec3 cell = ivec3(cell_f);
    vec3 f = p - cell_f;
    vec3 fade = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    vec3 fade_derivative = 30.0 * f * f * (f * (f - 2.0) + 1.0);
    vec4 result = vec4(0.0);
    for (int corner = 0; corner < 8; ++corner) {
        vec3 o = vec3(ivec3(corner & 1, (corner >> 1) & 1, corner >> 2));
        vec3 g = lattice_gradient(cell + ivec3(o), field);
        float n = dot(g, f - o);
        vec3 w = mix(1.0 - fade, fade, o);                  // per-axis weights
        vec3 dw = mix(-fade_derivative, fade_derivative, o); // their derivatives
        float weight = w.x * w.y * w.z;
        result.w += weight * n;
        result.xyz += vec3(dw.x * w.y * w.z, w.x * dw.y * w.z, w.x * w.y * dw.z) * n + weight * g;
    }
    return result;
}

// The curl of (N1, N2, N3) at p, the fields drifting with time.
vec3 curl_noise(vec3 p, float time) {
    vec3 d1 = gradient_noise(p + vec3(0.0, time, 0.0), 1u).xyz;
    vec3 d2 = gradient_noise(p + vec3(31.4, 0.0, time), 2u).xyz;
    vec3 d3 = gradient_noise(p + vec3(time, 17.3, 47.9), 3u).xyz;
    return vec3(d3.y - d2.z, d1.z - d3.x, d2.x - d1.y);
}
