/* Builds GL programs from the GLSL files embedded at build time, and turns
 * driver compile logs into "file:line: message". */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plume_internal.h"
#include "plume_shaders.h"


const char *plume_shader_source(const char *file) {
    for (size_t i = 0; i < sizeof plume_embedded_shaders / sizeof plume_embedded_shaders[0]; ++i)
        if (strcmp(plume_embedded_shaders[i].name, file) == 0) return plume_embedded_shaders[i].source;
    return NULL;
}

/* Reads "<digits>" at *p, advancing; -1 if none. */
static long read_number(const char **p) {
    if (!isdigit((unsigned char)**p)) return -1;
    char *end;
    long value = strtol(*p, &end, 10);
    *p = end;
    return value;
}

/* Each embedded file starts at line (index + 1) * FILE_LINE_STRIDE + 1, so a
 * reported line names the file and its line. (Mesa ignores the source-string
 * number of "#line L S" in its logs, so that number cannot carry the file.) */
enum { FILE_LINE_STRIDE = 100000 };

/* The compute path's GLSL, and the fragment path's (GL 3.3 contexts). */
static const char GLSL_430[] = "#version 430 core\n";
static const char GLSL_330[] = "#version 330 core\n";

/* One driver log line to "file:line: message". Mesa writes "S:L(C): msg",
 * NVIDIA "S(L) : msg". */
static void log_mapped_line(const plume_env *env, const char *line, const char *const *file_names, int file_count) {
    const char *p = line;
    long source = read_number(&p), line_number = -1;
    if (source >= 0 && *p == ':') { /* Mesa */
        ++p;
        line_number = read_number(&p);
        if (*p == '(') while (*p && *p != ')') ++p;
        if (*p == ')') ++p;
        if (*p == ':') ++p;
    } else if (source >= 0 && *p == '(') { /* NVIDIA */
        ++p;
        line_number = read_number(&p);
        if (*p == ')') ++p;
        while (*p == ' ') ++p;
        if (*p == ':') ++p;
    }
    while (*p == ' ') ++p;
    long file_index = line_number / FILE_LINE_STRIDE;
    if (line_number >= 0 && file_index >= 1 && file_index <= file_count)
        plume_log(env, PLUME_LOG_ERROR, "%s:%ld: %s", file_names[file_index - 1], line_number % FILE_LINE_STRIDE, p);
    else if (line_number >= 0)
        plume_log(env, PLUME_LOG_ERROR, "(generated preamble):%ld: %s", line_number, p);
    else if (*line)
        plume_log(env, PLUME_LOG_ERROR, "%s", line);
}

static void log_info_log(const plume_env *env, const char *log, const char *const *file_names, int file_count) {
    char line[1024];
    while (*log) {
        size_t length = strcspn(log, "\n");
        size_t copy = length < sizeof line - 1 ? length : sizeof line - 1;
        memcpy(line, log, copy);
        line[copy] = '\0';
        log_mapped_line(env, line, file_names, file_count);
        log += length;
        if (*log == '\n') ++log;
    }
}

static char *get_info_log(const plume_env *env, GLuint object, bool is_program) {
    GLint length = 0;
    if (is_program) glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length);
    else glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
    char *log = plume_alloc(env, (size_t)length + 1);
    if (!log) return NULL;
    if (length > 0) {
        if (is_program) glGetProgramInfoLog(object, length, NULL, log);
        else glGetShaderInfoLog(object, length, NULL, log);
    }
    return log;
}

/* Compiles one stage: the layout C and GLSL share, then `count` (1 ..
 * PLUME_SHADER_MAX_FILES) files; returns the shader name or 0 (logged,
 * deleted). */
static GLuint compile_stage(const plume_env *env, const char *label, GLenum type, const char *const *sources,
                            const char *const *file_names, int count, const char *defines, const char *version) {
    enum { FILES = PLUME_SHADER_MAX_FILES + 1 };
    const char *all_sources[FILES] = {plume_shader_source(PLUME_GPU_LAYOUT_FILE)};
    const char *all_names[FILES] = {PLUME_GPU_LAYOUT_FILE};
    for (int i = 0; i < count; ++i) {
        all_sources[i + 1] = sources[i];
        all_names[i + 1] = file_names[i];
    }
    file_names = all_names;
    ++count;
    const char *strings[2 * FILES + 2];
    char line_directives[FILES][32];
    int n = 0;
    strings[n++] = version;
    strings[n++] = defines ? defines : "";
    for (int i = 0; i < count; ++i) {
        snprintf(line_directives[i], sizeof line_directives[i], "\n#line %d\n", (i + 1) * FILE_LINE_STRIDE + 1);
        strings[n++] = line_directives[i];
        strings[n++] = all_sources[i];
    }
    GLuint shader = glCreateShader(type);
    if (shader == 0) {
        plume_log(env, PLUME_LOG_ERROR, "%s: glCreateShader failed", label);
        return 0;
    }
    glShaderSource(shader, n, strings, NULL);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        plume_log(env, PLUME_LOG_ERROR, "%s: shader %s failed to compile:", label, file_names[count - 1]);
        char *log = get_info_log(env, shader, false);
        if (log) log_info_log(env, log, file_names, count);
        plume_free(env, log);
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

/* glTransformFeedbackVaryings fails while the bound transform feedback
 * object is active, paused included (the host may have left one so): where
 * the GL has objects, a fresh one is bound for the call. */
static void name_feedback_outputs(GLuint program, const char *const *varyings, int varying_count) {
    GLint host_object = 0;
    GLuint own = 0;
    if (plume_has_feedback_objects()) {
        glGetIntegerv(GL_TRANSFORM_FEEDBACK_BINDING, &host_object);
        glGenTransformFeedbacks(1, &own);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, own);
    }
    glTransformFeedbackVaryings(program, varying_count, varyings, GL_INTERLEAVED_ATTRIBS);
    if (own) {
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, (GLuint)host_object);
        glDeleteTransformFeedbacks(1, &own);
    }
}

/* `varyings` (NULL: none): the outputs transform feedback captures, interleaved
 * in one buffer, named before the link as GL asks. */
static plume_result link_program(const plume_env *env, const char *label, const GLuint *shaders, int count,
                                 const char *const *varyings, int varying_count, GLuint *out_program) {
    GLuint program = glCreateProgram();
    for (int i = 0; i < count; ++i) glAttachShader(program, shaders[i]);
    if (varyings) name_feedback_outputs(program, varyings, varying_count);
    glLinkProgram(program);
    for (int i = 0; i < count; ++i) {
        glDetachShader(program, shaders[i]);
        glDeleteShader(shaders[i]);
    }
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        plume_log(env, PLUME_LOG_ERROR, "%s: program failed to link:", label);
        char *log = get_info_log(env, program, true);
        if (log) log_info_log(env, log, NULL, 0);
        plume_free(env, log);
        glDeleteProgram(program);
        return PLUME_ERROR_SHADER;
    }
    if (epoxy_gl_version() >= 43 || epoxy_has_gl_extension("GL_KHR_debug"))
        glObjectLabel(GL_PROGRAM, program, -1, label);
    *out_program = program;
    return PLUME_OK;
}

plume_result plume_build_program_from_sources(const plume_env *env, const char *label, GLenum type,
                                              const char *const *sources, const char *const *file_names,
                                              int source_count, const char *defines, GLuint *out_program) {
    *out_program = 0;
    if (source_count < 1 || source_count > PLUME_SHADER_MAX_FILES) return PLUME_ERROR_INVALID_ARGUMENT;
    GLuint shader = compile_stage(env, label, type, sources, file_names, source_count, defines, GLSL_430);
    if (!shader) return PLUME_ERROR_SHADER;
    return link_program(env, label, &shader, 1, NULL, 0, out_program);
}

static plume_result build_program(const plume_env *env, const char *label, const plume_shader_stage *stages,
                                  int stage_count, const char *defines, const char *version,
                                  const char *const *varyings, int varying_count, GLuint *out_program) {
    *out_program = 0;
    GLuint shaders[4] = {0};
    if (stage_count < 1 || stage_count > 4) return PLUME_ERROR_INVALID_ARGUMENT;
    for (int s = 0; s < stage_count; ++s) {
        const char *sources[PLUME_SHADER_MAX_FILES];
        int count = 0;
        for (; count < PLUME_SHADER_MAX_FILES && stages[s].files[count]; ++count) {
            sources[count] = plume_shader_source(stages[s].files[count]);
            if (!sources[count]) {
                plume_log(env, PLUME_LOG_ERROR, "%s: no embedded shader named %s", label, stages[s].files[count]);
                break;
            }
        }
        /* files[] has room for the terminator after PLUME_SHADER_MAX_FILES names. */
        bool complete = count > 0 && !stages[s].files[count];
        shaders[s] = complete ? compile_stage(env, label, stages[s].type, sources, stages[s].files, count, defines, version) : 0;
        if (!shaders[s]) {
            for (int k = 0; k < s; ++k) glDeleteShader(shaders[k]);
            return PLUME_ERROR_SHADER;
        }
    }
    return link_program(env, label, shaders, stage_count, varyings, varying_count, out_program);
}

plume_result plume_build_program(const plume_env *env, const char *label, const plume_shader_stage *stages,
                                 int stage_count, const char *defines, GLuint *out_program) {
    return build_program(env, label, stages, stage_count, defines, GLSL_430, NULL, 0, out_program);
}

plume_result plume_build_program_330(const plume_env *env, const char *label, const plume_shader_stage *stages,
                                     int stage_count, const char *defines, GLuint *out_program) {
    return build_program(env, label, stages, stage_count, defines, GLSL_330, NULL, 0, out_program);
}

plume_result plume_build_feedback_program_330(const plume_env *env, const char *label, const plume_shader_stage *stages,
                                              int stage_count, const char *defines, const char *const *varyings,
                                              int varying_count, GLuint *out_program) {
    return build_program(env, label, stages, stage_count, defines, GLSL_330, varyings, varying_count, out_program);
}

void plume_find_uniform_locations(GLuint program, const char *const *names, GLint *locations) {
    for (int u = 0; names[u]; ++u) locations[u] = glGetUniformLocation(program, names[u]);
}
