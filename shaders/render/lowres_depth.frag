// Downsamples the host's depth texture by LOWRES_FACTOR: each low-resolution
// texel takes the farthest of its LOWRES_FACTOR^2 pixels, so a particle is
// rejected at low resolution only where it is behind everything the block
// shows (no particle visible at full resolution is lost; where the block
// straddles an edge, the composite's nearest-depth upsample keeps the
// particle off the nearer surface). It goes to the depth attachment (the
// particles' depth test) and to a colour texture (their soft fade, and the
// composite) alike, in the host depth's convention (reversed: farther is
// smaller).
#include "shared/scene_depth.glsl"

uniform sampler2D u_host_depth;  // unit 2
uniform ivec2 u_host_size;

out float out_depth;

void main() {
    ivec2 first = ivec2(gl_FragCoord.xy) * LOWRES_FACTOR;
    float farthest = texelFetch(u_host_depth, min(first, u_host_size - 1), 0).r;
    for (int y = 0; y < LOWRES_FACTOR; ++y)
        for (int x = 0; x < LOWRES_FACTOR; ++x) {
            ivec2 p = min(first + ivec2(x, y), u_host_size - 1);
            float d = texelFetch(u_host_depth, p, 0).r;
            farthest = farther_depth(farthest, d);
        }
    out_depth = farthest;
    gl_FragDepth = farthest;
}
