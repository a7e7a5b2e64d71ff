// The low-resolution particles (premultiplied) upsampled by depth for one of
// the viewport's pixels: of the 2x2 low-resolution texels around it, those
// whose depth is close to the pixel's own (in view depth) are interpolated
// bilinearly; where none is (a depth edge), the nearest in depth is taken, so
// particles behind a nearer surface do not bleed onto it. Blended onto the
// host's colour by a raster pass (lowres_composite.frag) or in compute
// (lowres_upsample.comp).
#include "shared/scene_depth.glsl"

uniform sampler2D u_particles;    // unit 0, low resolution, premultiplied
uniform sampler2D u_lowres_depth; // unit 1, low resolution, window depth
uniform sampler2D u_host_depth;   // unit 2, full resolution, window depth
uniform ivec2 u_lowres_size;
uniform ivec2 u_host_size;        // the viewport's
uniform mat4 u_inverse_projection;
uniform float u_edge_ratio;       // relative view-depth difference that marks an edge

float view_depth(vec2 uv, float window_depth) { return scene_view_depth(u_inverse_projection, uv, window_depth); }

// `pixel` counts from the viewport's corner.
vec4 lowres_upsampled(ivec2 pixel) {
    vec2 host_uv = (vec2(pixel) + 0.5) / vec2(u_host_size);
    float own = view_depth(host_uv, texelFetch(u_host_depth, min(pixel, u_host_size - 1), 0).r);
    // The low-resolution texel centres around this pixel and its weights.
    vec2 q = (vec2(pixel) + 0.5) / float(LOWRES_FACTOR) - 0.5;
    ivec2 base = ivec2(floor(q));
    vec2 f = q - vec2(base);
    vec4 sum = vec4(0.0);
    float weight_sum = 0.0, best_difference = 1e30;
    vec4 nearest = vec4(0.0);
    for (int i = 0; i < 4; ++i) {
        ivec2 offset = ivec2(i & 1, i >> 1);
        ivec2 t = clamp(base + offset, ivec2(0), u_lowres_size - 1);
        vec2 t_uv = (vec2(t) + 0.5) / vec2(u_lowres_size);
        float difference = abs(view_depth(t_uv, texelFetch(u_lowres_depth, t, 0).r) - own);
        vec4 color = texelFetch(u_particles, t, 0);
        if (difference < best_difference) {
            best_difference = difference;
            nearest = color;
        }
        float w = (offset.x == 1 ? f.x : 1.0 - f.x) * (offset.y == 1 ? f.y : 1.0 - f.y);
        if (difference <= u_edge_ratio * max(abs(own), 1e-6)) {
            sum += w * color;
            weight_sum += w;
        }
    }
    return weight_sum > 0.0 ? sum / weight_sum : nearest;
}
