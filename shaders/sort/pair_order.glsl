// The order both sorts without compute give: by key, ties by value, as the
// compute bitonic sort; and the pad that fills a network up to its power of
// two.
#include "shared/plume_gpu_layout.h"

bool pair_less(uvec2 a, uvec2 b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
}

// Sorts behind every pair.
const uvec2 PAD_PAIR = uvec2(PLUME_GPU_KEY_LAST, 0xFFFFFFFFu);

// Compare-exchange: a ends up before b in the direction `up`.
void exchange(inout uvec2 a, inout uvec2 b, bool up) {
    if (pair_less(b, a) == up) {
        uvec2 t = a;
        a = b;
        b = t;
    }
}
