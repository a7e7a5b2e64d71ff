/* What the radix sort's two files share (radix.c: the digit passes of a
 * sort, and which tiles and way run them; radix_resources.c: the plan, the
 * GL's limits, the programs and buffers, their creation and end). Not part
 * of the API. */
#ifndef PLUME_SORT_RADIX_INTERNAL_H
#define PLUME_SORT_RADIX_INTERNAL_H

#include "shared/plume_gpu_layout.h"
#include "sort_backend.h"

enum { MAX_PASSES = PLUME_RADIX_MAX_PASSES }; /* 32 key bits in 8-bit digits */

/* The programs of reduce-then-scan (upsweep, scan, downsweep), of Onesweep
 * (histogram, onesweep: the downsweep built with ONESWEEP 1) and of either
 * way for a count that fits one tile (single: every digit pass in one
 * workgroup). */
enum { UPSWEEP_PROGRAM, SCAN_PROGRAM, DOWNSWEEP_PROGRAM, HISTOGRAM_PROGRAM, ONESWEEP_PROGRAM, SINGLE_PROGRAM, PROGRAMS };

/* The programs' uniforms (tile_set.locations; -1 where a program lacks one). */
enum {
    U_SHIFT, U_DIGIT_BITS, U_TILE_STRIDE, U_FIRST_PASS, U_INDIRECT, U_DIRECT_COUNT, U_COUNT_INDEX, U_MAX_COUNT,
    U_PASS, U_WAIT_LIMIT, U_PASS_SHIFTS, U_PASS_BITS, U_PASS_COUNT, UNIFORMS
};

typedef struct digit_pass {
    uint32_t shift, bits;
} digit_pass;

/* Three sizes of tile (sort_tuning.c: which counts take which). A sort
 * takes the set its count, or the bound on it, calls for. A sorter has the
 * sets its capacity reaches; one whose tile was chosen (the lab's
 * radix_items) has that one only. Where
 * the GL's shared memory cuts the large tile down (llvmpipe: 2048), the small
 * one is half of it, so that the tests cross from one set to the other
 * everywhere, and there is no huge one. */
enum { SMALL_TILES, LARGE_TILES, HUGE_TILES, TILE_SETS };
enum { SINGLE_SIZES = 3 };
_Static_assert((int)TILE_SETS == (int)SORT_TUNING_TILE_SETS, "a tuned width per tile set");

typedef struct tile_set {
    uint32_t items, tile, tile_stride; /* items: pairs per invocation of the ranking passes (tile / threads);
                                          tile_stride: tiles of the capacity (or of the counts the set sorts) */
    uint32_t threads;                  /* invocations of a workgroup of the passes that rank (items each) */
    uint32_t shared_pairs;             /* the downsweep's part of the tile in shared memory */
    uint32_t histogram_items;          /* keys per invocation of Onesweep's histogram pass, fixed at creation */
    GLuint programs[PROGRAMS];         /* 0: not built (the set, or the other way's programs) */
    GLint locations[PROGRAMS][UNIFORMS]; /* -1 where a program lacks the uniform */
} tile_set;

typedef struct radix_sort {
    const plume_env *env; /* the sorter's */
    uint32_t capacity;
    sort_tuning tuning;     /* the GL's, at creation */
    sort_settings settings; /* the lab's, or all zero */
    tile_set sets[TILE_SETS];
    /* One-workgroup sorts: the single-tile program of tiles of a quarter, a
     * half and all of the largest tile, each built where the capacity goes
     * past the one before. */
    tile_set singles[SINGLE_SIZES];
    bool subgroup_ops;
    bool onesweep;       /* else reduce-then-scan */
    uint32_t wait_limit; /* Onesweep's */
    digit_pass passes[MAX_PASSES];
    uint32_t pass_count;
    GLuint state_buffer, tile_counts_buffer, scratch_buffer;
    GLuint second_scratch_buffer; /* an odd pass count's (plan_passes), else 0 */
} radix_sort;

/* radix_resources.c: builds programs and buffers for desc->capacity pairs
 * (a scratch copy of the pairs and the per-tile digit counts: memory
 * proportional to the capacity), the digit passes planned for
 * desc->key_bits; one_workgroup: also the one-workgroup sort of counts that
 * fit a tile. */
plume_result radix_create(const plume_env *env, const sort_backend_desc *desc, void **out);
void radix_destroy(void *backend);
uint32_t radix_list_gl_objects(const void *backend, plume_gl_object *out, uint32_t capacity);

#endif
