/* headless_gl_describe, the same on EGL (headless_gl.c) and WGL
 * (headless_gl_wgl.c). */
#include "headless_gl.h"

#include <epoxy/gl.h>
#include <stdio.h>

const char *headless_gl_describe(void) {
    static char text[256];
    snprintf(text, sizeof text, "%s | %s", (const char *)glGetString(GL_RENDERER),
             (const char *)glGetString(GL_VERSION));
    return text;
}
