// One invocation per drawn particle of one grouped system (an indirect
// dispatch from its drawn count): its record (what it looks like this frame)
// and its pair in the group's list, {key, record index}, at the system's
// first pair plus its rank in the system's list. The
// key is the group's order, the same for every system: view depth or distance
// to the eye, back to front.
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl"
#include "sort/depth_key.glsl"
#include "render/particle_appearance.glsl" // with the system's appearance uniforms
#include "render/draw_group_common.glsl"

layout(local_size_x = PLUME_GROUP_GATHER_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer DrawList { uvec2 draw_list[]; };
layout(std430, binding = PLUME_BINDING_GROUP_PAIRS) restrict writeonly buffer GroupPairs { uvec2 group_pairs[]; };
layout(std430, binding = PLUME_BINDING_GROUP_STATE) restrict readonly buffer GroupState { uint group_words[]; };

uniform uint u_system;        // its index in the group
uniform uint u_first_record;  // its records' first index
uniform mat4 u_view;
uniform vec3 u_camera_right;  // world-space axes of the view plane
uniform vec3 u_camera_up;
uniform vec3 u_eye;
uniform bool u_by_distance;   // PLUME_SORT_MODE_DISTANCE; else view depth

#include "render/draw_group_sprite.glsl"

void main() {
    uint rank = gl_GlobalInvocationID.x;
    if (rank >= state_header[PLUME_STATE_DRAWN_COUNT]) return;
    uint slot = draw_list[rank].y;
    ParticleMotion p = load_motion(slot);
    ParticleTraits t = particle_traits[slot];
    write_sprite_record(u_first_record + slot, p, t);
    float measure = u_by_distance ? length(p.position - u_eye) : -(u_view * vec4(p.position, 1.0)).z;
    uint first = group_words[PLUME_GROUP_STATE_SYSTEMS + PLUME_GROUP_STATE_SYSTEM_WORDS * u_system + 3u];
    group_pairs[first + rank] = uvec2(depth_key(measure, true), u_first_record + slot);
}
