// Instance i draws what the group's sorted list names at i: a particle's
// record (whose system's flipbook the table gives), one corner of its quad per
// vertex (two triangles), or a trail segment's record (GROUP_SEGMENT), the
// quads its curve needs on the screen (trail_subdivisions) as the trail draw
// makes them (render/trail_draw.vert). A group with a trail system draws 6 x
// PLUME_GPU_TRAIL_SUBDIVISIONS vertices an instance: a quad's past the sixth,
// a segment's past its quads, degenerate.
#include "particles/particle_common.glsl"
#include "render/particle_appearance.glsl" // the light's direction in a strip's frame
#include "render/draw_group_common.glsl" // built with GROUP_RECORD_ACCESS readonly
#include "render/draw_group_systems.glsl"
#include "render/trail_curve.glsl"

layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer GroupList { uvec2 group_list[]; };

uniform mat4 u_view;
uniform mat4 u_projection;
uniform vec4 u_eye;              // the eye (w 1), or under an orthographic projection its back axis (w 0)
uniform vec3 u_camera_right;
uniform vec3 u_camera_up;

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

#include "render/draw_group_segment.glsl"

const vec2 CORNERS[6] = vec2[6](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(0.5, 0.5),
                                vec2(-0.5, -0.5), vec2(0.5, 0.5), vec2(-0.5, 0.5));

void place(vec3 world) {
    vec4 view_position = u_view * vec4(world, 1.0);
    gl_Position = u_projection * view_position;
    v_view_depth = -view_position.z;
}

void emit_frames(uint system, uint frame, uint next, float frame_mix, vec2 corner_uv) {
    v_system = system;
    v_frame_mix = frame_mix;
    uvec2 book = group_system_flipbook(system);
    v_uv_frame = flipbook_frame_uv(frame, book.x, 1.0 / vec2(book), corner_uv);
    v_uv_next = flipbook_frame_uv(next, book.x, 1.0 / vec2(book), corner_uv);
}

// Vertex `vertex` of a segment's strip: a cross-section `share` of the way
// along it (render/draw_group_segment.glsl).
void emit_segment_vertex(GroupRecord r, uint system, int vertex) {
    GroupSegment s = group_segment_of(r);
    gl_Position = vec4(0.0); // degenerate: nothing drawn
    if (distance(s.p1, s.p2) < 1e-6) return;
    vec2 corner = CORNERS[vertex % 6];
    uint quads = trail_subdivisions(s.p0, s.p1, s.p2, s.p3, u_view, u_projection), quad = uint(vertex / 6);
    if (quad >= quads) return;
    SegmentSection c = group_segment_section(s, (float(quad) + corner.y + 0.5) / float(quads));
    place(segment_section_world(c, corner.x));
    v_color = c.color;
    v_additive = c.additive;
    v_emissive = c.emissive;
    v_quad = vec2(corner.x + 0.5, 0.5); // lit across the strip as a tube
    v_light = segment_section_light(c);
    // The sprite's columns along the trail, its rows across (from its top).
    emit_frames(system, s.frames & 0xFFFFu, s.frames >> 16u, s.frame_mix, vec2(c.length_uv, 0.5 - corner.x));
}

void main() {
    GroupRecord r = group_records[group_list[gl_InstanceID].y];
    uint word = floatBitsToUint(r.along.w), system = word & ~GROUP_SEGMENT;
    if ((word & GROUP_SEGMENT) != 0u) {
        emit_segment_vertex(r, system, gl_VertexID);
        return;
    }
    gl_Position = vec4(0.0);
    if (gl_VertexID >= 6) return;
    vec2 corner = CORNERS[gl_VertexID];
    place(r.centre.xyz + r.across.xyz * corner.x + r.along.xyz * corner.y);
    v_color = r.color;
    v_additive = r.across.w;
    v_quad = corner + 0.5;
    v_light = r.light.xyz;
    v_emissive = r.emissive.rgb;
    // Texture rows run from the image's top: the quad's top shows row 0.
    emit_frames(system, floatBitsToUint(r.emissive.w), floatBitsToUint(r.light.w), r.centre.w,
                vec2(corner.x + 0.5, 0.5 - corner.y));
}
