// Instance i draws the particle the group's sorted list names at i: its
// record (whose system's flipbook the table gives), one corner of its quad per vertex (two triangles).
#include "render/draw_group_common.glsl" // built with GROUP_RECORD_ACCESS readonly
#include "render/draw_group_systems.glsl"

layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer GroupList { uvec2 group_list[]; };

uniform mat4 u_view;
uniform mat4 u_projection;

out vec4 v_color;                // straight alpha
out vec2 v_uv_frame;             // uv of this frame
out vec2 v_uv_next;              // uv of the next frame
out float v_frame_mix;           // 0: this frame only
out float v_view_depth;
out float v_additive;            // the blend mode's additive part
out vec2 v_quad;                 // quad coordinates 0..1 (width, length)
flat out vec3 v_light;           // the light's direction in the quad's frame
flat out vec3 v_emissive;
flat out uint v_system;

const vec2 CORNERS[6] = vec2[6](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(0.5, 0.5),
                                vec2(-0.5, -0.5), vec2(0.5, 0.5), vec2(-0.5, 0.5));

// The texture coordinates of `corner_uv` (0..1 over the quad, v down from
// the image's top) in frame `frame` of a flipbook of columns x rows.
vec2 flipbook_uv(uvec2 flipbook, uint frame, vec2 corner_uv) {
    uvec2 cell = uvec2(frame % flipbook.x, frame / flipbook.x);
    return (vec2(cell) + corner_uv) / vec2(flipbook);
}

void main() {
    GroupRecord r = group_records[group_list[gl_InstanceID].y];
    uint system = floatBitsToUint(r.along.w);
    vec2 corner = CORNERS[gl_VertexID];
    vec3 world = r.centre.xyz + r.across.xyz * corner.x + r.along.xyz * corner.y;
    vec4 view_position = u_view * vec4(world, 1.0);
    gl_Position = u_projection * view_position;
    v_view_depth = -view_position.z;
    v_color = r.color;
    v_additive = r.across.w;
    v_quad = corner + 0.5;
    v_light = r.light.xyz;
    v_emissive = r.emissive.rgb;
    v_system = system;
    // Texture rows run from the image's top: the quad's top shows row 0.
    vec2 corner_uv = vec2(corner.x + 0.5, 0.5 - corner.y);
    v_frame_mix = r.centre.w;
    v_uv_frame = flipbook_uv(group_system_flipbook(system), floatBitsToUint(r.emissive.w), corner_uv);
    v_uv_next = flipbook_uv(group_system_flipbook(system), floatBitsToUint(r.light.w), corner_uv);
}
