// Self-shadowing's light-space opacity map (plume_self_shadow_desc), as the
// draws read it and self_shadow_map.comp writes it: the frame in the header
// words, then the resolved optical depth per texel and slice (floats). With
// PLUME_LOOK_SELF_SHADOW only; u_self_shadow off (a program shared with an
// unshadowed system) leaves the light as it is and reads nothing.
#ifdef PLUME_LOOK_SELF_SHADOW
#ifndef SELF_SHADOW_MAP_WRITTEN
layout(std430, binding = PLUME_BINDING_SELF_SHADOW) restrict readonly buffer SelfShadowMap { uint shadow_words[]; };
#endif
uniform bool u_self_shadow;
uniform uint u_shadow_map_size;
uniform uint u_shadow_slices;

// A world position in map coordinates: texels across (x, y), slices along (z).
vec3 shadow_map_coordinates(vec3 world) {
    vec3 c;
    for (int i = 0; i < 3; ++i) {
        vec3 axis = vec3(uintBitsToFloat(shadow_words[4 * i]), uintBitsToFloat(shadow_words[4 * i + 1]),
                         uintBitsToFloat(shadow_words[4 * i + 2]));
        c[i] = (dot(axis, world) - uintBitsToFloat(shadow_words[4 * i + 3])) * uintBitsToFloat(shadow_words[12 + i]);
    }
    return c * vec3(float(u_shadow_map_size), float(u_shadow_map_size), float(u_shadow_slices));
}

uint shadow_index(uint x, uint y, uint slice) {
    return PLUME_SELF_SHADOW_HEADER_WORDS + (slice * u_shadow_map_size + y) * u_shadow_map_size + x;
}

// The light still reaching `world`: exp(-optical depth), trilinear between
// texel and slice centres, clamped at the map's edges.
float self_shadow_transmittance(vec3 world) {
    if (uintBitsToFloat(shadow_words[15]) == 0.0) return 1.0;
    vec3 at = shadow_map_coordinates(world) - 0.5;
    vec3 top = vec3(float(u_shadow_map_size - 1u), float(u_shadow_map_size - 1u), float(u_shadow_slices - 1u));
    at = clamp(at, vec3(0.0), top);
    uvec3 low = uvec3(floor(at));
    uvec3 high = min(low + 1u, uvec3(top));
    vec3 f = at - vec3(low);
    float depth = 0.0;
    for (int corner = 0; corner < 8; ++corner) {
        bvec3 up = bvec3((corner & 1) != 0, (corner & 2) != 0, (corner & 4) != 0);
        uvec3 texel = uvec3(up.x ? high.x : low.x, up.y ? high.y : low.y, up.z ? high.z : low.z);
        vec3 weights = mix(1.0 - f, f, vec3(up));
        depth += weights.x * weights.y * weights.z * uintBitsToFloat(shadow_words[shadow_index(texel.x, texel.y, texel.z)]);
    }
    return exp(-depth);
}

// The light's direction in the quad's frame, scaled by the light reaching
// the particle's centre (sphere_lighting's directional term scales with it).
vec3 self_shadowed(vec3 light, vec3 centre) {
    return u_self_shadow ? light * self_shadow_transmittance(centre) : light;
}
#else
#define self_shadowed(light, centre) (light)
#endif
