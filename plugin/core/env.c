/* Logging, allocation and small GL checks shared by every object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plume_internal.h"

const char *plume_result_string(plume_result result) {
    switch (result) {
    case PLUME_OK: return "PLUME_OK";
    case PLUME_ERROR_INVALID_ARGUMENT: return "PLUME_ERROR_INVALID_ARGUMENT";
    case PLUME_ERROR_OUT_OF_MEMORY: return "PLUME_ERROR_OUT_OF_MEMORY";
    case PLUME_ERROR_GL_UNSUPPORTED: return "PLUME_ERROR_GL_UNSUPPORTED";
    case PLUME_ERROR_SHADER: return "PLUME_ERROR_SHADER";
    case PLUME_ERROR_GL: return "PLUME_ERROR_GL";
    case PLUME_ERROR_CAPACITY: return "PLUME_ERROR_CAPACITY";
    case PLUME_ERROR_IO: return "PLUME_ERROR_IO";
    case PLUME_ERROR_VERSION: return "PLUME_ERROR_VERSION";
    case PLUME_ERROR_HOST_STATE: return "PLUME_ERROR_HOST_STATE";
    }
    return "PLUME_ERROR_UNKNOWN";
}

static void *default_allocate(size_t size, void *user) {
    (void)user;
    return malloc(size);
}
static void *default_reallocate(void *block, size_t size, void *user) {
    (void)user;
    return realloc(block, size);
}
static void default_deallocate(void *block, void *user) {
    (void)user;
    free(block);
}

static void default_log(plume_log_level level, const char *message, void *user) {
    (void)user;
    if (level <= PLUME_LOG_WARNING)
        fprintf(stderr, "plume %s: %s\n", level == PLUME_LOG_ERROR ? "error" : "warning", message);
}

static plume_result init_env(plume_env *env, const plume_env *defaults, const plume_logger *logger,
                             const plume_allocator *allocator) {
    env->logger = logger && logger->func ? *logger : defaults->logger;
    int given = allocator ? (allocator->allocate != NULL) + (allocator->reallocate != NULL) +
                                (allocator->deallocate != NULL)
                          : 0;
    env->allocator = given == 3 ? *allocator : defaults->allocator;
    env->programs = defaults->programs;
    env->new_buffer_poison = defaults->new_buffer_poison;
    if (given != 0 && given != 3) {
        plume_log(env, PLUME_LOG_ERROR,
                  "allocator: give all of allocate, reallocate and deallocate, or none (%d of 3 given)", given);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return PLUME_OK;
}

/* Constant: the library keeps no mutable global state. */
static const plume_env library_defaults = {
    .logger = {default_log, NULL},
    .allocator = {default_allocate, default_reallocate, default_deallocate, NULL},
};

const plume_env *plume_default_env(void) { return &library_defaults; }

plume_result plume_env_init(plume_env *env, const plume_logger *logger, const plume_allocator *allocator) {
    return init_env(env, &library_defaults, logger, allocator);
}

plume_result plume_env_init_child(plume_env *env, const plume_env *parent, const plume_logger *logger,
                                  const plume_allocator *allocator) {
    return init_env(env, parent, logger, allocator);
}

void plume_log(const plume_env *env, plume_log_level level, const char *format, ...) {
    char message[2048];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    env->logger.func(level, message, env->logger.user);
}

void *plume_alloc(const plume_env *env, size_t size) {
    void *block = env->allocator.allocate(size ? size : 1, env->allocator.user);
    if (block) memset(block, 0, size);
    else plume_log(env, PLUME_LOG_ERROR, "out of memory allocating %zu bytes", size);
    return block;
}

void *plume_realloc(const plume_env *env, void *block, size_t size) {
    void *grown = env->allocator.reallocate(block, size ? size : 1, env->allocator.user);
    if (!grown) plume_log(env, PLUME_LOG_ERROR, "out of memory growing a block to %zu bytes", size);
    return grown;
}

void plume_free(const plume_env *env, void *block) {
    if (block) env->allocator.deallocate(block, env->allocator.user);
}

plume_result plume_check_gl_context(const plume_env *env, const char *caller) {
    /* The query that answered last for this context is asked first: one
     * call, where finding one walks the loaded libraries. */
    plume_current_context_query *kept = env->programs ? plume_program_cache_current_context(env->programs) : NULL;
    if (kept && plume_platform_asks_current(*kept)) return PLUME_OK;
    plume_current_context_query found = plume_platform_find_current_context();
    if (found.function && kept) {
        plume_platform_release_current_context_query(*kept);
        *kept = found;
    } else {
        plume_platform_release_current_context_query(found);
    }
    if (found.function) return PLUME_OK;
    plume_log(env, PLUME_LOG_ERROR, "%s: no GL context is current on this thread", caller);
    return PLUME_ERROR_GL_UNSUPPORTED;
}

plume_result plume_check_gl_version(const plume_env *env, const char *what) {
    if (!plume_gl_has_compute_path()) {
        const char *version = (const char *)glGetString(GL_VERSION);
        plume_log(env, PLUME_LOG_ERROR, "%s needs OpenGL 4.3 with compute shaders; the current context is %s", what,
                  version ? version : "(none: is a context current?)");
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    return PLUME_OK;
}

static int gl_version_number(void) {
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    return major * 10 + minor;
}

bool plume_gl_is_es(void) {
    return !epoxy_is_desktop_gl();
}

/* OpenGL ES numbers its versions from 3.0 as the desktop GL does (ES 3.1 has
 * compute shaders, but not the desktop 4.3 GLSL the compute path is written
 * in): only a desktop 4.3 runs the compute path. */
bool plume_gl_has_compute_path(void) {
    return !plume_gl_is_es() && gl_version_number() >= 43;
}

plume_result plume_check_gl_fragment_version(const plume_env *env, const char *what) {
    if (gl_version_number() < (plume_gl_is_es() ? 30 : 33)) {
        const char *text = (const char *)glGetString(GL_VERSION);
        plume_log(env, PLUME_LOG_ERROR, "%s needs OpenGL 4.3 with compute shaders, or 3.3 core or OpenGL ES 3.0 for the "
                  "fragment path; the current context is %s", what,
                  text ? text : "(none: is a context current?)");
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    return PLUME_OK;
}

plume_result plume_resolve_gpu_path(const plume_env *env, const char *caller, uint32_t requested,
                                    plume_gpu_path *out_path) {
    if (requested > PLUME_PATH_FRAGMENT) {
        plume_log(env, PLUME_LOG_ERROR, "%s: path %u is not a plume_gpu_path (0 auto, 1 compute, 2 fragment)", caller,
                  requested);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_gpu_path path = (plume_gpu_path)requested;
    if (path == PLUME_PATH_AUTO) path = plume_gl_has_compute_path() ? PLUME_PATH_COMPUTE : PLUME_PATH_FRAGMENT;
    plume_result r = path == PLUME_PATH_COMPUTE ? plume_check_gl_version(env, caller)
                                                : plume_check_gl_fragment_version(env, caller);
    *out_path = path;
    return r;
}

static const char *gl_error_name(GLenum error) {
    switch (error) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    /* A robust context after a GPU reset (GL 4.5, KHR_robustness): every
     * later command is ignored and raises it. */
    case GL_CONTEXT_LOST:
        return "GL_CONTEXT_LOST: the GL context was lost to a GPU reset; destroy this module's objects and make them "
               "again in a new context";
    default: return "unknown GL error";
    }
}

plume_result plume_drain_gl_errors(const plume_env *env, const char *where) {
    plume_result result = PLUME_OK;
    /* Several error flags can be set at once: read until GL_NO_ERROR (bounded,
     * since a lost context may return errors forever). */
    for (int i = 0; i < 16; ++i) {
        GLenum error = glGetError();
        if (error == GL_NO_ERROR) break;
        plume_log(env, PLUME_LOG_ERROR, "%s: %s (0x%04x)", where, gl_error_name(error), error);
        result = error == GL_OUT_OF_MEMORY ? PLUME_ERROR_OUT_OF_MEMORY : PLUME_ERROR_GL;
    }
    return result;
}

bool plume_buffer_has_size(GLuint name, GLsizeiptr min_size, GLsizeiptr *actual_size) {
    if (actual_size) *actual_size = 0;
    if (name == 0 || !glIsBuffer(name)) return false;
    GLint previous = 0;
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &previous);
    glBindBuffer(GL_COPY_READ_BUFFER, name);
    GLint64 size = 0;
    glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
    glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)previous);
    if (actual_size) *actual_size = (GLsizeiptr)size;
    return size >= min_size;
}

void plume_label_gl_object(const plume_env *env, GLenum type, GLuint name, const char *label) {
    if (plume_env_gl_caps(env).debug_output) glObjectLabel(type, name, -1, label);
}

void plume_debug_group_begin(const plume_env *env, const char *name) {
    if (plume_env_gl_caps(env).debug_output) glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, name);
}

void plume_debug_group_end(const plume_env *env) {
    if (plume_env_gl_caps(env).debug_output) glPopDebugGroup();
}

#ifdef PLUME_LAB
/* Fills the bound GL_COPY_WRITE_BUFFER with pseudo-random words (xorshift32
 * from the seed and the buffer's name, so that two buffers differ), a block
 * at a time. */
static void poison_bound_range(const plume_env *env, GLuint buffer, GLintptr start, GLsizeiptr bytes) {
    enum { BLOCK_WORDS = 4096 };
    uint32_t block[BLOCK_WORDS];
    uint32_t state = env->new_buffer_poison * 2654435761u ^ buffer * 40503u ^ (uint32_t)start * 2246822519u;
    if (state == 0) state = 1;
    for (GLsizeiptr offset = 0; offset < bytes; offset += (GLsizeiptr)sizeof block) {
        for (int i = 0; i < BLOCK_WORDS; ++i) {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            block[i] = state;
        }
        GLsizeiptr part = bytes - offset < (GLsizeiptr)sizeof block ? bytes - offset : (GLsizeiptr)sizeof block;
        glBufferSubData(GL_COPY_WRITE_BUFFER, start + offset, part, block);
    }
}
#endif

void plume_poison_new_range(const plume_env *env, GLuint buffer, GLintptr offset, GLsizeiptr bytes) {
#ifdef PLUME_LAB
    if (env->new_buffer_poison == 0) return;
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
    poison_bound_range(env, buffer, offset, bytes);
#else
    (void)env, (void)buffer, (void)offset, (void)bytes;
#endif
}

GLuint plume_make_buffer(const plume_env *env, GLsizeiptr bytes, const void *data, GLenum usage, const char *label) {
    GLuint buffer = 0;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
    glBufferData(GL_COPY_WRITE_BUFFER, bytes, data, usage);
#ifdef PLUME_LAB
    if (!data && env->new_buffer_poison != 0) poison_bound_range(env, buffer, 0, bytes);
#else
    (void)env;
#endif
    plume_label_gl_object(env, GL_BUFFER, buffer, label);
    return buffer;
}

GLuint plume_make_gpu_buffer(const plume_env *env, GLsizeiptr bytes, const char *label) {
    return plume_make_buffer(env, bytes, NULL, GL_DYNAMIC_COPY, label);
}

void plume_delete_gl_objects(const plume_env *env, const plume_gl_object *objects, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
        GLuint name = objects[i].name;
        switch (objects[i].type) {
        case GL_BUFFER: glDeleteBuffers(1, &name); break;
        case GL_PROGRAM: plume_program_release(env, name); break;
        case GL_QUERY: glDeleteQueries(1, &name); break;
        case GL_VERTEX_ARRAY: glDeleteVertexArrays(1, &name); break;
        case GL_TEXTURE: glDeleteTextures(1, &name); break;
        case GL_SHADER: glDeleteShader(name); break;
        case GL_FRAMEBUFFER: glDeleteFramebuffers(1, &name); break;
        case GL_SAMPLER: glDeleteSamplers(1, &name); break;
        case GL_TRANSFORM_FEEDBACK: glDeleteTransformFeedbacks(1, &name); break;
        }
    }
}

uint32_t plume_list_named_gl_objects(const plume_gl_object *candidates, uint32_t count, plume_gl_object *out,
                                     uint32_t capacity) {
    uint32_t named = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (candidates[i].name == 0) continue;
        if (named < capacity) out[named] = candidates[i];
        ++named;
    }
    return named;
}
