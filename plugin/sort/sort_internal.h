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
 * on (a power of two, 4 .. 32; 0: the default, the largest whose tile fits the
 * GL's shared memory). Benchmarks only: bench/bench_sort.c compares tile
 * sizes with it. */
void plume_radix_set_items(uint32_t items);
/* Fragment path: stages a pass holds at most (render passes: 1 .. 4, 1 being
 * the seeds' one stage a pass; transform feedback: the position bits a
 * vertex's group spans, 1 .. 6 where the GL records that many components).
 * For the benchmark; no effect on a compute-path sorter. The getter says
 * what the sorter runs (0 on the compute path). */
void plume_sorter_set_fragment_group_bits(plume_context *context, plume_sorter sorter, uint32_t group_bits);
uint32_t plume_sorter_fragment_group_bits(const plume_context *context, plume_sorter sorter);

/* Fragment-path sorters created from now on sort with render passes
 * (fragment_sort.c) even where transform feedback could (feedback_sort.c):
 * the benchmark times both in one process. */
void plume_fragment_use_raster_sort(bool raster);

/* Transform-feedback sorts re-point one buffer texture at each pass's source
 * (glTexBuffer every pass) instead of binding the texture fixed to it: the
 * benchmark's baseline for that cost. */
void plume_feedback_retarget_each_pass(bool retarget);

/* Transform-feedback sorts run the bitonic network (log2(n) (log2(n) + 1) / 2
 * stages, up to 5 a pass) instead of the merge sort (a pass for each
 * doubling of the runs): the benchmark's baseline, timed in the same run. */
void plume_feedback_use_bitonic_network(bool bitonic);

/* The transform-feedback backend of a fragment-path sorter (NULL on the
 * compute path and where it sorts with render passes): the particle system's
 * fragment path records its keys straight into it. */
struct feedback_sort *plume_sorter_feedback_backend(const plume_context *context, plume_sorter sorter);

/* Moves `count` pairs (8 bytes, RG32UI texels `width` a row: whole rows, then
 * the rest of the last row) between the bound pixel buffer and the texture
 * bound to GL_TEXTURE_2D (upload) or the read framebuffer (readback), with
 * tight pixel-store state; the texels past the count are not touched. */
void sort_transfer_rows(uint32_t width, uint32_t count, bool upload);

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

/* true: radix sorters created from now on build their Onesweep histogram
 * and digit passes with per-workgroup clocks (where the GL has
 * GL_ARB_shader_clock and GL_NV_shader_thread_group, else without): each
 * workgroup writes its SM and its SM's clock at its start and after each
 * phase to the buffer the caller binds at PLUME_BINDING_RADIX_PHASE_CLOCKS
 * (the record's layout: plume_gpu_layout.h; the phases:
 * radix_downsweep.comp, radix_histogram.comp), at most
 * PLUME_RADIX_PHASE_MAX_TILES workgroups a pass. Returns false where asked
 * for them on a GL that lacks them. Benchmarks only: GL offers no profiler that separates a pass's
 * phases (bench/bench_sort.c --phase-clocks). */
bool plume_radix_set_phase_clocks(bool on);

/* true: radix sorters created from now on sort every count with the tile
 * passes, even where one workgroup could (radix.c). Benchmarks only:
 * bench/bench_sort.c times the one-workgroup sort against them. */
void plume_radix_disable_single_tile(bool disabled);

/* Invocations of the one-workgroup radix sort's workgroup for radix sorters
 * created from now on (a power of two, 128 .. 1024; 0: the default, the most
 * that the GL's shared memory allows up to 512; fewer where a tile or the
 * shared memory needs). Benchmarks and tests only. */
void plume_radix_set_single_threads(uint32_t threads);

/* What the one-workgroup radix sort's dispatch does, for every sort from now
 * on: sort (the default), nothing (EMPTY: the program sees no pairs and
 * returns), or read and write the pairs with no digit pass (NO_PASSES).
 * Benchmarks only: the timings of the dispatch's fixed cost (the results are
 * not sorted). */
typedef enum plume_radix_single_timing {
    PLUME_RADIX_SINGLE_SORT = 0,
    PLUME_RADIX_SINGLE_EMPTY = 1,
    PLUME_RADIX_SINGLE_NO_PASSES = 2
} plume_radix_single_timing;
void plume_radix_set_single_timing(plume_radix_single_timing timing);

/* For radix sorters created from now on: the pairs their tile passes lay out
 * in shared memory at once (a power of two, at least PLUME_RADIX_THREADS;
 * 0: the default, 4096), larger tiles going through in parts, and the keys
 * per invocation of Onesweep's histogram pass at most (a power of two, at
 * least 1; 0: the default, 16), larger tiles being counted by several
 * workgroups; a sorter keeps what it was created with. Tests and
 * benchmarks only: on llvmpipe, whose shared memory holds no tile that the
 * defaults cut, the tests run the paths of the H100's 8192-pair tiles;
 * plume_bench's `histogram` variant times the histogram's width. */
void plume_radix_set_tile_limits(uint32_t shared_pairs, uint32_t histogram_items);

/* For radix sorters created from now on: the invocations a workgroup of the
 * tile passes that rank (the downsweep, Onesweep's digit passes) at most
 * (rounded down to a power of two from 256 to 1024; 0: each tile set's
 * default), halved where the GL's limits or the tile call for it; the
 * counting passes keep 256. Tests and
 * benchmarks only: the tests run the wide workgroups on llvmpipe, and
 * plume_bench's `threads` variant times the widths. */
void plume_radix_set_tile_threads(uint32_t threads);

typedef struct sort_pass_hook {
    plume_sort_pass_hook function;
    void *user;
} sort_pass_hook;

#endif
