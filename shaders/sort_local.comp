// Shared-memory stages of the bitonic network for one block of BLOCK_PAIRS
// pairs per workgroup. LOCAL_SORT: the whole network up to height BLOCK_PAIRS
// (flip + disperses for h = 2, 4, ..., BLOCK_PAIRS). Otherwise: the disperses
// of heights BLOCK_PAIRS .. 2 that end every larger merge level.
// Defines: BLOCK_PAIRS, LOCAL_THREADS, LOCAL_SORT (0/1).
layout(local_size_x = LOCAL_THREADS) in;

const uint PAIRS_PER_THREAD = BLOCK_PAIRS / LOCAL_THREADS;
const uint SWAPS_PER_THREAD = PAIRS_PER_THREAD / 2u;

shared uvec2 block[BLOCK_PAIRS];

void flip_stage(uint height) {
    uint half_height = height >> 1;
    for (uint i = 0u; i < SWAPS_PER_THREAD; ++i) {
        uint swap_index = gl_LocalInvocationID.x + i * LOCAL_THREADS;
        uint base = (swap_index / half_height) * height;
        uint offset = swap_index % half_height;
        uint low = base + offset, high = base + height - 1u - offset;
        uvec2 a = block[low], b = block[high];
        compare_swap(a, b);
        block[low] = a;
        block[high] = b;
    }
}

void disperse_stage(uint height) {
    uint half_height = height >> 1;
    for (uint i = 0u; i < SWAPS_PER_THREAD; ++i) {
        uint swap_index = gl_LocalInvocationID.x + i * LOCAL_THREADS;
        uint low = (swap_index / half_height) * height + swap_index % half_height;
        uint high = low + half_height;
        uvec2 a = block[low], b = block[high];
        compare_swap(a, b);
        block[low] = a;
        block[high] = b;
    }
}

void disperse_down_from(uint height) {
    for (uint h = height; h > 1u; h >>= 1) {
        barrier();
        disperse_stage(h);
    }
}

void main() {
    uint block_start = gl_WorkGroupID.x * BLOCK_PAIRS;
    for (uint i = 0u; i < PAIRS_PER_THREAD; ++i) {
        uint local_index = gl_LocalInvocationID.x + i * LOCAL_THREADS;
        block[local_index] = load_pair(block_start + local_index);
    }
#if LOCAL_SORT
    for (uint height = 2u; height <= BLOCK_PAIRS; height <<= 1) {
        barrier();
        flip_stage(height);
        disperse_down_from(height >> 1);
    }
#else
    disperse_down_from(BLOCK_PAIRS);
#endif
    barrier();
    for (uint i = 0u; i < PAIRS_PER_THREAD; ++i) {
        uint local_index = gl_LocalInvocationID.x + i * LOCAL_THREADS;
        store_pair(block_start + local_index, block[local_index]);
    }
}
