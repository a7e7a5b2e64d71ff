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

/* The backend make_sorter asks for: the sort tables run their tests once per
 * backend through these setups (sort_teardown puts back automatic and the
 * driver's radix way). The radix sort sorts in one of two ways (radix.c);
 * plume_tests forces each: radix runs reduce-then-scan, onesweep Onesweep,
 * onesweep_counting Onesweep whose workgroups wait for no earlier tile's
 * word (they count the tile themselves: the fallback of a wait that
 * ran out); onesweep_parts and radix_parts lay tiles out in shared memory
 * in parts of 1024 pairs, and Onesweep's histogram counts a tile with several
 * workgroups (the paths of the H100's 8192-pair tiles); onesweep_wide and
 * radix_wide rank tiles with 512 invocations a workgroup, laid out in parts
 * of 512 pairs.
 * plume_plugin_host cannot reach the module's internals: its radix
 * runs the way the driver gets, and it has no onesweep entries. */
extern plume_sort_algorithm fixture_sort_algorithm;
/* The radix sort's dispatches for `digits` digit passes in the way the
 * fixture forced; 0 where it could not force one (plume_plugin_host). */
uint32_t fixture_radix_dispatches(uint32_t digits);
int sort_setup_bitonic(void **state);
int sort_setup_radix(void **state);
int sort_setup_onesweep(void **state);
int sort_setup_onesweep_counting(void **state);
int sort_setup_onesweep_parts(void **state);
int sort_setup_radix_parts(void **state);
int sort_setup_onesweep_wide(void **state);
int sort_setup_radix_wide(void **state);
int sort_teardown(void **state);
/* A cmocka entry running test `f` with backend `backend` (bitonic, radix,
 * onesweep, onesweep_counting, onesweep_parts, radix_parts, onesweep_wide,
 * radix_wide), named "backend: f" so that a filter can pick
 * one backend. */
#define SORT_TEST(f, backend) {#backend ": " #f, f, sort_setup_##backend, sort_teardown, NULL}

/* The largest count the order tests sort: 2^20 in plume_tests, where the
 * sorts' passes and tile sets are proven (the radix sort's larger tiles start
 * at 2^19, its 8192-pair ones at 2^20 where shared memory holds them); 2^17 through the plugin table, which proves that the calls reach
 * the module and come back alike, so the suite's second run stays within the
 * CI's time. */
#ifdef PLUME_TESTS_THROUGH_TABLE
#define SORT_TEST_LARGEST_COUNT (1u << 17)
#else
#define SORT_TEST_LARGEST_COUNT (1u << 20)
#endif

/* In the test's context, whose logger the sorter inherits, with
 * fixture_sort_algorithm. */
plume_sorter make_sorter(uint32_t capacity, uint32_t block_pairs);
/* The same with key_bits (0: 32). */
plume_sorter make_sorter_with_key_bits(uint32_t capacity, uint32_t block_pairs, uint32_t key_bits);

plume_sorter_desc sorter_desc(plume_context *context, plume_sorter sorter);

/* The order `backend` gives `input` (count pairs): ascending by the keys'
 * low key_bits, ties ascending by value (bitonic) or in input order (radix). */
void expected_sort(const pair *input, uint32_t count, uint32_t key_bits, plume_sort_algorithm backend, pair *out);

/* Sorts `count` pairs on the GPU inside a buffer of count + SLACK pairs (or of
 * the capacity, for indirect sorts) whose tail is poisoned, and checks the
 * result against a CPU sort in the order of the backend that ran
 * (expected_sort) and the tail against the poison. */
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
