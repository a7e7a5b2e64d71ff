/* Small GL helpers of the demo (the host side: the module builds its own
 * programs). */
#ifndef DEMO_GL_UTIL_H
#define DEMO_GL_UTIL_H

#include <epoxy/gl.h>

/* Compiles and links a vertex + fragment program from GLSL 4.30 core sources
 * (the #version line is added). Prints the info log with `label` and returns
 * 0 on failure. */
GLuint demo_program_create(const char *label, const char *vertex_source, const char *fragment_source);

#endif
