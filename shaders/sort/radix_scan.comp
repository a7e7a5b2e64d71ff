// A radix pass, step 2, one workgroup per digit: the digit's tile counts
// become their exclusive sum over the tiles before (where the tile's pairs of
// that digit start among all pairs of the digit), and the digit's total goes
// to the state for the downsweep's sum over digits.
#include "sort/radix_common.glsl"
#include "sort/workgroup_sum.glsl"

layout(local_size_x = RADIX_THREADS) in;

void main() {
    uint digit = gl_WorkGroupID.x, thread = thread_index();
    uint tiles = state[PLUME_RADIX_STATE_TILES];
    uint running = 0u;
    for (uint first = 0u; first < tiles; first += RADIX_THREADS) {
        uint tile = first + thread;
        uint index = tile_count_index(digit, min(tile, tiles - 1u));
        uint value = tile < tiles ? tile_counts[index] : 0u;
        uint chunk_total;
        uint before = workgroup_exclusive_sum(value, thread, chunk_total);
        if (tile < tiles) tile_counts[index] = running + before;
        running += chunk_total;
    }
    if (gl_LocalInvocationIndex == 0u) state[PLUME_RADIX_STATE_DIGIT_TOTALS + digit] = running;
}
