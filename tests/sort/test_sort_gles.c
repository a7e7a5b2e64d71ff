/* The fragment path in an OpenGL ES 3.0 context (tests/run_gles3.sh makes
 * the tests' context one: PLUME_TEST_GL=es3.0, Mesa held to ES 3.0; in any
 * other context these tests skip). What ES 3.0 runs: the sorter, on the
 * render-pass backend in the GLSL ES 3.00 profile, its texture and buffer
 * forms against qsort (here and in the fragment sort's own tests, which the
 * script runs too), a texture's format and extent found without
 * glGetTexLevelParameteriv. What it refuses, by name, with nothing changed:
 * a count read from a buffer (no buffer textures), the compute path.
 * Particle systems on ES: tests/particles/test_particles_gles.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plume/plume_sort.h"
#include "plume_fixture.h"
#include "sort_fixture.h"
#include "test_env.h"
#include "tests.h"

static bool in_gles_context(void) {
    const char *version = (const char *)glGetString(GL_VERSION);
    return version && strncmp(version, "OpenGL ES 3.", 12) == 0;
}

static plume_sorter make_gles_sorter(uint32_t capacity, uint32_t path) {
    plume_sorter_desc desc = {.capacity = capacity, .path = path, .logger = test_logger()};
    plume_sorter sorter = {0};
    assert_int_equal(plume_sorter_create(fixture_context(), &desc, &sorter), PLUME_OK);
    return sorter;
}

/* The automatic path is the fragment path, on render passes (k = 2 stages a
 * pass and two copies: 1 + 2 passes for two pairs), and buffers of
 * non-power-of-two counts sort as qsort does. */
static void test_gles_sorts_on_the_fragment_path(void **state) {
    (void)state;
    if (!in_gles_context()) skip();
    printf("GL_VERSION: %s\n", (const char *)glGetString(GL_VERSION));
    plume_sorter sorter = make_gles_sorter(40000, PLUME_PATH_AUTO);
    assert_int_equal(plume_sorter_pass_count(fixture_context(), sorter, 2), 1 + 2);
    const uint32_t counts[] = {2, 5, 1023, 1025, 33333, 2 + test_random_below(39998)};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        pair *input = random_pairs(counts[c], c % 2 ? 1 : 0);
        check_sort(fixture_context(), sorter, input, counts[c], COUNT_FROM_CPU, "GLES 3.0 render passes");
        free(input);
    }
    plume_sorter_destroy(fixture_context(), sorter);
}

/* A texture narrower or shorter than the count is refused with its extent,
 * which ES 3.0 cannot query (found by empty uploads): 300x10 under 3001. */
static void test_gles_texture_extent_is_found(void **state) {
    (void)state;
    if (!in_gles_context()) skip();
    test_log_expect_errors();
    plume_sorter sorter = make_gles_sorter(5000, PLUME_PATH_FRAGMENT);
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32UI, 300, 10, 0, GL_RG_INTEGER, GL_UNSIGNED_INT, NULL);
    glBindTexture(GL_TEXTURE_2D, 0);
    assert_int_equal(plume_sort_texture(fixture_context(), sorter, texture, 3001), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("holds 300x10 texels, under the 3001 pairs"));
    assert_int_equal(plume_sort_texture(fixture_context(), sorter, texture, 3000), PLUME_OK);
    glDeleteTextures(1, &texture);
    plume_sorter_destroy(fixture_context(), sorter);
}

/* What needs more than ES 3.0 is refused by name, and the pairs stay as
 * they were. */
static void test_gles_refuses_what_needs_more(void **state) {
    (void)state;
    if (!in_gles_context()) skip();
    test_log_expect_errors();
    plume_context *context = fixture_context();
    plume_sorter sorter = make_gles_sorter(1000, PLUME_PATH_FRAGMENT);
    pair *input = random_pairs(1000, 0);
    const uint32_t count = 1000;
    GLuint pairs = test_buffer_create(sizeof(pair) * 1000, input);
    GLuint counts = test_buffer_create(sizeof count, &count);
    assert_int_equal(plume_sort_indirect(context, sorter, pairs, counts, 0), PLUME_ERROR_GL_UNSUPPORTED);
    assert_true(test_log_contains("plume_sort_indirect: count_buffer:"));
    assert_int_equal(plume_sort_indirect_bounded(context, sorter, pairs, counts, 0, 500), PLUME_ERROR_GL_UNSUPPORTED);
    pair *after = malloc(sizeof(pair) * 1000);
    assert_non_null(after);
    test_buffer_read(pairs, 0, sizeof(pair) * 1000, after);
    assert_memory_equal(after, input, sizeof(pair) * 1000);
    free(after);
    free(input);
    glDeleteBuffers(1, &pairs);
    glDeleteBuffers(1, &counts);
    plume_sorter_destroy(context, sorter);

    plume_sorter none = {12345};
    plume_sorter_desc compute = {.capacity = 100, .path = PLUME_PATH_COMPUTE, .logger = test_logger()};
    assert_int_equal(plume_sorter_create(context, &compute, &none), PLUME_ERROR_GL_UNSUPPORTED);
    assert_true(test_log_contains("needs OpenGL 4.3"));
    assert_int_equal(none.id, 0);

}

const struct CMUnitTest sort_gles_tests[] = {
    cmocka_unit_test_setup_teardown(test_gles_sorts_on_the_fragment_path, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_gles_texture_extent_is_found, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_gles_refuses_what_needs_more, fixture_setup, fixture_teardown),
};
const size_t sort_gles_test_count = sizeof sort_gles_tests / sizeof sort_gles_tests[0];
