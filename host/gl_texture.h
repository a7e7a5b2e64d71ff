/* Textures a host needs around the module: its offscreen colour and depth
 * targets (the benchmark's and the demo's). */
#ifndef PLUME_HOST_GL_TEXTURE_H
#define PLUME_HOST_GL_TEXTURE_H

#include <epoxy/gl.h>

/* An immutable 2D texture of one level (glTexStorage2D), nearest filtering,
 * edges clamped, labelled `label` for debuggers (NULL: none). Leaves
 * GL_TEXTURE_2D of the active texture unit unbound. */
GLuint host_texture_2d(GLenum internal_format, int width, int height, const char *label);

#endif
