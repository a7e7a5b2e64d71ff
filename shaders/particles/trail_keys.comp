// After the compaction: for each drawn particle (the live list, in any
// order) its u_entries pairs {key, slot x u_entries + entry}: entry j <
// u_trail_ring the segment from trail point j to j + 1, keyed by the sort
// mode's key of its midpoint (PLUME_GPU_KEY_LAST where the trail has no such
// segment yet: sorted behind all, drawn as nothing); entry u_trail_ring, where
// the particles are drawn, its own quad, keyed as the particle. Then the
// segment sort orders segments and particles together. The first invocation
// writes the count to sort and the draw's indirect arguments.
// Ribbons: entry 0 is the segment to the particle before it in emission
// order (trail_history.glsl), where the ribbon joins them.
#define TRAIL_RIBBON_READ
#include "particles/particle_common.glsl"
#include "particles/particle_sort_key.glsl"

layout(local_size_x = PLUME_TRAIL_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { vec4 motion_words[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };
vec4 position_age_of(uint slot) { return motion_words[PLUME_MOTION_VEC4S * slot]; }
#include "particles/trail_history.glsl"
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer LiveList { uvec2 live_list[]; };
layout(std430, binding = PLUME_BINDING_STATE) restrict readonly buffer SystemState { uint state_header[]; };
layout(std430, binding = PLUME_BINDING_TRAIL_PAIRS) restrict writeonly buffer TrailPairs { uvec2 trail_pairs[]; };
layout(std430, binding = PLUME_BINDING_TRAIL_CONTROL) restrict writeonly buffer TrailControl { uint trail_control[]; };

uniform uint u_entries;      // pairs a particle: u_trail_ring segments, + 1 where its quad is drawn

void main() {
    uint drawn = state_header[PLUME_STATE_DRAWN_COUNT];
    uint i = gl_GlobalInvocationID.x;
    if (i == 0u) {
        trail_control[PLUME_TRAIL_SORT_COUNT] = drawn * u_entries;
        trail_control[PLUME_TRAIL_DRAW_ARGS] = 6u * PLUME_GPU_TRAIL_SUBDIVISIONS;
        trail_control[PLUME_TRAIL_DRAW_ARGS + 1] = drawn * u_entries;
        trail_control[PLUME_TRAIL_DRAW_ARGS + 2] = 0u;
        trail_control[PLUME_TRAIL_DRAW_ARGS + 3] = 0u;
    }
    if (i >= drawn) return;
    uint slot = live_list[i].y;
    vec4 position_age = motion_words[PLUME_MOTION_VEC4S * slot];
    uvec4 header = trail_headers[slot];
    uint first = i * u_entries, value = slot * u_entries;
    vec3 nearer = position_age.xyz;
    uint before;
    if (u_ribbon) {
        uint key = PLUME_GPU_KEY_LAST;
        if (ribbon_neighbour(slot, -1, before))
            key = particle_sort_key(0.5 * (nearer + position_age_of(before).xyz), position_age.w);
        trail_pairs[first] = uvec2(key, value);
    }
    for (uint j = 0u; j < u_trail_ring && !u_ribbon; ++j) {
        uint key = PLUME_GPU_KEY_LAST;
        if (j < header.z) {
            vec3 farther = trail_recorded(slot, header, j).xyz;
            key = particle_sort_key(0.5 * (nearer + farther), position_age.w);
            nearer = farther;
        }
        trail_pairs[first + j] = uvec2(key, value + j);
    }
    if (u_entries > u_trail_ring)
        trail_pairs[first + u_trail_ring] =
            uvec2(particle_sort_key(position_age.xyz, position_age.w), value + u_trail_ring);
}
