/* The sorter's API: the GLSL depth key against C, indirect counts, the pass
 * count, bad input refused with nothing changed, shader errors by file and
 * line, GL state restored, nothing left behind, GL without compute refused.
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
#include "sort_fixture.h"
#include "test_env.h"
#include "tests.h"

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
    plume_sorter sorter = make_sorter(20000, 256);
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
    plume_sorter sorter = make_sorter(capacity, 0);
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

/* The host's conditional rendering discards a sort's dispatches as it does
 * draws (both are rendering commands; Mesa and NVIDIA's driver discard
 * them): a sort inside a condition that passed nothing leaves its pairs as
 * they were, and the sorts after it are right. Onesweep's sorts once counted
 * digits in two banks taken in turn by the CPU, each sort zeroing the other
 * for the next: a discarded sort zeroed nothing, and the next one counted on
 * top of stale counts. */
static void test_a_sort_discarded_by_conditional_rendering_leaves_the_next_right(void **state) {
    (void)state;
    plume_sorter sorter = make_sorter(20000, 0);
    GLuint nothing_passed = 0;
    glGenQueries(1, &nothing_passed);
    glBeginQuery(GL_ANY_SAMPLES_PASSED, nothing_passed);
    glEndQuery(GL_ANY_SAMPLES_PASSED);
    for (uint32_t round = 0; round < 3; ++round) {
        uint32_t count = 12000 + test_random_below(8000);
        printf("  round %u: %u pairs sorted inside the condition, then again outside it\n", round, count);
        pair *input = random_pairs(count, 0), *got = malloc(sizeof(pair) * count);
        assert_non_null(got);
        GLuint buffer = test_buffer_create(sizeof(pair) * count, input);
        glBeginConditionalRender(nothing_passed, GL_QUERY_WAIT);
        assert_int_equal(plume_sort(fixture_context(), sorter, buffer, count), PLUME_OK);
        glEndConditionalRender();
        test_buffer_read(buffer, 0, sizeof(pair) * count, got);
        assert_memory_equal(got, input, sizeof(pair) * count);
        check_sort(fixture_context(), sorter, input, count, COUNT_FROM_CPU, "after a discarded sort");
        check_sort(fixture_context(), sorter, input, count, COUNT_FROM_GPU, "indirect, after a discarded sort");
        glDeleteBuffers(1, &buffer);
        free(input);
        free(got);
    }
    glDeleteQueries(1, &nothing_passed);
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
}

/* Structure, not speed (the benchmark times it): 2^k+1 pairs add one merge
 * level, a few passes, not a doubling of the work. */
static void test_pass_count_follows_the_count(void **state) {
    (void)state;
    plume_sorter sorter = make_sorter(1u << 22, 0);
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

/* The radix sort: three dispatches per digit (reduce-then-scan) or one per
 * digit and the histogram (Onesweep); as few digits of at most 8 bits as the
 * key bits need, at least two (32 key bits: 4, 25: 4, 24: 3, 17: 3 of 6 or 5,
 * 16: 2, 12: 2 of 6, 8: 2 of 4, 1: a 1-bit digit and an empty one), whatever
 * the count; one dispatch for a count that
 * fits one workgroup's tile (at most 4096 pairs). */
static void test_radix_dispatches_follow_the_key_bits(void **state) {
    (void)state;
    static const uint32_t key_bits[] = {0, 32, 25, 24, 17, 16, 12, 9, 8, 1};
    static const uint32_t digits[] = {4, 4, 4, 3, 3, 2, 2, 2, 2, 2};
    const uint32_t capacity = 1u << 14;
    for (size_t i = 0; i < sizeof key_bits / sizeof key_bits[0]; ++i) {
        plume_sorter sorter = make_sorter_with_key_bits(capacity, 0, key_bits[i]);
        assert_int_equal(plume_sorter_pass_count(fixture_context(), sorter, 0), 0);
        assert_int_equal(plume_sorter_pass_count(fixture_context(), sorter, 1), 0);
        assert_int_equal(plume_sorter_pass_count(fixture_context(), sorter, 2), 1);
        assert_int_equal(plume_sorter_pass_count(fixture_context(), sorter, 1000), 1);
        uint32_t dispatches = plume_sorter_pass_count(fixture_context(), sorter, capacity);
        if (fixture_radix_dispatches(digits[i])) assert_int_equal(dispatches, fixture_radix_dispatches(digits[i]));
        else assert_true(dispatches == 3 * digits[i] || dispatches == 1 + digits[i]); /* the driver's way */
        assert_int_equal(plume_sorter_pass_count(fixture_context(), sorter, 4097), dispatches);
        plume_sorter_desc desc = sorter_desc(fixture_context(), sorter);
        assert_int_equal(desc.key_bits, key_bits[i] ? key_bits[i] : 32);
        assert_int_equal(desc.algorithm, PLUME_SORT_RADIX);
        assert_int_equal(desc.block_pairs, 0);
        assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
    }
}

/* Automatic: bitonic up to a crossover, radix from it on, for plume_sort's
 * count and an indirect sort's bound; below the bitonic range, counts that fit
 * the radix sort's one-workgroup path may get it too, where it measured faster
 * (with few key bits on NVIDIA there is no bitonic range left). Both sides of
 * each crossover sort right. A sorter whose capacity is under the crossover
 * has no radix sort for counts over the small range; a forced backend runs
 * for every count. */
static void test_automatic_choice_follows_the_count(void **state) {
    (void)state;
    /* Every crossover measured (notes/sort-performance.md) is under 2^18; a
     * capacity under 2^19 builds one tile size of the radix sort, not two. */
    const uint32_t capacity = 1u << 18;
    for (uint32_t key_bits = 16; key_bits <= 32; key_bits += 8) { /* two digit passes, three, four */
        plume_sorter sorter = make_sorter_with_key_bits(capacity, 0, key_bits);
        assert_int_equal(sorter_desc(fixture_context(), sorter).algorithm, PLUME_SORT_AUTOMATIC);
        /* The first and last count of the bitonic range on a grid, then exactly. */
        uint32_t first_bitonic = 0, last_bitonic = 0;
        for (uint32_t count = 2; count <= capacity; count += count < 1024 ? 1 : 1024) {
            if (plume_sorter_algorithm_for(fixture_context(), sorter, count) != PLUME_SORT_BITONIC) continue;
            if (!first_bitonic) first_bitonic = count;
            last_bitonic = count;
        }
        for (uint32_t count = 2; count <= capacity; count += count < 1024 ? 1 : 1024) {
            bool bitonic = first_bitonic && count >= first_bitonic && count <= last_bitonic;
            assert_int_equal(plume_sorter_algorithm_for(fixture_context(), sorter, count),
                             bitonic ? PLUME_SORT_BITONIC : PLUME_SORT_RADIX);
        }
        uint32_t sides[4] = {4096, 4097}, side_count = 2;
        if (first_bitonic) {
            assert_in_range(last_bitonic, 2, capacity - 1);
            assert_true(first_bitonic == 2 || first_bitonic <= 4096 + 1024); /* radix below: one workgroup's counts */
            /* The grid's step was at most 1024: the exact edges are within it. */
            while (first_bitonic > 2 &&
                   plume_sorter_algorithm_for(fixture_context(), sorter, first_bitonic - 1) == PLUME_SORT_BITONIC)
                --first_bitonic;
            while (plume_sorter_algorithm_for(fixture_context(), sorter, last_bitonic + 1) == PLUME_SORT_BITONIC)
                ++last_bitonic;
            side_count = 0;
            if (first_bitonic > 2) sides[side_count++] = first_bitonic - 1, sides[side_count++] = first_bitonic;
            sides[side_count++] = last_bitonic, sides[side_count++] = last_bitonic + 1;
        }
        uint32_t crossover = first_bitonic ? last_bitonic + 1 : 2;
        uint32_t mask = key_bits == 32 ? 0xFFFFFFFFu : (1u << key_bits) - 1u;
        for (uint32_t side = 0; side < side_count; ++side) {
            uint32_t count = sides[side];
            pair *input = random_pairs(count, 1);
            for (uint32_t i = 0; i < count; ++i) input[i].key &= mask;
            check_sort(fixture_context(), sorter, input, count, COUNT_FROM_CPU, "automatic");
            free(input);
        }
        assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);

        if (!first_bitonic) continue;
        plume_sorter small = make_sorter_with_key_bits(crossover - 1, 0, key_bits);
        assert_int_equal(plume_sorter_algorithm_for(fixture_context(), small, crossover - 1), PLUME_SORT_BITONIC);
        assert_int_equal(plume_sorter_destroy(fixture_context(), small), PLUME_OK);
    }
    static const plume_sort_algorithm forced[] = {PLUME_SORT_BITONIC, PLUME_SORT_RADIX};
    for (int f = 0; f < 2; ++f) {
        plume_sorter_desc desc = {.capacity = capacity, .algorithm = forced[f]};
        plume_sorter sorter = {0};
        assert_int_equal(plume_sorter_create(fixture_context(), &desc, &sorter), PLUME_OK);
        const uint32_t counts[] = {0, 2, 1000, capacity};
        for (int c = 0; c < 4; ++c)
            assert_int_equal(plume_sorter_algorithm_for(fixture_context(), sorter, counts[c]), forced[f]);
        assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
    }
    test_log_expect_errors();
    assert_int_equal(plume_sorter_algorithm_for(fixture_context(), (plume_sorter){0}, 5), PLUME_SORT_AUTOMATIC);
}

static void test_bad_input_is_refused_and_nothing_changes(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_sorter sorter = make_sorter(1000, 0);
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
    desc.algorithm = PLUME_SORT_RADIX + 1;
    assert_int_equal(plume_sorter_create(fixture_context(), &desc, &none), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("algorithm 3 is not a plume_sort_algorithm"));
    desc.algorithm = PLUME_SORT_RADIX;
    desc.key_bits = 33;
    assert_int_equal(plume_sorter_create(fixture_context(), &desc, &none), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("key_bits 33 is outside 1 .. 32"));
    desc.algorithm = PLUME_SORT_AUTOMATIC;
    desc.key_bits = 0;
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
    plume_sorter sorter = make_sorter(5000, 0);
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
 * GL without 4.3 core compute here is an OpenGL ES 3.0 context (where the
 * automatic path is the fragment path's GLSL ES profile: tests/run_gles3.sh). */
static void test_refuses_gl_without_4_3_core(void **state) {
    (void)state;
    test_log_expect_errors();
    if (!test_with_es_context(3, 0)) {
        skip();
    }
    plume_sorter_desc desc = {.capacity = 100, .logger = test_logger(), .path = PLUME_PATH_COMPUTE};
    plume_sorter sorter = {12345};
    plume_result result = plume_sorter_create(fixture_context(), &desc, &sorter);
    test_restore_main_context();
    assert_int_equal(result, PLUME_ERROR_GL_UNSUPPORTED);
    assert_int_equal(sorter.id, 0);
    assert_true(test_log_contains("needs OpenGL 4.3"));
}

const struct CMUnitTest sort_api_tests[] = {
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_depth_key_glsl_matches_c, fixture_setup, fixture_teardown),
#endif
    SORT_TEST(test_indirect_count_from_gpu_buffer, bitonic),
    SORT_TEST(test_indirect_count_from_gpu_buffer, radix),
    SORT_TEST(test_indirect_count_over_capacity_is_clamped, bitonic),
    SORT_TEST(test_indirect_count_over_capacity_is_clamped, radix),
    SORT_TEST(test_pass_count_follows_the_count, bitonic),
    SORT_TEST(test_radix_dispatches_follow_the_key_bits, radix),
    SORT_TEST(test_a_sort_discarded_by_conditional_rendering_leaves_the_next_right, bitonic),
    SORT_TEST(test_a_sort_discarded_by_conditional_rendering_leaves_the_next_right, radix),
#ifndef PLUME_TESTS_THROUGH_TABLE
    SORT_TEST(test_a_sort_discarded_by_conditional_rendering_leaves_the_next_right, onesweep),
    SORT_TEST(test_indirect_count_from_gpu_buffer, onesweep),
    SORT_TEST(test_indirect_count_over_capacity_is_clamped, onesweep),
    SORT_TEST(test_radix_dispatches_follow_the_key_bits, onesweep),
#endif
    cmocka_unit_test_setup_teardown(test_automatic_choice_follows_the_count, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bad_input_is_refused_and_nothing_changes, fixture_setup, fixture_teardown),
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_shader_error_names_file_and_line, fixture_setup, fixture_teardown),
    SORT_TEST(test_gl_state_is_restored, bitonic),
    SORT_TEST(test_gl_state_is_restored, radix),
    SORT_TEST(test_gl_state_is_restored, onesweep),
#endif
    cmocka_unit_test_setup_teardown(test_allocations_are_freed_and_gl_objects_deleted, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_refuses_gl_without_4_3_core, fixture_setup, fixture_teardown),
};
const size_t sort_api_test_count = sizeof sort_api_tests / sizeof sort_api_tests[0];
