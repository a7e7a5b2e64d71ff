/* What the sort tests share (and tests of other objects that sort): random
 * pairs, sorters made in the test's context, and the check of a GPU sort
 * against qsort with a poisoned tail. */
#ifndef PLUME_SORT_FIXTURE_H
#define PLUME_SORT_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "plume/plume_sort.h"

typedef struct pair {
    uint32_t key, value;
} pair;

extern const pair POISON;
enum { SLACK = 37 }; /* poisoned pairs after the count: the sort must not touch them */

/* COUNT_FROM_GPU_BOUNDED passes the CPU a bound of count + a random margin. */
typedef enum count_source { COUNT_FROM_CPU, COUNT_FROM_GPU, COUNT_FROM_GPU_BOUNDED } count_source;

/* qsort's order: key, then value. */
int compare_pairs(const void *a, const void *b);

/* In the test's context, whose logger the sorter inherits. */
plume_sorter make_sorter(uint32_t capacity, uint32_t block_pairs);

plume_sorter_desc sorter_desc(plume_context *context, plume_sorter sorter);

/* Sorts `count` pairs on the GPU inside a buffer of count + SLACK pairs (or of
 * the capacity, for indirect sorts) whose tail is poisoned, and checks the
 * result against qsort and the tail against the poison. */
void check_sort(plume_context *context, plume_sorter sorter, const pair *input, uint32_t count, count_source source,
                const char *what);

/* value = original index, so a value that lost its key shows. */
pair *random_pairs(uint32_t count, uint32_t key_mask_words);

/* Sorts `count` fresh random pairs with `sorter` in the current GL context
 * (the count from the CPU, or from a GPU buffer) and fails the test unless
 * the result equals qsort's and nothing past the count was written. */
void check_random_sort(plume_context *context, plume_sorter sorter, uint32_t count, bool count_from_gpu);

/* A depth for key tests: one of the special floats (zeros, infinities, NaNs,
 * denormals, the largest) a quarter of the time, else a random one. */
float special_depth(void);

#endif
