/* libepoxy's header for the WebAssembly build (tools/web_build.sh): the
 * module and the demo include <epoxy/gl.h>; in the browser the GL is
 * Emscripten's WebGL 2 (OpenGL ES 3.0) and these declare what the sources
 * name. The GL 4.x and desktop-only functions are declared (the compute
 * path's code is compiled, never called: the module picks the fragment path
 * on OpenGL ES), and web/epoxy_web.c answers libepoxy's three questions. */
#ifndef PLUME_WEB_EPOXY_GL_H
#define PLUME_WEB_EPOXY_GL_H
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdbool.h>

bool epoxy_has_gl_extension(const char *name);
int epoxy_gl_version(void);      /* 30: WebGL 2 is OpenGL ES 3.0 */
bool epoxy_is_desktop_gl(void);  /* false */
#endif
