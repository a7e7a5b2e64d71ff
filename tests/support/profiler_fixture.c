/* See profiler_fixture.h. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "profiler_fixture.h"
#include "test_env.h"

double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

plume_env test_plume_env(void) {
    plume_env env;
    plume_logger logger = test_logger();
    assert_int_equal(plume_env_init(&env, &logger, NULL), PLUME_OK);
    return env;
}

plume_profiler *make_profiler(const plume_env *env, uint32_t ring_depth, uint32_t window) {
    profiler_desc desc = {.ring_depth = ring_depth, .window = window};
    plume_profiler *profiler = NULL;
    assert_int_equal(profiler_create(env, &desc, &profiler), PLUME_OK);
    assert_non_null(profiler);
    return profiler;
}

/* A compute shader that spins `u_iterations` times per invocation: work whose
 * size the test controls. */
GLuint make_spin_program(const plume_env *env) {
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


GLuint compile_shader(GLenum type, const char *source) {
    GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, NULL);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    assert_true(ok);
    return shader;
}

heavy_draw make_heavy_draw(void) {
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
void run_heavy_draw(const heavy_draw *d, uint32_t iterations) {
    glUseProgram(d->program);
    glUniform1ui(d->iterations_location, iterations);
    glBindVertexArray(d->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glUseProgram(0);
}

void destroy_heavy_draw(heavy_draw *d) {
    glDeleteProgram(d->program);
    glDeleteVertexArrays(1, &d->vao);
}

/* Opens frame `index` and runs every stage empty, capturing the live count
 * from `counter`. */
void run_empty_frame(plume_profiler *profiler, uint64_t index, GLuint counter, plume_gl_scope *scope) {
    profiler_frame_begin(profiler, index, scope);
    for (int stage = 0; stage < PLUME_STAGE_COUNT; ++stage) {
        profiler_stage_begin(profiler, (plume_stage)stage);
        profiler_stage_end(profiler, (plume_stage)stage);
    }
    profiler_capture_u32(profiler, PROFILER_VALUE_LIVE_COUNT, counter, 0, scope);
}

/* Frames until every frame begun so far has been read (bounded). */
void drain_profiler(plume_profiler *profiler, plume_gl_scope *scope) {
    profiler_frame_end(profiler);
    glFinish();
    for (int i = 0; i < 100; ++i) {
        profiler_collect(profiler, scope);
        profiler_counters c = profiler_get_counters(profiler);
        if (c.frames_completed == c.frames_measured) return;
    }
    fail_msg("the profiler did not read its frames after glFinish");
}
