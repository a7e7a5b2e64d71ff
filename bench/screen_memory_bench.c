/* GPU memory of many small systems: N systems of a small capacity (default
 * 200 of 1024) at a screen size (default 1280x720), each updated and drawn
 * a few frames by one way (raster, raster at 1/2, tiled, tiled at 1/2 and
 * 1/4), each way in a fresh context. For each: the bytes one system holds
 * (plume_lab_gpu_memory_of: its buffers and textures, sizes read from the
 * GL), the context's shared screen-sized scratch, the context's total, and,
 * where the driver has GL_NVX_gpu_memory_info, the video memory the whole
 * run took (available before the context against after the draws; the
 * driver's figure, allocation granularity included). Then the bytes per
 * particle of a system (its bytes at 4x the capacity against 1x) by way.
 *
 * Usage: plume_screen_memory_bench [--systems N] [--capacity N] [--size WxH] [--frames N] */
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cglm/cglm.h>

#include "../host/gl_texture.h"
#include "../host/headless_gl.h"
#include "plume/plume_particles.h"
#include "plume_lab.h"

#ifndef GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX
#define GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX 0x9049
#endif

typedef struct options {
    uint32_t systems, capacity, frames;
    int width, height;
} options;

static bool parse_options(int argc, char **argv, options *o) {
    *o = (options){.systems = 200, .capacity = 1024, .frames = 3, .width = 1280, .height = 720};
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *arg = argv[i], *value = argv[i + 1];
        if (strcmp(arg, "--systems") == 0) o->systems = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--capacity") == 0) o->capacity = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--frames") == 0) o->frames = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--size") == 0) {
            if (sscanf(value, "%dx%d", &o->width, &o->height) != 2) return false;
        } else return false;
    }
    return o->systems > 0 && o->capacity > 0 && o->frames > 0 && o->width > 0 && o->height > 0;
}

typedef struct way {
    const char *name;
    plume_draw_path path;
    uint32_t resolution;
} way;

static const way WAYS[] = {{"raster", PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL},
                           {"raster 1/2", PLUME_DRAW_PATH_RASTER, PLUME_DRAW_HALF},
                           {"tiled", PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL},
                           {"tiled 1/2", PLUME_DRAW_PATH_TILED, PLUME_DRAW_HALF},
                           {"tiled 1/4", PLUME_DRAW_PATH_TILED, PLUME_DRAW_QUARTER}};
enum { WAY_COUNT = sizeof WAYS / sizeof WAYS[0] };

/* A small effect: a puff of `capacity` particles somewhere in a 10 m field. */
static plume_system_desc effect(uint32_t capacity, uint32_t index) {
    plume_system_desc d = {.capacity = capacity, .seed = 11u + index};
    float x = (float)(index % 20) - 9.5f, z = -4.0f - (float)(index / 20 % 10);
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .position = {x * 0.5f, 0, z}, .extents = {0.3f},
                                         .rate = (float)capacity * 0.5f, .lifetime = {1.0f, 2.0f}, .speed = {0.1f, 0.4f},
                                         .spread = 3.14159f, .size = {0.02f, 0.06f}};
    d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {0.9f, 0.6f, 0.3f, 0.4f}}}};
    return d;
}

static GLint available_kib(void) {
    GLint kib = -1;
    if (epoxy_has_gl_extension("GL_NVX_gpu_memory_info")) glGetIntegerv(GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX, &kib);
    return kib;
}

typedef struct measured {
    uint64_t largest_system, shared, total;
    GLint driver_kib; /* -1: no GL_NVX_gpu_memory_info */
} measured;

/* `count` systems of `capacity` drawn `frames` frames by `w` in a fresh
 * context, measured after the last frame. */
static bool measure(const options *o, const way *w, uint32_t count, uint32_t capacity, measured *out) {
    glFinish();
    GLint before = available_kib();
    plume_context *context = NULL;
    if (plume_context_create(NULL, &context) != PLUME_OK) return false;
    plume_system *systems = calloc(count, sizeof *systems);
    bool ok = systems != NULL;
    for (uint32_t i = 0; ok && i < count; ++i) {
        plume_system_desc d = effect(capacity, i);
        ok = plume_system_create(context, &d, &systems[i]) == PLUME_OK;
    }
    mat4 view, projection;
    glm_lookat((vec3){0, 1.0f, 2.0f}, (vec3){0, 0, -8.0f}, (vec3){0, 1, 0}, view);
    glm_perspective(0.9f, (float)o->width / (float)o->height, 0.1f, 100.0f, projection);
    GLuint depth = host_texture_2d(GL_DEPTH_COMPONENT32F, o->width, o->height, "bench scene depth");
    for (uint32_t f = 0; ok && f < o->frames; ++f) {
        plume_frame_desc frame = {.dt = 1.0f / 60.0f, .depth_texture = depth, .draw_path = w->path,
                                  .draw_resolution = w->resolution};
        memcpy(frame.view, view, sizeof frame.view);
        memcpy(frame.projection, projection, sizeof frame.projection);
        for (uint32_t i = 0; ok && i < count; ++i)
            ok = plume_system_update(context, systems[i], &frame) == PLUME_OK &&
                 plume_system_draw(context, systems[i], &frame) == PLUME_OK;
    }
    glFinish();
    GLint after = available_kib();
    *out = (measured){.driver_kib = before >= 0 && after >= 0 ? before - after : -1};
    for (uint32_t i = 0; ok && i < count; ++i) {
        plume_lab_gpu_memory m;
        ok = plume_lab_gpu_memory_of(context, systems[i], &m) == PLUME_OK;
        if (ok && m.system_bytes > out->largest_system) out->largest_system = m.system_bytes;
        out->shared = m.shared_bytes;
        out->total = m.total_bytes;
    }
    for (uint32_t i = 0; systems && i < count; ++i) plume_system_destroy(context, systems[i]);
    free(systems);
    glDeleteTextures(1, &depth);
    plume_context_destroy(context);
    return ok;
}

int main(int argc, char **argv) {
    options o;
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: plume_screen_memory_bench [--systems N] [--capacity N] [--size WxH] [--frames N]\n");
        return 2;
    }
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "no headless GL context: %s\n", error);
        return 1;
    }
    GLuint color = host_texture_2d(GL_RGBA16F, o.width, o.height, "bench colour");
    GLuint depth = host_texture_2d(GL_DEPTH_COMPONENT32F, o.width, o.height, "bench depth");
    GLuint framebuffer = 0;
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
    glViewport(0, 0, o.width, o.height);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return 1;
    printf("GL: %s\n%u systems of %u particles, %dx%d, %u frames each, GPU memory after the last frame\n\n",
           headless_gl_describe(), o.systems, o.capacity, o.width, o.height, o.frames);
    printf("| way | KiB per system (largest) | shared MiB (per context) | context MiB | driver MiB (NVX) |"
           " driver KiB per system | bytes per particle | bytes per system besides |\n"
           "|---|---:|---:|---:|---:|---:|---:|---:|\n");
    bool ok = true;
    for (int w = 0; ok && w < WAY_COUNT; ++w) {
        measured many, one, larger;
        ok = measure(&o, &WAYS[w], o.systems, o.capacity, &many) && measure(&o, &WAYS[w], 1, o.capacity, &one) &&
             measure(&o, &WAYS[w], 1, 4 * o.capacity, &larger);
        if (!ok) break;
        double per_particle = ((double)larger.largest_system - (double)one.largest_system) / (3.0 * o.capacity);
        double fixed = (double)one.largest_system - per_particle * o.capacity;
        printf("| %s | %.1f | %.2f | %.2f | ", WAYS[w].name, many.largest_system / 1024.0,
               many.shared / 1048576.0, many.total / 1048576.0);
        if (many.driver_kib >= 0)
            printf("%.2f | %.1f |", many.driver_kib / 1024.0,
                   (double)(many.driver_kib - one.driver_kib) / (double)(o.systems > 1 ? o.systems - 1 : 1));
        else
            printf("- | - |");
        printf(" %.1f | %.0f |\n", per_particle, fixed);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &framebuffer);
    GLuint textures[2] = {color, depth};
    glDeleteTextures(2, textures);
    headless_gl_destroy(&gl);
    if (!ok) fprintf(stderr, "a system could not be made, updated, drawn or measured\n");
    return ok ? 0 : 1;
}
