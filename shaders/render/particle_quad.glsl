// Built after particle_common.glsl and particle_appearance.glsl. A
// particle's camera-facing quad, shared by the raster draws' vertex shaders
// (compute path: particle_draw.vert; fragment path: fragment_draw.vert):
// corner `vertex` (0..5, two triangles) of the particle at `p` with traits
// `t`, and what the fragment shader needs.
uniform mat4 u_view;
uniform mat4 u_projection;
uniform vec3 u_camera_right;     // world-space axes of the view plane
uniform vec3 u_camera_up;

out vec4 v_color;                // straight alpha
out vec2 v_uv_frame;             // uv of this frame
out vec2 v_uv_next;              // uv of the next frame
out float v_frame_mix;           // 0: this frame only
out float v_view_depth;

const vec2 CORNERS[6] = vec2[6](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(0.5, 0.5),
                                vec2(-0.5, -0.5), vec2(0.5, 0.5), vec2(-0.5, 0.5));

void emit_quad_vertex(ParticleMotion p, ParticleTraits t, int vertex) {
    Appearance a = particle_appearance(p, t);
    v_color = a.color;

    vec2 corner = CORNERS[vertex];
    vec3 world = quad_corner(p.position, corner, rotation_at(t, p.age), a.size, u_camera_right, u_camera_up);
    vec4 view_position = u_view * vec4(world, 1.0);
    gl_Position = u_projection * view_position;
    v_view_depth = -view_position.z;

    // Texture rows run from the image's top: the quad's top shows row 0.
    vec2 corner_uv = vec2(corner.x + 0.5, 0.5 - corner.y);
    v_frame_mix = a.frame_mix;
    v_uv_frame = frame_uv(a.frame, corner_uv);
    v_uv_next = frame_uv(a.next, corner_uv);
}
