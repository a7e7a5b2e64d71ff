/* The numbers the sorts pick by device, in one table (sort_tuning.c; GPUSorting's
 * Tuner.h is the model): crossovers, tile sizes and widths, keyed by what the
 * GL reports. Not part of the API. */
#ifndef PLUME_SORT_TUNING_H
#define PLUME_SORT_TUNING_H

#include "sort_internal.h"

enum { SORT_TUNING_TILE_SETS = 3, SORT_TUNING_DIGIT_PASSES = 3 };

typedef struct sort_tuning {
    /* What the GL has: 32-wide subgroups with ballots, shuffles and
     * arithmetic in compute shaders (the radix sort's fast paths). */
    bool subgroup_ops;
    /* The radix sort's way by default: Onesweep, else reduce-then-scan. */
    bool onesweep;
    /* PLUME_SORT_AUTOMATIC: the smallest count (or bound) that gets the radix
     * sort, and the counts up to which its one-workgroup path does (0: none);
     * by the radix sort's way (0 reduce-then-scan, 1 Onesweep) and digit
     * passes (2, 3, 4). */
    uint32_t radix_from_count[2][SORT_TUNING_DIGIT_PASSES];
    uint32_t radix_single_up_to[2][SORT_TUNING_DIGIT_PASSES];
    /* The radix tile passes' invocations a workgroup, per tile set (small,
     * large, huge). */
    uint32_t tile_threads[SORT_TUNING_TILE_SETS];
    uint32_t radix_items;        /* pairs per invocation of the large tiles, where shared memory allows */
    uint32_t large_tiles_from;   /* counts (or bounds) from this one take the large tiles */
    uint32_t huge_tiles_from;    /* and from this one the huge ones */
    uint32_t shared_pairs;       /* the downsweep's part of a tile in shared memory at most */
    uint32_t histogram_items;    /* keys per invocation of Onesweep's histogram at most */
    uint32_t wait_limit;         /* Onesweep's reads of an unpublished look-back word */
    uint32_t single_threads;     /* the one-workgroup sort's invocations where shared memory allows */
    uint32_t bitonic_block_pairs; /* the bitonic sort's largest default block */
    uint32_t bitonic_large_set_from; /* counts (or bounds) from this one take its 4-pairs-an-invocation programs */
    uint32_t feedback_group_bits; /* transform-feedback sort: position bits a vertex's group spans */
    uint32_t fragment_group_bits; /* render-pass sort: stages a pass holds */
} sort_tuning;

/* The tuning of the current GL: the table's first entry whose key matches;
 * for the fragment path (compute false) the numbers every GL shares, without
 * querying the GL. */
sort_tuning sort_tuning_of_gl(bool compute);

#endif
