// What the fragment sort's passes share.
// Pair i of a texture of width W is the texel (i % W, i / W); red the key,
// green the value.
#include "sort/pair_order.glsl"

uint pair_index(uint width) {
    return uint(gl_FragCoord.y) * width + uint(gl_FragCoord.x);
}

uvec2 fetch_pair(usampler2D pairs, uint width, uint i) {
    return texelFetch(pairs, ivec2(int(i % width), int(i / width)), 0).rg;
}
