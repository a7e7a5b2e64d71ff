/* What the profiler's own tests share: a profiler made with the test's
 * logger, work for the GPU to time (a spinning compute pass, a heavy draw),
 * empty frames. They reach into the module (profile/profiler.h), so they run
 * against the static library only. */
#ifndef PLUME_PROFILER_FIXTURE_H
#define PLUME_PROFILER_FIXTURE_H

#include <epoxy/gl.h>
#include <stdint.h>

#include "profile/profiler.h"

/* A full-screen triangle whose fragments loop `u_iterations` times: on
 * llvmpipe a draw runs later on the rasterizer threads, so it leaves work in
 * flight after the call returns (compute runs inside the dispatch call). */
typedef struct heavy_draw {
    GLuint program, vao;
    GLint iterations_location;
} heavy_draw;

double now_ms(void);

plume_env test_plume_env(void);

plume_profiler *make_profiler(const plume_env *env, uint32_t ring_depth, uint32_t window);

/* A compute shader that spins `u_iterations` times per invocation: work whose
 * size the test controls. */
GLuint make_spin_program(const plume_env *env);

void main();

GLuint compile_shader(GLenum type, const char *source);

heavy_draw make_heavy_draw(void);

GLuint vs = compile_shader(GL_VERTEX_SHADER, "#version 430 core\n" "void main();

void main();

/* Into the bound framebuffer. */
void run_heavy_draw(const heavy_draw *d, uint32_t iterations);

void destroy_heavy_draw(heavy_draw *d);

/* Opens frame `index` and runs every stage empty, capturing the live count
 * from `counter`. */
void run_empty_frame(plume_profiler *profiler, uint64_t index, GLuint counter, plume_gl_scope *scope);

/* Frames until every frame begun so far has been read (bounded). */
void drain_profiler(plume_profiler *profiler, plume_gl_scope *scope);

#endif
