// A trail system's gather in a draw group (render/draw_group.c): one
// invocation per pair of the system's sorted segment pairs (an indirect
// dispatch from their count, drawn x entries, which the prepare pass turned
// into workgroups). A segment's record holds its curve's points and its ends'
// looks (GroupSegment, evaluated by render/trail_geometry.glsl as the trail
// draw evaluates them), keyed by the group's measure of its midpoint (the
// trail's own keys' point, particles/trail_keys.comp); a particle's own quad
// is a sprite's record, keyed by its position. A segment the trail does not
// have yet is an empty record keyed last: drawn as nothing. Its pairs go to
// the system's first pair plus the rank, their values its first record plus
// the trail pair's value (slot x entries + entry).
#define TRAIL_RIBBON_READ
// The history where the state and the trail pairs' binding would be: the
// group's buffers take the trail's usual numbers.
#define TRAIL_HEADERS_BINDING PLUME_BINDING_GROUP_TRAIL_HEADERS
#define TRAIL_POINTS_BINDING PLUME_BINDING_GROUP_TRAIL_POINTS
#include "particles/particle_common.glsl"
#include "sort/depth_key.glsl"
#include "render/particle_appearance.glsl" // with the system's appearance uniforms
#include "render/draw_group_common.glsl"

layout(local_size_x = PLUME_GROUP_GATHER_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { ParticleMotion motions[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };
vec4 position_age_of(uint slot) { return vec4(motions[slot].position, motions[slot].age); }
#include "particles/trail_history.glsl"

uniform vec3 u_camera_right;  // world-space axes of the view plane
uniform vec3 u_camera_up;
#include "render/trail_geometry.glsl"

layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer TrailPairs { uvec2 trail_pairs[]; };
layout(std430, binding = PLUME_BINDING_GROUP_PAIRS) restrict writeonly buffer GroupPairs { uvec2 group_pairs[]; };
layout(std430, binding = PLUME_BINDING_GROUP_STATE) restrict readonly buffer GroupState { uint group_words[]; };

uniform uint u_system;        // its index in the group
uniform bool u_last_system;   // the group's last: its pairs end at the group's drawn count
uniform uint u_first_record;  // its records' first index
uniform mat4 u_view;
uniform vec3 u_group_eye;
uniform bool u_group_by_distance; // PLUME_SORT_MODE_DISTANCE; else view depth

#include "render/draw_group_sprite.glsl"

float group_measure(vec3 position) {
    return u_group_by_distance ? length(position - u_group_eye) : -(u_view * vec4(position, 1.0)).z;
}

void main() {
    uint rank = gl_GlobalInvocationID.x;
    uint at = PLUME_GROUP_STATE_SYSTEMS + PLUME_GROUP_STATE_SYSTEM_WORDS * u_system;
    uint first = group_words[at + 3u];
    uint past = u_last_system ? group_words[PLUME_STATE_DRAWN_COUNT] : group_words[at + PLUME_GROUP_STATE_SYSTEM_WORDS + 3u];
    if (first + rank >= past) return;
    uint value = trail_pairs[rank].y, record = u_first_record + value;
    uint slot = value / u_entries, j = value % u_entries;
    ParticleMotion motion = motions[slot];
    ParticleTraits particle_traits = traits[slot];
    uint key = PLUME_GPU_KEY_LAST;
    TrailSegment s;
    if (j >= u_trail_ring) {
        write_sprite_record(record, motion, particle_traits);
        key = depth_key(group_measure(motion.position), true);
    } else if (trail_segment(slot, j, motion, s)) {
        TrailEnds e = trail_ends(s, particle_appearance(motion, particle_traits));
        TrailCorner near = trail_section(s, j, e, 0.0);
        TrailCorner far = trail_section(s, j, e, 1.0);
        GroupSegment g;
        g.p0 = s.p0;
        g.p1 = s.p1.xyz;
        g.p2 = s.p2.xyz;
        g.p3 = s.p3;
        g.end = s.end;
        g.width = vec2(near.width, far.width);
        g.length_uv = vec2(near.length_uv, far.length_uv);
        g.additive = vec2(near.a.additive, far.a.additive);
        g.color0 = near.color;
        g.color1 = far.color;
        g.emissive0 = near.a.emissive;
        g.emissive1 = far.a.emissive;
        g.frame_mix = near.a.frame_mix;
        g.frames = near.a.frame | near.a.next << 16u;
        group_records[record] = group_segment_record(g, u_system);
        key = depth_key(group_measure(0.5 * (s.p1.xyz + s.p2.xyz)), true);
    } else {
        GroupSegment none; // p1 = p2: the draw's strip has no length
        none.p0 = none.p1 = none.p2 = none.p3 = vec3(0.0);
        none.end = 0.0;
        none.width = none.length_uv = none.additive = vec2(0.0);
        none.color0 = none.color1 = vec4(0.0);
        none.emissive0 = none.emissive1 = vec3(0.0);
        none.frame_mix = 0.0;
        none.frames = 0u;
        group_records[record] = group_segment_record(none, u_system);
    }
    group_pairs[first + rank] = uvec2(key, record);
}
