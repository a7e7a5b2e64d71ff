// Built after particle_common.glsl. A particle's camera-facing quad, shared
// by the draw paths' vertex shaders (compute path: particle_draw.vert;
// fragment path: fragment_draw.vert): corner `vertex` (0..5, two triangles)
// of the particle at `p` with traits `t`, and what the fragment shader needs.
uniform mat4 u_view;
uniform mat4 u_projection;
uniform vec3 u_camera_right;     // world-space axes of the view plane
uniform vec3 u_camera_up;
// Curves over the life fraction: key times and values, key_count >= 1.
uniform float u_size_times[PLUME_GPU_MAX_CURVE_KEYS];
uniform float u_size_values[PLUME_GPU_MAX_CURVE_KEYS];
uniform int u_size_count;
uniform float u_opacity_times[PLUME_GPU_MAX_CURVE_KEYS];
uniform float u_opacity_values[PLUME_GPU_MAX_CURVE_KEYS];
uniform int u_opacity_count;
uniform float u_color_times[PLUME_GPU_MAX_CURVE_KEYS];
uniform vec4 u_color_values[PLUME_GPU_MAX_CURVE_KEYS];
uniform int u_color_count;
uniform uvec2 u_flipbook;        // columns, rows
uniform bool u_frame_blend;

out vec4 v_color;                // straight alpha
out vec2 v_uv_frame;             // uv of this frame
out vec2 v_uv_next;              // uv of the next frame
out float v_frame_mix;           // 0: this frame only
out float v_view_depth;

// Piecewise linear; holds the first value before the first key and the last
// after the last.
float curve_value(float times[PLUME_GPU_MAX_CURVE_KEYS], float values[PLUME_GPU_MAX_CURVE_KEYS], int count, float t) {
    if (t <= times[0]) return values[0];
    for (int k = 1; k < count; ++k)
        if (t < times[k]) return mix(values[k - 1], values[k], (t - times[k - 1]) / (times[k] - times[k - 1]));
    return values[count - 1];
}

vec4 gradient_value(float t) {
    if (t <= u_color_times[0]) return u_color_values[0];
    for (int k = 1; k < u_color_count; ++k)
        if (t < u_color_times[k])
            return mix(u_color_values[k - 1], u_color_values[k],
                       (t - u_color_times[k - 1]) / (u_color_times[k] - u_color_times[k - 1]));
    return u_color_values[u_color_count - 1];
}

vec2 frame_uv(uint frame, vec2 corner_uv) {
    uvec2 cell = uvec2(frame % u_flipbook.x, frame / u_flipbook.x);
    return (vec2(cell) + corner_uv) / vec2(u_flipbook);
}

const vec2 CORNERS[6] = vec2[6](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(0.5, 0.5),
                                vec2(-0.5, -0.5), vec2(0.5, 0.5), vec2(-0.5, 0.5));

void emit_quad_vertex(ParticleMotion p, ParticleTraits t, int vertex) {
    float life = clamp(p.age / p.lifetime, 0.0, 1.0);
    float size = t.size * curve_value(u_size_times, u_size_values, u_size_count, life);
    v_color = gradient_value(life);
    v_color.a *= curve_value(u_opacity_times, u_opacity_values, u_opacity_count, life);

    vec2 corner = CORNERS[vertex];
    float rotation = rotation_at(t, p.age);
    float c = cos(rotation), s = sin(rotation);
    vec2 turned = vec2(c * corner.x - s * corner.y, s * corner.x + c * corner.y);
    vec3 world = p.position + (u_camera_right * turned.x + u_camera_up * turned.y) * size;
    vec4 view_position = u_view * vec4(world, 1.0);
    gl_Position = u_projection * view_position;
    v_view_depth = -view_position.z;

    // Texture rows run from the image's top: the quad's top shows row 0.
    vec2 corner_uv = vec2(corner.x + 0.5, 0.5 - corner.y);
    uint frames = u_flipbook.x * u_flipbook.y;
    float frame = life * float(frames);
    uint first = min(uint(frame), frames - 1u);
    uint next = min(first + 1u, frames - 1u);
    v_frame_mix = u_frame_blend ? clamp(frame - float(first), 0.0, 1.0) : 0.0;
    v_uv_frame = frame_uv(first, corner_uv);
    v_uv_next = frame_uv(next, corner_uv);
}
