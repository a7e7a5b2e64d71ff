// Mesh draw (render/mesh_compute.c), the compute raster's resolve: a quad
// over the pixels it covered (mesh_resolve.vert) writes, where
// mesh_raster.comp kept a depth key, that depth and its colour into the
// host's framebuffer, tested with the host's depth function (what the
// host's scene hides stays hidden) and written, as the raster draw of an
// opaque mesh does.
#include "shared/scene_depth.glsl"

// u_pixels depth keys, then two words of colour a pixel.
layout(std430, binding = PLUME_BINDING_MESH_PIXELS) restrict readonly buffer Pixels { uint pixel_words[]; };

uniform ivec2 u_origin; // the viewport's corner in window pixels
uniform ivec2 u_size;   // its pixels
uniform uint u_pixels;  // u_size.x * u_size.y

out vec4 out_color;

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy) - u_origin;
    if (any(lessThan(pixel, ivec2(0))) || any(greaterThanEqual(pixel, u_size))) discard;
    uint at = uint(pixel.y * u_size.x + pixel.x);
    uint key = pixel_words[at];
    if (key == PLUME_MESH_EMPTY_KEY) discard;
    gl_FragDepth = uintBitsToFloat(depth_is_reversed() ? key : ~key);
    out_color = vec4(unpackHalf2x16(pixel_words[u_pixels + 2u * at]), unpackHalf2x16(pixel_words[u_pixels + 2u * at + 1u]));
}
