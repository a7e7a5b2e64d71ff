/* Sort internals shared by the sorter, its backends and the benchmarks. Not
 * part of the API. */
#ifndef PLUME_SORT_INTERNAL_H
#define PLUME_SORT_INTERNAL_H

#include "core/plume_internal.h"
#include "plume/plume_sort.h"

/* Called before every dispatch of a plume_sort / plume_sort_indirect* call with
 * the pass kind ("local sort" or "merge" from the bitonic backend; "radix
 * upsweep", "radix scan", "radix downsweep", "radix histogram", "radix
 * onesweep" or "radix single" from the radix one), and once more with NULL after the last one: bench/bench_sort.c puts a
 * GL timestamp at each call to time the passes. NULL hook: none (the
 * default). */
typedef void (*plume_sort_pass_hook)(void *user, const char *pass_kind);
plume_result plume_sorter_set_pass_hook(plume_context *context, plume_sorter sorter, plume_sort_pass_hook hook,
                                        void *user);

/* Pairs per invocation of the radix sort's tiles for sorters created from now
 * on (a power of two, 4 .. 16; 0: the default, the largest whose tile fits the
 * GL's shared memory). Benchmarks only: bench/bench_sort.c compares tile
 * sizes with it. */
void plume_radix_set_items(uint32_t items);

/* How the radix sort places each tile's pairs, for sorters created from now
 * on (radix.c): PLUME_RADIX_SCAN_DEFAULT lets the driver decide, the others
 * force one. wait_limit: Onesweep's reads of an unpublished look-back word
 * before a workgroup counts that tile itself (0: the default). Tests and
 * benchmarks only: the tests run both ways on every driver. */
typedef enum plume_radix_scan {
    PLUME_RADIX_SCAN_DEFAULT = 0,
    PLUME_RADIX_SCAN_REDUCE_THEN_SCAN = 1,
    PLUME_RADIX_SCAN_ONESWEEP = 2
} plume_radix_scan;
void plume_radix_set_scan(plume_radix_scan scan, uint32_t wait_limit);

/* true: radix sorters created from now on match digits with ballots even
 * where the GL has subgroup partitions (radix.c). Benchmarks only. */
void plume_radix_force_ballots(bool ballots);

/* true: radix sorters created from now on sort every count with the tile
 * passes, even where one workgroup could (radix.c). Benchmarks only:
 * bench/bench_sort.c times the one-workgroup sort against them. */
void plume_radix_disable_single_tile(bool disabled);

typedef struct sort_pass_hook {
    plume_sort_pass_hook function;
    void *user;
} sort_pass_hook;

#endif
