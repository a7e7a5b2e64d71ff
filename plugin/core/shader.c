/* Builds GL programs from the GLSL files embedded at build time, and turns
 * driver compile logs into "file:line: message". */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plume_internal.h"
#include "plume_shaders.h" /* generated from shaders/ by tools/embed_shaders.c (build/generated/) */

/* The embedded file `length` bytes of `name` name, or NULL. */
static const struct plume_embedded_shader *find_embedded(const char *name, size_t length) {
    for (size_t i = 0; i < sizeof plume_embedded_shaders / sizeof plume_embedded_shaders[0]; ++i) {
        const char *embedded = plume_embedded_shaders[i].name;
        if (strncmp(embedded, name, length) == 0 && embedded[length] == '\0') return &plume_embedded_shaders[i];
    }
    return NULL;
}

const char *plume_shader_source(const char *file) {
    const struct plume_embedded_shader *embedded = find_embedded(file, strlen(file));
    return embedded ? embedded->source : NULL;
}

/* Reads "<digits>" at *p, advancing; -1 if none. */
static long read_number(const char **p) {
    if (!isdigit((unsigned char)**p)) return -1;
    char *end;
    long value = strtol(*p, &end, 10);
    *p = end;
    return value;
}

/* Line L of a stage's file k (1-based, in the order the stage first
 * includes them) is numbered k * FILE_LINE_STRIDE + L, so a reported line
 * names the file and its line. (Mesa ignores the source-string number of
 * "#line L S" in its logs, so that number cannot carry the file.) */
enum { FILE_LINE_STRIDE = 100000 };

/* The compute path's GLSL, and the fragment path's (GL 3.3 contexts), and
 * the fragment path's on OpenGL ES 3.0 (WebGL 2): the same sources after a
 * profile prefix, which sets the precision ES asks of every float, int and
 * sampler type without a default (highp: the ids, slots and sort keys are
 * 32-bit), and defines PLUME_GLSL_ES for the few lines that differ (no
 * buffer textures). */
static const char GLSL_430[] = "#version 430 core\n";
static const char GLSL_330[] = "#version 330 core\n";
static const char GLSL_300_ES[] = "#version 300 es\n#define PLUME_GLSL_ES 1\n"
                                  "precision highp float;\nprecision highp int;\n"
                                  "precision highp sampler2D;\nprecision highp usampler2D;\n"
                                  "precision highp isampler2D;\nprecision highp sampler3D;\n"
                                  "precision highp sampler2DArray;\nprecision highp usampler2DArray;\n";

/* The fragment path's prefix for the current context. */
static const char *fragment_path_glsl(void) { return plume_gl_is_es() ? GLSL_300_ES : GLSL_330; }

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

/* ---- A stage's text --------------------------------------------------------
 * A stage is its root files (the layout, then the main file) with each
 * `#include` line (a quoted path below shaders/) replaced by that file's text, every file
 * once: an include of a file the stage already has adds nothing. The GL gets
 * the pieces as they are (strings with lengths, nothing copied), each after
 * a "#line" that encodes its file and resumes its line numbers. */

/* One piece of a file's text, after the "#line" that numbers it. */
typedef struct stage_piece {
    char line_directive[32];
    const char *text;
    size_t length;
} stage_piece;

typedef struct stage_text {
    const plume_env *env;
    const char *label;
    stage_piece *pieces;
    int piece_count, piece_capacity;
    const char **files; /* in the order of first inclusion: file k's lines are k * FILE_LINE_STRIDE + line */
    int file_count, file_capacity;
    plume_result failure; /* why a file could not be added */
} stage_text;

/* `array` with room for element `count`: the same, grown, or NULL (out of
 * memory: `array` is kept and freed by the caller). */
static void *room_for(stage_text *t, void *array, int *capacity, int count, size_t element_size) {
    if (count < *capacity) return array;
    int grown_capacity = *capacity ? 2 * *capacity : 16;
    void *grown = plume_realloc(t->env, array, (size_t)grown_capacity * element_size);
    if (!grown) {
        t->failure = PLUME_ERROR_OUT_OF_MEMORY;
        return NULL;
    }
    *capacity = grown_capacity;
    return grown;
}

/* The text of file number `file` (1-based) from its line `line` on, `length` bytes. */
static bool add_piece(stage_text *t, int file, int line, const char *text, size_t length) {
    if (length == 0) return true;
    stage_piece *pieces = room_for(t, t->pieces, &t->piece_capacity, t->piece_count, sizeof *pieces);
    if (!pieces) return false;
    t->pieces = pieces;
    stage_piece *piece = &pieces[t->piece_count++];
    snprintf(piece->line_directive, sizeof piece->line_directive, "\n#line %d\n", file * FILE_LINE_STRIDE + line);
    piece->text = text;
    piece->length = length;
    return true;
}

/* Where the line at `line` is `#include "NAME"` (a `//` comment may follow),
 * NAME's first byte and length; *is_include says whether the line starts
 * with #include at all. */
static const char *include_name(const char *line, bool *is_include, size_t *length) {
    const char *p = line + strspn(line, " \t");
    *is_include = false;
    if (*p != '#') return NULL;
    p += 1 + strspn(p + 1, " \t");
    if (strncmp(p, "include", 7) != 0) return NULL;
    *is_include = true;
    p += 7;
    p += strspn(p, " \t");
    if (*p != '"') return NULL;
    const char *name = p + 1;
    *length = strcspn(name, "\"\n");
    if (name[*length] != '"' || *length == 0) return NULL;
    const char *rest = name + *length + 1;
    rest += strspn(rest, " \t\r");
    return *rest == '\n' || *rest == '\0' || strncmp(rest, "//", 2) == 0 ? name : NULL;
}

static bool add_file(stage_text *t, const char *name, const char *text);

/* The `#include` on line `line` of `file` (its name at `name`, `length` bytes). */
static bool add_include(stage_text *t, const char *file, int line, const char *name, size_t length) {
    const struct plume_embedded_shader *included = find_embedded(name, length);
    if (!included) {
        plume_log(t->env, PLUME_LOG_ERROR, "%s: %s:%d: #include names no shader file: \"%.*s\"", t->label, file, line,
                  (int)length, name);
        t->failure = PLUME_ERROR_SHADER;
        return false;
    }
    return add_file(t, included->name, included->source);
}

/* Adds `text` (the file `name`) with its includes resolved, unless the stage
 * has it already. */
static bool add_file(stage_text *t, const char *name, const char *text) {
    for (int f = 0; f < t->file_count; ++f)
        if (strcmp(t->files[f], name) == 0) return true;
    const char **files = room_for(t, (void *)t->files, &t->file_capacity, t->file_count, sizeof *files);
    if (!files) return false;
    t->files = files;
    files[t->file_count++] = name;
    int file = t->file_count; /* 1-based: 0 is the "#version" and defines */
    const char *piece = text;
    int piece_line = 1, line = 1;
    for (const char *at = text; *at; ++line) {
        bool is_include;
        size_t length = 0;
        const char *included = include_name(at, &is_include, &length);
        const char *next = at + strcspn(at, "\n");
        if (*next == '\n') ++next;
        if (is_include) {
            if (!included) {
                plume_log(t->env, PLUME_LOG_ERROR,
                          "%s: %s:%d: expected #include \"dir/file.glsl\" (a path below shaders/)", t->label, name,
                          line);
                t->failure = PLUME_ERROR_SHADER;
                return false;
            }
            if (!add_piece(t, file, piece_line, piece, (size_t)(at - piece)) ||
                !add_include(t, name, line, included, length))
                return false;
            piece = next;
            piece_line = line + 1;
        }
        at = next;
    }
    return add_piece(t, file, piece_line, piece, strlen(piece));
}

/* The GL's strings for a stage: "#version", `defines`, then each piece
 * after its "#line"; NULL when out of memory (logged). */
static const char **stage_strings(const stage_text *t, const char *version, const char *defines, GLint **out_lengths) {
    size_t count = 2 + 2 * (size_t)t->piece_count;
    const char **strings = plume_alloc(t->env, sizeof *strings * count);
    GLint *lengths = plume_alloc(t->env, sizeof *lengths * count);
    if (!strings || !lengths) {
        plume_free(t->env, (void *)strings);
        plume_free(t->env, lengths);
        return NULL;
    }
    strings[0] = version;
    strings[1] = defines ? defines : "";
    lengths[0] = lengths[1] = -1; /* NUL-terminated */
    for (int p = 0; p < t->piece_count; ++p) {
        strings[2 + 2 * p] = t->pieces[p].line_directive;
        lengths[2 + 2 * p] = -1;
        strings[3 + 2 * p] = t->pieces[p].text;
        lengths[3 + 2 * p] = (GLint)t->pieces[p].length;
    }
    *out_lengths = lengths;
    return strings;
}

/* Compiles the stage `t` holds into *out_shader (0 on failure: logged, deleted). */
static plume_result compile_text(const stage_text *t, GLenum type, const char *version, const char *defines,
                                 const char *main_file, GLuint *out_shader) {
    *out_shader = 0;
    GLint *lengths = NULL;
    const char **strings = stage_strings(t, version, defines, &lengths);
    if (!strings) return PLUME_ERROR_OUT_OF_MEMORY;
    GLuint shader = glCreateShader(type);
    plume_result result = PLUME_ERROR_SHADER;
    if (shader == 0) {
        plume_log(t->env, PLUME_LOG_ERROR, "%s: glCreateShader failed", t->label);
    } else {
        glShaderSource(shader, 2 + 2 * t->piece_count, strings, lengths);
        glCompileShader(shader);
        GLint ok = GL_FALSE;
        glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
        if (ok) {
            *out_shader = shader;
            result = PLUME_OK;
        } else {
            plume_log(t->env, PLUME_LOG_ERROR, "%s: shader %s failed to compile:", t->label, main_file);
            char *log = get_info_log(t->env, shader, false);
            if (log) log_info_log(t->env, log, t->files, t->file_count);
            plume_free(t->env, log);
            glDeleteShader(shader);
        }
    }
    plume_free(t->env, (void *)strings);
    plume_free(t->env, lengths);
    return result;
}

/* Compiles one stage: the layout C and GLSL share, then the `count` root
 * files (`sources`, named `file_names`) with their includes resolved. */
static plume_result compile_stage(const plume_env *env, const char *label, GLenum type, const char *const *sources,
                                  const char *const *file_names, int count, const char *defines, const char *version,
                                  GLuint *out_shader) {
    stage_text t = {.env = env, .label = label};
    bool complete = add_file(&t, PLUME_GPU_LAYOUT_FILE, plume_shader_source(PLUME_GPU_LAYOUT_FILE));
    for (int i = 0; i < count && complete; ++i) complete = add_file(&t, file_names[i], sources[i]);
    plume_result result = complete ? compile_text(&t, type, version, defines, file_names[count - 1], out_shader)
                                   : t.failure;
    if (!complete) *out_shader = 0;
    plume_free(env, t.pieces);
    plume_free(env, (void *)t.files);
    return result;
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
    plume_label_gl_object(env, GL_PROGRAM, program, label);
    *out_program = program;
    return PLUME_OK;
}

plume_result plume_build_program_from_sources(const plume_env *env, const char *label, GLenum type,
                                              const char *const *sources, const char *const *file_names,
                                              int source_count, const char *defines, GLuint *out_program) {
    *out_program = 0;
    if (source_count < 1) return PLUME_ERROR_INVALID_ARGUMENT;
    GLuint shader = 0;
    plume_result r = compile_stage(env, label, type, sources, file_names, source_count, defines, GLSL_430, &shader);
    if (r != PLUME_OK) return r;
    return link_program(env, label, &shader, 1, NULL, 0, out_program);
}

static plume_result build_program(const plume_env *env, const char *label, const plume_shader_stage *stages,
                                  int stage_count, const char *defines, const char *version,
                                  const char *const *varyings, int varying_count, GLuint *out_program) {
    *out_program = 0;
    GLuint shaders[4] = {0};
    if (stage_count < 1 || stage_count > 4) return PLUME_ERROR_INVALID_ARGUMENT;
    for (int s = 0; s < stage_count; ++s) {
        const char *source = plume_shader_source(stages[s].file);
        plume_result r = PLUME_ERROR_SHADER;
        if (!source) plume_log(env, PLUME_LOG_ERROR, "%s: no embedded shader named %s", label, stages[s].file);
        else r = compile_stage(env, label, stages[s].type, &source, &stages[s].file, 1, defines, version, &shaders[s]);
        if (r != PLUME_OK) {
            for (int k = 0; k < s; ++k) glDeleteShader(shaders[k]);
            return r;
        }
    }
    return link_program(env, label, shaders, stage_count, varyings, varying_count, out_program);
}

plume_result plume_build_program_uncached(const plume_env *env, const plume_program_request *r, GLuint *out_program) {
    return build_program(env, r->label, r->stages, r->stage_count, r->defines, r->glsl_330 ? fragment_path_glsl() : GLSL_430,
                         r->varyings, r->varying_count, out_program);
}

plume_result plume_build_program(const plume_env *env, const char *label, const plume_shader_stage *stages,
                                 int stage_count, const char *defines, GLuint *out_program) {
    plume_program_request request = {label, stages, stage_count, defines, false, NULL, 0};
    return plume_program_obtain(env, &request, out_program);
}

plume_result plume_build_program_330(const plume_env *env, const char *label, const plume_shader_stage *stages,
                                     int stage_count, const char *defines, GLuint *out_program) {
    plume_program_request request = {label, stages, stage_count, defines, true, NULL, 0};
    return plume_program_obtain(env, &request, out_program);
}

plume_result plume_build_feedback_program_330(const plume_env *env, const char *label, const plume_shader_stage *stages,
                                              int stage_count, const char *defines, const char *const *varyings,
                                              int varying_count, GLuint *out_program) {
    plume_program_request request = {label, stages, stage_count, defines, true, varyings, varying_count};
    return plume_program_obtain(env, &request, out_program);
}

void plume_find_uniform_locations(GLuint program, const char *const *names, GLint *locations) {
    for (int u = 0; names[u]; ++u) locations[u] = glGetUniformLocation(program, names[u]);
}
