// Shared by the radix sort's passes (plugin/sort/radix.c). A pass orders the
// pairs by one digit, the key bits [u_shift, u_shift + u_digit_bits), stably:
// pairs of one digit keep their order. The count is cut into tiles of
// RADIX_TILE consecutive pairs, one workgroup each.
// Defines: RADIX_ITEMS (pairs per invocation), RADIX_TILE (= PLUME_RADIX_THREADS
// x RADIX_ITEMS), SUBGROUP_OPS (1: 32-wide subgroups with ballot, shuffle and
// arithmetic, whose extensions are enabled before this file; 0: shared memory
// does their work).
// Register arrays are indexed by constants only (unrolled loops), so that
// they stay in registers.
#pragma optionNV(unroll all)
layout(std430, binding = PLUME_BINDING_SORT_STATE) restrict buffer RadixState { uint state[]; };
layout(std430, binding = PLUME_BINDING_RADIX_TILE_COUNTS) restrict buffer TileCounts { uint tile_counts[]; };

uniform uint u_shift;       // the digit's lowest key bit
uniform uint u_digit_bits;  // 1 .. PLUME_RADIX_MAX_DIGIT_BITS
uniform uint u_tile_stride; // tiles of the capacity: tile_counts holds digit d of tile t at d * u_tile_stride + t

uint digit_of(uint key) {
    return (key >> u_shift) & ((1u << u_digit_bits) - 1u);
}

// This invocation's place among the workgroup's PLUME_RADIX_THREADS: with
// subgroups, subgroup-major, whatever order the GL numbers invocations in.
uint thread_index() {
#if SUBGROUP_OPS
    return gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
#else
    return gl_LocalInvocationIndex;
#endif
}

uint tile_count_index(uint digit, uint tile) {
    return digit * u_tile_stride + tile;
}
