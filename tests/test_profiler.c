/* The GPU profiler: statistics against a CPU reference, a ring that never
 * waits on the GPU, no GL call while off, plausible stage times on llvmpipe.
 *
 * GL calls are watched through libepoxy's dispatch pointers (epoxy_glFoo is a
 * writable function pointer): a spy counts the calls the profiler makes, checks
 * that no query result is read before it is available, and can pretend the
 * context has no timer. */
#define _POSIX_C_SOURCE 200809L
#include <epoxy/egl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "plume/plume_particles.h"
#include "plume/plume_sort.h"
#include "plume_fixture.h"
#include "profile/profiler.h"
#include "test_env.h"
#include "tests.h"

/* ---- The GL spy ------------------------------------------------------------ */

enum { SPY_MAX_NAMES = 512 };

typedef struct gl_spy {
    long calls;                    /* every spied call */
    long result_reads;             /* GL_QUERY_RESULT reads */
    long result_reads_unavailable; /* ... of a query not yet available: would have waited */
    long availability_false;       /* GL_QUERY_RESULT_AVAILABLE answered false */
    long fence_waits_with_timeout; /* glClientWaitSync with a timeout: would have waited */
    long fence_not_ready;          /* glClientWaitSync answered GL_TIMEOUT_EXPIRED */
    long debug_pushes, debug_pops;
    long timestamps, fences;
    char debug_group_names[8][32];
    int fake_timer_bits;           /* >= 0: GL_QUERY_COUNTER_BITS answers this */
    GLuint queries[SPY_MAX_NAMES], buffers[SPY_MAX_NAMES];
    int query_count, buffer_count;
} gl_spy;

static gl_spy spy;

#define SPIED(X)                                                                                                     \
    X(glGenQueries, PFNGLGENQUERIESPROC)                                                                             \
    X(glDeleteQueries, PFNGLDELETEQUERIESPROC)                                                                       \
    X(glQueryCounter, PFNGLQUERYCOUNTERPROC)                                                                         \
    X(glGetQueryiv, PFNGLGETQUERYIVPROC)                                                                             \
    X(glGetQueryObjectiv, PFNGLGETQUERYOBJECTIVPROC)                                                                 \
    X(glGetQueryObjectuiv, PFNGLGETQUERYOBJECTUIVPROC)                                                               \
    X(glGetQueryObjecti64v, PFNGLGETQUERYOBJECTI64VPROC)                                                             \
    X(glGetQueryObjectui64v, PFNGLGETQUERYOBJECTUI64VPROC)                                                           \
    X(glGenBuffers, PFNGLGENBUFFERSPROC)                                                                             \
    X(glDeleteBuffers, PFNGLDELETEBUFFERSPROC)                                                                       \
    X(glBindBuffer, PFNGLBINDBUFFERPROC)                                                                             \
    X(glBufferData, PFNGLBUFFERDATAPROC)                                                                             \
    X(glGetBufferSubData, PFNGLGETBUFFERSUBDATAPROC)                                                                 \
    X(glCopyBufferSubData, PFNGLCOPYBUFFERSUBDATAPROC)                                                               \
    X(glObjectLabel, PFNGLOBJECTLABELPROC)                                                                           \
    X(glFenceSync, PFNGLFENCESYNCPROC)                                                                               \
    X(glClientWaitSync, PFNGLCLIENTWAITSYNCPROC)                                                                     \
    X(glDeleteSync, PFNGLDELETESYNCPROC)                                                                             \
    X(glPushDebugGroup, PFNGLPUSHDEBUGGROUPPROC)                                                                     \
    X(glPopDebugGroup, PFNGLPOPDEBUGGROUPPROC)                                                                       \
    X(glGetIntegerv, PFNGLGETINTEGERVPROC)                                                                           \
    X(glGetError, PFNGLGETERRORPROC)                                                                                 \
    X(glGetString, PFNGLGETSTRINGPROC)                                                                               \
    X(glFlush, PFNGLFLUSHPROC)

#define DECLARE(name, type) static type real_##name, saved_##name;
SPIED(DECLARE)
#undef DECLARE

static bool query_available(GLuint id) {
    GLuint available = GL_FALSE;
    real_glGetQueryObjectuiv(id, GL_QUERY_RESULT_AVAILABLE, &available);
    return available != GL_FALSE;
}

/* A GL_QUERY_RESULT read of an unavailable query is counted and answered 0
 * instead of blocking. */
#define SPY_QUERY_OBJECT(name, type)                                                                                  \
    static void GLAPIENTRY spy_##name(GLuint id, GLenum pname, type *params) {                                        \
        ++spy.calls;                                                                                                  \
        if (pname == GL_QUERY_RESULT) {                                                                               \
            ++spy.result_reads;                                                                                       \
            if (!query_available(id)) {                                                                               \
                ++spy.result_reads_unavailable;                                                                       \
                *params = 0;                                                                                          \
                return;                                                                                               \
            }                                                                                                         \
        }                                                                                                             \
        real_##name(id, pname, params);                                                                               \
        if (pname == GL_QUERY_RESULT_AVAILABLE && *params == 0) ++spy.availability_false;                             \
    }
SPY_QUERY_OBJECT(glGetQueryObjectiv, GLint)
SPY_QUERY_OBJECT(glGetQueryObjectuiv, GLuint)
SPY_QUERY_OBJECT(glGetQueryObjecti64v, GLint64)
SPY_QUERY_OBJECT(glGetQueryObjectui64v, GLuint64)

static void record_names(GLuint *names, int *count, GLsizei n, const GLuint *ids) {
    for (GLsizei i = 0; i < n && *count < SPY_MAX_NAMES; ++i) names[(*count)++] = ids[i];
}

static void GLAPIENTRY spy_glGenQueries(GLsizei n, GLuint *ids) {
    ++spy.calls;
    real_glGenQueries(n, ids);
    record_names(spy.queries, &spy.query_count, n, ids);
}
static void GLAPIENTRY spy_glDeleteQueries(GLsizei n, const GLuint *ids) { ++spy.calls, real_glDeleteQueries(n, ids); }
static void GLAPIENTRY spy_glQueryCounter(GLuint id, GLenum target) {
    ++spy.calls, ++spy.timestamps, real_glQueryCounter(id, target);
}
static void GLAPIENTRY spy_glGetQueryiv(GLenum target, GLenum pname, GLint *params) {
    ++spy.calls;
    real_glGetQueryiv(target, pname, params);
    if (pname == GL_QUERY_COUNTER_BITS && spy.fake_timer_bits >= 0) *params = spy.fake_timer_bits;
}
static void GLAPIENTRY spy_glGenBuffers(GLsizei n, GLuint *ids) {
    ++spy.calls;
    real_glGenBuffers(n, ids);
    record_names(spy.buffers, &spy.buffer_count, n, ids);
}
static void GLAPIENTRY spy_glDeleteBuffers(GLsizei n, const GLuint *ids) { ++spy.calls, real_glDeleteBuffers(n, ids); }
static void GLAPIENTRY spy_glBindBuffer(GLenum target, GLuint id) { ++spy.calls, real_glBindBuffer(target, id); }
static void GLAPIENTRY spy_glBufferData(GLenum target, GLsizeiptr size, const void *data, GLenum usage) {
    ++spy.calls, real_glBufferData(target, size, data, usage);
}
static void GLAPIENTRY spy_glGetBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, void *data) {
    ++spy.calls, real_glGetBufferSubData(target, offset, size, data);
}
static void GLAPIENTRY spy_glCopyBufferSubData(GLenum read, GLenum write, GLintptr read_offset, GLintptr write_offset,
                                               GLsizeiptr size) {
    ++spy.calls, real_glCopyBufferSubData(read, write, read_offset, write_offset, size);
}
static void GLAPIENTRY spy_glObjectLabel(GLenum identifier, GLuint name, GLsizei length, const GLchar *label) {
    ++spy.calls, real_glObjectLabel(identifier, name, length, label);
}
static GLsync GLAPIENTRY spy_glFenceSync(GLenum condition, GLbitfield flags) {
    ++spy.calls, ++spy.fences;
    return real_glFenceSync(condition, flags);
}
static GLenum GLAPIENTRY spy_glClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) {
    ++spy.calls;
    if (timeout != 0) ++spy.fence_waits_with_timeout;
    GLenum status = real_glClientWaitSync(sync, flags, timeout);
    if (status == GL_TIMEOUT_EXPIRED) ++spy.fence_not_ready;
    return status;
}
static void GLAPIENTRY spy_glDeleteSync(GLsync sync) { ++spy.calls, real_glDeleteSync(sync); }
static void GLAPIENTRY spy_glPushDebugGroup(GLenum source, GLuint id, GLsizei length, const GLchar *message) {
    if (spy.debug_pushes < 8) snprintf(spy.debug_group_names[spy.debug_pushes], 32, "%s", message);
    ++spy.calls, ++spy.debug_pushes, real_glPushDebugGroup(source, id, length, message);
}
static void GLAPIENTRY spy_glPopDebugGroup(void) { ++spy.calls, ++spy.debug_pops, real_glPopDebugGroup(); }
static void GLAPIENTRY spy_glGetIntegerv(GLenum pname, GLint *data) { ++spy.calls, real_glGetIntegerv(pname, data); }
static const GLubyte *GLAPIENTRY spy_glGetString(GLenum name) {
    ++spy.calls;
    return real_glGetString(name);
}
static void GLAPIENTRY spy_glFlush(void) { ++spy.calls, real_glFlush(); }
static GLenum GLAPIENTRY spy_glGetError(void) {
    ++spy.calls;
    return real_glGetError();
}

static void spy_install(void) {
    memset(&spy, 0, sizeof spy);
    spy.fake_timer_bits = -1;
    /* The driver's own entry points: epoxy's pointers may still be lazy
     * resolvers that would overwrite the spy on their first call. */
#define INSTALL(name, type)                                                                                            \
    real_##name = (type)eglGetProcAddress(#name);                                                                     \
    assert_non_null(real_##name);                                                                                      \
    saved_##name = epoxy_##name;                                                                                       \
    epoxy_##name = spy_##name;
    SPIED(INSTALL)
#undef INSTALL
}

static void spy_remove(void) {
#define REMOVE(name, type) epoxy_##name = saved_##name;
    SPIED(REMOVE)
#undef REMOVE
}

/* The profiler's own tests reach into the module (profiler.h): they run
 * against the static library only. The tests through the particle system use
 * the public API and the spy, and run through the plugin table too. */
#ifndef PLUME_TESTS_THROUGH_TABLE
static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* ---- Helpers --------------------------------------------------------------- */

static plume_env test_plume_env(void) {
    plume_env env;
    plume_logger logger = test_logger();
    assert_int_equal(plume_env_init(&env, &logger, NULL), PLUME_OK);
    return env;
}

static plume_profiler *make_profiler(const plume_env *env, uint32_t ring_depth, uint32_t window) {
    profiler_desc desc = {.ring_depth = ring_depth, .window = window};
    plume_profiler *profiler = NULL;
    assert_int_equal(profiler_create(env, &desc, &profiler), PLUME_OK);
    assert_non_null(profiler);
    return profiler;
}

/* A compute shader that spins `u_iterations` times per invocation: work whose
 * size the test controls. */
static GLuint make_spin_program(const plume_env *env) {
    const char *body = "layout(local_size_x = 64) in;\n"
                       "layout(std430, binding = 0) buffer Data { uint data[]; };\n"
                       "uniform uint u_iterations;\n"
                       "void main() { uint x = gl_GlobalInvocationID.x;\n"
                       "  for (uint i = 0u; i < u_iterations; ++i) x = x * 1664525u + 1013904223u;\n"
                       "  data[gl_GlobalInvocationID.x] = x; }\n";
    const char *names[] = {"spin.comp"};
    GLuint program = 0;
    assert_int_equal(plume_build_program_from_sources(env, "profiler test: spin", GL_COMPUTE_SHADER, &body, names, 1,
                                                      "", &program),
                     PLUME_OK);
    return program;
}

/* A full-screen triangle whose fragments loop `u_iterations` times: on
 * llvmpipe a draw runs later on the rasterizer threads, so it leaves work in
 * flight after the call returns (compute runs inside the dispatch call). */
typedef struct heavy_draw {
    GLuint program, vao;
    GLint iterations_location;
} heavy_draw;

static GLuint compile_shader(GLenum type, const char *source) {
    GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, NULL);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    assert_true(ok);
    return shader;
}

static heavy_draw make_heavy_draw(void) {
    heavy_draw d = {0};
    GLuint vs = compile_shader(GL_VERTEX_SHADER, "#version 430 core\n"
                                                 "void main() { vec2 p = vec2((gl_VertexID & 1) * 4 - 1,\n"
                                                 "  (gl_VertexID & 2) * 2 - 1); gl_Position = vec4(p, 0.0, 1.0); }\n");
    GLuint fs = compile_shader(GL_FRAGMENT_SHADER,
                               "#version 430 core\n"
                               "out vec4 color; uniform uint u_iterations;\n"
                               "void main() { float x = gl_FragCoord.x * 0.001;\n"
                               "  for (uint i = 0u; i < u_iterations; ++i) x = sin(x) * 1.0001 + 0.1;\n"
                               "  color = vec4(x); }\n");
    d.program = glCreateProgram();
    glAttachShader(d.program, vs);
    glAttachShader(d.program, fs);
    glLinkProgram(d.program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint linked = 0;
    glGetProgramiv(d.program, GL_LINK_STATUS, &linked);
    assert_true(linked);
    d.iterations_location = glGetUniformLocation(d.program, "u_iterations");
    glGenVertexArrays(1, &d.vao);
    return d;
}

/* Into the bound framebuffer. */
static void run_heavy_draw(const heavy_draw *d, uint32_t iterations) {
    glUseProgram(d->program);
    glUniform1ui(d->iterations_location, iterations);
    glBindVertexArray(d->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glUseProgram(0);
}

static void destroy_heavy_draw(heavy_draw *d) {
    glDeleteProgram(d->program);
    glDeleteVertexArrays(1, &d->vao);
}

/* Opens frame `index` and runs every stage empty, capturing the live count
 * from `counter`. */
static void run_empty_frame(plume_profiler *profiler, uint64_t index, GLuint counter, plume_gl_scope *scope) {
    profiler_frame_begin(profiler, index, scope);
    for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) {
        profiler_stage_begin(profiler, (plume_stage)stage);
        profiler_stage_end(profiler, (plume_stage)stage);
    }
    profiler_capture_u32(profiler, PROFILER_VALUE_LIVE_COUNT, counter, 0, scope);
}

/* Frames until every frame begun so far has been read (bounded). */
static void drain_profiler(plume_profiler *profiler, plume_gl_scope *scope) {
    profiler_frame_end(profiler);
    glFinish();
    for (int i = 0; i < 100; ++i) {
        profiler_collect(profiler, scope);
        profiler_counters c = profiler_get_counters(profiler);
        if (c.frames_completed == c.frames_measured) return;
    }
    fail_msg("the profiler did not read its frames after glFinish");
}

/* ---- Statistics (no GL) ------------------------------------------------------ */

/* Checks one result by definitions rather than by re-running the algorithm:
 * min/max bound every sample and are samples, the mean is the long-double
 * sum over n, and p95 is the sample with at least 95% of samples at or below
 * it and fewer than 95% strictly below. */
static void check_timing_against_definition(const double *samples, uint32_t count, const plume_stage_timing *t) {
    assert_int_equal(t->samples, count);
    long double sum = 0;
    bool min_found = false, max_found = false, p95_found = false;
    uint32_t at_or_below = 0, below = 0;
    for (uint32_t i = 0; i < count; ++i) {
        sum += samples[i];
        assert_true(samples[i] >= t->min_ms);
        assert_true(samples[i] <= t->max_ms);
        min_found |= samples[i] == t->min_ms;
        max_found |= samples[i] == t->max_ms;
        p95_found |= samples[i] == t->p95_ms;
        at_or_below += samples[i] <= t->p95_ms;
        below += samples[i] < t->p95_ms;
    }
    assert_true(min_found && max_found && p95_found);
    double mean = (double)(sum / count);
    assert_true(fabs(t->mean_ms - mean) <= 1e-12 * fmax(1.0, fabs(mean)));
    /* at_or_below >= 0.95 n and below < 0.95 n, in integers (x100). */
    assert_true((uint64_t)at_or_below * 100 >= (uint64_t)count * 95);
    assert_true((uint64_t)below * 100 < (uint64_t)count * 95);
}

static void test_statistics_match_definitions_on_random_samples(void **state) {
    (void)state;
    enum { MAX_COUNT = 1000 };
    double *samples = malloc(sizeof(double) * MAX_COUNT), *scratch = malloc(sizeof(double) * MAX_COUNT);
    assert_non_null(samples);
    assert_non_null(scratch);
    /* 20 and 100: 0.95 n is a whole number; 19, 21, 101: it is not. */
    const uint32_t fixed_counts[] = {1, 2, 3, 19, 20, 21, 100, 101, 120};
    for (int round = 0; round < 60; ++round) {
        uint32_t count = round < 9 ? fixed_counts[round] : 1 + test_random_below(MAX_COUNT);
        int shape = round % 4;
        for (uint32_t i = 0; i < count; ++i) {
            switch (shape) {
            case 0: samples[i] = test_random_float(0.0f, 5.0f); break;
            case 1: samples[i] = (double)test_random_below(4) * 0.25; break;   /* many ties */
            case 2: samples[i] = test_random_below(20) ? 1.0 : 80.0; break;    /* rare spikes */
            default: samples[i] = (double)(count - i) * 0.01; break;           /* descending */
            }
        }
        plume_stage_timing t;
        memset(&t, 0xAB, sizeof t);
        profiler_timing_from_samples(samples, count, scratch, &t);
        check_timing_against_definition(samples, count, &t);
        assert_true(t.last_ms == 0.0);
        /* The median: no more than half the samples on either side of it. */
        memcpy(scratch, samples, sizeof(double) * count);
        double middle = profiler_median(scratch, count);
        uint32_t below = 0, above = 0;
        for (uint32_t i = 0; i < count; ++i) below += samples[i] < middle, above += samples[i] > middle;
        assert_true(2 * below <= count && 2 * above <= count);
        assert_true(middle >= t.min_ms && middle <= t.max_ms);
    }
    plume_stage_timing empty;
    memset(&empty, 0xAB, sizeof empty);
    profiler_timing_from_samples(samples, 0, scratch, &empty);
    assert_int_equal(empty.samples, 0);
    assert_true(empty.mean_ms == 0.0 && empty.p95_ms == 0.0 && empty.max_ms == 0.0);
    free(samples);
    free(scratch);
}

static void test_timestamp_differences(void **state) {
    (void)state;
    uint64_t ns = 0;
    uint64_t begin = ((uint64_t)test_random_u32() << 20) | test_random_below(1u << 20);
    uint32_t step = 1 + test_random_below(1000000);
    assert_true(profiler_timestamp_delta(begin, begin + step, 64, &ns));
    assert_true(ns == step);
    /* A 64-bit end before its begin is no duration. */
    assert_false(profiler_timestamp_delta(begin + step, begin, 64, &ns));
    /* A 32-bit counter wraps: 0xFFFFFF00 -> 0x00000100 is 0x200 ticks. */
    assert_true(profiler_timestamp_delta(0xFFFFFF00u, 0x100u, 32, &ns));
    assert_true(ns == 0x200);
}

static void test_create_refuses_bad_descriptors(void **state) {
    (void)state;
    plume_env env = test_plume_env();
    test_log_expect_errors();
    const profiler_desc bad[] = {{.ring_depth = 1}, {.ring_depth = PROFILER_MAX_RING_DEPTH + 1},
                                 {.window = PROFILER_MAX_WINDOW + 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        plume_profiler *profiler = (plume_profiler *)&env; /* must be reset to NULL */
        assert_int_equal(profiler_create(&env, &bad[i], &profiler), PLUME_ERROR_INVALID_ARGUMENT);
        assert_null(profiler);
    }
    assert_int_equal(test_log_error_count(), 3);
    assert_true(test_log_contains("ring depth"));
    plume_profiler *profiler = NULL;
    assert_int_equal(profiler_create(&env, NULL, &profiler), PLUME_ERROR_INVALID_ARGUMENT);
}

/* ---- Off costs nothing --------------------------------------------------------- */

static void test_disabled_profiler_makes_no_gl_call(void **state) {
    (void)state;
    plume_env env = test_plume_env();
    GLuint source = test_buffer_create(16, NULL);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &env);
    spy_install();
    plume_profiler *profiler = make_profiler(&env, 3, 10);
    for (uint64_t frame = 0; frame < 8; ++frame) {
        run_empty_frame(profiler, frame, source, &scope);
        profiler_set_u32(profiler, PROFILER_VALUE_SORT_PASSES, 5);
        profiler_frame_end(profiler);
        profiler_collect(profiler, &scope);
    }
    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    long calls_while_off = spy.calls;
    profiler_counters counters = profiler_get_counters(profiler);
    profiler_destroy(profiler);
    long calls_at_destroy = spy.calls - calls_while_off;
    spy_remove();
    plume_gl_scope_end(&scope);
    glDeleteBuffers(1, &source);

    assert_int_equal(calls_while_off, 0);
    assert_int_equal(calls_at_destroy, 0);
    assert_int_equal(spy.query_count, 0);
    assert_int_equal(counters.queries_alive, 0);
    assert_true(counters.frames_begun == 0 && counters.frames_measured == 0);
    assert_false(profile.enabled);
    for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) assert_int_equal(profile.stages[stage].samples, 0);
}

/* Switching on creates the ring; switching off deletes every query and
 * buffer, so a switched-off profiler holds no GL object. */
static void test_switching_off_deletes_every_gl_object(void **state) {
    (void)state;
    test_allocator_stats stats = {0};
    plume_env env;
    plume_logger logger = test_logger();
    plume_allocator allocator = test_counting_allocator(&stats);
    assert_int_equal(plume_env_init(&env, &logger, &allocator), PLUME_OK);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &env);
    spy_install();
    plume_profiler *profiler = make_profiler(&env, 3, 10);
    assert_int_equal(spy.calls, 0);
    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);
    assert_int_equal(profiler_get_counters(profiler).queries_alive, 3 * 2 * PLUME_STAGE_COUNT);
    assert_int_equal(spy.query_count, 3 * 2 * PLUME_STAGE_COUNT);
    for (uint64_t frame = 0; frame < 3; ++frame) {
        profiler_frame_begin(profiler, frame, &scope);
        profiler_stage_begin(profiler, PLUME_STAGE_SORT);
        profiler_stage_end(profiler, PLUME_STAGE_SORT);
    }
    profiler_frame_end(profiler);
    spy_remove();
    /* Used queries exist now; frames are still in flight when switched off. */
    int existing = 0;
    for (int i = 0; i < spy.query_count; ++i) existing += glIsQuery(spy.queries[i]);
    assert_true(existing >= 3 * 2);
    assert_int_equal(profiler_set_enabled(profiler, false), PLUME_OK);
    assert_int_equal(profiler_get_counters(profiler).queries_alive, 0);
    for (int i = 0; i < spy.query_count; ++i) assert_false(glIsQuery(spy.queries[i]));
    for (int i = 0; i < spy.buffer_count; ++i) assert_false(glIsBuffer(spy.buffers[i]));
    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    assert_false(profile.enabled);

    /* On again, then destroyed while on and with frames in flight. */
    spy_install();
    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);
    profiler_frame_begin(profiler, 7, &scope);
    profiler_stage_begin(profiler, PLUME_STAGE_DRAW);
    profiler_stage_end(profiler, PLUME_STAGE_DRAW);
    profiler_frame_begin(profiler, 8, &scope);
    profiler_destroy(profiler);
    spy_remove();
    plume_gl_scope_end(&scope);
    for (int i = 0; i < spy.query_count; ++i) assert_false(glIsQuery(spy.queries[i]));
    for (int i = 0; i < spy.buffer_count; ++i) assert_false(glIsBuffer(spy.buffers[i]));
    assert_int_equal(stats.live_blocks, 0);
    assert_true(stats.total_allocations > 0);
}

/* ---- The ring never waits ------------------------------------------------------ */

/* Frames whose GPU work takes far longer than issuing it: every profiler call
 * returns at once, no result is read before it is available, a frame that
 * finds the ring full goes unmeasured, and figures appear only once the GPU
 * has finished. */
static void test_ring_never_waits_for_the_gpu(void **state) {
    (void)state;
    enum { SIZE = 512, DEPTH = 2, FRAMES = 4 };
    plume_env env = test_plume_env();
    heavy_draw draw = make_heavy_draw();
    const float clear[4] = {0, 0, 0, 0};
    test_target target = test_target_begin(SIZE, clear);
    /* Calibrate: iterations so that one draw takes about 150 ms here. */
    uint32_t iterations = 50;
    double draw_ms = 0;
    for (;;) {
        double t0 = now_ms();
        run_heavy_draw(&draw, iterations);
        glFinish();
        draw_ms = now_ms() - t0;
        if (draw_ms > 150 || iterations > 100000) break;
        iterations *= draw_ms < 15 ? 8 : 2;
    }
    plume_profiler *profiler = make_profiler(&env, DEPTH, 16);
    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &env);
    spy_install();
    double slowest_call_ms = 0;
    for (uint64_t frame = 0; frame < FRAMES; ++frame) {
        double t0 = now_ms();
        profiler_frame_begin(profiler, frame, &scope);
        profiler_stage_begin(profiler, PLUME_STAGE_DRAW);
        double t1 = now_ms();
        run_heavy_draw(&draw, iterations);
        double t2 = now_ms();
        profiler_stage_end(profiler, PLUME_STAGE_DRAW);
        profiler_frame_end(profiler);
        double t3 = now_ms();
        slowest_call_ms = fmax(slowest_call_ms, fmax(t1 - t0, t3 - t2));
        /* No frame has come back yet: no figure. */
        plume_profile profile;
        profiler_get_profile(profiler, &profile);
        assert_int_equal(profile.stages[PLUME_STAGE_DRAW].samples, 0);
    }
    profiler_counters before_finish = profiler_get_counters(profiler);
    long polls_not_ready = spy.fence_not_ready + spy.availability_false;
    glFinish();
    profiler_collect(profiler, &scope);
    profiler_counters after = profiler_get_counters(profiler);
    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    spy_remove();
    plume_gl_scope_end(&scope);
    print_message("one draw: %.0f ms of GPU work; slowest profiler call: %.2f ms; frames measured %llu, skipped %llu\n",
                  draw_ms, slowest_call_ms, (unsigned long long)before_finish.frames_measured,
                  (unsigned long long)before_finish.frames_skipped);

    assert_int_equal(spy.result_reads_unavailable, 0);
    assert_int_equal(spy.fence_waits_with_timeout, 0);
    assert_true(polls_not_ready > 0);                  /* it looked, found the GPU busy, and went on */
    assert_true(slowest_call_ms < draw_ms / 4);
    assert_int_equal(before_finish.frames_completed, 0);
    assert_int_equal(before_finish.frames_measured, DEPTH); /* the ring filled ... */
    assert_int_equal(before_finish.frames_skipped, FRAMES - DEPTH); /* ... and later frames were not measured */
    assert_int_equal(after.frames_completed, DEPTH);
    assert_true(spy.result_reads > 0);
    assert_true(profile.enabled && profile.timer_available);
    assert_true(profile.frame == DEPTH - 1);
    assert_int_equal(profile.stages[PLUME_STAGE_DRAW].samples, DEPTH);
    assert_int_equal(profile.stages[PLUME_STAGE_SORT].samples, 0); /* never measured: no figure, not zero */
    profiler_destroy(profiler);
    destroy_heavy_draw(&draw);
    test_target_end(&target, NULL);
}

/* ---- Results ----------------------------------------------------------------- */

/* Values captured on the GPU come back with their own frame, even though the
 * source buffer changes every frame; statistics cover the last `window`
 * frames and agree with the pure function on the frames returned. */
static void test_frames_carry_their_values_and_window_statistics(void **state) {
    (void)state;
    enum { WINDOW = 6, FRAMES = 15, DEPTH = 3 };
    plume_env env = test_plume_env();
    GLuint program = make_spin_program(&env);
    GLuint data = test_buffer_create(64 * 4 * 4, NULL);
    /* The live count sits at an odd word offset among other words. */
    uint32_t words[5] = {0xDEADBEEFu, 0xDEADBEEFu, 0xDEADBEEFu, 0, 0xDEADBEEFu};
    GLuint counter = test_buffer_create(sizeof words, words);
    uint32_t live[FRAMES], passes[FRAMES];
    plume_profiler *profiler = make_profiler(&env, DEPTH, WINDOW);
    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);
    spy_install();
    plume_gl_scope scope;
    for (uint64_t frame = 0; frame < FRAMES; ++frame) {
        live[frame] = test_random_u32();
        passes[frame] = test_random_below(100);
        test_buffer_write(counter, 3 * 4, 4, &live[frame]);
        plume_gl_scope_begin(&scope, &env);
        profiler_frame_begin(profiler, 100 + frame, &scope);
        profiler_stage_begin(profiler, PLUME_STAGE_UPDATE);
        profiler_stage_begin(profiler, PLUME_STAGE_SIMULATE);
        glUseProgram(program);
        glUniform1ui(glGetUniformLocation(program, "u_iterations"), 200 + 100 * (uint32_t)(frame % 4));
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, data);
        glDispatchCompute(4, 1, 1);
        profiler_stage_end(profiler, PLUME_STAGE_SIMULATE);
        profiler_capture_u32(profiler, PROFILER_VALUE_LIVE_COUNT, counter, 3 * 4, &scope);
        profiler_set_u32(profiler, PROFILER_VALUE_SORT_PASSES, passes[frame]);
        profiler_stage_end(profiler, PLUME_STAGE_UPDATE);
        plume_gl_scope_end(&scope);
        if (frame == 0) {
            plume_profile profile;
            profiler_get_profile(profiler, &profile);
            for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) assert_int_equal(profile.stages[stage].samples, 0);
        }
        glFinish(); /* so every frame comes back before its slot is needed */
    }
    plume_gl_scope_begin(&scope, &env);
    drain_profiler(profiler, &scope);
    plume_gl_scope_end(&scope);
    spy_remove();
    assert_int_equal(spy.result_reads_unavailable, 0);

    profiler_counters counters = profiler_get_counters(profiler);
    assert_true(counters.frames_completed == FRAMES && counters.frames_skipped == 0);
    /* llvmpipe stamps a timestamp when a rasterizer thread reaches it, and
     * the first frame after a framebuffer change (the tests before this one
     * draw) can come back with its end before its begin: the profiler drops
     * such a sample and counts it. Allow that, but no more. */
    assert_true(counters.samples_rejected <= 2);
    profiler_frame frames[WINDOW + 1];
    assert_int_equal(profiler_frames_from(profiler, 0, frames, WINDOW + 1), WINDOW);
    double simulate[WINDOW], scratch[WINDOW];
    uint32_t simulate_count = 0, missing = 0;
    const uint32_t timed = (1u << PLUME_STAGE_SIMULATE) | (1u << PLUME_STAGE_UPDATE);
    for (int i = 0; i < WINDOW; ++i) {
        uint64_t frame = FRAMES - WINDOW + (uint64_t)i;
        assert_true(frames[i].index == 100 + frame);
        assert_int_equal(frames[i].value_mask,
                         (1u << PROFILER_VALUE_LIVE_COUNT) | (1u << PROFILER_VALUE_SORT_PASSES));
        assert_int_equal(frames[i].values[PROFILER_VALUE_LIVE_COUNT], live[frame]);
        assert_int_equal(frames[i].values[PROFILER_VALUE_SORT_PASSES], passes[frame]);
        assert_int_equal(frames[i].stage_mask & ~timed, 0);
        missing += (frames[i].stage_mask & timed) != timed;
        if (frames[i].stage_mask & (1u << PLUME_STAGE_SIMULATE)) {
            simulate[simulate_count] = frames[i].stage_ms[PLUME_STAGE_SIMULATE];
            assert_true(simulate[simulate_count] > 0);
            /* UPDATE encloses SIMULATE. */
            if (frames[i].stage_mask & (1u << PLUME_STAGE_UPDATE))
                assert_true(frames[i].stage_ms[PLUME_STAGE_UPDATE] >= simulate[simulate_count]);
            ++simulate_count;
        }
    }
    assert_true(missing <= counters.samples_rejected);
    assert_true(simulate_count >= WINDOW - 2);
    assert_int_equal(profiler_frames_from(profiler, 100 + FRAMES - 2, frames, WINDOW), 2);
    assert_int_equal(profiler_frames_from(profiler, 100 + FRAMES, frames, WINDOW), 0);

    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    plume_stage_timing expected;
    profiler_timing_from_samples(simulate, simulate_count, scratch, &expected);
    const plume_stage_timing *got = &profile.stages[PLUME_STAGE_SIMULATE];
    assert_true(profile.frame == 100 + FRAMES - 1);
    assert_int_equal(profile.live_count, live[FRAMES - 1]);
    assert_int_equal(profile.sort_passes, passes[FRAMES - 1]);
    assert_int_equal(got->samples, simulate_count);
    assert_true(got->last_ms == simulate[simulate_count - 1]);
    assert_true(got->mean_ms == expected.mean_ms && got->p95_ms == expected.p95_ms);
    assert_true(got->min_ms == expected.min_ms && got->max_ms == expected.max_ms);
    assert_int_equal(profile.stages[PLUME_STAGE_DRAW].samples, 0);
    assert_int_equal(profile.stages[PLUME_STAGE_SORT].samples, 0);
    test_buffer_read(counter, 0, sizeof words, words);
    assert_int_equal(words[0], 0xDEADBEEFu); /* the capture only reads its source */

    profiler_destroy(profiler);
    glDeleteProgram(program);
    GLuint buffers[2] = {data, counter};
    glDeleteBuffers(2, buffers);
}

/* Stage times on llvmpipe: non-zero, and a sort of 2^18 pairs measures longer
 * than one of 2^12 pairs; a spin loop 8x longer measures longer. */
static void test_stage_times_follow_the_work(void **state) {
    (void)state;
    enum { ROUNDS = 5, SMALL = 1 << 12, LARGE = 1 << 18 };
    plume_env env = test_plume_env();
    plume_sorter_desc sorter_desc = {.capacity = LARGE};
    plume_sorter sorter = {0};
    assert_int_equal(plume_sorter_create(fixture_context(), &sorter_desc, &sorter), PLUME_OK);
    uint32_t *pairs = malloc(sizeof(uint32_t) * 2 * LARGE);
    assert_non_null(pairs);
    for (uint32_t i = 0; i < 2 * LARGE; ++i) pairs[i] = test_random_u32();
    GLuint pair_buffer = test_buffer_create(sizeof(uint32_t) * 2 * LARGE, pairs);
    GLuint spin = make_spin_program(&env);
    GLuint data = test_buffer_create(256 * 64 * 4, NULL);
    plume_profiler *profiler = make_profiler(&env, 4, 2 * ROUNDS);
    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);

    uint64_t frame = 0;
    double sort_ms[2][ROUNDS], spin_ms[2][ROUNDS];
    int sort_count[2] = {0, 0}, spin_count[2] = {0, 0};
    for (int round = 0; round < ROUNDS; ++round) {
        for (int large = 0; large < 2; ++large) {
            test_buffer_write(pair_buffer, 0, sizeof(uint32_t) * 2 * LARGE, pairs); /* unsorted again */
            plume_gl_scope scope;
            plume_gl_scope_begin(&scope, &env);
            profiler_frame_begin(profiler, frame, &scope);
            profiler_stage_begin(profiler, PLUME_STAGE_UPDATE);
            profiler_stage_begin(profiler, PLUME_STAGE_SIMULATE);
            glUseProgram(spin);
            glUniform1ui(glGetUniformLocation(spin, "u_iterations"), large ? 4000 : 500);
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, data);
            glDispatchCompute(256, 1, 1);
            profiler_stage_end(profiler, PLUME_STAGE_SIMULATE);
            profiler_stage_begin(profiler, PLUME_STAGE_SORT);
            assert_int_equal(plume_sort(fixture_context(), sorter, pair_buffer, large ? LARGE : SMALL), PLUME_OK);
            profiler_stage_end(profiler, PLUME_STAGE_SORT);
            profiler_stage_end(profiler, PLUME_STAGE_UPDATE);
            drain_profiler(profiler, &scope);
            plume_gl_scope_end(&scope);
            profiler_frame result;
            assert_int_equal(profiler_frames_from(profiler, frame, &result, 1), 1);
            /* A stage llvmpipe stamped out of order is dropped (see the test
             * above); the medians use the rest. */
            const double *ms = result.stage_ms;
            if (result.stage_mask & (1u << PLUME_STAGE_SORT)) {
                assert_true(ms[PLUME_STAGE_SORT] > 0);
                sort_ms[large][sort_count[large]++] = ms[PLUME_STAGE_SORT];
                if (result.stage_mask & (1u << PLUME_STAGE_UPDATE))
                    assert_true(ms[PLUME_STAGE_UPDATE] >= ms[PLUME_STAGE_SORT]);
            }
            if (result.stage_mask & (1u << PLUME_STAGE_SIMULATE)) {
                assert_true(ms[PLUME_STAGE_SIMULATE] > 0);
                spin_ms[large][spin_count[large]++] = ms[PLUME_STAGE_SIMULATE];
                if (result.stage_mask & (1u << PLUME_STAGE_UPDATE))
                    assert_true(ms[PLUME_STAGE_UPDATE] >= ms[PLUME_STAGE_SIMULATE]);
            }
            ++frame;
        }
    }
    for (int large = 0; large < 2; ++large) {
        assert_true(sort_count[large] >= ROUNDS - 1);
        assert_true(spin_count[large] >= ROUNDS - 1);
    }
    assert_true(profiler_get_counters(profiler).samples_rejected <= 2);
    double sort_small = profiler_median(sort_ms[0], (uint32_t)sort_count[0]);
    double sort_large = profiler_median(sort_ms[1], (uint32_t)sort_count[1]);
    double spin_short = profiler_median(spin_ms[0], (uint32_t)spin_count[0]);
    double spin_long = profiler_median(spin_ms[1], (uint32_t)spin_count[1]);
    print_message("llvmpipe medians: sort 2^12 %.3f ms, 2^18 %.3f ms; spin x1 %.3f ms, x8 %.3f ms\n", sort_small,
                  sort_large, spin_short, spin_long);
    assert_true(sort_large > sort_small);
    assert_true(spin_long > spin_short);
    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    assert_int_equal(profile.stages[PLUME_STAGE_SORT].samples, (uint32_t)(sort_count[0] + sort_count[1]));
    assert_true(profile.stages[PLUME_STAGE_SORT].min_ms > 0);

    profiler_destroy(profiler);
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
    glDeleteProgram(spin);
    GLuint buffers[2] = {pair_buffer, data};
    glDeleteBuffers(2, buffers);
    free(pairs);
}

/* No timer (GL_QUERY_COUNTER_BITS 0, as EXT_disjoint_timer_query allows): no
 * query is created and no time reported, not even zeros; values still come. */
static void test_without_a_timer_no_times_are_reported(void **state) {
    (void)state;
    plume_env env = test_plume_env();
    uint32_t live = test_random_u32();
    GLuint counter = test_buffer_create(sizeof live, &live);
    plume_profiler *profiler = make_profiler(&env, 2, 8);
    spy_install();
    spy.fake_timer_bits = 0;
    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);
    assert_false(profiler_timer_available(profiler));
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &env);
    for (uint64_t frame = 0; frame < 3; ++frame) {
        run_empty_frame(profiler, frame, counter, &scope);
        glFinish();
    }
    drain_profiler(profiler, &scope);
    plume_gl_scope_end(&scope);
    spy_remove();
    assert_int_equal(spy.query_count, 0);
    assert_int_equal(spy.result_reads, 0);
    assert_true(test_log_contains("no timer"));
    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    assert_true(profile.enabled);
    assert_false(profile.timer_available);
    assert_true(profile.frame == 2);
    assert_int_equal(profile.live_count, live);
    for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) assert_int_equal(profile.stages[stage].samples, 0);
    profiler_destroy(profiler);
    glDeleteBuffers(1, &counter);
}

/* ---- Debug groups, labels, GL state ------------------------------------------- */

static void test_stages_are_named_debug_groups_and_objects_are_labeled(void **state) {
    (void)state;
    plume_env env = test_plume_env();
    GLuint host_copy_read = test_buffer_create(4, NULL), host_copy_write = test_buffer_create(4, NULL);
    GLuint counter = test_buffer_create(4, NULL);
    plume_profiler *profiler = make_profiler(&env, 2, 4);
    GLint depth_before = 0, depth_in_simulate = 0, depth_after = 0;
    glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth_before);

    spy_install();
    /* Off: no group. */
    profiler_stage_begin(profiler, PLUME_STAGE_SIMULATE);
    profiler_stage_end(profiler, PLUME_STAGE_SIMULATE);
    assert_int_equal(spy.debug_pushes, 0);

    assert_int_equal(profiler_set_enabled(profiler, true), PLUME_OK);
    glBindBuffer(GL_COPY_READ_BUFFER, host_copy_read);
    glBindBuffer(GL_COPY_WRITE_BUFFER, host_copy_write);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &env);
    profiler_frame_begin(profiler, 0, &scope);
    profiler_stage_begin(profiler, PLUME_STAGE_UPDATE);
    profiler_stage_begin(profiler, PLUME_STAGE_SIMULATE);
    real_glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth_in_simulate);
    profiler_stage_end(profiler, PLUME_STAGE_SIMULATE);
    profiler_capture_u32(profiler, PROFILER_VALUE_LIVE_COUNT, counter, 0, &scope);
    profiler_stage_begin(profiler, PLUME_STAGE_SORT);
    profiler_stage_end(profiler, PLUME_STAGE_SORT);
    profiler_stage_end(profiler, PLUME_STAGE_UPDATE);
    profiler_stage_begin(profiler, PLUME_STAGE_DRAW);
    profiler_stage_end(profiler, PLUME_STAGE_DRAW);
    drain_profiler(profiler, &scope);
    plume_gl_scope_end(&scope);
    spy_remove();
    glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth_after);
    GLint copy_read = 0, copy_write = 0;
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &copy_read);
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &copy_write);

    assert_int_equal(depth_in_simulate, depth_before + 2); /* update, then simulate inside it */
    assert_int_equal(depth_after, depth_before);
    assert_int_equal(spy.debug_pushes, 4);
    assert_int_equal(spy.debug_pops, 4);
    assert_string_equal(spy.debug_group_names[0], "plume update");
    assert_string_equal(spy.debug_group_names[1], "plume simulate");
    assert_string_equal(spy.debug_group_names[2], "plume sort");
    assert_string_equal(spy.debug_group_names[3], "plume draw");
    assert_int_equal(copy_read, (GLint)host_copy_read);
    assert_int_equal(copy_write, (GLint)host_copy_write);

    /* Slot 0's used queries and every readback buffer carry labels. */
    char label[128];
    GLsizei length = 0;
    glGetObjectLabel(GL_QUERY, spy.queries[2 * PLUME_STAGE_SORT + 1], sizeof label, &length, label);
    assert_string_equal(label, "plume profiler: sort end, slot 0");
    assert_int_equal(spy.buffer_count, 2);
    glGetObjectLabel(GL_BUFFER, spy.buffers[1], sizeof label, &length, label);
    assert_string_equal(label, "plume profiler: values, slot 1");
    plume_profile profile;
    profiler_get_profile(profiler, &profile);
    assert_int_equal(profile.stages[PLUME_STAGE_DRAW].samples, 1);

    profiler_destroy(profiler);
    GLuint buffers[3] = {host_copy_read, host_copy_write, counter};
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glDeleteBuffers(3, buffers);
}

#endif /* !PLUME_TESTS_THROUGH_TABLE */

/* ---- Through the particle system ------------------------------------------------ */

/* In the test's context, whose logger the system inherits. */
static plume_system make_profiled_system(plume_system_desc desc, bool profiling) {
    plume_system system = {0};
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    if (profiling) assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    return system;
}

/* One frame of the full pipeline into the bound framebuffer. */
static void run_frame(plume_system system, float dt) {
    plume_frame_desc frame = {.dt = dt};
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
}

static uint32_t read_live_count(plume_system system) {
    plume_readback counts = {0}; /* no arrays: the counts only */
    assert_int_equal(plume_system_read_back(fixture_context(), system, &counts), PLUME_OK);
    return counts.live_count;
}

/* Every frame's live count, sort size and passes against the readback of the
 * same frame and the sorter's own pass count; the statistics count exactly
 * the frames that carry each stage; the host's copy-buffer bindings and debug
 * group stack survive; no result is read before it is available. */
static void test_system_frames_match_the_readback(void **state) {
    (void)state;
    enum { FRAMES = 12, CAPACITY = 5000 };
    plume_system_desc desc = {.capacity = CAPACITY, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.rate = 15000.0f, .lifetime = {0.02f, 0.3f}, .speed = {0.1f, 1.0f},
                                            .spread = 3.0f, .size = {0.01f, 0.02f}};
    plume_system system = make_profiled_system(desc, true);
    plume_sorter_desc sorter_desc = {.capacity = CAPACITY};
    plume_sorter reference_sorter = {0};
    assert_int_equal(plume_sorter_create(fixture_context(), &sorter_desc, &reference_sorter), PLUME_OK);
    GLuint host_buffers[2] = {test_buffer_create(4, NULL), test_buffer_create(4, NULL)};
    glBindBuffer(GL_COPY_READ_BUFFER, host_buffers[0]);
    glBindBuffer(GL_COPY_WRITE_BUFFER, host_buffers[1]);
    GLint depth_before = 0, depth_after = 0, copy_read = 0, copy_write = 0;
    glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth_before);
    const float clear[4] = {0, 0, 0, 0};
    test_target target = test_target_begin(32, clear);

    spy_install();
    uint32_t live[FRAMES];
    for (int k = 0; k < FRAMES; ++k) {
        run_frame(system, test_random_float(0.005f, 0.03f));
        live[k] = read_live_count(system); /* waits for the GPU: a test's privilege */
    }
    run_frame(system, 0.01f); /* closes the last frame */
    glFinish();
    run_frame(system, 0.01f); /* reads it */
    spy_remove();
    test_target_end(&target, NULL);
    glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth_after);
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &copy_read);
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &copy_write);
    assert_int_equal(depth_after, depth_before);
    assert_int_equal(copy_read, (GLint)host_buffers[0]);
    assert_int_equal(copy_write, (GLint)host_buffers[1]);
    assert_int_equal(spy.result_reads_unavailable, 0);
    assert_int_equal(spy.fence_waits_with_timeout, 0);
    assert_true(spy.debug_pushes == spy.debug_pops && spy.debug_pushes >= 4 * FRAMES);

    plume_frame_profile frames[64];
    uint32_t count = plume_system_get_frame_profiles(fixture_context(), system, 0, frames, 64);
    assert_true(count >= FRAMES && count <= FRAMES + 2);
    uint32_t with_stage[PLUME_STAGE_COUNT] = {0};
    bool live_varied = false;
    for (uint32_t i = 0; i < count; ++i) {
        const plume_frame_profile *f = &frames[i];
        assert_true(f->frame == i); /* none skipped: the readback kept the ring empty */
        for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) with_stage[stage] += (f->stage_mask >> stage) & 1u;
        if (i >= FRAMES) continue;
        assert_int_equal(f->live_count, live[i]);
        assert_int_equal(f->sort_padded_count, live[i] < 2 ? 0 : plume_next_pow2(live[i]));
        assert_int_equal(f->sort_passes, plume_sorter_pass_count(fixture_context(), reference_sorter, live[i]));
        live_varied |= i > 0 && live[i] != live[i - 1];
    }
    assert_true(live_varied);
    for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) assert_true(with_stage[stage] >= count - 2);

    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
    assert_true(profile.enabled && profile.timer_available);
    assert_true(profile.frame == frames[count - 1].frame);
    assert_int_equal(profile.live_count, frames[count - 1].live_count);
    assert_int_equal(profile.sort_passes, frames[count - 1].sort_passes);
    for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) {
        assert_int_equal(profile.stages[stage].samples, with_stage[stage]);
        assert_true(profile.stages[stage].min_ms > 0);
        assert_true(profile.stages[stage].p95_ms <= profile.stages[stage].max_ms);
    }
    /* From a frame on: only the later ones. */
    assert_int_equal(plume_system_get_frame_profiles(fixture_context(), system, count - 3, frames, 64), 3);
    assert_true(frames[0].frame == count - 3);

    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    assert_int_equal(plume_sorter_destroy(fixture_context(), reference_sorter), PLUME_OK);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glDeleteBuffers(2, host_buffers);
}

#ifndef PLUME_TESTS_THROUGH_TABLE /* profiler_median is the module's */
/* The median sort time over a few frames of a system holding `count`
 * particles (one burst, long lives). */
static double system_sort_median_ms(uint32_t count, uint32_t *padded, uint32_t *passes) {
    enum { FRAMES = 4 };
    plume_system_desc desc = {.capacity = count, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.burst_count = count, .lifetime = {1000.0f, 1000.0f},
                                            .speed = {0.1f, 1.0f}, .spread = 3.0f, .size = {0.01f, 0.02f}};
    plume_system system = make_profiled_system(desc, true);
    const float clear[4] = {0, 0, 0, 0};
    test_target target = test_target_begin(16, clear);
    for (int k = 0; k < FRAMES + 2; ++k) {
        run_frame(system, 1.0f / 60.0f);
        glFinish(); /* so that every frame comes back */
    }
    test_target_end(&target, NULL);
    plume_frame_profile frames[FRAMES + 2];
    uint32_t n = plume_system_get_frame_profiles(fixture_context(), system, 0, frames, FRAMES + 2);
    double sort_ms[FRAMES + 2];
    int sorted = 0;
    for (uint32_t i = 0; i < n; ++i) {
        assert_int_equal(frames[i].live_count, count);
        *padded = frames[i].sort_padded_count;
        *passes = frames[i].sort_passes;
        if (frames[i].stage_mask & (1u << PLUME_STAGE_SORT)) sort_ms[sorted++] = frames[i].stage_ms[PLUME_STAGE_SORT];
    }
    assert_true(sorted >= FRAMES - 1);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    return profiler_median(sort_ms, (uint32_t)sorted);
}

static void test_system_sort_time_grows_with_the_live_count(void **state) {
    (void)state;
    const uint32_t small = 1000 + test_random_below(1000), large = 60000 + test_random_below(5000);
    uint32_t small_padded = 0, small_passes = 0, large_padded = 0, large_passes = 0;
    double small_ms = system_sort_median_ms(small, &small_padded, &small_passes);
    double large_ms = system_sort_median_ms(large, &large_padded, &large_passes);
    print_message("llvmpipe, through the system: sort of %u particles %.3f ms (%u passes), of %u %.3f ms (%u passes)\n",
                  small, small_ms, small_passes, large, large_ms, large_passes);
    assert_int_equal(small_padded, plume_next_pow2(small));
    assert_int_equal(large_padded, plume_next_pow2(large));
    assert_true(large_passes > small_passes);
    assert_true(small_ms > 0);
    assert_true(large_ms > small_ms);
}

#endif

/* Profiling off: update and draw issue no query, fence or debug group, and
 * the profile says so. Switching off deletes what switching on made, and so
 * does destroying a profiled system. */
static void test_system_profiling_off_costs_no_gl_call(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 777};
    desc.emitters[0] = (plume_emitter_desc){.rate = 5000.0f, .lifetime = {0.1f, 0.5f}, .size = {0.01f, 0.02f}};
    plume_system system = make_profiled_system(desc, false);
    const float clear[4] = {0, 0, 0, 0};
    test_target target = test_target_begin(16, clear);
    spy_install();
    for (int k = 0; k < 3; ++k) run_frame(system, 0.02f);
    long queries_off = spy.query_count, timestamps_off = spy.timestamps, fences_off = spy.fences;
    long pushes_off = spy.debug_pushes;
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    for (int k = 0; k < 3; ++k) run_frame(system, 0.02f);
    long timestamps_on = spy.timestamps;
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, false), PLUME_OK);
    for (int k = 0; k < 3; ++k) run_frame(system, 0.02f);
    long timestamps_after = spy.timestamps - timestamps_on;
    spy_remove();
    assert_int_equal(queries_off, 0);
    assert_int_equal(timestamps_off, 0);
    assert_int_equal(fences_off, 0);
    assert_int_equal(pushes_off, 0);
    assert_int_equal(timestamps_on, 3 * 2 * PLUME_STAGE_COUNT);
    assert_int_equal(timestamps_after, 0);
    assert_true(spy.query_count > 0);
    for (int i = 0; i < spy.query_count; ++i) assert_false(glIsQuery(spy.queries[i]));
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
    assert_false(profile.enabled);
    for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) assert_int_equal(profile.stages[stage].samples, 0);

    /* Destroyed while profiling, frames in flight. */
    spy_install();
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    run_frame(system, 0.02f);
    run_frame(system, 0.02f);
    spy_remove();
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    test_target_end(&target, NULL);
    for (int i = 0; i < spy.query_count; ++i) assert_false(glIsQuery(spy.queries[i]));
    for (int i = 0; i < spy.buffer_count; ++i) assert_false(glIsBuffer(spy.buffers[i]));

}

const struct CMUnitTest profiler_tests[] = {
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_statistics_match_definitions_on_random_samples, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_timestamp_differences, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_create_refuses_bad_descriptors, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_disabled_profiler_makes_no_gl_call, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_switching_off_deletes_every_gl_object, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_ring_never_waits_for_the_gpu, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_frames_carry_their_values_and_window_statistics, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_stage_times_follow_the_work, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_without_a_timer_no_times_are_reported, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_stages_are_named_debug_groups_and_objects_are_labeled, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_system_sort_time_grows_with_the_live_count, fixture_setup, fixture_teardown),
#endif
    cmocka_unit_test_setup_teardown(test_system_frames_match_the_readback, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_system_profiling_off_costs_no_gl_call, fixture_setup, fixture_teardown),
};
const size_t profiler_test_count = sizeof profiler_tests / sizeof profiler_tests[0];
