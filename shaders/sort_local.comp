// Shared-memory stages of the bitonic network for one block of BLOCK_PAIRS
// pairs per workgroup. LOCAL_SORT: the whole network up to height BLOCK_PAIRS
// (flip + disperses for h = 2, 4, ..., BLOCK_PAIRS). Otherwise: the disperses
// of heights BLOCK_PAIRS .. 2 that end every larger merge level.
// Up to three consecutive stages run in registers between two barriers: each
// invocation takes sets of pairs closed under those stages (as sort_global.comp
// does in device memory), so a 4096-pair sort waits on 30 barriers, not 78.
// Defines: BLOCK_PAIRS, LOCAL_THREADS (= BLOCK_PAIRS / 8), LOCAL_SORT (0/1).
layout(local_size_x = LOCAL_THREADS) in;

const uint PAIRS_PER_THREAD = BLOCK_PAIRS / LOCAL_THREADS; // 8
const uint MAX_CHUNK_STAGES = 3u;

shared uvec2 block[BLOCK_PAIRS];

// `stages` consecutive stages starting at `height`: with `flip`, flip(height)
// then disperses of half-distance height/4 ...; without, disperses of
// half-distance height/2 ... . Called with constant `stages`, so after inlining
// the register indices are constants.
void run_chunk(uint height, bool flip, uint stages) {
    uint set_size = 1u << stages, half_set = set_size >> 1;
    uint distance = height >> stages;
    for (uint s = 0u; s < PAIRS_PER_THREAD / set_size; ++s) {
        uint set_index = gl_LocalInvocationID.x + s * LOCAL_THREADS;
        uint residue = set_index % distance;
        uint base = (set_index / distance) * height + residue;
        // A flip set's upper half holds the mirrors of its lower half.
        uint mirror = base - residue + height - 1u - residue;
        uvec2 r[8];
        for (uint j = 0u; j < set_size; ++j)
            r[j] = block[flip && j >= half_set ? mirror - (j - half_set) * distance : base + j * distance];
        if (flip) {
            for (uint j = 0u; j < half_set; ++j) compare_swap(r[j], r[j + half_set]);
            // Upper registers hold descending positions: swap the other way.
            for (uint stride = half_set >> 1; stride > 0u; stride >>= 1)
                for (uint j = 0u; j < half_set; ++j)
                    if ((j & stride) == 0u) {
                        compare_swap(r[j], r[j + stride]);
                        compare_swap(r[half_set + j + stride], r[half_set + j]);
                    }
        } else {
            for (uint stride = half_set; stride > 0u; stride >>= 1)
                for (uint j = 0u; j < set_size; ++j)
                    if ((j & stride) == 0u) compare_swap(r[j], r[j + stride]);
        }
        for (uint j = 0u; j < set_size; ++j)
            block[flip && j >= half_set ? mirror - (j - half_set) * distance : base + j * distance] = r[j];
    }
}

void run_chunk_of(uint height, bool flip, uint stages) {
    barrier();
    switch (stages) {
    case 1u: run_chunk(height, flip, 1u); break;
    case 2u: run_chunk(height, flip, 2u); break;
    default: run_chunk(height, flip, 3u); break;
    }
}

// The stages of one merge level from `height` down to height 2, in balanced
// chunks of at most MAX_CHUNK_STAGES (5 stages: 3 + 2, not 3 + 1 + 1).
void run_level(uint height, bool starts_with_flip) {
    uint stages = findMSB(height);
    uint chunks = (stages + MAX_CHUNK_STAGES - 1u) / MAX_CHUNK_STAGES;
    for (uint c = 0u; c < chunks; ++c) {
        uint chunk_stages = stages / chunks + (c < stages % chunks ? 1u : 0u);
        run_chunk_of(height, starts_with_flip && c == 0u, chunk_stages);
        height >>= chunk_stages;
    }
}

void main() {
    uint block_start = gl_WorkGroupID.x * BLOCK_PAIRS;
    for (uint i = 0u; i < PAIRS_PER_THREAD; ++i) {
        uint local_index = gl_LocalInvocationID.x + i * LOCAL_THREADS;
        block[local_index] = load_pair(block_start + local_index);
    }
#if LOCAL_SORT
    for (uint height = 2u; height <= BLOCK_PAIRS; height <<= 1) run_level(height, true);
#else
    // A disperse level of height BLOCK_PAIRS: half-distances BLOCK_PAIRS/2 .. 1.
    run_level(BLOCK_PAIRS, false);
#endif
    barrier();
    for (uint i = 0u; i < PAIRS_PER_THREAD; ++i) {
        uint local_index = gl_LocalInvocationID.x + i * LOCAL_THREADS;
        store_pair(block_start + local_index, block[local_index]);
    }
}
