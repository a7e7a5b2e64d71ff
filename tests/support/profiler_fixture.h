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

/* CLOCK_MONOTONIC in milliseconds. */
double now_ms(void);

/* An environment whose messages go to the recording logger. */
plume_env test_plume_env(void);

plume_profiler *make_profiler(const plume_env *env, uint32_t ring_depth, uint32_t window);

/* A compute shader that spins `u_iterations` times per invocation: work whose
 * size the test controls. */
GLuint make_spin_program(const plume_env *env);

/* Compiles one stage (fails the test on an error). */
GLuint compile_shader(GLenum type, const char *source);

/* A draw of full-screen triangles that loop in the fragment shader: work for
 * the draw stage whose size the test controls. */
heavy_draw make_heavy_draw(void);

/* Into the bound framebuffer. */
void run_heavy_draw(const heavy_draw *d, uint32_t iterations);

void destroy_heavy_draw(heavy_draw *d);

/* Opens frame `index` and runs every stage empty, capturing the live count
 * from `counter`. */
void run_empty_frame(plume_profiler *profiler, uint64_t index, GLuint counter, plume_gl_scope *scope);

/* Frames until every frame begun so far has been read (bounded). */
void drain_profiler(plume_profiler *profiler, plume_gl_scope *scope);

#endif
