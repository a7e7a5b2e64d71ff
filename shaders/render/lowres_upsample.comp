// After a tiled draw at 1/2 or 1/4 onto an RGBA16F texture of the host's: the
// depth-aware upsample (lowres_upsample.glsl) blended onto that texture in
// compute (tiled_target.glsl, u_over_host), in place of the raster pass over
// the tiles (lowres_composite.frag over tile_cover.vert). One workgroup per
// tile the ranges pass named, as that pass's instances (every tile where the
// frame overflowed its budget); dispatched for every tile of the target (a
// row of workgroups a row of tiles), the workgroups past the count leave at
// once. A tile's host pixels 16 x 16 at a time.
#include "render/lowres_upsample.glsl"
#include "render/tiled_target.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = PLUME_BINDING_TILED_CONTROL) restrict readonly buffer TiledControl { uint control[]; };
layout(std430, binding = PLUME_BINDING_TILED_COVER) restrict readonly buffer Cover { uint cover[]; };

uniform uint u_tiles_across;
uniform int u_tile_pixels;     // a tile's side in the host's pixels
uniform ivec2 u_viewport_size;

void main() {
    uint i = gl_WorkGroupID.y * u_tiles_across + gl_WorkGroupID.x;
    if (i >= control[PLUME_TILED_BLEND_ARGS + 1]) return;
    uint tile = control[PLUME_TILED_OVERFLOW] != 0u ? i : cover[i];
    ivec2 first = ivec2(tile % u_tiles_across, tile / u_tiles_across) * u_tile_pixels;
    ivec2 past = min(first + u_tile_pixels, u_viewport_size);
    for (int y = first.y + int(gl_LocalInvocationID.y); y < past.y; y += 16)
        for (int x = first.x + int(gl_LocalInvocationID.x); x < past.x; x += 16) {
            vec4 particles = lowres_upsampled(ivec2(x, y));
            write_target(ivec2(x, y), particles.rgb, 1.0 - particles.a);
        }
}
