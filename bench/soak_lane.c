/* The soak's lanes: a GL context each, with the host's offscreen targets, a
 * plume_context whose allocator and logger count what they see, and a
 * KHR_debug callback that counts GL errors (the module's own glGetError
 * calls would hide them from a host's glGetError). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../host/gl_texture.h"
#include "plume_lab.h"
#include "soak.h"

/* ---- The counting allocator: a header before each block holds its size. ---- */
typedef union block_header {
    size_t size;
    max_align_t align;
} block_header;

static void *count_allocate(size_t size, void *user) {
    soak_counters *c = user;
    block_header *h = malloc(sizeof *h + size);
    if (!h) return NULL;
    h->size = size;
    c->live_bytes += size;
    c->allocations++;
    if (c->live_bytes > c->peak_bytes) c->peak_bytes = c->live_bytes;
    return h + 1;
}

static void count_deallocate(void *block, void *user) {
    if (!block) return;
    soak_counters *c = user;
    block_header *h = (block_header *)block - 1;
    c->live_bytes -= h->size;
    free(h);
}

static void *count_reallocate(void *block, size_t size, void *user) {
    if (!block) return count_allocate(size, user);
    soak_counters *c = user;
    block_header *old = (block_header *)block - 1;
    size_t old_size = old->size;
    block_header *h = realloc(old, sizeof *h + size);
    if (!h) return NULL;
    c->live_bytes = c->live_bytes - old_size + size;
    if (c->live_bytes > c->peak_bytes) c->peak_bytes = c->live_bytes;
    h->size = size;
    return h + 1;
}

static void count_log(plume_log_level level, const char *message, void *user) {
    soak_lane *lane = user;
    if (level == PLUME_LOG_ERROR) {
        lane->counters.log_errors++;
        snprintf(lane->counters.last_log_error, SOAK_MESSAGE, "%s", message);
    } else if (level == PLUME_LOG_WARNING) {
        lane->counters.log_warnings++;
    }
}

static void GLAPIENTRY count_debug(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                   const GLchar *message, const void *user) {
    (void)source, (void)id, (void)severity, (void)length;
    soak_lane *lane = (soak_lane *)user;
    if (type != GL_DEBUG_TYPE_ERROR && type != GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR) return;
    lane->counters.debug_errors++;
    snprintf(lane->counters.last_debug_error, SOAK_MESSAGE, "%s", message);
}

/* A small 3D acceleration field for worlds' vector fields. */
static GLuint make_vector_field(void) {
    float texels[4 * 4 * 4 * 3];
    for (int i = 0; i < 4 * 4 * 4; ++i) {
        texels[3 * i + 0] = (float)(i % 4) - 1.5f;
        texels[3 * i + 1] = 0.5f;
        texels[3 * i + 2] = (float)(i / 16) - 1.5f;
    }
    GLuint texture;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_3D, texture);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGB32F, 4, 4, 4, 0, GL_RGB, GL_FLOAT, texels);
    glBindTexture(GL_TEXTURE_3D, 0);
    return texture;
}

bool soak_lane_make_context(soak *s, soak_lane *lane) {
    plume_context_desc desc = {
        .logger = {count_log, lane},
        .allocator = {count_allocate, count_reallocate, count_deallocate, &lane->counters},
    };
    if (plume_context_create(&desc, &lane->context) != PLUME_OK) {
        soak_fail(s, "lane %d: plume_context_create failed", lane->index);
        return false;
    }
    /* Each lane's new buffers hold different noise: lanes that still agree
     * read nothing no pass wrote. */
    if (s->options.poison) plume_lab_poison_new_buffers(lane->context, (uint32_t)s->options.seed * 2u + 1u + (uint32_t)lane->index * 2u);
    lane->base_bytes = lane->counters.live_bytes;
    return true;
}

bool soak_lane_create(soak *s, soak_lane *lane, int index) {
    memset(lane, 0, sizeof *lane);
    lane->index = index;
    char error[256];
    if (!headless_gl_create(&lane->gl, true, NULL, error, sizeof error)) {
        soak_fail(s, "lane %d: no headless GL context: %s", index, error);
        return false;
    }
    if (epoxy_has_gl_extension("GL_KHR_debug") || epoxy_gl_version() >= 43) {
        glEnable(GL_DEBUG_OUTPUT);
        glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glDebugMessageCallback(count_debug, lane);
        glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_TRUE);
    }
    if (!soak_lane_make_context(s, lane)) return false;
    glGenFramebuffers(1, &lane->scene_framebuffer);
    glGenFramebuffers(1, &lane->draw_framebuffer);
    lane->vector_field = make_vector_field();
    soak_lane_resize(s, lane);
    return !s->failed;
}

void soak_lane_destroy(soak_lane *lane) {
    if (!lane->gl.context) return;
    soak_lane_current(lane);
    plume_context_destroy(lane->context);
    glDeleteFramebuffers(1, &lane->scene_framebuffer);
    glDeleteFramebuffers(1, &lane->draw_framebuffer);
    glDeleteTextures(1, &lane->color);
    glDeleteTextures(1, &lane->depth);
    glDeleteTextures(1, &lane->vector_field);
    headless_gl_release_current(&lane->gl);
    headless_gl_destroy(&lane->gl);
}

void soak_lane_current(const soak_lane *lane) {
    headless_gl_make_current(&lane->gl);
}

/* The host's targets at s->width x s->height: new textures when the size
 * changes (a minimised 0x0 window keeps the last ones and draws through a
 * 0x0 viewport), and the depth convention of the frame. */
void soak_lane_resize(soak *s, soak_lane *lane) {
    int w = s->width, h = s->height;
    if (w > 0 && h > 0 && (w != lane->texture_width || h != lane->texture_height)) {
        glDeleteTextures(1, &lane->color);
        glDeleteTextures(1, &lane->depth);
        lane->color = host_texture_2d(GL_RGBA8, w, h, "soak colour");
        lane->depth = host_texture_2d(GL_DEPTH_COMPONENT32F, w, h, "soak scene depth");
        lane->texture_width = w;
        lane->texture_height = h;
        glBindFramebuffer(GL_FRAMEBUFFER, lane->scene_framebuffer);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, lane->depth, 0);
        glBindFramebuffer(GL_FRAMEBUFFER, lane->draw_framebuffer);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, lane->color, 0);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            soak_fail(s, "lane %d: the soak's framebuffer is incomplete at %dx%d", lane->index, w, h);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
    glViewport(0, 0, w, h);
    if (s->has_clip_control) glClipControl(GL_LOWER_LEFT, s->reversed_depth ? GL_ZERO_TO_ONE : GL_NEGATIVE_ONE_TO_ONE);
    glDepthFunc(s->reversed_depth ? GL_GEQUAL : GL_LESS);
    GLenum error = glGetError();
    if (error != GL_NO_ERROR) soak_fail(s, "lane %d: GL error 0x%04x in the soak's own resize", lane->index, error);
}

soak_mark soak_mark_now(const soak_lane *lane) {
    return (soak_mark){lane->counters};
}

bool soak_expect(soak *s, soak_lane *lane, soak_mark mark, plume_result result, plume_result expected,
                 const char *what) {
    const soak_counters *now = &lane->counters;
    uint32_t logged = now->log_errors - mark.before.log_errors;
    GLenum gl_error = glGetError();
    if (result != expected) {
        soak_fail(s, "lane %d: %s returned %s, expected %s (last logged error: %s)", lane->index, what,
                  plume_result_string(result), plume_result_string(expected),
                  logged ? now->last_log_error : "none");
    } else if (logged != (expected == PLUME_OK ? 0u : 1u)) {
        soak_fail(s, "lane %d: %s returned %s with %u logged errors (last: %s)", lane->index, what,
                  plume_result_string(result), logged, logged ? now->last_log_error : "none");
    } else if (gl_error != GL_NO_ERROR) {
        soak_fail(s, "lane %d: %s left GL error 0x%04x", lane->index, what, gl_error);
    } else if (now->debug_errors != mark.before.debug_errors) {
        soak_fail(s, "lane %d: %s raised GL errors (KHR_debug): %s", lane->index, what, now->last_debug_error);
    }
    return !s->failed;
}

uint32_t soak_list_gl_objects(soak *s, soak_lane *lane, plume_gl_object **out) {
    uint32_t count = 0;
    if (plume_context_list_gl_objects(lane->context, NULL, 0, &count) != PLUME_OK) {
        soak_fail(s, "lane %d: plume_context_list_gl_objects failed", lane->index);
        return 0;
    }
    if (!out) return count;
    *out = calloc(count + 1, sizeof **out);
    uint32_t again = 0;
    if (plume_context_list_gl_objects(lane->context, *out, count, &again) != PLUME_OK || again != count)
        soak_fail(s, "lane %d: plume_context_list_gl_objects gave %u then %u objects", lane->index, count, again);
    return count;
}

static bool gl_object_alive(plume_gl_object object) {
    switch (object.type) {
    case GL_BUFFER: return glIsBuffer(object.name);
    case GL_SHADER: return glIsShader(object.name);
    case GL_PROGRAM: return glIsProgram(object.name);
    case GL_QUERY: return glIsQuery(object.name);
    case GL_SAMPLER: return glIsSampler(object.name);
    case GL_VERTEX_ARRAY: return glIsVertexArray(object.name);
    case GL_TEXTURE: return glIsTexture(object.name);
    case GL_FRAMEBUFFER: return glIsFramebuffer(object.name);
    case GL_TRANSFORM_FEEDBACK: return glIsTransformFeedback(object.name);
    default: return false;
    }
}

static bool listed(const plume_gl_object *list, uint32_t count, plume_gl_object object) {
    for (uint32_t i = 0; i < count; ++i)
        if (list[i].type == object.type && list[i].name == object.name) return true;
    return false;
}

bool soak_check_deleted(soak *s, soak_lane *lane, const plume_gl_object *before, uint32_t before_count,
                        const plume_gl_object *after, uint32_t after_count, const char *what) {
    for (uint32_t i = 0; i < before_count && !s->failed; ++i) {
        if (listed(after, after_count, before[i])) continue;
        if (!gl_object_alive(before[i])) continue;
        /* A program or shader the module deleted may live on while the GL
         * holds it (Mesa keeps the last program used for a stage referenced
         * until another program takes that stage): deleted, flagged. */
        GLint flagged = 0;
        if (before[i].type == GL_PROGRAM) glGetProgramiv(before[i].name, GL_DELETE_STATUS, &flagged);
        if (before[i].type == GL_SHADER) glGetShaderiv(before[i].name, GL_DELETE_STATUS, &flagged);
        if (flagged) continue;
        char label[128] = "";
        glGetObjectLabel(before[i].type, before[i].name, sizeof label, NULL, label);
        soak_fail(s, "lane %d: %s no longer lists GL object 0x%04x %u \"%s\", which is still alive in the GL (a "
                  "leak)", lane->index, what, before[i].type, before[i].name, label);
    }
    return !s->failed;
}

double soak_rss_mib(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(f);
    }
    return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}
