// What the fragment sort's passes share (after shared/plume_gpu_layout.h).
// Pair i of a texture of width W is the texel (i % W, i / W); red the key,
// green the value.
uint pair_index(uint width) {
    return uint(gl_FragCoord.y) * width + uint(gl_FragCoord.x);
}

uvec2 fetch_pair(usampler2D pairs, uint width, uint i) {
    return texelFetch(pairs, ivec2(int(i % width), int(i / width)), 0).rg;
}

// The sort's total order: by key, ties by value.
bool pair_less(uvec2 a, uvec2 b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
}

// Pads the network up to its power of two; sorts behind every pair.
const uvec2 PAD_PAIR = uvec2(PLUME_GPU_KEY_LAST, 0xFFFFFFFFu);
