// Mesh draw (render/mesh_compute.c), the compute raster's resolve: a quad
// over the pixels it covered (mesh_resolve.vert) writes, where
// mesh_raster.comp kept a depth key, that depth and its colour into the
// host's framebuffer, tested with the host's depth function (what the
// host's scene hides stays hidden) and written, as the raster draw of an
// opaque mesh does.
#include "shared/scene_depth.glsl"

layout(std430, binding = PLUME_BINDING_MESH_DEPTH_KEYS) restrict readonly buffer DepthKeys { uint depth_keys[]; };
layout(std430, binding = PLUME_BINDING_MESH_COLOURS) restrict readonly buffer Colours { uvec2 colours[]; };

uniform ivec2 u_origin; // the viewport's corner in window pixels
uniform ivec2 u_size;   // its pixels

out vec4 out_color;

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy) - u_origin;
    if (any(lessThan(pixel, ivec2(0))) || any(greaterThanEqual(pixel, u_size))) discard;
    uint at = uint(pixel.y * u_size.x + pixel.x);
    uint key = depth_keys[at];
    if (key == PLUME_MESH_EMPTY_KEY) discard;
    gl_FragDepth = uintBitsToFloat(depth_is_reversed() ? ~key : key);
    uvec2 colour = colours[at];
    out_color = vec4(unpackHalf2x16(colour.x), unpackHalf2x16(colour.y));
}
