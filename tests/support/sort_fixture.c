/* See sort_fixture.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plume_fixture.h"
#ifndef PLUME_TESTS_THROUGH_TABLE
#include "plume_lab.h"
#endif
#include "sort_fixture.h"
#include "test_env.h"

const pair POISON = {0xDEADBEEFu, 0xCAFEF00Du};

int compare_pairs(const void *a, const void *b) {
    const pair *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    return 0;
}

plume_sort_algorithm fixture_sort_algorithm = PLUME_SORT_AUTOMATIC;
/* The radix way a setup asks for (the lab's plume_lab_radix_scan, which the
 * plugin table's tests do without). */
typedef enum fixture_scan { SCAN_DEFAULT, SCAN_REDUCE_THEN_SCAN, SCAN_ONESWEEP } fixture_scan;
static fixture_scan fixture_radix_scan = SCAN_DEFAULT;

/* The backend, and in plume_tests (through the lab's settings on the
 * fixture's context) the radix way, Onesweep's wait, the tile limits (parts
 * of `shared_pairs`, a histogram workgroup counting a quarter of a 2048-pair
 * tile) and the tile passes' width (0 the default). */
static int sort_setup_with(void **state, plume_sort_algorithm algorithm, fixture_scan scan, uint32_t wait_limit,
                           uint32_t shared_pairs, uint32_t tile_threads) {
    fixture_sort_algorithm = algorithm;
    int result = fixture_setup(state);
#ifndef PLUME_TESTS_THROUGH_TABLE
    fixture_radix_scan = scan;
    static const plume_lab_radix_scan LAB_SCANS[] = {PLUME_LAB_RADIX_SCAN_DEFAULT,
                                                     PLUME_LAB_RADIX_SCAN_REDUCE_THEN_SCAN,
                                                     PLUME_LAB_RADIX_SCAN_ONESWEEP};
    const plume_lab_sort_settings settings = {.radix_scan = LAB_SCANS[scan],
                                              .wait_limit = wait_limit,
                                              .shared_pairs = shared_pairs,
                                              .histogram_items = shared_pairs ? 2 : 0,
                                              .tile_threads = tile_threads};
    if (result == 0 && plume_lab_set_sort_settings(fixture_context(), &settings) != PLUME_OK) result = -1;
#else
    (void)scan;
    (void)wait_limit;
    (void)shared_pairs;
    (void)tile_threads;
#endif
    return result;
}

static int sort_setup(void **state, plume_sort_algorithm algorithm, fixture_scan scan, uint32_t wait_limit) {
    return sort_setup_with(state, algorithm, scan, wait_limit, 0, 0);
}

int sort_setup_bitonic(void **state) {
    return sort_setup(state, PLUME_SORT_BITONIC, SCAN_DEFAULT, 0);
}

int sort_setup_radix(void **state) {
    return sort_setup(state, PLUME_SORT_RADIX, SCAN_REDUCE_THEN_SCAN, 0);
}

int sort_setup_onesweep(void **state) {
    return sort_setup(state, PLUME_SORT_RADIX, SCAN_ONESWEEP, 0);
}

int sort_setup_onesweep_counting(void **state) {
    return sort_setup(state, PLUME_SORT_RADIX, SCAN_ONESWEEP, 1);
}

/* Tiles laid out in shared memory in parts of 1024 pairs and counted by
 * several histogram workgroups each, so that llvmpipe, whose shared memory
 * holds no tile that the defaults cut, runs the paths of the H100's
 * 8192-pair tiles. */
int sort_setup_onesweep_parts(void **state) {
    return sort_setup_with(state, PLUME_SORT_RADIX, SCAN_ONESWEEP, 0, 1024, 0);
}

int sort_setup_radix_parts(void **state) {
    return sort_setup_with(state, PLUME_SORT_RADIX, SCAN_REDUCE_THEN_SCAN, 0, 1024, 0);
}

/* Tile passes of 512 invocations a workgroup (the first 256 doing the
 * per-digit steps; llvmpipe, without 32-wide subgroups, gets 256 by
 * default), laid out in parts of 512 pairs so that a tile takes several. */
int sort_setup_onesweep_wide(void **state) {
    return sort_setup_with(state, PLUME_SORT_RADIX, SCAN_ONESWEEP, 0, 512, 512);
}

int sort_setup_radix_wide(void **state) {
    return sort_setup_with(state, PLUME_SORT_RADIX, SCAN_REDUCE_THEN_SCAN, 0, 512, 512);
}

int sort_teardown(void **state) {
    fixture_sort_algorithm = PLUME_SORT_AUTOMATIC;
    fixture_radix_scan = SCAN_DEFAULT; /* the settings go with the fixture's context */
    return fixture_teardown(state);
}

uint32_t fixture_radix_dispatches(uint32_t digits) {
    switch (fixture_radix_scan) {
    case SCAN_REDUCE_THEN_SCAN: return 3 * digits;
    case SCAN_ONESWEEP: return 1 + digits;
    default: return 0;
    }
}

/* In the test's context, whose logger the sorter inherits. On the fragment
 * path (PLUME_TEST_PATH=fragment) the tables' radix runs sort with the
 * fragment network too: that path has no radix sort. */
plume_sorter make_sorter_with_key_bits(uint32_t capacity, uint32_t block_pairs, uint32_t key_bits) {
    uint32_t path = test_forced_path();
    plume_sorter_desc desc = {.capacity = capacity,
                              .block_pairs = block_pairs,
                              .algorithm = path == PLUME_PATH_FRAGMENT ? PLUME_SORT_AUTOMATIC : fixture_sort_algorithm,
                              .key_bits = key_bits,
                              .path = path};
    plume_sorter sorter = {0};
    assert_int_equal(plume_sorter_create(fixture_context(), &desc, &sorter), PLUME_OK);
    assert_int_not_equal(sorter.id, 0);
    return sorter;
}

plume_sorter make_sorter(uint32_t capacity, uint32_t block_pairs) {
    return make_sorter_with_key_bits(capacity, block_pairs, 0);
}

/* expected_sort's comparison of input positions (qsort has no context
 * argument in C11; the tests run on one thread). */
static struct {
    const pair *input;
    uint32_t key_mask;
    bool ties_by_value;
} order;

static int compare_positions(const void *a, const void *b) {
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    uint32_t x = order.input[i].key & order.key_mask, y = order.input[j].key & order.key_mask;
    if (x != y) return x < y ? -1 : 1;
    if (order.ties_by_value && order.input[i].value != order.input[j].value)
        return order.input[i].value < order.input[j].value ? -1 : 1;
    return (i > j) - (i < j);
}

void expected_sort(const pair *input, uint32_t count, uint32_t key_bits, plume_sort_algorithm backend, pair *out) {
    uint32_t *positions = malloc(sizeof(uint32_t) * (count ? count : 1));
    assert_non_null(positions);
    for (uint32_t i = 0; i < count; ++i) positions[i] = i;
    order.input = input;
    order.key_mask = key_bits >= 32 ? 0xFFFFFFFFu : (1u << key_bits) - 1u;
    order.ties_by_value = backend != PLUME_SORT_RADIX;
    qsort(positions, count, sizeof(uint32_t), compare_positions);
    for (uint32_t i = 0; i < count; ++i) out[i] = input[positions[i]];
    free(positions);
}

plume_sorter_desc sorter_desc(plume_context *context, plume_sorter sorter) {
    plume_sorter_desc desc;
    assert_int_equal(plume_sorter_get_desc(context, sorter, &desc), PLUME_OK);
    return desc;
}

/* Sorts `count` pairs on the GPU inside a buffer of count + SLACK pairs (or of
 * the capacity, for indirect sorts) whose tail is poisoned, and checks the
 * result against qsort and the tail against the poison. */
void check_sort(plume_context *context, plume_sorter sorter, const pair *input, uint32_t count,
                       count_source source, const char *what) {
    plume_sorter_desc desc = sorter_desc(context, sorter);
    uint32_t capacity = desc.capacity;
    /* The bound an indirect sort gets, which picks the backend. */
    uint32_t bound = source == COUNT_FROM_GPU_BOUNDED ? count + test_random_below(capacity - count + 1)
                     : source == COUNT_FROM_GPU   ? capacity
                                                  : count;
    plume_sort_algorithm backend = plume_sorter_algorithm_for(context, sorter, bound);
    assert_true(backend == PLUME_SORT_BITONIC || backend == PLUME_SORT_RADIX);
    if (fixture_sort_algorithm != PLUME_SORT_AUTOMATIC) assert_int_equal(backend, fixture_sort_algorithm);
    uint32_t length = (source != COUNT_FROM_CPU ? capacity : count) + SLACK;
    pair *data = malloc(sizeof(pair) * length);
    pair *expected = malloc(sizeof(pair) * (count ? count : 1));
    assert_non_null(data);
    assert_non_null(expected);
    for (uint32_t i = 0; i < length; ++i) data[i] = POISON;
    if (count) memcpy(data, input, sizeof(pair) * count);
    expected_sort(input, count, desc.key_bits, backend, expected);

    GLuint buffer = test_buffer_create(sizeof(pair) * length, data);
    if (source != COUNT_FROM_CPU) {
        /* The count sits at an odd word offset, past other data, to exercise
         * the SSBO offset alignment handling. */
        uint32_t words[8] = {7, 7, 7, 7, 7, count, 7, 7};
        GLuint count_buffer = test_buffer_create(sizeof words, words);
        if (source == COUNT_FROM_GPU) {
            assert_int_equal(plume_sort_indirect(context, sorter, buffer, count_buffer, 5 * 4), PLUME_OK);
        } else {
            assert_int_equal(plume_sort_indirect_bounded(context, sorter, buffer, count_buffer, 5 * 4, bound),
                             PLUME_OK);
        }
        glDeleteBuffers(1, &count_buffer);
    } else {
        assert_int_equal(plume_sort(context, sorter, buffer, count), PLUME_OK);
    }
    memset(data, 0, sizeof(pair) * length);
    test_buffer_read(buffer, 0, sizeof(pair) * length, data);
    glDeleteBuffers(1, &buffer);

    for (uint32_t i = 0; i < count; ++i) {
        if (data[i].key != expected[i].key || data[i].value != expected[i].value) {
            fail_msg("%s, count %u (%s, %s, %u key bits): position %u holds {%08x, %u}, expected {%08x, %u}", what,
                     count, source == COUNT_FROM_CPU ? "direct" : "indirect",
                     backend == PLUME_SORT_RADIX ? "radix" : "bitonic", desc.key_bits, i, data[i].key, data[i].value,
                     expected[i].key, expected[i].value);
        }
    }
    for (uint32_t i = count; i < length; ++i) {
        if (data[i].key != POISON.key || data[i].value != POISON.value)
            fail_msg("%s, count %u: position %u past the count was written", what, count, i);
    }
    free(data);
    free(expected);
}

/* value = original index, so a value that lost its key shows. */
pair *random_pairs(uint32_t count, uint32_t key_mask_words) {
    pair *pairs = malloc(sizeof(pair) * (count ? count : 1));
    assert_non_null(pairs);
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t key = test_random_u32();
        /* ANDing random words leaves few distinct keys (CUB's trick). */
        for (uint32_t w = 0; w < key_mask_words; ++w) key &= test_random_u32();
        pairs[i] = (pair){key, i};
    }
    return pairs;
}

void check_random_sort(plume_context *context, plume_sorter sorter, uint32_t count, bool count_from_gpu) {
    pair *input = random_pairs(count, 0);
    check_sort(context, sorter, input, count, count_from_gpu ? COUNT_FROM_GPU : COUNT_FROM_CPU, "random");
    free(input);
}

float special_depth(void) {
    static const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1e-45f, -1e-45f, 3.4e38f};
    uint32_t pick = test_random_below(12);
    if (pick < sizeof specials / sizeof specials[0]) return specials[pick];
    return test_random_float(-100.0f, 100.0f);
}
