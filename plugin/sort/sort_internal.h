/* Sort internals shared by the sorter and its backends. Not part of the API. */
#ifndef PLUME_SORT_INTERNAL_H
#define PLUME_SORT_INTERNAL_H

#include "core/plume_internal.h"
#include "plume/plume_sort.h"

/* Called before every dispatch of a sort with the pass kind ("local sort" or
 * "merge" from the bitonic backend; "radix upsweep", "radix scan", "radix
 * downsweep", "radix histogram", "radix onesweep" or "radix single" from the
 * radix one), and once more with NULL after the last one. Set only through
 * the lab (lab/plume_lab.h: the benchmark puts a GL timestamp at each call);
 * a NULL function: none, the product's only value. */
typedef void (*sort_pass_function)(void *user, const char *pass_kind);
typedef struct sort_pass_hook {
    sort_pass_function function;
    void *user;
} sort_pass_hook;

/* How a radix sorter places each tile's pairs: the driver decides by
 * default (radix_chooses_onesweep), or one way is forced. */
typedef enum sort_radix_scan {
    SORT_RADIX_SCAN_DEFAULT = 0,
    SORT_RADIX_SCAN_REDUCE_THEN_SCAN = 1,
    SORT_RADIX_SCAN_ONESWEEP = 2
} sort_radix_scan;

/* What a sorter is made with besides its descriptor. All zero is the
 * product: every default. Lab builds (PLUME_LAB, lab/plume_lab.h) set them
 * on a context for the sorters created from it, so that the tests reach
 * every path on one driver and the benchmarks compare variants; a sorter
 * keeps what it was created with. */
typedef struct sort_settings {
    /* Fragment path: the render-pass sort (fragment_sort.c) even where the
     * transform-feedback one (feedback_sort.c) fits. */
    bool render_pass_sort;
    sort_radix_scan radix_scan;
    uint32_t wait_limit;      /* Onesweep's reads of an unpublished look-back word (0: the default) */
    uint32_t radix_items;     /* pairs per invocation of the one tile set (0: the tiles the GL allows) */
    bool no_single_tile;      /* every count through the tile passes */
    uint32_t single_threads;  /* the one-workgroup sort's invocations (0: the default) */
    uint32_t shared_pairs;    /* pairs of a tile laid out in shared memory at once (0: the default) */
    uint32_t histogram_items; /* keys per invocation of Onesweep's histogram at most (0: the default) */
    uint32_t tile_threads;    /* invocations of the ranking tile passes at most (0: each set's default) */
    bool phase_clocks;        /* Onesweep's per-workgroup clocks (radix_has_phase_clocks) */
} sort_settings;

/* The settings of a sorter created now from `context`: those the lab set on
 * it, else all zero. */
sort_settings sort_settings_of(const plume_context *context);

/* Moves `count` pairs (8 bytes, RG32UI texels `width` a row: whole rows, then
 * the rest of the last row) between the bound pixel buffer and the texture
 * bound to GL_TEXTURE_2D (upload) or the read framebuffer (readback), with
 * tight pixel-store state; the texels past the count are not touched. */
void sort_transfer_rows(const plume_env *env, uint32_t width, uint32_t count, bool upload);

static inline void sort_call_hook(const sort_pass_hook *hook, const char *kind) {
    if (hook && hook->function) hook->function(hook->user, kind);
}

#endif
