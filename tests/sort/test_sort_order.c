/* The GPU sort against a CPU reference (the order of the backend that ran:
 * ascending key, ties by value for the bitonic sort, by input position for
 * the radix sort): sizes round the block and pass boundaries, every block
 * size, random sizes, adversarial key distributions, restricted key bits,
 * float depth keys. Most tests run once per backend (SORT_TEST). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plume/plume_sort.h"
/* In plume_plugin_host only its inline helpers (plume_log2) may be used: the
 * host links no module code, so a call into the internals fails to link. */
#include "core/plume_internal.h"
#ifndef PLUME_TESTS_THROUGH_TABLE
#include "plume_lab.h"
#endif
#include "plume_fixture.h"
#include "sort_fixture.h"
#include "test_env.h"
#include "tests.h"

static void test_sizes_around_the_block_boundary(void **state) {
    (void)state;
    /* A small block makes every shape of merge pass (a level's high bits with
     * or without its flip, a tail alone, a tail and the next level's head)
     * appear at sizes llvmpipe sorts quickly. */
    plume_sorter sorter = make_sorter(1u << 14, 64);
    static const uint32_t small[] = {0, 1, 2, 3, 5, 19, 63, 64, 65, 100, 290};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; ++i) {
        pair *input = random_pairs(small[i], 0);
        check_sort(fixture_context(), sorter, input, small[i], COUNT_FROM_CPU, "small");
        free(input);
    }
    for (uint32_t k = 2; k <= 14; ++k) {
        for (int delta = -1; delta <= 1; ++delta) {
            uint32_t count = (1u << k) + (uint32_t)delta;
            if (count > (1u << 14)) continue;
            pair *input = random_pairs(count, 0);
            check_sort(fixture_context(), sorter, input, count, COUNT_FROM_CPU, "2^k+-1");
            free(input);
        }
    }
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}

/* A 64-pair block makes levels of up to 17 stages, nearly three passes' worth:
 * passes on a level's middle bits, with neither its flip nor its tail. */
static void test_levels_taller_than_two_passes(void **state) {
    (void)state;
    plume_sorter sorter = make_sorter(1u << 17, 64);
    uint32_t counts[] = {(1u << 16) + 1, (1u << 17) - 3, 100000 + test_random_below(20000)};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
        pair *input = random_pairs(counts[i], 0);
        check_sort(fixture_context(), sorter, input, counts[i], i == 1 ? COUNT_FROM_GPU : COUNT_FROM_CPU, "tall levels");
        free(input);
    }
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}

/* Every block size: the local passes hold 2 or 4 pairs per invocation and
 * trade between 32 lanes, so a block of 64 or 128 pairs runs only register and
 * lane stages and larger ones add shared-memory levels; counts fall on and
 * around the lane group (32 lanes x pairs per invocation), the block and
 * partial last blocks. */
static void test_every_block_size(void **state) {
    (void)state;
    for (uint32_t block = 64; block <= 2048; block *= 2) {
        plume_sorter sorter = make_sorter(4 * block + 100, block);
        uint32_t counts[] = {31, 33, 63, 65, 127, 129, 255, 257, block - 1, block, block + 1,
                             3 * block + 7, 1 + test_random_below(4 * block + 100)};
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
            pair *input = random_pairs(counts[i], i % 2 ? 2 : 0);
            check_sort(fixture_context(), sorter, input, counts[i], i == 12 ? COUNT_FROM_GPU : COUNT_FROM_CPU,
                       "block size");
            free(input);
        }
        assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
    }
}

static void test_default_block_across_the_boundary(void **state) {
    (void)state;
    plume_sorter sorter = make_sorter(1u << 16, 0);
    uint32_t block = sorter_desc(fixture_context(), sorter).block_pairs;
    if (block == 0) block = 2048; /* radix: no block; 2048 is a tile on llvmpipe */
    uint32_t counts[] = {block - 1, block, block + 1, 2 * block - 1, 2 * block + 1, 1500, 2001, 3103, 11025,
                         (1u << 16) - 1, 1u << 16};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
        pair *input = random_pairs(counts[i], 0);
        check_sort(fixture_context(), sorter, input, counts[i], COUNT_FROM_CPU, "default block");
        free(input);
    }
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}

static void test_random_sizes_up_to_2_pow_20(void **state) {
    (void)state;
    const uint32_t largest = SORT_TEST_LARGEST_COUNT;
    plume_sorter sorter = make_sorter(largest, 0);
    uint32_t counts[] = {largest, largest / 2 + 1 + test_random_below(largest / 2), 1 + test_random_below(1u << 16)};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
        pair *input = random_pairs(counts[i], 0);
        check_sort(fixture_context(), sorter, input, counts[i], COUNT_FROM_CPU, "random size");
        free(input);
    }
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}

static void test_adversarial_key_distributions(void **state) {
    (void)state;
    /* Twenty 2048-pair blocks or tiles, a partial last one: every pattern
     * crosses blocks, merge levels and tiles. */
    plume_sorter sorter = make_sorter(50000, 0);
    uint32_t count = 40009;
    pair *input = malloc(sizeof(pair) * count);
    assert_non_null(input);
    const char *names[] = {"all equal", "few distinct", "sorted",   "reversed",
                           "two values", "all max",    "top bit only", "random values"};
    for (int pattern = 0; pattern < 8; ++pattern) {
        uint32_t equal_key = test_random_u32();
        for (uint32_t i = 0; i < count; ++i) {
            uint32_t key = 0;
            switch (pattern) {
            case 0: key = equal_key; break;
            case 1: key = test_random_u32() & test_random_u32() & test_random_u32() & 0xF0F0F0F0u; break;
            case 2: key = i * 3u; break;
            case 3: key = (count - i) * 3u; break;
            case 4: key = test_random_u32() & 1u; break;
            case 5: key = 0xFFFFFFFFu; break;
            case 6: key = (test_random_u32() & 0x80000000u) | 0x1234u; break;
            case 7: key = test_random_u32() & 0x00FF0000u; break;
            }
            /* Reversed values too, so ties must really be ordered by value
             * (bitonic) or kept in input order (radix); random values, not
             * indices, so neither order follows from the other. */
            uint32_t value = pattern == 0 ? count - 1 - i : pattern == 7 ? test_random_u32() : i;
            input[i] = (pair){key, value};
        }
        check_sort(fixture_context(), sorter, input, count, COUNT_FROM_CPU, names[pattern]);
        check_sort(fixture_context(), sorter, input, count, COUNT_FROM_GPU, names[pattern]);
    }
    free(input);
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}

/* Keys that fit in key_bits: the radix sort runs fewer digits (two of 1 to
 * 8 bits, three of 5 to 8 through its second scratch copy, four of 7 or 8),
 * the bitonic one is unchanged; counts from 2 (the one-workgroup sort's too)
 * with each count source. */
static void test_restricted_key_bits(void **state) {
    (void)state;
    static const uint32_t key_bits[] = {1, 8, 12, 16, 17, 20, 24, 31};
    for (size_t b = 0; b < sizeof key_bits / sizeof key_bits[0]; ++b) {
        plume_sorter sorter = make_sorter_with_key_bits(20000, 0, key_bits[b]);
        assert_int_equal(sorter_desc(fixture_context(), sorter).key_bits, key_bits[b]);
        static const count_source sources[] = {COUNT_FROM_CPU, COUNT_FROM_GPU, COUNT_FROM_GPU_BOUNDED};
        for (int s = 0; s < 3; ++s) {
            uint32_t count = s == 0 ? 2 + test_random_below(4000) : 3000 + test_random_below(17000);
            pair *input = random_pairs(count, (b + (size_t)s) % 2);
            for (uint32_t i = 0; i < count; ++i) input[i].key &= (uint32_t)((1ull << key_bits[b]) - 1);
            check_sort(fixture_context(), sorter, input, count, sources[(b + (size_t)s) % 3], "key bits");
            free(input);
        }
        assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
    }
}

static void test_float_depth_keys(void **state) {
    (void)state;
    plume_sorter sorter = make_sorter(50000, 0);
    uint32_t count = 40961;
    pair *input = malloc(sizeof(pair) * count);
    float *depths = malloc(sizeof(float) * count);
    assert_non_null(input);
    assert_non_null(depths);
    for (int order = 0; order < 2; ++order) {
        for (uint32_t i = 0; i < count; ++i) {
            depths[i] = special_depth();
            input[i] = (pair){plume_depth_key(depths[i], (plume_sort_order)order), i};
        }
        check_sort(fixture_context(), sorter, input, count, COUNT_FROM_CPU, "float depths");
        /* The sorted order, read as depths, is monotonic with NaNs last. */
        qsort(input, count, sizeof(pair), compare_pairs);
        bool seen_nan = false;
        for (uint32_t i = 1; i < count; ++i) {
            float before = depths[input[i - 1].value], now = depths[input[i].value];
            if (isnan(now)) {
                seen_nan = true;
                continue;
            }
            assert_false(seen_nan); /* a number after a NaN */
            if (order == PLUME_ORDER_ASCENDING) assert_true(before <= now);
            else assert_true(before >= now);
        }
    }
    free(input);
    free(depths);
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}

#ifndef PLUME_TESTS_THROUGH_TABLE
/* The radix sort's one-workgroup path (radix_single.comp) with each width of
 * workgroup it can get (128 .. 1024 invocations, so 1 .. 16 pairs an
 * invocation; the suites above run the default), on counts that fill a tile,
 * leave most of one empty or cross into the next, with keys that put every
 * pair in one digit, few digits, or only the top bit apart; values reversed,
 * so that input order is not value order. */
static void test_one_workgroup_widths(void **state) {
    (void)state;
    static const uint32_t widths[] = {128, 256, 1024};
    static const uint32_t counts[] = {97, 700, 1025, 2048, 4000};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
        for (uint32_t key_bits = 16; key_bits <= 32; key_bits += 8) { /* two digit passes, three, four */
            if (key_bits != 32 && widths[w] != 1024) continue;
            /* The suite's setup (radix: reduce-then-scan), this width. */
            plume_lab_sort_settings settings = {.radix_scan = PLUME_LAB_RADIX_SCAN_REDUCE_THEN_SCAN,
                                                .single_threads = widths[w]};
            assert_int_equal(plume_lab_set_sort_settings(fixture_context(), &settings), PLUME_OK);
            plume_sorter sorter = make_sorter_with_key_bits(4096, 0, key_bits);
            settings.single_threads = 0;
            assert_int_equal(plume_lab_set_sort_settings(fixture_context(), &settings), PLUME_OK);
            uint32_t one_workgroup = 0;
            for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
                if (plume_sorter_pass_count(fixture_context(), sorter, counts[c]) != 1) continue;
                ++one_workgroup;
                pair *input = random_pairs(counts[c], 0);
                uint32_t equal_key = test_random_u32();
                for (int pattern = 0; pattern < 3; ++pattern) {
                    for (uint32_t i = 0; i < counts[c]; ++i) {
                        uint32_t r = test_random_u32();
                        uint32_t key = pattern == 0 ? equal_key : pattern == 1 ? r & 0x0300C000u : (r & 0x80000000u) | 7u;
                        uint32_t top = 1u << (key_bits - 1);
                        if (key_bits < 32) key = pattern == 2 ? (r & top) | 7u : key & ((top << 1) - 1u);
                        input[i] = (pair){key, counts[c] - 1 - i};
                    }
                    check_sort(fixture_context(), sorter, input, counts[c], c % 2 ? COUNT_FROM_GPU_BOUNDED : COUNT_FROM_CPU,
                               "one workgroup");
                }
                free(input);
            }
            assert_true(one_workgroup >= 3); /* every GL's tiles hold 2048 pairs or more */
            assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
        }
    }
}
#endif

static void test_depth_key_order_on_cpu(void **state) {
    (void)state;
    const float ascending[] = {-INFINITY, -3.4e38f, -1.0f, -1e-45f, 0.0f, 1e-45f, 1.0f, 3.4e38f, INFINITY};
    for (size_t i = 1; i < sizeof ascending / sizeof ascending[0]; ++i) {
        assert_true(plume_depth_key(ascending[i - 1], PLUME_ORDER_ASCENDING) <
                    plume_depth_key(ascending[i], PLUME_ORDER_ASCENDING));
        assert_true(plume_depth_key(ascending[i - 1], PLUME_ORDER_DESCENDING) >
                    plume_depth_key(ascending[i], PLUME_ORDER_DESCENDING));
    }
    for (int order = 0; order < 2; ++order) {
        assert_int_equal(plume_depth_key(-0.0f, order), plume_depth_key(0.0f, order));
        assert_int_equal(plume_depth_key(NAN, order), PLUME_KEY_NAN);
        assert_int_equal(plume_depth_key(-NAN, order), PLUME_KEY_NAN);
        uint32_t payload_bits = 0x7FA12345u;
        float payload_nan;
        memcpy(&payload_nan, &payload_bits, sizeof payload_nan);
        assert_int_equal(plume_depth_key(payload_nan, order), PLUME_KEY_NAN);
        float extreme = order == PLUME_ORDER_ASCENDING ? INFINITY : -INFINITY;
        assert_true(plume_depth_key(extreme, order) < PLUME_KEY_NAN);
    }
}

/* The tests both backends run; the block-size tests are the bitonic sort's
 * alone (the radix sort has no block; its tile boundaries are crossed by the
 * sizes of the others). */
#define SORT_ORDER_TESTS(backend)                                                                                      \
    SORT_TEST(test_sizes_around_the_block_boundary, backend),                                                          \
        SORT_TEST(test_default_block_across_the_boundary, backend),                                                    \
        SORT_TEST(test_random_sizes_up_to_2_pow_20, backend), SORT_TEST(test_adversarial_key_distributions, backend),  \
        SORT_TEST(test_restricted_key_bits, backend), SORT_TEST(test_float_depth_keys, backend)

const struct CMUnitTest sort_order_tests[] = {
    cmocka_unit_test_setup_teardown(test_depth_key_order_on_cpu, fixture_setup, fixture_teardown),
    SORT_ORDER_TESTS(bitonic),
    SORT_TEST(test_levels_taller_than_two_passes, bitonic),
    SORT_TEST(test_every_block_size, bitonic),
    SORT_ORDER_TESTS(radix),
#ifndef PLUME_TESTS_THROUGH_TABLE
    SORT_ORDER_TESTS(onesweep),
    SORT_TEST(test_sizes_around_the_block_boundary, onesweep_counting),
    SORT_TEST(test_adversarial_key_distributions, onesweep_counting),
    SORT_TEST(test_one_workgroup_widths, radix),
    SORT_TEST(test_adversarial_key_distributions, onesweep_parts),
    SORT_TEST(test_adversarial_key_distributions, radix_parts),
    SORT_ORDER_TESTS(onesweep_wide),
    SORT_ORDER_TESTS(radix_wide),
#endif
};
const size_t sort_order_test_count = sizeof sort_order_tests / sizeof sort_order_tests[0];
