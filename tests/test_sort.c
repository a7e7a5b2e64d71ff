/* The GPU sort against a CPU reference (qsort on key, then value).
 * plume_plugin_host compiles this file a second time with every plume call
 * routed through the plugin table (tests/plugin_host/through_table.h); the
 * tests that reach into the module's internals run only here. */
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
#include "plume_fixture.h"
#include "sort_check.h"
#include "test_env.h"
#include "tests.h"

typedef struct pair {
    uint32_t key, value;
} pair;

static const pair POISON = {0xDEADBEEFu, 0xCAFEF00Du};
enum { SLACK = 37 }; /* poisoned pairs after the count: the sort must not touch them */

static int compare_pairs(const void *a, const void *b) {
    const pair *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    return 0;
}

/* In the test's context, whose logger the sorter inherits. */
static plume_sorter make_sorter(uint32_t capacity, uint32_t block_pairs, uint32_t fused) {
    plume_sorter_desc desc = {.capacity = capacity, .block_pairs = block_pairs, .max_fused_stages = fused};
    plume_sorter sorter = {0};
    assert_int_equal(plume_sorter_create(fixture_context(), &desc, &sorter), PLUME_OK);
    assert_int_not_equal(sorter.id, 0);
    return sorter;
}

static plume_sorter_desc sorter_desc(plume_context *context, plume_sorter sorter) {
    plume_sorter_desc desc;
    assert_int_equal(plume_sorter_get_desc(context, sorter, &desc), PLUME_OK);
    return desc;
}

/* COUNT_FROM_GPU_BOUNDED passes the CPU a bound of count + a random margin. */
typedef enum count_source { COUNT_FROM_CPU, COUNT_FROM_GPU, COUNT_FROM_GPU_BOUNDED } count_source;

/* Sorts `count` pairs on the GPU inside a buffer of count + SLACK pairs (or of
 * the capacity, for indirect sorts) whose tail is poisoned, and checks the
 * result against qsort and the tail against the poison. */
static void check_sort(plume_context *context, plume_sorter sorter, const pair *input, uint32_t count,
                       count_source source, const char *what) {
    uint32_t capacity = sorter_desc(context, sorter).capacity;
    uint32_t length = (source != COUNT_FROM_CPU ? capacity : count) + SLACK;
    pair *data = malloc(sizeof(pair) * length);
    pair *expected = malloc(sizeof(pair) * (count ? count : 1));
    assert_non_null(data);
    assert_non_null(expected);
    for (uint32_t i = 0; i < length; ++i) data[i] = POISON;
    if (count) memcpy(data, input, sizeof(pair) * count);
    if (count) memcpy(expected, input, sizeof(pair) * count);
    qsort(expected, count, sizeof(pair), compare_pairs);

    GLuint buffer = test_buffer_create(sizeof(pair) * length, data);
    if (source != COUNT_FROM_CPU) {
        /* The count sits at an odd word offset, past other data, to exercise
         * the SSBO offset alignment handling. */
        uint32_t words[8] = {7, 7, 7, 7, 7, count, 7, 7};
        GLuint count_buffer = test_buffer_create(sizeof words, words);
        if (source == COUNT_FROM_GPU) {
            assert_int_equal(plume_sort_indirect(context, sorter, buffer, count_buffer, 5 * 4), PLUME_OK);
        } else {
            uint32_t bound = count + test_random_below(capacity - count + 1);
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
            fail_msg("%s, count %u (%s): position %u holds {%08x, %u}, expected {%08x, %u}", what, count,
                     source == COUNT_FROM_CPU ? "direct" : "indirect", i, data[i].key, data[i].value,
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
static pair *random_pairs(uint32_t count, uint32_t key_mask_words) {
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

static void test_sizes_around_the_block_boundary(void **state) {
    (void)state;
    /* A small block makes every shape of merge pass (a level's high bits with
     * or without its flip, a tail alone, a tail and the next level's head)
     * appear at sizes llvmpipe sorts quickly. */
    plume_sorter sorter = make_sorter(1u << 14, 64, 2);
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
    plume_sorter sorter = make_sorter(1u << 17, 64, 2);
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
        plume_sorter sorter = make_sorter(4 * block + 100, block, 0);
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
    plume_sorter sorter = make_sorter(1u << 16, 0, 0);
    uint32_t block = sorter_desc(fixture_context(), sorter).block_pairs;
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
    plume_sorter sorter = make_sorter(1u << 20, 0, 0);
    uint32_t counts[] = {1u << 20, (1u << 19) + 1 + test_random_below(1u << 19), 1 + test_random_below(1u << 20),
                         1 + test_random_below(1u << 16)};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
        pair *input = random_pairs(counts[i], 0);
        check_sort(fixture_context(), sorter, input, counts[i], COUNT_FROM_CPU, "random size");
        free(input);
    }
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}

static void test_adversarial_key_distributions(void **state) {
    (void)state;
    plume_sorter sorter = make_sorter(200000, 0, 3);
    uint32_t count = 100003;
    pair *input = malloc(sizeof(pair) * count);
    assert_non_null(input);
    const char *names[] = {"all equal", "few distinct", "sorted", "reversed", "two values", "all max"};
    for (int pattern = 0; pattern < 6; ++pattern) {
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
            }
            /* Reversed values too, so ties must really be ordered by value. */
            input[i] = (pair){key, pattern == 0 ? count - 1 - i : i};
        }
        check_sort(fixture_context(), sorter, input, count, COUNT_FROM_CPU, names[pattern]);
        check_sort(fixture_context(), sorter, input, count, COUNT_FROM_GPU, names[pattern]);
    }
    free(input);
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}

static float special_depth(void) {
    static const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1e-45f, -1e-45f, 3.4e38f};
    uint32_t pick = test_random_below(12);
    if (pick < sizeof specials / sizeof specials[0]) return specials[pick];
    return test_random_float(-100.0f, 100.0f);
}

static void test_float_depth_keys(void **state) {
    (void)state;
    plume_sorter sorter = make_sorter(50000, 0, 0);
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

#ifndef PLUME_TESTS_THROUGH_TABLE /* uses the module's internals */
/* The GLSL depth_key() gives the same bits as plume_depth_key(). */
static void test_depth_key_glsl_matches_c(void **state) {
    (void)state;
    plume_env env;
    plume_logger logger = test_logger();
    assert_int_equal(plume_env_init(&env, &logger, NULL), PLUME_OK);
    const char *body =
        "layout(local_size_x = 64) in;\n"
        "layout(std430, binding = 0) buffer Data { float depths[]; };\n"
        "layout(std430, binding = 1) buffer Out { uint out_keys[]; };\n"
        "uniform uint u_count; uniform uint u_descending;\n"
        "void main() { uint i = gl_GlobalInvocationID.x; if (i < u_count)\n"
        "  out_keys[i] = depth_key(depths[i], u_descending != 0u); }\n";
    const char *sources[] = {plume_shader_source("sort/depth_key.glsl"), body};
    const char *names[] = {"sort/depth_key.glsl", "test_body.comp"};
    assert_non_null(sources[0]);
    GLuint program = 0;
    assert_int_equal(plume_build_program_from_sources(&env, "depth key test", GL_COMPUTE_SHADER, sources, names, 2, "",
                                                      &program),
                     PLUME_OK);
    enum { COUNT = 4096 };
    float *depths = malloc(sizeof(float) * COUNT);
    uint32_t *keys = malloc(sizeof(uint32_t) * COUNT);
    assert_non_null(depths);
    assert_non_null(keys);
    for (int i = 0; i < COUNT; ++i) {
        uint32_t bits = test_random_u32(); /* any bit pattern: denormals, NaN payloads */
        memcpy(&depths[i], &bits, sizeof bits);
        if (i % 3 == 0) depths[i] = special_depth();
    }
    GLuint input = test_buffer_create(sizeof(float) * COUNT, depths);
    GLuint output = test_buffer_create(sizeof(uint32_t) * COUNT, NULL);
    glUseProgram(program);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, input);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, output);
    GLint count_location = glGetUniformLocation(program, "u_count");
    GLint order_location = glGetUniformLocation(program, "u_descending");
    assert_true(count_location >= 0 && order_location >= 0);
    glUniform1ui(count_location, COUNT);
    for (int order = 0; order < 2; ++order) {
        for (int i = 0; i < COUNT; ++i) keys[i] = 0x5EEDBAADu; /* poison */
        test_buffer_write(output, 0, sizeof(uint32_t) * COUNT, keys);
        glUniform1ui(order_location, (GLuint)order);
        glDispatchCompute(COUNT / 64, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        test_buffer_read(output, 0, sizeof(uint32_t) * COUNT, keys);
        for (int i = 0; i < COUNT; ++i) {
            uint32_t expected = plume_depth_key(depths[i], (plume_sort_order)order);
            if (keys[i] != expected)
                fail_msg("depth %a (bits %08x): GLSL key %08x, C key %08x", (double)depths[i],
                         *(uint32_t *)&depths[i], keys[i], expected);
        }
    }
    glUseProgram(0);
    glDeleteProgram(program);
    GLuint buffers[] = {input, output};
    glDeleteBuffers(2, buffers);
    free(depths);
    free(keys);
}
#endif

static void test_indirect_count_from_gpu_buffer(void **state) {
    (void)state;
    plume_sorter sorter = make_sorter(20000, 256, 2);
    uint32_t counts[] = {0, 1, 2, 255, 256, 257, 4097, 12345, 20000};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
        pair *input = random_pairs(counts[i], i % 2);
        check_sort(fixture_context(), sorter, input, counts[i], COUNT_FROM_GPU, "indirect");
        check_sort(fixture_context(), sorter, input, counts[i], COUNT_FROM_GPU_BOUNDED, "indirect, bounded");
        free(input);
    }
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}

static void test_indirect_count_over_capacity_is_clamped(void **state) {
    (void)state;
    uint32_t capacity = 3000;
    plume_sorter sorter = make_sorter(capacity, 0, 0);
    pair *data = random_pairs(capacity, 0);
    pair *expected = malloc(sizeof(pair) * capacity);
    assert_non_null(expected);
    memcpy(expected, data, sizeof(pair) * capacity);
    qsort(expected, capacity, sizeof(pair), compare_pairs);
    GLuint buffer = test_buffer_create(sizeof(pair) * capacity, data);
    uint32_t too_many = capacity * 10;
    GLuint count_buffer = test_buffer_create(sizeof too_many, &too_many);
    assert_int_equal(plume_sort_indirect(fixture_context(), sorter, buffer, count_buffer, 0), PLUME_OK);
    test_buffer_read(buffer, 0, sizeof(pair) * capacity, data);
    assert_memory_equal(data, expected, sizeof(pair) * capacity);
    GLuint buffers[] = {buffer, count_buffer};
    glDeleteBuffers(2, buffers);
    free(data);
    free(expected);
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}

/* Structure, not speed (the benchmark times it): 2^k+1 pairs add one merge
 * level, a few passes, not a doubling of the work. */
static void test_pass_count_follows_the_count(void **state) {
    (void)state;
    plume_sorter sorter = make_sorter(1u << 22, 0, 0);
    uint32_t block = sorter_desc(fixture_context(), sorter).block_pairs;
    assert_int_equal(plume_sorter_pass_count(fixture_context(), sorter, 0), 0);
    assert_int_equal(plume_sorter_pass_count(fixture_context(), sorter, 1), 0);
    assert_int_equal(plume_sorter_pass_count(fixture_context(), sorter, 2), 1);
    assert_int_equal(plume_sorter_pass_count(fixture_context(), sorter, block), 1);
    /* local sort; the level above the block: its flip and disperses on the
     * high bits, then the rest (its tail) */
    assert_int_equal(plume_sorter_pass_count(fixture_context(), sorter, block + 1), 3);
    uint32_t log_block = plume_log2(block);
    /* Each pass after the local sort runs at most log2(block) stages, and the
     * plan packs them: no fewer passes than the stages above the block need
     * (fewer would mean stages left out), at most two more. */
    uint32_t stages_above = 0;
    for (uint32_t k = log_block; k < 22; ++k) {
        if (k > log_block) stages_above += k;
        uint32_t fewest = 1 + (stages_above + log_block - 1) / log_block;
        uint32_t at = plume_sorter_pass_count(fixture_context(), sorter, 1u << k);
        uint32_t above = plume_sorter_pass_count(fixture_context(), sorter, (1u << k) + 1);
        assert_in_range(at, fewest, fewest + 2);
        assert_in_range(above, at + 1, at + 3);
    }
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}

static void test_bad_input_is_refused_and_nothing_changes(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_sorter sorter = make_sorter(1000, 0, 0);
    pair *data = random_pairs(500, 0);
    GLuint buffer = test_buffer_create(sizeof(pair) * 500, data);

    assert_int_equal(plume_sort(fixture_context(), sorter, buffer, 1001), PLUME_ERROR_CAPACITY);
    assert_true(test_log_contains("over the sorter's capacity"));
    assert_int_equal(plume_sort(fixture_context(), sorter, buffer, 501), PLUME_ERROR_INVALID_ARGUMENT); /* buffer too small */
    assert_int_equal(plume_sort(fixture_context(), sorter, 0, 10), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_sort(fixture_context(), sorter, 987654, 10), PLUME_ERROR_INVALID_ARGUMENT); /* not a buffer */
    assert_int_equal(plume_sort(NULL, sorter, buffer, 10), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_sort(fixture_context(), (plume_sorter){0}, buffer, 10), PLUME_ERROR_INVALID_ARGUMENT);
    uint32_t count = 10;
    GLuint count_buffer = test_buffer_create(sizeof count, &count);
    /* pairs buffer smaller than the capacity */
    assert_int_equal(plume_sort_indirect(fixture_context(), sorter, buffer, count_buffer, 0), PLUME_ERROR_INVALID_ARGUMENT);
    GLuint big = test_buffer_create(sizeof(pair) * 1000, NULL);
    assert_int_equal(plume_sort_indirect(fixture_context(), sorter, big, count_buffer, 2), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_sort_indirect(fixture_context(), sorter, big, count_buffer, 4), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_sort_indirect(fixture_context(), sorter, big, 0, 0), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_sort_indirect_bounded(fixture_context(), sorter, big, count_buffer, 0, 1001),
                     PLUME_ERROR_CAPACITY);

    pair *after = malloc(sizeof(pair) * 500);
    assert_non_null(after);
    test_buffer_read(buffer, 0, sizeof(pair) * 500, after);
    assert_memory_equal(after, data, sizeof(pair) * 500);

    plume_sorter none = {12345};
    plume_sorter_desc desc = {.logger = test_logger()};
    assert_int_equal(plume_sorter_create(fixture_context(), &desc, &none), PLUME_ERROR_INVALID_ARGUMENT); /* capacity 0 */
    assert_int_equal(none.id, 0);
    desc.capacity = (1u << 30) + 1;
    assert_int_equal(plume_sorter_create(fixture_context(), &desc, &none), PLUME_ERROR_INVALID_ARGUMENT);
    desc.capacity = 100;
    desc.block_pairs = 100;
    assert_int_equal(plume_sorter_create(fixture_context(), &desc, &none), PLUME_ERROR_INVALID_ARGUMENT);
    desc.block_pairs = 1u << 20; /* 8 MB of shared memory */
    assert_int_equal(plume_sorter_create(fixture_context(), &desc, &none), PLUME_ERROR_INVALID_ARGUMENT);
    desc.block_pairs = 0;
    desc.max_fused_stages = 9;
    assert_int_equal(plume_sorter_create(fixture_context(), &desc, &none), PLUME_ERROR_INVALID_ARGUMENT);
    desc.max_fused_stages = 0;
    test_allocator_stats stats = {0};
    desc.allocator = test_counting_allocator(&stats);
    desc.allocator.reallocate = NULL;
    assert_int_equal(plume_sorter_create(fixture_context(), &desc, &none), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("allocator"));
    assert_int_equal(plume_sorter_create(fixture_context(), NULL, &none), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(none.id, 0);

    GLuint buffers[] = {buffer, count_buffer, big};
    glDeleteBuffers(3, buffers);
    free(data);
    free(after);
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}

#ifndef PLUME_TESTS_THROUGH_TABLE /* uses the module's internals */
static void test_shader_error_names_file_and_line(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_env env;
    plume_logger logger = test_logger();
    assert_int_equal(plume_env_init(&env, &logger, NULL), PLUME_OK);
    const char *sources[] = {"// fine\nuint helper() { return 1u; }\n",
                             "layout(local_size_x = 1) in;\nvoid main() {\n    undefined_thing = 3;\n}\n"};
    const char *names[] = {"helper.glsl", "broken.comp"};
    GLint before = -1, after = -1;
    glGetIntegerv(GL_CURRENT_PROGRAM, &before);
    GLuint program = 123;
    assert_int_equal(plume_build_program_from_sources(&env, "broken test", GL_COMPUTE_SHADER, sources, names, 2, "",
                                                      &program),
                     PLUME_ERROR_SHADER);
    assert_int_equal(program, 0);
    assert_true(test_log_contains("broken.comp:3:"));
    glGetIntegerv(GL_CURRENT_PROGRAM, &after);
    assert_int_equal(after, before);
}
#endif

#ifndef PLUME_TESTS_THROUGH_TABLE /* uses the module's internals */
static void test_gl_state_is_restored(void **state) {
    (void)state;
    plume_sorter sorter = make_sorter(5000, 0, 0);
    pair *data = random_pairs(5000, 0);
    GLuint buffer = test_buffer_create(sizeof(pair) * 5000, data);
    GLuint host[3];
    for (int i = 0; i < 3; ++i) host[i] = test_buffer_create(1024, NULL);
    plume_env env;
    plume_logger logger = test_logger();
    plume_env_init(&env, &logger, NULL);
    const char *source[] = {"layout(local_size_x = 1) in;\nvoid main() {}\n"};
    const char *name[] = {"host.comp"};
    GLuint host_program = 0;
    assert_int_equal(plume_build_program_from_sources(&env, "host", GL_COMPUTE_SHADER, source, name, 1, "", &host_program),
                     PLUME_OK);
    glUseProgram(host_program);
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, host[0], 256, 512);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, host[1]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, host[2]);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, host[1]);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, host[2]);

    uint32_t count = 4000;
    GLuint count_buffer = test_buffer_create(sizeof count, &count);
    assert_int_equal(plume_sort(fixture_context(), sorter, buffer, 5000), PLUME_OK);
    assert_int_equal(plume_sort_indirect(fixture_context(), sorter, buffer, count_buffer, 0), PLUME_OK);

    GLint value = 0;
    GLint64 value64 = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &value);
    assert_int_equal(value, host_program);
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 0, &value);
    assert_int_equal(value, host[0]);
    glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, 0, &value64);
    assert_int_equal(value64, 256);
    glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, 0, &value64);
    assert_int_equal(value64, 512);
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 1, &value);
    assert_int_equal(value, host[1]);
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 2, &value);
    assert_int_equal(value, host[2]);
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 3, &value);
    assert_int_equal(value, 0);
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &value);
    assert_int_equal(value, host[1]);
    glGetIntegerv(GL_DISPATCH_INDIRECT_BUFFER_BINDING, &value);
    assert_int_equal(value, host[2]);

    glUseProgram(0);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
    for (GLuint i = 0; i < 3; ++i) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, i, 0);
    glDeleteProgram(host_program);
    glDeleteBuffers(3, host);
    glDeleteBuffers(1, &buffer);
    glDeleteBuffers(1, &count_buffer);
    free(data);
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}
#endif

static void test_allocations_are_freed_and_gl_objects_deleted(void **state) {
    (void)state;
    test_allocator_stats stats = {0};
    plume_sorter_desc desc = {.capacity = 1u << 18, .logger = test_logger(), .allocator = test_counting_allocator(&stats)};
    plume_sorter sorter = {0};
    assert_int_equal(plume_sorter_create(fixture_context(), &desc, &sorter), PLUME_OK);
    assert_true(stats.total_allocations > 0);
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
    assert_int_equal(stats.live_blocks, 0);
}

/* Mesa hands out its newest core profile whatever version is asked, so the
 * GL without 4.3 core compute here is an OpenGL ES 3.0 context. */
static void test_refuses_gl_without_4_3_core(void **state) {
    (void)state;
    test_log_expect_errors();
    if (!test_with_es_context(3, 0)) {
        skip();
    }
    plume_sorter_desc desc = {.capacity = 100, .logger = test_logger()};
    plume_sorter sorter = {12345};
    plume_result result = plume_sorter_create(fixture_context(), &desc, &sorter);
    test_restore_main_context();
    assert_int_equal(result, PLUME_ERROR_GL_UNSUPPORTED);
    assert_int_equal(sorter.id, 0);
    assert_true(test_log_contains("needs OpenGL 4.3"));
}

const struct CMUnitTest sort_tests[] = {
    cmocka_unit_test_setup_teardown(test_depth_key_order_on_cpu, fixture_setup, fixture_teardown),
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_depth_key_glsl_matches_c, fixture_setup, fixture_teardown),
#endif
    cmocka_unit_test_setup_teardown(test_sizes_around_the_block_boundary, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_levels_taller_than_two_passes, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_every_block_size, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_default_block_across_the_boundary, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_random_sizes_up_to_2_pow_20, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_adversarial_key_distributions, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_float_depth_keys, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_indirect_count_from_gpu_buffer, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_indirect_count_over_capacity_is_clamped, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_pass_count_follows_the_count, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bad_input_is_refused_and_nothing_changes, fixture_setup, fixture_teardown),
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_shader_error_names_file_and_line, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_gl_state_is_restored, fixture_setup, fixture_teardown),
#endif
    cmocka_unit_test_setup_teardown(test_allocations_are_freed_and_gl_objects_deleted, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_refuses_gl_without_4_3_core, fixture_setup, fixture_teardown),
};
const size_t sort_test_count = sizeof sort_tests / sizeof sort_tests[0];
