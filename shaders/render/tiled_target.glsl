// Where the composite (and the resolve of a chunked tile) puts a pixel's
// premultiplied colour and transmittance: the path's own target, which the
// blend pass then blends onto the host's framebuffer; or, where render/tiled.c
// finds the host's draw buffer to be an RGBA16F texture (u_over_host), that
// texture itself, bound in the target's place: the pixel composited over what
// is there as the blend pass would (ONE, ONE_MINUS_SRC_ALPHA on all four
// channels), inside the host's viewport and scissor, so that a frame skips
// that pass. (The host's conditional rendering discards the dispatches as it
// would the pass: both are rendering commands.)
layout(rgba16f, binding = 0) uniform restrict image2D u_target;

uniform bool u_over_host;
uniform ivec2 u_viewport_origin; // the target's pixel 0 in the host's texture
uniform ivec4 u_host_clip;       // the host's pixels written: first x, y, past x, y (viewport and scissor)

void write_target(ivec2 pixel, vec3 color, float transmittance) {
    vec4 over = vec4(color, 1.0 - transmittance);
    if (!u_over_host) {
        imageStore(u_target, pixel, over);
        return;
    }
    if (over == vec4(0.0)) return; // blending it changes nothing
    ivec2 at = pixel + u_viewport_origin;
    if (any(lessThan(at, u_host_clip.xy)) || any(greaterThanEqual(at, u_host_clip.zw))) return;
    imageStore(u_target, at, over + transmittance * imageLoad(u_target, at));
}
