// Blends the low-resolution particles onto the host's framebuffer (blend:
// ONE, ONE_MINUS_SRC_ALPHA), upsampled by depth (lowres_upsample.glsl), over
// the viewport or the tiles a tiled draw names (tile_cover.vert).
#include "render/lowres_upsample.glsl"

uniform ivec2 u_viewport_origin;

out vec4 out_color;

void main() { out_color = lowres_upsampled(ivec2(gl_FragCoord.xy) - u_viewport_origin); }
