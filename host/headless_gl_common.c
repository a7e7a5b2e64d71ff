/* The calls of headless_gl.h that are the same on every window system, on
 * headless_gl_platform_create (EGL: headless_gl.c; WGL: headless_gl_wgl.c). */
#include "headless_gl_platform.h"

#include <epoxy/gl.h>
#include <stdio.h>

bool headless_gl_create(headless_gl *gl, bool debug, const headless_gl *share, char *error, size_t error_size) {
    /* Newest first: some drivers only give exactly the version asked for. */
    static const int versions[][2] = {{4, 6}, {4, 5}, {4, 3}};
    return headless_gl_platform_create(gl, false, versions, sizeof versions / sizeof versions[0], debug, share, error,
                                       error_size);
}

bool headless_gl_create_version(headless_gl *gl, int major, int minor, bool debug, const headless_gl *share,
                                char *error, size_t error_size) {
    const int versions[1][2] = {{major, minor}};
    return headless_gl_platform_create(gl, false, versions, 1, debug, share, error, error_size);
}

bool headless_gl_create_es(headless_gl *gl, int major, int minor, char *error, size_t error_size) {
    const int versions[1][2] = {{major, minor}};
    return headless_gl_platform_create(gl, true, versions, 1, false, NULL, error, error_size);
}

const char *headless_gl_describe(void) {
    static char text[256];
    snprintf(text, sizeof text, "%s | %s", (const char *)glGetString(GL_RENDERER),
             (const char *)glGetString(GL_VERSION));
    return text;
}
