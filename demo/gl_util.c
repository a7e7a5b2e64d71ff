#include "gl_util.h"

#include <stdbool.h>
#include <stdio.h>

/* Whether compiling a shader (or linking a program) worked; prints the info
 * log when not. */
static bool built(GLuint object, bool is_program, const char *label, const char *what) {
    GLint ok = GL_FALSE;
    if (is_program) glGetProgramiv(object, GL_LINK_STATUS, &ok);
    else glGetShaderiv(object, GL_COMPILE_STATUS, &ok);
    if (ok) return true;
    char log[2048] = "";
    if (is_program) glGetProgramInfoLog(object, sizeof log, NULL, log);
    else glGetShaderInfoLog(object, sizeof log, NULL, log);
    fprintf(stderr, "demo: %s %s: %s\n", label, what, log);
    return false;
}

static GLuint compile(const char *label, GLenum type, const char *source) {
    /* GLSL 3.30: the demo runs on a GL 3.3 context too (--gl 3.3); on
     * OpenGL ES (the WebGL 2 page, web/) the same sources as GLSL ES 3.00,
     * every type's precision given. */
    static const char ES_PREFIX[] = "#version 300 es\nprecision highp float;\nprecision highp int;\n"
                                    "precision highp sampler2D;\nprecision highp sampler2DShadow;\n";
    const char *strings[2] = {epoxy_is_desktop_gl() ? "#version 330 core\n" : ES_PREFIX, source};
    GLuint shader = glCreateShader(type);
    glShaderSource(shader, 2, strings, NULL);
    glCompileShader(shader);
    if (built(shader, false, label, type == GL_VERTEX_SHADER ? "vertex shader" : "fragment shader")) return shader;
    glDeleteShader(shader);
    return 0;
}

GLuint demo_program_create(const char *label, const char *vertex_source, const char *fragment_source) {
    GLuint vertex = compile(label, GL_VERTEX_SHADER, vertex_source);
    GLuint fragment = vertex ? compile(label, GL_FRAGMENT_SHADER, fragment_source) : 0;
    if (!fragment) {
        glDeleteShader(vertex);
        return 0;
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, vertex);
    glAttachShader(program, fragment);
    glLinkProgram(program);
    glDeleteShader(vertex);
    glDeleteShader(fragment);
    if (!built(program, true, label, "program")) {
        glDeleteProgram(program);
        return 0;
    }
    if (epoxy_is_desktop_gl()) glObjectLabel(GL_PROGRAM, program, -1, label); /* WebGL has no labels */
    return program;
}
