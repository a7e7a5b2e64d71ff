// The scene depth's convention, one place for every shader that reads the
// host's depth (soft particles, depth collisions, the draw group, the
// low-resolution downsample and upsample, the tiled path's depth test).
// u_depth_convention's bits (set once per call from the GL's clip control
// and the frame's projection, plume_depth_convention):
// PLUME_DEPTH_ZERO_TO_ONE: clip control's GL_ZERO_TO_ONE, window depth = NDC
// z (else NDC z = window depth * 2 - 1); PLUME_DEPTH_REVERSED: nearer points
// have larger depths (reverse-Z), so the farthest depth is the smallest.
uniform uint u_depth_convention;

float ndc_depth_of_window(float window_depth) {
    return (u_depth_convention & PLUME_DEPTH_ZERO_TO_ONE) != 0u ? window_depth : window_depth * 2.0 - 1.0;
}

float window_depth_of_ndc(float ndc_depth) {
    return (u_depth_convention & PLUME_DEPTH_ZERO_TO_ONE) != 0u ? ndc_depth : ndc_depth * 0.5 + 0.5;
}

// The smallest NDC depth the clip volume keeps (the largest is 1).
float ndc_depth_low() { return (u_depth_convention & PLUME_DEPTH_ZERO_TO_ONE) != 0u ? 0.0 : -1.0; }

// Whether an NDC depth is inside the clip volume's depth range.
bool ndc_depth_inside(float ndc_depth) { return ndc_depth >= ndc_depth_low() && ndc_depth <= 1.0; }

bool depth_is_reversed() { return (u_depth_convention & PLUME_DEPTH_REVERSED) != 0u; }

// Whether window depth `a` is farther from the eye than `b`.
bool depth_is_farther(float a, float b) { return depth_is_reversed() ? a < b : a > b; }

// The farther of two window depths.
float farther_depth(float a, float b) { return depth_is_farther(a, b) ? a : b; }

// The window depth nothing is behind: what a host clears its depth to.
float background_depth() { return depth_is_reversed() ? 0.0 : 1.0; }

// The position (before the divide) that `inverse` (an inverse projection or
// view-projection) gives the window point at `uv` (0..1) and `window_depth`.
vec4 unproject_window(mat4 inverse, vec2 uv, float window_depth) {
    return inverse * vec4(uv * 2.0 - 1.0, ndc_depth_of_window(window_depth), 1.0);
}

// The view depth (distance in front of the eye) of the scene at `uv` and
// `window_depth`: very large where the depth is at an infinite far plane.
float scene_view_depth(mat4 inverse_projection, vec2 uv, float window_depth) {
    vec4 p = unproject_window(inverse_projection, uv, window_depth);
    return p.w > 0.0 ? -p.z / p.w : 3.0e38;
}
