/* The radix backend behind a sorter (radix.c): an LSD radix sort, stable, of
 * the pairs' low key_bits. Same split of work as bitonic.h: the sorter checks
 * the arguments, saves the host's GL state and binds the host's count for
 * indirect sorts; the backend plans, builds and dispatches. Not part of the
 * API. */
#ifndef PLUME_SORT_RADIX_H
#define PLUME_SORT_RADIX_H

#include "sort_internal.h"

typedef struct radix_sort radix_sort;

/* Whether a radix sorter of `capacity` made now, in the current GL, sorts by
 * Onesweep (else reduce-then-scan): the sorter's crossover depends on it. */
bool radix_chooses_onesweep(uint32_t capacity);
/* The digit passes a sort of `key_bits` (1 .. 32) runs: 2, 3 or 4. */
uint32_t radix_digit_passes(uint32_t key_bits);
/* Checks the GL's compute limits, plans the digit passes for `key_bits`
 * (1 .. 32) and builds programs and buffers for `capacity` pairs (a scratch
 * copy of the pairs and the per-tile digit counts: memory proportional to the
 * capacity); one_workgroup: also the one-workgroup sort of counts that fit a
 * tile (radix_single_tile_limit). *out is set whenever memory was had, also
 * on failure: free it with radix_destroy. Logs through `env`, which must
 * outlive the backend. Binds GL_COPY_WRITE_BUFFER. */
plume_result radix_create(const plume_env *env, uint32_t capacity, uint32_t key_bits, bool one_workgroup,
                          radix_sort **out);
void radix_destroy(radix_sort *s);
uint32_t radix_list_gl_objects(const radix_sort *s, plume_gl_object *out, uint32_t capacity);
/* The largest count sorted in one dispatch by one workgroup (0: none). */
uint32_t radix_single_tile_limit(const radix_sort *s);
/* Dispatches that sorting `count` pairs issues (0 for 0 or 1). */
uint32_t radix_dispatch_count(const radix_sort *s, uint32_t count);

/* Sorts `count` (2 .. capacity) pairs of `pairs_buffer`. Not const: Onesweep
 * alternates between two banks of digit counts from one sort to the next. */
void radix_sort_direct(radix_sort *s, GLuint pairs_buffer, uint32_t count, const sort_pass_hook *hook);
/* Sorts as many pairs as host_counts[count_index] says (at most max_count),
 * the host's count being bound at PLUME_BINDING_SORT_HOST_COUNT. */
void radix_sort_indirect(radix_sort *s, GLuint pairs_buffer, uint32_t count_index, uint32_t max_count,
                         const sort_pass_hook *hook);

#endif
