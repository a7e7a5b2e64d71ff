/* What each window system's file implements (headless_gl.c through EGL,
 * headless_gl_wgl.c through WGL); headless_gl_common.c makes the calls of
 * headless_gl.h from it. */
#ifndef PLUME_HEADLESS_GL_PLATFORM_H
#define PLUME_HEADLESS_GL_PLATFORM_H

#include "headless_gl.h"

/* A context of the first of `versions` (major, minor) the driver gives,
 * OpenGL ES when `es`, else core; made current. On failure writes a reason
 * to `error`. */
bool headless_gl_platform_create(headless_gl *gl, bool es, const int (*versions)[2], size_t version_count, bool debug,
                                 const headless_gl *share, char *error, size_t error_size);

#endif
