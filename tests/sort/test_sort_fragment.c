/* The fragment path's sort (plume_sorter_desc.path = PLUME_PATH_FRAGMENT, the
 * path a GL 3.3 context gets; transform feedback, or render passes where the
 * GL's buffer textures are too small): the texture form against qsort in a
 * texture of a width that is not a power of two, with poisoned texels past
 * the count; the buffer forms on the fragment path; passes that follow the
 * count; the render-pass sort (not through the plugin table: it is picked
 * through the module's internals); bad input; the host's GL state (a
 * hostile host's: tests/core/test_host_state.c); no GL object outliving the
 * sorter. tests/run_gl33.sh runs
 * these, and the sort suite, again in a GL 3.3 core context with compute
 * shaders, storage buffers, image load/store, atomic counters and transform
 * feedback objects hidden. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plume/plume_sort.h"
#include "core/plume_internal.h"
#include "plume_fixture.h"
#include "sort_fixture.h"
#include "fragment_state.h"
#include "test_env.h"
#include "tests.h"
#ifndef PLUME_TESTS_THROUGH_TABLE
#include "plume_lab.h"
#endif

static plume_sorter make_fragment_sorter(uint32_t capacity) {
    plume_sorter_desc desc = {.capacity = capacity, .path = PLUME_PATH_FRAGMENT};
    plume_sorter sorter = {0};
    assert_int_equal(plume_sorter_create(fixture_context(), &desc, &sorter), PLUME_OK);
    assert_int_equal(sorter_desc(fixture_context(), sorter).path, PLUME_PATH_FRAGMENT);
    return sorter;
}

/* An RG32UI texture `width` wide holding `texels` pairs (poisoned), the
 * first `count` of them `input`. */
static GLuint pair_texture(uint32_t width, uint32_t rows, const pair *input, uint32_t count) {
    pair *texels = malloc(sizeof(pair) * width * rows);
    assert_non_null(texels);
    for (uint32_t i = 0; i < width * rows; ++i) texels[i] = i < count ? input[i] : POISON;
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32UI, (GLsizei)width, (GLsizei)rows, 0, GL_RG_INTEGER, GL_UNSIGNED_INT, texels);
    glBindTexture(GL_TEXTURE_2D, 0);
    free(texels);
    return texture;
}

static void check_texture_sort(plume_sorter sorter, const pair *input, uint32_t count, uint32_t width) {
    uint32_t rows = count / width + 2; /* a row and more of poison past the count */
    GLuint texture = pair_texture(width, rows, input, count);
    assert_int_equal(plume_sort_texture(fixture_context(), sorter, texture, count), PLUME_OK);
    pair *out = malloc(sizeof(pair) * width * rows), *expected = malloc(sizeof(pair) * (count ? count : 1));
    assert_non_null(out);
    assert_non_null(expected);
    test_read_uint_texture(texture, (int)width, (int)rows, 2, &out->key);
    glDeleteTextures(1, &texture);
    if (count) memcpy(expected, input, sizeof(pair) * count);
    qsort(expected, count, sizeof(pair), compare_pairs);
    for (uint32_t i = 0; i < count; ++i)
        if (out[i].key != expected[i].key || out[i].value != expected[i].value)
            fail_msg("texture sort of %u (width %u): texel %u holds {%08x, %u}, expected {%08x, %u}", count, width, i,
                     out[i].key, out[i].value, expected[i].key, expected[i].value);
    for (uint32_t i = count; i < width * rows; ++i)
        if (out[i].key != POISON.key || out[i].value != POISON.value)
            fail_msg("texture sort of %u (width %u): texel %u past the count was written", count, width, i);
    free(out);
    free(expected);
}

static void test_texture_sort_matches_qsort(void **state) {
    (void)state;
    plume_sorter sorter = make_fragment_sorter(20000);
    const uint32_t counts[] = {0, 1, 2, 3, 17, 299, 300, 301, 1024, 4097, 16384, 20000};
    const uint32_t widths[] = {300, 1, 7, 2048};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        uint32_t width = widths[c % 4];
        if (counts[c] / width + 2 > 16384) width = 300;
        for (uint32_t mask = 0; mask < 3; mask += 2) { /* distinct keys, then few keys with many ties */
            pair *input = random_pairs(counts[c], mask);
            check_texture_sort(sorter, input, counts[c], width);
            free(input);
        }
    }
    uint32_t random_count = 2 + test_random_below(19999);
    pair *input = random_pairs(random_count, 1);
    check_texture_sort(sorter, input, random_count, 300);
    free(input);
    plume_sorter_destroy(fixture_context(), sorter);
}

/* Sorted, reversed, all equal, and the pads' own value among the pairs. */
static void test_texture_sort_adversarial_keys(void **state) {
    (void)state;
    enum { COUNT = 5000 };
    plume_sorter sorter = make_fragment_sorter(COUNT);
    pair *input = malloc(sizeof(pair) * COUNT);
    assert_non_null(input);
    for (int pattern = 0; pattern < 4; ++pattern) {
        for (uint32_t i = 0; i < COUNT; ++i) {
            uint32_t key = pattern == 0 ? i : pattern == 1 ? COUNT - i : pattern == 2 ? 42u : test_random_u32();
            input[i] = (pair){key, pattern == 2 ? COUNT - i : i};
            if (pattern == 3 && i % 3 == 0) input[i] = (pair){PLUME_KEY_LAST, 0xFFFFFFFFu - (i % 2)};
        }
        check_texture_sort(sorter, input, COUNT - pattern, 300);
    }
    free(input);
    plume_sorter_destroy(fixture_context(), sorter);
}

static void test_buffer_sorts_on_the_fragment_path(void **state) {
    (void)state;
    plume_sorter sorter = make_fragment_sorter(12000);
    const uint32_t counts[] = {2, 3, 1000, 2049, 12000};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        pair *input = random_pairs(counts[c], c % 2 ? 2 : 0);
        check_sort(fixture_context(), sorter, input, counts[c], COUNT_FROM_CPU, "fragment, direct");
        /* No count from a buffer on OpenGL ES 3.0: test_gles_refusals. */
        if (epoxy_is_desktop_gl()) {
            check_sort(fixture_context(), sorter, input, counts[c], COUNT_FROM_GPU, "fragment, indirect");
            check_sort(fixture_context(), sorter, input, counts[c], COUNT_FROM_GPU_BOUNDED, "fragment, bounded");
        }
        free(input);
    }
    plume_sorter_destroy(fixture_context(), sorter);
}

/* The merge sort with groups of 2^5 (the default): one pass sorts each
 * group of 32, then each pass doubles the runs, which cover the count
 * rounded up to whole groups (not to its power of two): a count of at most
 * 32 takes one pass, 2^16 12 and 2^20 16. No pass for runs above the count. */
static void test_passes_follow_the_count(void **state) {
    (void)state;
    plume_sorter sorter = make_fragment_sorter(1u << 20);
    plume_context *context = fixture_context();
    assert_int_equal(plume_sorter_pass_count(context, sorter, 0), 0);
    assert_int_equal(plume_sorter_pass_count(context, sorter, 1), 0);
    for (uint32_t count = 2; count <= 32; count += 3) assert_int_equal(plume_sorter_pass_count(context, sorter, count), 1);
    for (uint32_t log_n = 6; log_n <= 20; ++log_n) {
        uint32_t expected = 1 + (log_n - 5);
        assert_int_equal(plume_sorter_pass_count(context, sorter, 1u << log_n), expected);
        assert_int_equal(plume_sorter_pass_count(context, sorter, (1u << (log_n - 1)) + 1), expected);
    }
    assert_int_equal(plume_sorter_pass_count(context, sorter, 33), 2);    /* 2 groups */
    assert_int_equal(plume_sorter_pass_count(context, sorter, 65), 3);    /* 3 groups: runs of 64, then 128 */
    assert_int_equal(plume_sorter_pass_count(context, sorter, 1u << 16), 12);
    assert_int_equal(plume_sorter_pass_count(context, sorter, 1u << 20), 16); /* the bitonic network: 46 (notes/fragment-path.md); the seeds: 210 */
    plume_sorter_destroy(context, sorter);
}

#ifndef PLUME_TESTS_THROUGH_TABLE
/* The render-pass sort, which a GL whose buffer textures cannot hold the
 * capacity gets: k = 2 stages a pass (a local sort of levels 1 and 2, then
 * level L in ceil(L / 2) passes) and two copies; the texture and buffer forms
 * against qsort, with poison past the count. */
static void test_render_pass_sort(void **state) {
    (void)state;
    plume_context *context = fixture_context();
    const plume_lab_sort_settings render_passes = {.render_pass_sort = true};
    assert_int_equal(plume_lab_set_sort_settings(context, &render_passes), PLUME_OK);
    plume_sorter sorter = make_fragment_sorter(5000);
    assert_int_equal(plume_lab_set_sort_settings(context, NULL), PLUME_OK);
    assert_int_equal(plume_sorter_pass_count(context, sorter, 2), 1 + 2);
    assert_int_equal(plume_sorter_pass_count(context, sorter, 5), 1 + 2 + 2);
    assert_int_equal(plume_sorter_pass_count(context, sorter, 4096), 1 + 2 * 2 + 3 * 2 + 4 * 2 + 5 * 2 + 6 * 2 + 2);
    const uint32_t counts[] = {2, 3, 300, 2049, 5000};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        pair *input = random_pairs(counts[c], c % 2 ? 2 : 0);
        check_texture_sort(sorter, input, counts[c], c % 2 ? 300 : 7);
        check_sort(context, sorter, input, counts[c], COUNT_FROM_CPU, "render passes, direct");
        if (epoxy_is_desktop_gl()) /* no count from a buffer on OpenGL ES 3.0: test_gles_refusals */
            check_sort(context, sorter, input, counts[c], COUNT_FROM_GPU_BOUNDED, "render passes, bounded");
        free(input);
    }
    plume_sorter_destroy(context, sorter);
}
#endif

static void test_bad_input_is_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_context *context = fixture_context();
    plume_sorter sorter = make_fragment_sorter(1000);
    pair some[4] = {{3, 0}, {2, 1}, {1, 2}, {0, 3}};
    GLuint texture = pair_texture(2, 2, some, 4);
    assert_int_equal(plume_sort_texture(context, sorter, texture, 1001), PLUME_ERROR_CAPACITY);
    assert_int_equal(plume_sort_texture(context, sorter, texture, 5), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("under the 5 pairs"));
    assert_int_equal(plume_sort_texture(context, sorter, 0, 4), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_sort_texture(context, sorter, 987654, 4), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_sort_texture(context, (plume_sorter){0}, texture, 4), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_sort_texture(NULL, sorter, texture, 4), PLUME_ERROR_INVALID_ARGUMENT);
    GLuint rgba8 = 0;
    glGenTextures(1, &rgba8);
    glBindTexture(GL_TEXTURE_2D, rgba8);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glBindTexture(GL_TEXTURE_2D, 0);
    assert_int_equal(plume_sort_texture(context, sorter, rgba8, 4), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("not GL_RG32UI"));
    GLuint cube = 0;
    glGenTextures(1, &cube);
    glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
    glBindTexture(GL_TEXTURE_CUBE_MAP, 0);
    assert_int_equal(plume_sort_texture(context, sorter, cube, 4), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("not a GL_TEXTURE_2D"));
    /* Nothing was sorted by the refused calls. */
    pair out[4];
    test_read_uint_texture(texture, 2, 2, 2, &out[0].key);
    assert_memory_equal(out, some, sizeof some);

    plume_sorter none = {12345};
    plume_sorter_desc desc = {.capacity = 100, .path = 3};
    assert_int_equal(plume_sorter_create(context, &desc, &none), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("not a plume_gpu_path"));
    assert_int_equal(none.id, 0);
    desc.path = PLUME_PATH_COMPUTE;
    if (epoxy_gl_version() < 43) {
        assert_int_equal(plume_sorter_create(context, &desc, &none), PLUME_ERROR_GL_UNSUPPORTED);
        assert_true(test_log_contains("needs OpenGL 4.3"));
    } else {
        assert_int_equal(plume_sorter_create(context, &desc, &none), PLUME_OK);
        assert_int_equal(plume_sort_texture(context, none, texture, 4), PLUME_ERROR_INVALID_ARGUMENT);
        assert_true(test_log_contains("create it with path PLUME_PATH_FRAGMENT"));
        plume_sorter_destroy(context, none);
    }
    GLuint doomed[] = {texture, rgba8, cube};
    glDeleteTextures(3, doomed);
    plume_sorter_destroy(context, sorter);
}

/* The fragment sort is a bitonic network: a fragment-path sorter refuses
 * the radix algorithm by name, takes the others, and reports bitonic. */
static void test_radix_algorithm_is_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_context *context = fixture_context();
    plume_sorter_desc desc = {.capacity = 1000, .path = PLUME_PATH_FRAGMENT, .algorithm = PLUME_SORT_RADIX};
    plume_sorter none = {12345};
    assert_int_equal(plume_sorter_create(context, &desc, &none), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("algorithm PLUME_SORT_RADIX needs the compute path"));
    assert_int_equal(none.id, 0);
    const plume_sort_algorithm accepted[] = {PLUME_SORT_AUTOMATIC, PLUME_SORT_BITONIC};
    for (int a = 0; a < 2; ++a) {
        desc.algorithm = accepted[a];
        plume_sorter sorter = {0};
        assert_int_equal(plume_sorter_create(context, &desc, &sorter), PLUME_OK);
        assert_int_equal(plume_sorter_algorithm_for(context, sorter, 1000), PLUME_SORT_BITONIC);
        assert_int_equal(plume_sorter_destroy(context, sorter), PLUME_OK);
    }
}

static void test_host_gl_state_is_restored(void **state) {
    (void)state;
    plume_context *context = fixture_context();
    static test_gl_census before, after;
    test_take_gl_census(&before);
    plume_sorter sorter = make_fragment_sorter(3000);
    pair *input = random_pairs(3000, 0);
    GLuint texture = pair_texture(100, 31, input, 3000);
    GLuint buffer = test_buffer_create(sizeof(pair) * 3000, input);
    host_objects host;
    bind_host_objects(&host);
    watched_state expected, now;
    read_watched_state(&expected);

    assert_int_equal(plume_sort_texture(context, sorter, texture, 3000), PLUME_OK);
    read_watched_state(&now);
    assert_memory_equal(&now, &expected, sizeof now);
    assert_int_equal(plume_sort(context, sorter, buffer, 3000), PLUME_OK);
    read_watched_state(&now);
    assert_memory_equal(&now, &expected, sizeof now);

    unbind_host_objects(&host);
    pair *sorted = malloc(sizeof(pair) * 3100), *from_buffer = malloc(sizeof(pair) * 3000);
    assert_non_null(sorted);
    assert_non_null(from_buffer);
    test_read_uint_texture(texture, 100, 31, 2, &sorted->key);
    test_buffer_read(buffer, 0, sizeof(pair) * 3000, from_buffer);
    qsort(input, 3000, sizeof(pair), compare_pairs);
    assert_memory_equal(sorted, input, sizeof(pair) * 3000);
    assert_memory_equal(from_buffer, input, sizeof(pair) * 3000);
    free(sorted);
    free(from_buffer);
    free(input);

    plume_sorter_destroy(context, sorter);
    glDeleteTextures(1, &texture);
    glDeleteBuffers(1, &buffer);
    /* Every GL object the sorter made is gone with it. */
    test_take_gl_census(&after);
    test_assert_same_census(&before, &after, "after the fragment sorter");
}

const struct CMUnitTest sort_fragment_tests[] = {
    cmocka_unit_test_setup_teardown(test_texture_sort_matches_qsort, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_texture_sort_adversarial_keys, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_buffer_sorts_on_the_fragment_path, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_passes_follow_the_count, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bad_input_is_refused, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_host_gl_state_is_restored, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_radix_algorithm_is_refused, fixture_setup, fixture_teardown),
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_render_pass_sort, fixture_setup, fixture_teardown),
#endif
};
const size_t sort_fragment_test_count = sizeof sort_fragment_tests / sizeof sort_fragment_tests[0];
