// A draw group's systems of one pool page over a table (render/
// draw_group_table.c): what each system's own copy and gather do
// (render/draw_group.c, draw_group_gather.comp), for every system of the
// page in one dispatch. The page is bound whole; each system's record in the
// group's table (TableLook, written once when the group is made: a pool
// block never moves and an appearance never changes) says where its ranges
// start and what its appearance uniforms would hold. The table sits at the
// draw list's binding, which neither variant reads.
//   GROUP_TABLE_COUNTS 1: an invocation per system of the page: its drawn
//     count from its state words into its words of the group's state, where
//     the prepare pass scans it.
//   GROUP_TABLE_COUNTS 0: a workgroup per system of the page: its drawn
//     slots in slot order (a slot is drawn where simulate left it a key:
//     the compaction's rule), each one's record and its pair {key, record}
//     from the system's first pair on. The list's order within a system is
//     the slots' instead of the system's sort, which the joint sort undoes:
//     the system's sort keeps equal keys in slot order.
#define PLUME_APPEARANCE_TABLE 1
#include "particles/particle_common.glsl"

struct TableLook {                       // PLUME_GROUP_TABLE_LOOK_BYTES: plume's table_look
    float size_times[PLUME_GPU_MAX_CURVE_KEYS], size_values[PLUME_GPU_MAX_CURVE_KEYS];
    float opacity_times[PLUME_GPU_MAX_CURVE_KEYS], opacity_values[PLUME_GPU_MAX_CURVE_KEYS];
    float additive_times[PLUME_GPU_MAX_CURVE_KEYS], additive_values[PLUME_GPU_MAX_CURVE_KEYS];
    float color_times[PLUME_GPU_MAX_CURVE_KEYS];
    vec4 color_values[PLUME_GPU_MAX_CURVE_KEYS];
    float emissive_times[PLUME_GPU_MAX_CURVE_KEYS];
    vec4 emissive_values[PLUME_GPU_MAX_CURVE_KEYS];
    ivec4 counts;                        // keys: size, opacity, additive, colour
    uvec4 look;                          // emissive keys, orientation, flipbook columns, rows
    uvec4 system;                        // frame blend, index in the group, first record, capacity
    vec4 orientation_axis;
    vec4 stretch;
    uvec4 place;                         // bases in the page: motion vec4, traits record, slot key, state word
};
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer GroupTable { TableLook table_looks[]; };
layout(std430, binding = PLUME_BINDING_GROUP_STATE) restrict buffer GroupState { uint group_words[]; };
uniform uint u_table_first; // the page's first record in the table
uniform uint u_table_count; // its systems

#if GROUP_TABLE_COUNTS
layout(local_size_x = 64) in;
layout(std430, binding = PLUME_BINDING_STATE) restrict readonly buffer PageWords { uint page_words[]; };

void main() {
    uint index = gl_GlobalInvocationID.x;
    if (index >= u_table_count) return;
    uvec4 system = table_looks[u_table_first + index].system;
    uint state = table_looks[u_table_first + index].place.w;
    group_words[PLUME_GROUP_STATE_SYSTEMS + PLUME_GROUP_STATE_SYSTEM_WORDS * system.y] =
        page_words[state + PLUME_STATE_DRAWN_COUNT];
}
#else
layout(local_size_x = PLUME_SIMULATE_GROUP_SIZE) in;
// The slot keys at the emitters' binding, which no draw reads.
layout(std430, binding = PLUME_BINDING_EMITTERS) restrict readonly buffer PageSlotKeys { uvec2 slot_keys[]; };

#define g_look (u_table_first + gl_WorkGroupID.x) // this workgroup's system's record
#define u_size_times table_looks[g_look].size_times
#define u_size_values table_looks[g_look].size_values
#define u_size_count table_looks[g_look].counts.x
#define u_opacity_times table_looks[g_look].opacity_times
#define u_opacity_values table_looks[g_look].opacity_values
#define u_opacity_count table_looks[g_look].counts.y
#define u_additive_times table_looks[g_look].additive_times
#define u_additive_values table_looks[g_look].additive_values
#define u_additive_count table_looks[g_look].counts.z
#define u_color_times table_looks[g_look].color_times
#define u_color_values table_looks[g_look].color_values
#define u_color_count table_looks[g_look].counts.w
#define u_emissive_times table_looks[g_look].emissive_times
#define u_emissive_values table_looks[g_look].emissive_values
#define u_emissive_count int(table_looks[g_look].look.x)
#define u_orientation table_looks[g_look].look.y
#define u_flipbook table_looks[g_look].look.zw
#define u_flipbook_cell (1.0 / vec2(table_looks[g_look].look.zw))
#define u_frame_blend (table_looks[g_look].system.x != 0u)
#define u_sprite_is_array false
#define u_orientation_axis table_looks[g_look].orientation_axis.xyz
#define u_stretch table_looks[g_look].stretch.xyz
#define u_system table_looks[g_look].system.y
#define MOTION_BASE table_looks[g_look].place.x

#define PARTICLE_TRAITS_ACCESS readonly
#define GROUP_RECORD_ACCESS writeonly
#include "particles/particle_state.glsl"
#include "sort/depth_key.glsl"
#include "render/particle_appearance.glsl"
#include "render/draw_group_common.glsl"
#include "particles/particle_group_sum.glsl"

layout(std430, binding = PLUME_BINDING_GROUP_PAIRS) restrict writeonly buffer GroupPairs { uvec2 group_pairs[]; };

uniform uint u_system_count; // the group's
uniform mat4 u_view;
uniform vec3 u_camera_right;
uniform vec3 u_camera_up;
uniform vec3 u_eye;
uniform bool u_by_distance;

#include "render/draw_group_sprite.glsl"

void main() {
    uint lane = gl_LocalInvocationIndex;
    uvec4 system = table_looks[g_look].system;
    uvec4 place = table_looks[g_look].place;
    uint at = PLUME_GROUP_STATE_SYSTEMS + PLUME_GROUP_STATE_SYSTEM_WORDS * system.y;
    // Its pairs: from its first to the next system's first (the last: to the group's drawn count).
    uint first = group_words[at + 3u];
    uint end = system.y + 1u < u_system_count ? group_words[at + PLUME_GROUP_STATE_SYSTEM_WORDS + 3u]
                                               : group_words[PLUME_STATE_DRAWN_COUNT];
    uint drawn = end - first, ranked = 0u;
    for (uint base = 0u; base < system.w && ranked < drawn; base += PLUME_SIMULATE_GROUP_SIZE) {
        uint slot = base + lane;
        bool shown = slot < system.w && slot_keys[place.z + slot].x != PLUME_GPU_KEY_LAST;
        uvec4 total, before = exclusive_sum4(uvec4(shown ? 1u : 0u, 0u, 0u, 0u), lane, total);
        uint rank = ranked + before.x;
        if (shown && rank < drawn) {
            ParticleMotion p = load_motion(slot);
            ParticleTraits t = particle_traits[place.y + slot];
            write_sprite_record(system.z + slot, p, t);
            float measure = u_by_distance ? length(p.position - u_eye) : -(u_view * vec4(p.position, 1.0)).z;
            group_pairs[first + rank] = uvec2(depth_key(measure, true), system.z + slot);
        }
        ranked += total.x;
        barrier(); // the sum's space is written again
    }
}
#endif
