// A particle's quad (oriented as the look says), shared by the raster draws'
// vertex shaders (compute path: particle_draw.vert; fragment path:
// fragment_draw.vert, built without look defines, so camera-facing): corner
// `vertex` (0..5, two triangles) of the particle `p` with traits `t`, and what
// the fragment shader needs.
#include "particles/particle_common.glsl"
#include "render/particle_appearance.glsl"
#include "render/self_shadow.glsl"

uniform mat4 u_view;
uniform mat4 u_projection;
uniform vec3 u_camera_right;     // world-space axes of the view plane
uniform vec3 u_camera_up;

out vec4 v_color;                // straight alpha
out vec2 v_uv_frame;             // uv of this frame
out vec2 v_uv_next;              // uv of the next frame
flat out uvec2 v_frames;          // this frame and the next: a sprite array's layers
out float v_frame_mix;           // 0: this frame only
out float v_view_depth;
#ifdef PLUME_LOOK_ADDITIVE
out float v_additive;            // the blend mode's additive part
#endif
#ifdef PLUME_LOOK_LIT
out vec2 v_quad;                 // quad coordinates 0..1 (width, length)
flat out vec3 v_light;           // the light's direction in the quad's frame
#endif
#ifdef PLUME_LOOK_EMISSIVE
flat out vec3 v_emissive;
#endif

const vec2 CORNERS[6] = vec2[6](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(0.5, 0.5),
                                vec2(-0.5, -0.5), vec2(0.5, 0.5), vec2(-0.5, 0.5));

void emit_quad_vertex(ParticleMotion p, ParticleTraits t, int vertex) {
    Appearance a = particle_appearance(p, t);
    v_color = a.color;

    vec2 corner = CORNERS[vertex];
    QuadEdges edges = quad_edges(p.velocity, rotation_at(t, p.age), a.size, u_camera_right, u_camera_up);
    vec3 world = quad_corner(p.position, corner, edges);
#ifdef PLUME_LOOK_ADDITIVE
    v_additive = a.additive;
#endif
#ifdef PLUME_LOOK_LIT
    v_quad = corner + 0.5;
    v_light = self_shadowed(quad_light(edges, cross(u_camera_right, u_camera_up)), p.position);
#endif
#ifdef PLUME_LOOK_EMISSIVE
    v_emissive = a.emissive;
#endif
    vec4 view_position = u_view * vec4(world, 1.0);
    gl_Position = u_projection * view_position;
    v_view_depth = -view_position.z;

    // Texture rows run from the image's top: the quad's top shows row 0.
    vec2 corner_uv = vec2(corner.x + 0.5, 0.5 - corner.y);
    v_frame_mix = a.frame_mix;
    v_uv_frame = frame_uv(a.frame, corner_uv);
    v_uv_next = frame_uv(a.next, corner_uv);
    v_frames = uvec2(a.frame, a.next);
}
