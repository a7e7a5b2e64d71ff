/* Contexts and checked handles: stale, foreign and garbage handles give errors
 * (run under config=sanitize they also prove no freed memory is read); two
 * contexts, in one GL context or in two, do not interfere; allocations go
 * through the host's allocator and are all freed; no GL object outlives its
 * object. plume_plugin_host compiles this file again with every plume call
 * routed through the plugin table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "headless_gl.h"
#include "plume/plume_context.h"
#include "plume/plume_sort.h"
#include "plume_fixture.h"
#include "sort_fixture.h"
#include "test_env.h"
#include "tests.h"

static plume_sorter create_sorter(plume_context *context, uint32_t capacity) {
    plume_sorter_desc desc = {.capacity = capacity};
    plume_sorter sorter = {0};
    assert_int_equal(plume_sorter_create(context, &desc, &sorter), PLUME_OK);
    assert_int_not_equal(sorter.id, 0);
    return sorter;
}

/* Every call that takes a sorter refuses `sorter` with INVALID_ARGUMENT and
 * logs a message containing `reason` (through the context's logger; a NULL
 * context has none, its messages go to stderr). */
static void assert_sorter_refused(plume_context *context, plume_sorter sorter, const char *reason) {
    GLuint buffer = test_buffer_create(8 * 64, NULL);
    uint32_t count = 64;
    GLuint count_buffer = test_buffer_create(sizeof count, &count);
    int errors_before = test_log_error_count();
    assert_int_equal(plume_sort(context, sorter, buffer, 64), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_sort_indirect(context, sorter, buffer, count_buffer, 0), PLUME_ERROR_INVALID_ARGUMENT);
    plume_sorter_desc desc;
    memset(&desc, 0xAB, sizeof desc);
    assert_int_equal(plume_sorter_get_desc(context, sorter, &desc), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(desc.capacity, 0);
    assert_int_equal(plume_sorter_pass_count(context, sorter, 64), 0);
    if (sorter.id != 0) /* destroying {0} is a no-op */
        assert_int_equal(plume_sorter_destroy(context, sorter), PLUME_ERROR_INVALID_ARGUMENT);
    if (context) {
        assert_int_equal(test_log_error_count(), errors_before + 4 + (sorter.id != 0)); /* one message per call */
        assert_true(test_log_contains(reason));
    }
    GLuint buffers[] = {buffer, count_buffer};
    glDeleteBuffers(2, buffers);
}

static void test_destroyed_sorter_is_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_context *context = fixture_context();
    plume_sorter sorter = create_sorter(context, 1000);
    plume_sorter copy = sorter; /* handles are values: every copy goes stale together */
    assert_int_equal(plume_sorter_destroy(context, sorter), PLUME_OK);
    assert_sorter_refused(context, copy, "destroyed");
    assert_true(test_log_contains("plume_sort: sorter handle 0x"));

    /* The next sorter takes the freed slot; the old handle still names the
     * destroyed one, not the newcomer. */
    plume_sorter next = create_sorter(context, 1000);
    assert_int_not_equal(next.id, sorter.id);
    assert_sorter_refused(context, sorter, "destroyed");
    check_random_sort(context, next, 777, false);
    assert_int_equal(plume_sorter_destroy(context, next), PLUME_OK);
    assert_int_equal(plume_sorter_destroy(context, (plume_sorter){0}), PLUME_OK); /* {0}: a no-op, like free(NULL) */
}

static void test_foreign_and_garbage_handles_are_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_context *context = fixture_context();
    plume_sorter mine = create_sorter(context, 500);
    plume_context *other = fixture_context_with_another_tag(mine.id);
    plume_sorter theirs = create_sorter(other, 500);
    assert_sorter_refused(context, theirs, "another plume context");
    assert_sorter_refused(other, mine, "another plume context");
    assert_sorter_refused(context, (plume_sorter){0}, "null handle");
    assert_sorter_refused(NULL, mine, "context is NULL");

    /* Right tag, wrong slot or generation: never handed out. */
    uint64_t tag_bits = mine.id & 0xFFFF000000000000ull;
    assert_sorter_refused(context, (plume_sorter){tag_bits | 0xFFFFFFull | 1ull << 24}, "never handed out");
    assert_sorter_refused(context, (plume_sorter){mine.id + (1ull << 24)}, "never handed out");
    assert_sorter_refused(context, (plume_sorter){tag_bits | (mine.id & 0xFFFFFFull)}, "never handed out");
    /* Random words: refused whatever they are, and never read memory. */
    for (int i = 0; i < 200; ++i) {
        uint64_t id = (uint64_t)test_random_u32() << 32 | test_random_u32();
        if (i % 2) id = tag_bits | (id & 0xFFFFFFFFFFFFull); /* right tag, garbage slot and generation */
        if (id == mine.id) continue;
        assert_int_equal(plume_sort(context, (plume_sorter){id}, 0, 0), PLUME_ERROR_INVALID_ARGUMENT);
    }
    /* Both still work after all that. */
    check_random_sort(context, mine, 499, true);
    check_random_sort(other, theirs, 321, false);
    assert_int_equal(plume_sorter_destroy(other, theirs), PLUME_OK);
    plume_context_destroy(other);
    assert_int_equal(plume_sorter_destroy(context, mine), PLUME_OK);
}

/* Two hosts in one process: their contexts share a GL context, and their
 * sorters are used in turn. */
static void test_two_contexts_in_one_gl_context(void **state) {
    (void)state;
    plume_context *first = fixture_context(), *second = NULL;
    plume_context_desc desc = {.logger = test_logger()};
    assert_int_equal(plume_context_create(&desc, &second), PLUME_OK);
    plume_sorter a = create_sorter(first, 3000), b = create_sorter(second, 5000);
    for (int round = 0; round < 3; ++round) {
        check_random_sort(first, a, 1 + test_random_below(3000), round % 2);
        check_random_sort(second, b, 1 + test_random_below(5000), round % 2 == 0);
    }
    assert_int_equal(plume_sorter_destroy(first, a), PLUME_OK);
    check_random_sort(second, b, 4999, false); /* destroying a's sorter left b's alone */
    assert_int_equal(plume_sorter_destroy(second, b), PLUME_OK);
    plume_context_destroy(second);
}

/* A sorter per GL context (no sharing, so both see the same buffer and
 * program names), used in turn. */
static void test_two_gl_contexts_do_not_interfere(void **state) {
    (void)state;
    headless_gl gl[2];
    char error[256];
    plume_context *context[2] = {NULL, NULL};
    plume_sorter sorter[2];
    plume_gl_object objects[2][64];
    uint32_t object_count[2];
    plume_context_desc desc = {.logger = test_logger()};
    for (int i = 0; i < 2; ++i) {
        if (!headless_gl_create(&gl[i], true, NULL, error, sizeof error)) fail_msg("GL context %d: %s", i, error);
        assert_int_equal(plume_context_create(&desc, &context[i]), PLUME_OK);
        sorter[i] = create_sorter(context[i], 4000);
        assert_int_equal(plume_context_list_gl_objects(context[i], objects[i], 64, &object_count[i]), PLUME_OK);
    }
    for (int round = 0; round < 4; ++round) {
        int i = round % 2;
        assert_true(headless_gl_make_current(&gl[i]));
        check_random_sort(context[i], sorter[i], 1 + test_random_below(4000), round >= 2);
    }
    /* Destroying the first sorter (its GL context current) deletes its names
     * there only: the second, with the same numbers in its own namespace,
     * still sorts. */
    assert_true(headless_gl_make_current(&gl[0]));
    assert_int_equal(plume_sorter_destroy(context[0], sorter[0]), PLUME_OK);
    for (uint32_t k = 0; k < object_count[0]; ++k) {
        GLboolean alive = objects[0][k].type == GL_PROGRAM ? glIsProgram(objects[0][k].name)
                                                            : glIsBuffer(objects[0][k].name);
        assert_false(alive);
    }
    assert_true(headless_gl_make_current(&gl[1]));
    check_random_sort(context[1], sorter[1], 4000, false);
    assert_int_equal(plume_sorter_destroy(context[1], sorter[1]), PLUME_OK);
    for (int i = 0; i < 2; ++i) {
        plume_context_destroy(context[i]);
        headless_gl_destroy(&gl[i]);
    }
    test_make_main_context_current();
}

typedef struct message_sink {
    int errors, warnings;
    char first_warning[512], last[512];
} message_sink;

static void sink_message(plume_log_level level, const char *message, void *user) {
    message_sink *sink = user;
    if (level == PLUME_LOG_ERROR) ++sink->errors;
    if (level == PLUME_LOG_WARNING && sink->warnings++ == 0)
        snprintf(sink->first_warning, sizeof sink->first_warning, "%s", message);
    snprintf(sink->last, sizeof sink->last, "%s", message);
}

static void test_host_allocator_and_logger(void **state) {
    (void)state;
    test_allocator_stats context_stats = {0}, sorter_stats = {0};
    message_sink sink = {0};
    plume_context_desc desc = {.logger = {sink_message, &sink}, .allocator = test_counting_allocator(&context_stats)};
    plume_context *context = NULL;
    assert_int_equal(plume_context_create(&desc, &context), PLUME_OK);
    assert_true(context_stats.live_blocks > 0);

    /* Inherits both: its memory is counted with the context's (its state and
     * pass plan at least), its messages reach the sink with the host's user
     * pointer. */
    long before = context_stats.live_blocks;
    plume_sorter inheriting = create_sorter(context, 2000);
    assert_true(context_stats.live_blocks >= before + 2);
    GLuint buffer = test_buffer_create(8 * 2001, NULL);
    assert_int_equal(plume_sort(context, inheriting, buffer, 2001), PLUME_ERROR_CAPACITY);
    assert_int_equal(sink.errors, 1);
    assert_non_null(strstr(sink.last, "over the sorter's capacity"));
    glDeleteBuffers(1, &buffer);

    /* Its own allocator wins over the context's. */
    plume_sorter_desc own = {.capacity = 2000, .allocator = test_counting_allocator(&sorter_stats)};
    plume_sorter separate = {0};
    before = context_stats.total_allocations;
    assert_int_equal(plume_sorter_create(context, &own, &separate), PLUME_OK);
    assert_true(sorter_stats.live_blocks > 0);
    /* The context's table may grow, nothing else of the sorter is the context's. */
    assert_true(context_stats.total_allocations - before <= 1);
    check_random_sort(context, separate, 1999, true);
    check_random_sort(context, inheriting, 1999, false);

    assert_int_equal(plume_sorter_destroy(context, separate), PLUME_OK);
    assert_int_equal(sorter_stats.live_blocks, 0);
    assert_int_equal(plume_sorter_destroy(context, inheriting), PLUME_OK);
    plume_context_destroy(context);
    assert_int_equal(context_stats.live_blocks, 0);
    assert_true(context_stats.total_allocations > 2);
    assert_int_equal(sink.errors, 1);

    /* All or none. */
    test_log_expect_errors();
    desc.allocator.deallocate = NULL;
    desc.logger = test_logger();
    context = (plume_context *)&desc;
    assert_int_equal(plume_context_create(&desc, &context), PLUME_ERROR_INVALID_ARGUMENT);
    assert_null(context);
    assert_true(test_log_contains("2 of 3 given"));
    assert_int_equal(plume_context_create(NULL, NULL), PLUME_ERROR_INVALID_ARGUMENT);
}

static void test_no_gl_object_outlives_its_sorter(void **state) {
    (void)state;
    plume_context *context = fixture_context();
    uint32_t count = 99;
    assert_int_equal(plume_context_list_gl_objects(context, NULL, 0, &count), PLUME_OK);
    assert_int_equal(count, 0);
    static test_gl_census before, during, after;
    test_take_gl_census(&before);
    plume_sorter first = create_sorter(context, 1u << 18), second = create_sorter(context, 100);
    test_take_gl_census(&during);

    uint32_t total = 0;
    assert_int_equal(plume_context_list_gl_objects(context, NULL, 0, &total), PLUME_OK);
    plume_gl_object *all = malloc(sizeof *all * total);
    assert_non_null(all);
    uint32_t filled = 0;
    assert_int_equal(plume_context_list_gl_objects(context, all, total, &filled), PLUME_OK);
    assert_int_equal(filled, total);
    uint32_t programs = 0, buffers = 0;
    for (uint32_t i = 0; i < total; ++i) {
        assert_true(test_gl_object_alive(all[i]));
        programs += all[i].type == GL_PROGRAM;
        buffers += all[i].type == GL_BUFFER;
    }
    /* Per sorter the bitonic state and pass table, and the local sort and
     * merge programs; the 2^18 sorter, over the automatic crossover, also the
     * radix state, tile counts and scratch, and the programs of its way and
     * one tile size (reduce-then-scan three, Onesweep two). Where the driver's
     * automatic choice gives small counts the one-workgroup radix sort
     * (NVIDIA), each sorter has one to three single-tile programs too, and
     * the 100-pair sorter no radix buffer (one workgroup sorts in place). */
    bool small_radix = plume_sorter_algorithm_for(context, second, 100) == PLUME_SORT_RADIX;
    assert_int_equal(buffers, 2 + 2 + 3);
    assert_in_range(programs, 2 + 2 + 2 + (small_radix ? 2 : 0), 2 + 2 + 3 + (small_radix ? 6 : 0));
    /* The list is exactly what creating the sorters brought to life. */
    static test_gl_census listed;
    memcpy(&listed, &before, sizeof listed);
    for (uint32_t i = 0; i < total; ++i) {
        if (all[i].name >= TEST_CENSUS_NAMES) fail_msg("GL name %u is past the census; raise TEST_CENSUS_NAMES", all[i].name);
        listed.kinds[all[i].name] |= test_census_bit(all[i].type);
    }
    test_assert_same_census(&listed, &during, "the list and what lived before");
    /* A short array gets the first entries and the full count. */
    plume_gl_object few[3];
    assert_int_equal(plume_context_list_gl_objects(context, few, 3, &count), PLUME_OK);
    assert_int_equal(count, total);
    assert_memory_equal(few, all, sizeof few);

    /* Exactly what the context still lists lives on: the second sorter's
     * objects and the programs it shares with the first (the context's
     * program cache keeps a program while a sorter uses it). */
    assert_int_equal(plume_sorter_destroy(context, first), PLUME_OK);
    plume_gl_object *remaining = malloc(sizeof *remaining * total);
    assert_non_null(remaining);
    assert_int_equal(plume_context_list_gl_objects(context, remaining, total, &count), PLUME_OK);
    assert_true(count > 0 && count < total);
    for (uint32_t i = 0; i < total; ++i) {
        bool listed_still = false;
        for (uint32_t k = 0; k < count; ++k) listed_still |= memcmp(&remaining[k], &all[i], sizeof all[i]) == 0;
        assert_true(test_gl_object_alive(all[i]) == listed_still);
    }
    free(remaining);
    assert_int_equal(plume_sorter_destroy(context, second), PLUME_OK);
    for (uint32_t i = 0; i < total; ++i) assert_false(test_gl_object_alive(all[i]));
    test_take_gl_census(&after);
    test_assert_same_census(&before, &after, "after destroying both");
    assert_int_equal(plume_context_list_gl_objects(context, NULL, 0, &count), PLUME_OK);
    assert_int_equal(count, 0);
    free(all);

    test_log_expect_errors();
    assert_int_equal(plume_context_list_gl_objects(NULL, NULL, 0, &count), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_context_list_gl_objects(context, NULL, 4, &count), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_context_list_gl_objects(context, few, 3, NULL), PLUME_ERROR_INVALID_ARGUMENT);
}

/* A host that forgets its objects: the context destroys them (warning each,
 * newest first), deletes their GL objects and frees every block. */
static void test_context_destroy_cleans_up_what_the_host_left(void **state) {
    (void)state;
    test_allocator_stats stats = {0};
    message_sink sink = {0};
    plume_context_desc desc = {.logger = {sink_message, &sink}, .allocator = test_counting_allocator(&stats)};
    plume_context *context = NULL;
    assert_int_equal(plume_context_create(&desc, &context), PLUME_OK);
    /* Slots 0, 1, 2; then the newest takes the freed slot 1, so neither slot
     * order nor its reverse is creation order. */
    create_sorter(context, 10000);
    plume_sorter middle = create_sorter(context, 20);
    create_sorter(context, 30);
    assert_int_equal(plume_sorter_destroy(context, middle), PLUME_OK);
    plume_sorter newest = create_sorter(context, 40);
    assert_int_equal(newest.id & 0xFFFFFF, middle.id & 0xFFFFFF);
    assert_true(fixture_destroy_context_checked(context) > 0);
    assert_int_equal(stats.live_blocks, 0);
    char expected[128];
    snprintf(expected, sizeof expected, "a sorter (handle 0x%016llx) is still alive; destroying it",
             (unsigned long long)newest.id);
    /* Created last, destroyed first. */
    if (!strstr(sink.first_warning, expected)) fail_msg("first warning: %s", sink.first_warning);
    assert_int_equal(sink.warnings, 3);
    assert_int_equal(sink.errors, 0);
    plume_context_destroy(NULL); /* a no-op */
}

const struct CMUnitTest context_tests[] = {
    cmocka_unit_test_setup_teardown(test_destroyed_sorter_is_refused, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_foreign_and_garbage_handles_are_refused, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_two_contexts_in_one_gl_context, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_two_gl_contexts_do_not_interfere, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_host_allocator_and_logger, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_no_gl_object_outlives_its_sorter, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_context_destroy_cleans_up_what_the_host_left, fixture_setup,
                                    fixture_teardown),
};
const size_t context_test_count = sizeof context_tests / sizeof context_tests[0];
