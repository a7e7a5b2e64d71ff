// Shared-memory stages of the bitonic network for one block of BLOCK_PAIRS
// pairs per workgroup. LOCAL_SORT: the whole network up to height BLOCK_PAIRS
// (flip + disperses for h = 2, 4, ..., BLOCK_PAIRS). Otherwise: the disperses
// of heights BLOCK_PAIRS .. 2 that end every larger merge level.
// Heights are powers of two: index arithmetic is shifts and masks, since a
// runtime integer division costs tens of instructions per compare.
// (Running up to three stages per barrier in registers, as sort_global.comp
// does, measured 2x slower on the H100 -- see notes/sort-performance.md.)
// Defines: BLOCK_PAIRS, LOCAL_THREADS, LOCAL_SORT (0/1).
layout(local_size_x = LOCAL_THREADS) in;

const uint PAIRS_PER_THREAD = BLOCK_PAIRS / LOCAL_THREADS;
const uint SWAPS_PER_THREAD = PAIRS_PER_THREAD / 2u;

shared uvec2 block[BLOCK_PAIRS];
// live: pairs of this block below the count; past it sit virtual maxima that
// no compare-and-swap moves, so a swap whose lower position is past it is
// skipped. (A parameter, not a global: Mesa warns, at high severity, of a
// global read in a function placed before main() writes it.)
void swap_in_block(uint low, uint high, uint live) {
    if (low >= live) return;
    uvec2 a = block[low], b = block[high];
    compare_swap(a, b);
    block[low] = a;
    block[high] = b;
}

// flip(2^log_height): pairs offset and height-1-offset of each block.
void flip_stage(uint log_height, uint live) {
    uint half_mask = (1u << (log_height - 1u)) - 1u;
    for (uint i = 0u; i < SWAPS_PER_THREAD; ++i) {
        uint swap_index = gl_LocalInvocationID.x + i * LOCAL_THREADS;
        uint base = (swap_index >> (log_height - 1u)) << log_height;
        uint offset = swap_index & half_mask;
        swap_in_block(base + offset, base + (half_mask << 1) + 1u - offset, live);
    }
}

// disperse(2^log_height): pairs p and p + height/2 of each block.
void disperse_stage(uint log_height, uint live) {
    uint half_mask = (1u << (log_height - 1u)) - 1u;
    for (uint i = 0u; i < SWAPS_PER_THREAD; ++i) {
        uint swap_index = gl_LocalInvocationID.x + i * LOCAL_THREADS;
        uint low = ((swap_index >> (log_height - 1u)) << log_height) | (swap_index & half_mask);
        swap_in_block(low, low + half_mask + 1u, live);
    }
}

void disperse_down_from(uint log_height, uint live) {
    for (uint l = log_height; l > 0u; --l) {
        barrier();
        disperse_stage(l, live);
    }
}

void main() {
    uint block_start = gl_WorkGroupID.x * BLOCK_PAIRS;
    uint live_in_block = min(sort_count - min(sort_count, block_start), BLOCK_PAIRS);
    for (uint i = 0u; i < PAIRS_PER_THREAD; ++i) {
        uint local_index = gl_LocalInvocationID.x + i * LOCAL_THREADS;
        block[local_index] = load_pair(block_start + local_index);
    }
    uint log_block = uint(findMSB(BLOCK_PAIRS));
#if LOCAL_SORT
    // A count under the block needs only the levels up to its power of two.
    uint top_level = min(log_block, uint(findMSB(max(live_in_block, 2u) - 1u)) + 1u);
    for (uint l = 1u; l <= top_level; ++l) {
        barrier();
        flip_stage(l, live_in_block);
        disperse_down_from(l - 1u, live_in_block);
    }
#else
    disperse_down_from(log_block, live_in_block);
#endif
    barrier();
    for (uint i = 0u; i < PAIRS_PER_THREAD; ++i) {
        uint local_index = gl_LocalInvocationID.x + i * LOCAL_THREADS;
        store_pair(block_start + local_index, block[local_index]);
    }
}
