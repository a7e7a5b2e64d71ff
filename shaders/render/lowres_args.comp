// One invocation, first of a draw at 1/2 or 1/4: the indirect arguments of
// its two full-screen passes (the depth downsample and the upsample), one
// instance when the GPU's drawn count says there is a particle to draw, none
// otherwise, so that a system out of view costs no pass over the pixels.
layout(local_size_x = 1) in;

layout(std430, binding = PLUME_BINDING_STATE) restrict readonly buffer State { uint state_words[]; };
layout(std430, binding = PLUME_BINDING_LOWRES_ARGS) restrict writeonly buffer Args { uint args[4]; };

void main() {
    args[0] = 3u;
    args[1] = state_words[PLUME_STATE_DRAWN_COUNT] > 0u ? 1u : 0u;
    args[2] = 0u;
    args[3] = 0u;
}
