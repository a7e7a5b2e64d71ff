/* A batch's gathers over tables of systems (render/draw_group_table.c): the
 * systems whose particles lie in a pool page gather a dispatch a page, the
 * others (here one too large for a table) their own. The picture is the one
 * of every system's own gather (plume_lab_batch_draw_table off), on the
 * raster and tiled paths at full and half resolution, for many systems of
 * four looks and blend modes, of capacities that are no power of two,
 * overlapping, some of their particles dead between live ones, and after
 * systems are destroyed and made between frames; the lab's counts say
 * which systems took which way; and the GL calls of a batch's draw grow
 * with the pool pages, not with the systems. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "plume/plume_batch.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "plume_lab.h"
#include "batch_looks.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

enum {
    PIXELS = RENDER_WIDTH * RENDER_HEIGHT,
    MANY = 37,
    TOO_LARGE = 4099, /* past the table's largest capacity (draw_group_table.c): its own gather */
};
static const float TOLERANCE = 0.5f / 255.0f;

/* The batch tests' fire with emitted light, and lit squares whose size
 * follows a curve of three keys. */
static void fire_emissive(plume_system_desc *d) {
    fire_like(d);
    d->emissive_over_life = (plume_gradient){2, {{0.0f, {1.0f, 0.5f, 0.1f, 0.6f}}, {1.0f, {0.2f, 0.1f, 0.0f, 0.0f}}}};
}

static void lit_sized(plume_system_desc *d) {
    lit(d);
    d->appearance.size_over_life = (plume_curve){3, {{0.0f, 0.4f}, {0.3f, 1.0f}, {1.0f, 0.7f}}};
}

/* System `i` of a seeded scene: one of four looks, overlapping the others,
 * of a capacity that is no power of two (`capacity` 0: its own). */
static plume_system make_system(uint32_t i, uint32_t seed, uint32_t capacity) {
    static void (*const adjust[4])(plume_system_desc *) = {plain, lit_sized, additive_stretched, fire_emissive};
    uint32_t h = (seed + i * 2654435761u) >> 7;
    const float centre[3] = {-2.0f + 4.0f * (float)(h % 97) / 96.0f, -1.2f + 2.4f * (float)(h / 97 % 89) / 88.0f,
                             -6.0f - (float)(h % 5) * 0.3f};
    uint32_t count = capacity ? capacity : 37 + 41 * (h % 23);
    return render_cloud_with(centre, 0.8f, 0.35f, count, seed + i, i % 4 != 1, adjust[i % 4]);
}

static plume_frame_desc lit_frame(uint32_t path, uint32_t resolution) {
    return (plume_frame_desc){.draw_path = path, .draw_resolution = resolution,
                              .light_direction = {0.3f, 1.0f, 0.5f}, .light_color = {0.9f, 0.8f, 0.7f},
                              .ambient_color = {0.2f, 0.2f, 0.25f}};
}

static void update_batch(const plume_system *systems, uint32_t count, const render_camera *c) {
    plume_frame_desc frame = lit_frame(PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL);
    frame.dt = 0.001f;
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    assert_int_equal(plume_batch_update(fixture_context(), systems, count, &frame), PLUME_OK);
}

static plume_lab_batch_draw_counts last_counts(void) {
    plume_lab_batch_draw_counts counts;
    assert_int_equal(plume_lab_batch_draw_counts_of(fixture_context(), &counts), PLUME_OK);
    return counts;
}

/* The batch drawn with the table and without (each system its own gather)
 * on every path and resolution: the same picture; the counts of each. */
static void compare_with_own_gathers(const plume_system *systems, uint32_t count, uint32_t own, const char *what,
                                     const render_camera *c) {
    static const struct {
        const char *name;
        uint32_t path, resolution;
    } WAYS[] = {{"raster", PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL},
                {"raster 1/2", PLUME_DRAW_PATH_RASTER, PLUME_DRAW_HALF},
                {"tiled", PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL},
                {"tiled 1/2", PLUME_DRAW_PATH_TILED, PLUME_DRAW_HALF}};
    for (size_t w = 0; w < sizeof WAYS / sizeof WAYS[0]; ++w) {
        float *tabled = render_new_image(), *alone = render_new_image();
        memset(tabled, 0xFF, sizeof(float) * 4 * PIXELS); /* NaNs the draw must overwrite */
        plume_frame_desc frame = lit_frame(WAYS[w].path, WAYS[w].resolution);
        plume_lab_batch_draw_table(false);
        render_draw_batch(systems, count, c, frame, true, alone);
        plume_lab_batch_draw_counts off = last_counts();
        plume_lab_batch_draw_table(true);
        render_draw_batch(systems, count, c, frame, true, tabled);
        plume_lab_batch_draw_counts on = last_counts();
        for (int i = 0; i < 4 * PIXELS; ++i) assert_false(isnan(tabled[i]));
        float largest = render_largest_difference(alone, tabled);
        int covered = render_covered_pixels(tabled);
        printf("  %s, %-10s: %u systems, %u over %u pages' tables, %u alone, %u dispatches (%u without the "
               "table); %.3f/255 from their own gathers, %d pixels covered\n",
               what, WAYS[w].name, on.systems, on.table_systems, on.table_pages, on.own_systems, on.dispatches,
               off.dispatches, largest * 255.0f, covered);
        assert_true(covered > PIXELS / 10);
        assert_true(largest <= TOLERANCE);
        assert_int_equal(on.systems, count);
        assert_int_equal(on.own_systems, own);
        assert_int_equal(on.table_systems, count - own);
        assert_true(on.table_pages >= 1 && on.table_pages <= on.table_systems);
        /* counts and a gather a page, the prepare, a gather a system alone */
        assert_int_equal(on.dispatches, 2 * on.table_pages + 1 + own);
        assert_int_equal(off.own_systems, count);
        assert_int_equal(off.table_pages, 0);
        assert_int_equal(off.dispatches, count + 1);
        free(tabled);
        free(alone);
    }
}

static void test_batch_draw_table_matches_own_gathers(void **state) {
    (void)state;
    plume_lab_batch_draw_table(true);
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    render_camera c = render_make_camera();
    plume_system systems[MANY + 1];
    for (uint32_t i = 0; i < MANY; ++i) systems[i] = make_system(i, seed, 0);
    systems[MANY] = make_system(MANY, seed, TOO_LARGE); /* beside those that fit */
    /* Five updates of 1 ms: the sprites live 4-6 ms, so dead slots lie
     * between drawn ones. */
    for (int u = 0; u < 5; ++u) update_batch(systems, MANY + 1, &c);
    compare_with_own_gathers(systems, MANY + 1, 1, "37 + 1 too large", &c);
    /* Between frames: seven destroyed (the large one among them), five made
     * (taking their blocks again). */
    for (uint32_t i = 0; i < 7; ++i)
        assert_int_equal(plume_system_destroy(fixture_context(), systems[MANY - 6 + i]), PLUME_OK);
    for (uint32_t i = 0; i < 5; ++i) systems[MANY - 6 + i] = make_system(100 + i, seed, 0);
    uint32_t count = MANY - 1;
    update_batch(systems, count, &c);
    compare_with_own_gathers(systems, count, 0, "7 gone, 5 new", &c);
    for (uint32_t i = 0; i < count; ++i) assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
}

/* ---- GL calls: counted through libepoxy's function pointers ------------------- */

static uint64_t gl_calls;
static PFNGLDISPATCHCOMPUTEPROC real_dispatch;
static PFNGLDISPATCHCOMPUTEINDIRECTPROC real_dispatch_indirect;
static PFNGLCOPYBUFFERSUBDATAPROC real_copy;
static PFNGLBINDBUFFERRANGEPROC real_bind_range;
static PFNGLBINDBUFFERBASEPROC real_bind_base;
static PFNGLPROGRAMUNIFORM1UIPROC real_uniform_1ui;
static PFNGLUNIFORM1FVPROC real_uniform_1fv;
static PFNGLUNIFORM1IPROC real_uniform_1i;

static void EPOXY_CALLSPEC count_dispatch(GLuint x, GLuint y, GLuint z) { ++gl_calls, real_dispatch(x, y, z); }
static void EPOXY_CALLSPEC count_dispatch_indirect(GLintptr at) { ++gl_calls, real_dispatch_indirect(at); }
static void EPOXY_CALLSPEC count_copy(GLenum a, GLenum b, GLintptr c, GLintptr d, GLsizeiptr e) {
    ++gl_calls, real_copy(a, b, c, d, e);
}
static void EPOXY_CALLSPEC count_bind_range(GLenum t, GLuint i, GLuint b, GLintptr o, GLsizeiptr s) {
    ++gl_calls, real_bind_range(t, i, b, o, s);
}
static void EPOXY_CALLSPEC count_bind_base(GLenum t, GLuint i, GLuint b) { ++gl_calls, real_bind_base(t, i, b); }
static void EPOXY_CALLSPEC count_uniform_1ui(GLuint p, GLint at, GLuint v) { ++gl_calls, real_uniform_1ui(p, at, v); }
static void EPOXY_CALLSPEC count_uniform_1fv(GLint at, GLsizei n, const GLfloat *v) { ++gl_calls, real_uniform_1fv(at, n, v); }
static void EPOXY_CALLSPEC count_uniform_1i(GLint at, GLint v) { ++gl_calls, real_uniform_1i(at, v); }

/* The calls a gather makes per system, counted while on (each pointer was
 * resolved by a draw before: libepoxy's first call through a pointer
 * replaces it). */
static void count_gl_calls(bool on) {
    if (on) {
        real_dispatch = epoxy_glDispatchCompute, real_dispatch_indirect = epoxy_glDispatchComputeIndirect;
        real_copy = epoxy_glCopyBufferSubData, real_bind_range = epoxy_glBindBufferRange;
        real_bind_base = epoxy_glBindBufferBase, real_uniform_1ui = epoxy_glProgramUniform1ui;
        real_uniform_1fv = epoxy_glUniform1fv, real_uniform_1i = epoxy_glUniform1i;
        epoxy_glDispatchCompute = count_dispatch, epoxy_glDispatchComputeIndirect = count_dispatch_indirect;
        epoxy_glCopyBufferSubData = count_copy, epoxy_glBindBufferRange = count_bind_range;
        epoxy_glBindBufferBase = count_bind_base, epoxy_glProgramUniform1ui = count_uniform_1ui;
        epoxy_glUniform1fv = count_uniform_1fv, epoxy_glUniform1i = count_uniform_1i;
    } else {
        epoxy_glDispatchCompute = real_dispatch, epoxy_glDispatchComputeIndirect = real_dispatch_indirect;
        epoxy_glCopyBufferSubData = real_copy, epoxy_glBindBufferRange = real_bind_range;
        epoxy_glBindBufferBase = real_bind_base, epoxy_glProgramUniform1ui = real_uniform_1ui;
        epoxy_glUniform1fv = real_uniform_1fv, epoxy_glUniform1i = real_uniform_1i;
    }
}

/* The counted calls of a batch draw of `systems` (its group already made by
 * a draw of the same list), with its counts. */
static uint64_t calls_of_a_draw(const plume_system *systems, uint32_t count, const render_camera *c, float *image,
                                plume_lab_batch_draw_counts *counts) {
    plume_frame_desc frame = lit_frame(PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL);
    update_batch(systems, count, c);
    render_draw_batch(systems, count, c, frame, false, image);
    gl_calls = 0;
    count_gl_calls(true);
    render_draw_batch(systems, count, c, frame, false, image);
    count_gl_calls(false);
    *counts = last_counts();
    return gl_calls;
}

/* Twice the systems, of half the capacity (so the joint sort's work is
 * the same): as many more counted calls as the pool pages take (a count
 * pass and a gather: each a few bindings, two uniforms and a dispatch),
 * none per system; without the table, some per system. */
static void test_batch_draw_calls_grow_with_pages_not_systems(void **state) {
    (void)state;
    enum { SMALL = 97 };
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    render_camera c = render_make_camera();
    plume_system few[MANY], many[2 * MANY];
    for (uint32_t i = 0; i < MANY; ++i) few[i] = make_system(i, seed, 2 * SMALL);
    for (uint32_t i = 0; i < 2 * MANY; ++i) many[i] = make_system(MANY + i, seed, SMALL);
    float *image = render_new_image();
    plume_lab_batch_draw_table(false); /* every counted call resolved once */
    plume_lab_batch_draw_counts few_counts, many_counts;
    uint64_t own_few = calls_of_a_draw(few, MANY, &c, image, &few_counts);
    uint64_t own_many = calls_of_a_draw(many, 2 * MANY, &c, image, &many_counts);
    printf("  without the table: %llu calls for %u systems, %llu for %u\n", (unsigned long long)own_few, MANY,
           (unsigned long long)own_many, 2 * MANY);
    assert_true(own_many >= own_few + MANY * 5);
    plume_lab_batch_draw_table(true);
    uint64_t table_few = calls_of_a_draw(few, MANY, &c, image, &few_counts);
    uint64_t table_many = calls_of_a_draw(many, 2 * MANY, &c, image, &many_counts);
    printf("  with it: %llu calls for %u systems on %u pages, %llu for %u on %u\n", (unsigned long long)table_few,
           MANY, few_counts.table_pages, (unsigned long long)table_many, 2 * MANY, many_counts.table_pages);
    assert_int_equal(few_counts.table_systems, MANY);
    assert_int_equal(many_counts.table_systems, 2 * MANY);
    enum { CALLS_A_PAGE = 10 }; /* counts: a range, 2 uniforms, a dispatch; gather: 3 ranges, 2, 1 */
    assert_true((int64_t)table_many - (int64_t)table_few ==
                CALLS_A_PAGE * ((int64_t)many_counts.table_pages - (int64_t)few_counts.table_pages));
    assert_true(table_few < own_few);
    for (uint32_t i = 0; i < MANY; ++i) assert_int_equal(plume_system_destroy(fixture_context(), few[i]), PLUME_OK);
    for (uint32_t i = 0; i < 2 * MANY; ++i)
        assert_int_equal(plume_system_destroy(fixture_context(), many[i]), PLUME_OK);
    free(image);
}

const struct CMUnitTest batch_draw_table_tests[] = {
    cmocka_unit_test_setup_teardown(test_batch_draw_table_matches_own_gathers, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_batch_draw_calls_grow_with_pages_not_systems, fixture_setup,
                                    fixture_teardown),
};
const size_t batch_draw_table_test_count = sizeof batch_draw_table_tests / sizeof batch_draw_table_tests[0];
