#include "gl_util.h"

#include <stdio.h>

static GLuint compile(const char *label, GLenum type, const char *source) {
    const char *strings[2] = {"#version 430 core\n", source};
    GLuint shader = glCreateShader(type);
    glShaderSource(shader, 2, strings, NULL);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        fprintf(stderr, "demo: %s %s shader: %s\n", label, type == GL_VERTEX_SHADER ? "vertex" : "fragment", log);
        glDeleteShader(shader);
        return 0;
    }
    return shader;
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
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        fprintf(stderr, "demo: %s program: %s\n", label, log);
        glDeleteProgram(program);
        return 0;
    }
    glObjectLabel(GL_PROGRAM, program, -1, label);
    return program;
}
