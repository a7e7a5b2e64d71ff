/* The sort tests' CPU-reference check, for other test files (tests/test_sort.c). */
#ifndef PLUME_SORT_CHECK_H
#define PLUME_SORT_CHECK_H

#include <stdbool.h>

#include "plume/plume_sort.h"

/* Sorts `count` fresh random pairs with `sorter` in the current GL context
 * (the count from the CPU, or from a GPU buffer) and fails the test unless
 * the result equals qsort's and nothing past the count was written. */
void check_random_sort(plume_context *context, plume_sorter sorter, uint32_t count, bool count_from_gpu);

#endif
