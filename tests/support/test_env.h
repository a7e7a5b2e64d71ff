/* What every test program shares: one headless GL context, a seeded random
 * generator (seed printed), a logger that records messages, and GL buffer
 * helpers. A GL error or an unexpected error message fails the test. */
#ifndef PLUME_TEST_ENV_H
#define PLUME_TEST_ENV_H

#include <epoxy/gl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plume/plume_common.h"
#include "plume/plume_context.h"

/* Creates the context once (debug context, KHR_debug on) and prints the
 * renderer, version and random seed. Exits the process if there is no GL. */
void test_env_init(void);

/* cmocka setup/teardown: the teardown fails the test on a pending GL error, or
 * on an error message nobody expected (see test_log_expect_errors). */
int test_setup(void **state);
int test_teardown(void **state);

/* ---- Recording logger ---- */
plume_logger test_logger(void);
void test_log_expect_errors(void);         /* the test provokes errors on purpose */
int test_log_error_count(void);
bool test_log_contains(const char *text);  /* any message since setup */
int test_log_count(const char *text);      /* how many times, over the messages since setup */

/* ---- Random (splitmix64), seeded once per process ---- */
uint64_t test_seed(void);
/* PLUME_TEST_PATH=fragment: the fixtures' systems and sorters take the
 * fragment path (a plume_gpu_path; default PLUME_PATH_AUTO). */
uint32_t test_forced_path(void);
uint32_t test_random_u32(void);
uint32_t test_random_below(uint32_t bound);
float test_random_float(float low, float high);

/* ---- Buffers ---- */
GLuint test_buffer_create(size_t bytes, const void *data);
void test_buffer_read(GLuint buffer, size_t offset, size_t bytes, void *out);
/* The first `components` unsigned integers of each texel of an integer
 * texture's level 0 (width x height, rows bottom up), on desktop GL and ES. */
void test_read_uint_texture(GLuint texture, int width, int height, int components, uint32_t *out);
void test_buffer_write(GLuint buffer, size_t offset, size_t bytes, const void *data);

/* An immutable 2D texture of `format`, width x height, one level (binds
 * nothing). */
GLuint test_texture_create(GLenum format, int width, int height);
/* The same with `levels` mip levels. */
GLuint test_texture_create_levels(GLenum format, int width, int height, int levels);

/* ---- An offscreen colour target ----
 * An RGBA32F texture of size x size in a framebuffer, bound, with the
 * viewport set to it and cleared to `clear`. test_target_end reads the image
 * back (RGBA floats, rows from the bottom) when `rgba` is not NULL, rebinds
 * the previous framebuffer and viewport and deletes the target. */
typedef struct test_target {
    GLuint framebuffer, color;
    int size;
    GLint previous_framebuffer, previous_viewport[4];
} test_target;
test_target test_target_begin(int size, const float clear[4]);
void test_target_end(test_target *target, float *rgba);

/* ---- A counting allocator (every allocation must be freed) ---- */
typedef struct test_allocator_stats {
    long live_blocks;
    long total_allocations;
} test_allocator_stats;
plume_allocator test_counting_allocator(test_allocator_stats *stats);

/* ---- Which GL objects are alive ----
 * Asked of the GL with glIs* for each name and each kind plume_gl_object
 * names: independent of what the module says it owns. */
bool test_gl_object_alive(plume_gl_object object);
enum { TEST_CENSUS_NAMES = 1u << 15 };
typedef struct test_gl_census {
    unsigned char kinds[TEST_CENSUS_NAMES]; /* by name: one bit per kind alive */
} test_gl_census;
void test_take_gl_census(test_gl_census *census);
/* The census bit of a plume_gl_object type (fails the test for another type). */
unsigned char test_census_bit(uint32_t type);
/* Fails the test, naming `what`, when a name's kinds differ between the two. */
void test_assert_same_census(const test_gl_census *expected, const test_gl_census *now, const char *what);

/* Makes a fresh OpenGL ES context current (false if this EGL gives none);
 * test_restore_main_context() destroys it. */
bool test_with_es_context(int major, int minor);
void test_restore_main_context(void);

/* Makes the tests' own GL context current again (after a test made another
 * one current). */
void test_make_main_context_current(void);
#endif
