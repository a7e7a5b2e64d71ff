/* libepoxy's questions answered for the WebAssembly build (web/shim/epoxy/gl.h):
 * WebGL 2 is OpenGL ES 3.0, and its extensions are the ones the page enabled
 * (Emscripten names them with a GL_ prefix). */
#include <epoxy/gl.h>
#include <string.h>

bool epoxy_is_desktop_gl(void) { return false; }

int epoxy_gl_version(void) { return 30; }

bool epoxy_has_gl_extension(const char *name) {
    GLint count = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &count);
    for (GLint i = 0; i < count; ++i) {
        const char *extension = (const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i);
        if (extension && strcmp(extension, name) == 0) return true;
    }
    return false;
}
