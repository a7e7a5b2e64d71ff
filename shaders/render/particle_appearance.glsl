// Built after particles/particle_common.glsl. What a particle looks like at
// its age: size, colour and opacity over life, and its flipbook frames. The
// raster draws' vertex shaders (particle_quad.glsl, both GPU paths) and the
// tiled path's projection pass all use it, so that they draw the same
// particles. No storage blocks here: GLSL 330 builds it too.
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

// The texture coordinates of `corner_uv` (0..1 over the quad, v down from
// the image's top) in flipbook frame `frame`.
vec2 frame_uv(uint frame, vec2 corner_uv) {
    uvec2 cell = uvec2(frame % u_flipbook.x, frame / u_flipbook.x);
    return (vec2(cell) + corner_uv) / vec2(u_flipbook);
}

struct Appearance {
    float size;          // quad edge, world units
    vec4 color;          // straight alpha, opacity applied
    uint frame, next;    // flipbook frames cross-faded
    float frame_mix;     // 0: `frame` only
};

Appearance particle_appearance(ParticleMotion p, ParticleTraits t) {
    Appearance a;
    float life = clamp(p.age / p.lifetime, 0.0, 1.0);
    a.size = t.size * curve_value(u_size_times, u_size_values, u_size_count, life);
    a.color = gradient_value(life);
    a.color.a *= curve_value(u_opacity_times, u_opacity_values, u_opacity_count, life);
    uint frames = u_flipbook.x * u_flipbook.y;
    float frame = life * float(frames);
    a.frame = min(uint(frame), frames - 1u);
    a.next = min(a.frame + 1u, frames - 1u);
    a.frame_mix = u_frame_blend ? clamp(frame - float(a.frame), 0.0, 1.0) : 0.0;
    return a;
}

// The quad's corner `corner` (each coordinate +-0.5) turned by `rotation`,
// in world space: the quad spans the view plane.
vec3 quad_corner(vec3 centre, vec2 corner, float rotation, float size, vec3 right, vec3 up) {
    float c = cos(rotation), s = sin(rotation);
    vec2 turned = vec2(c * corner.x - s * corner.y, s * corner.x + c * corner.y);
    return centre + (right * turned.x + up * turned.y) * size;
}
