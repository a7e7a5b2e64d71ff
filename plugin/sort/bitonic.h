/* The bitonic backend behind a sorter (bitonic.c). The sorter (sorter.c)
 * checks the arguments, saves the host's GL state and binds the host's count
 * for indirect sorts; a backend plans, builds and dispatches. Not part of the
 * API. */
#ifndef PLUME_SORT_BITONIC_H
#define PLUME_SORT_BITONIC_H

#include "sort_internal.h"

typedef struct bitonic_sort bitonic_sort;

/* Checks the GL's compute limits, picks the block (block_pairs 0) or checks
 * the one given, plans the passes for `capacity` and builds programs and
 * buffers. *out is set whenever memory was had, also on failure: free it with
 * bitonic_destroy. Logs through `env`, which must outlive the backend. Binds
 * GL_COPY_WRITE_BUFFER. */
plume_result bitonic_create(const plume_env *env, uint32_t capacity, uint32_t block_pairs, bitonic_sort **out);
void bitonic_destroy(bitonic_sort *s);
uint32_t bitonic_block_pairs(const bitonic_sort *s);
uint32_t bitonic_list_gl_objects(const bitonic_sort *s, plume_gl_object *out, uint32_t capacity);
/* Dispatches that sorting `count` pairs issues. */
uint32_t bitonic_dispatch_count(const bitonic_sort *s, uint32_t count);

/* Sorts `count` (2 .. capacity) pairs of `pairs_buffer`. */
void bitonic_sort_direct(const bitonic_sort *s, GLuint pairs_buffer, uint32_t count, const sort_pass_hook *hook);
/* Sorts as many pairs as host_counts[count_index] says (at most max_count),
 * the host's count being bound at PLUME_BINDING_SORT_HOST_COUNT. */
void bitonic_sort_indirect(const bitonic_sort *s, GLuint pairs_buffer, uint32_t count_index, uint32_t max_count,
                           const sort_pass_hook *hook);

#endif
