/* A GL 4.3+ core context with no window and no X server, through EGL: the
 * device platform first (works on Mesa llvmpipe and the NVIDIA driver), then
 * the default display. Used by the tests, the benchmark and the demo's
 * offscreen mode; a host engine brings its own context instead. */
#ifndef PLUME_HEADLESS_GL_H
#define PLUME_HEADLESS_GL_H

#include <stdbool.h>
#include <stddef.h>

typedef struct headless_gl {
    void *display;  /* EGLDisplay */
    void *context;  /* EGLContext */
    void *surface;  /* EGLSurface: a 1x1 pbuffer, or EGL_NO_SURFACE when surfaceless */
} headless_gl;

/* Creates a context (debug: a KHR_debug context) and makes it current.
 * `share` may be NULL. On failure writes a reason to `error`. */
bool headless_gl_create(headless_gl *gl, bool debug, const headless_gl *share, char *error, size_t error_size);
/* A core context of exactly `major`.`minor` or newer (drivers may give a
 * newer one: Mesa with MESA_GL_VERSION_OVERRIDE=3.3 gives 3.3 itself). */
bool headless_gl_create_version(headless_gl *gl, int major, int minor, bool debug, const headless_gl *share,
                                char *error, size_t error_size);
/* An OpenGL ES context (tests use it to check that the module refuses a GL
 * without 4.3 core compute shaders). */
bool headless_gl_create_es(headless_gl *gl, int major, int minor, char *error, size_t error_size);
bool headless_gl_make_current(const headless_gl *gl);
/* Makes no context current on the calling thread (a thread hands its context
 * back before another thread may make it current, or before it ends). */
void headless_gl_release_current(const headless_gl *gl);
void headless_gl_destroy(headless_gl *gl);

/* "renderer | version" of the current context, for the first line of output. */
const char *headless_gl_describe(void);

#endif
