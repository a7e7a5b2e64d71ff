// Self-shadowing's opacity map (plume_self_shadow_desc), built each draw in
// three passes chosen by SELF_SHADOW_PASS:
//   0 clear: every texel 0; invocation 0 also fits the light-space frame to
//     the live particles' box (the state buffer's, particle_bounds.glsl):
//     w along the light's travel, u and v across it;
//   1 splat: per drawn particle, strength x alpha x size^2 over a texel's
//     area (its optical depth spread over the texels it covers), added in
//     fixed point to the 4 texels around its centre (bilinear weights) in its
//     own slice, summed in the workgroup first;
//   2 resolve: per texel column, each slice's word becomes the optical depth
//     in front of the slice's centre (the slices before it, half its own).
#define SELF_SHADOW_MAP_WRITTEN
#include "particles/particle_common.glsl"
#include "render/particle_appearance.glsl"

layout(local_size_x = PLUME_SELF_SHADOW_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_SELF_SHADOW) restrict buffer SelfShadowMap { uint shadow_words[]; };
layout(std430, binding = PLUME_BINDING_STATE) restrict readonly buffer State { uint state_words[]; };
#if SELF_SHADOW_PASS == 1
layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { ParticleMotion motions[]; };
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer DrawList { uvec2 draw_list[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };
#endif

#include "render/self_shadow.glsl"

uniform uint u_invocations; // texels (clear), the drawn bound (splat), columns (resolve)
uniform float u_strength;

float float_from_ordered(uint u) {
    return uintBitsToFloat((u & 0x80000000u) != 0u ? u & 0x7FFFFFFFu : ~u);
}

void write_frame() {
    vec3 low, high;
    for (int i = 0; i < 3; ++i) {
        low[i] = float_from_ordered(state_words[PLUME_STATE_BOUNDS_MIN + i]);
        high[i] = float_from_ordered(state_words[PLUME_STATE_BOUNDS_MAX + i]);
    }
    bool valid = all(lessThanEqual(low, high)) && dot(u_light_direction, u_light_direction) > 0.0;
    vec3 w = -u_light_direction;
    vec3 helper = abs(w.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 u = normalize(cross(helper, w));
    vec3 v = cross(w, u);
    vec3 axes[3] = vec3[3](u, v, w);
    for (int i = 0; i < 3; ++i) {
        float smallest = 3.0e38, largest = -3.0e38;
        for (int corner = 0; corner < 8; ++corner) {
            vec3 p = vec3((corner & 1) != 0 ? high.x : low.x, (corner & 2) != 0 ? high.y : low.y,
                          (corner & 4) != 0 ? high.z : low.z);
            float d = dot(axes[i], p);
            smallest = min(smallest, d);
            largest = max(largest, d);
        }
        for (int k = 0; k < 3; ++k) shadow_words[4 * i + k] = floatBitsToUint(axes[i][k]);
        shadow_words[4 * i + 3] = floatBitsToUint(valid ? smallest : 0.0);
        shadow_words[12 + i] = floatBitsToUint(valid ? 1.0 / max(largest - smallest, 1e-6) : 0.0);
    }
    shadow_words[15] = floatBitsToUint(valid ? 1.0 : 0.0);
}

#if SELF_SHADOW_PASS == 1
// A workgroup's sums per texel: an open-addressed table with a slot for
// each pair its particles can add, so it never fills.
const uint SPLAT_SLOTS = 4u * uint(PLUME_SELF_SHADOW_GROUP_SIZE), EMPTY_SLOT = 0xFFFFFFFFu;
shared uint slot_texel[SPLAT_SLOTS];
shared uint slot_amount[SPLAT_SLOTS];

void add_to_table(uint texel, uint amount) {
    for (uint probe = texel * 2654435761u >> 22, tries = 0u; tries < SPLAT_SLOTS; ++tries, ++probe) {
        uint k = probe % SPLAT_SLOTS;
        uint held = atomicCompSwap(slot_texel[k], EMPTY_SLOT, texel);
        if (held == EMPTY_SLOT || held == texel) {
            atomicAdd(slot_amount[k], amount);
            return;
        }
    }
}

// The particle's optical depth, in fixed point, into the table: to the 4
// texels around its centre (bilinear weights) in its own slice.
void splat_particle(uint slot) {
    ParticleMotion p = motions[slot];
    ParticleTraits t = traits[slot];
    Appearance a = particle_appearance(p, t);
    if (a.color.a <= 0.0 || a.size <= 0.0) return;
    float size = float(u_shadow_map_size);
    vec2 scale = vec2(uintBitsToFloat(shadow_words[12]), uintBitsToFloat(shadow_words[13])) * size;
    float depth = u_strength * a.color.a * a.size * a.size * scale.x * scale.y;
    vec3 at = shadow_map_coordinates(p.position);
    uint slice = uint(clamp(floor(at.z), 0.0, float(u_shadow_slices - 1u)));
    vec2 texel = clamp(at.xy - 0.5, vec2(0.0), vec2(size - 1.0));
    uvec2 low = uvec2(floor(texel));
    uvec2 high = min(low + 1u, uvec2(u_shadow_map_size - 1u));
    vec2 f = texel - vec2(low);
    for (int corner = 0; corner < 4; ++corner) {
        bvec2 up = bvec2((corner & 1) != 0, (corner & 2) != 0);
        uvec2 xy = uvec2(up.x ? high.x : low.x, up.y ? high.y : low.y);
        vec2 weights = mix(1.0 - f, f, vec2(up));
        uint amount = uint(depth * weights.x * weights.y * float(PLUME_SELF_SHADOW_FIXED_POINT) + 0.5);
        if (amount != 0u) add_to_table(shadow_index(xy.x, xy.y, slice), amount);
    }
}
#endif

void main() {
    uint id = gl_GlobalInvocationID.x;
#if SELF_SHADOW_PASS != 1 // the splat's workgroup meets at barriers
    if (id >= u_invocations) return;
#endif
#if SELF_SHADOW_PASS == 0
    if (id == 0u) write_frame();
    shadow_words[PLUME_SELF_SHADOW_HEADER_WORDS + id] = 0u;
#elif SELF_SHADOW_PASS == 1
    // Each particle's four (texel, amount) pairs are summed per texel in the
    // workgroup's table first, and each texel the workgroup touched takes
    // one global atomic: a dense column sends thousands of particles to a
    // texel, and their atomics, one after the other at one address, were
    // most of the map's time (0.23 of 0.32 ms at the demo's 1 M, H200).
    uint lid = gl_LocalInvocationIndex;
    for (uint k = lid; k < SPLAT_SLOTS; k += uint(PLUME_SELF_SHADOW_GROUP_SIZE)) {
        slot_texel[k] = EMPTY_SLOT;
        slot_amount[k] = 0u;
    }
    memoryBarrierShared();
    barrier();
    if (id < u_invocations && uintBitsToFloat(shadow_words[15]) != 0.0 && id < state_words[PLUME_STATE_DRAWN_COUNT])
        splat_particle(draw_list[id].y);
    memoryBarrierShared();
    barrier();
    for (uint k = lid; k < SPLAT_SLOTS; k += uint(PLUME_SELF_SHADOW_GROUP_SIZE))
        if (slot_texel[k] != EMPTY_SLOT) atomicAdd(shadow_words[slot_texel[k]], slot_amount[k]);
#else
    uint x = id % u_shadow_map_size, y = id / u_shadow_map_size;
    float in_front = 0.0;
    for (uint slice = 0u; slice < u_shadow_slices; ++slice) {
        uint index = shadow_index(x, y, slice);
        float own = float(shadow_words[index]) / float(PLUME_SELF_SHADOW_FIXED_POINT);
        shadow_words[index] = floatBitsToUint(in_front + 0.5 * own);
        in_front += own;
    }
#endif
}
