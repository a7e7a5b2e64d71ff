/* Self-shadowing benchmark (plume_self_shadow_desc): one lit smoke ball of N
 * particles (default 1 M) as three systems of the same seed (the same
 * particles every frame), drawn by the tiled path at 1/2 resolution
 * (default) in the same frames: without self-shadowing (the baseline), with
 * the default map (64 x 64 x 8) and with a large one (128 x 128 x 16). Every
 * frame updates the three, then draws each between two GL timestamps into
 * the offscreen target (the order turning round each frame, so that no
 * variant always follows another), and is waited for before the next.
 * Medians, 10th and 90th percentiles after a warm-up; the added cost is the
 * median's difference from the baseline's.
 *
 * Usage: plume_self_shadow_bench [--count N] [--frames N] [--warmup N] [--size WxH]
 *                                [--resolution full|half|quarter] [--path raster|tiled]
 * GPU times need a GPU: on llvmpipe they are CPU times. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime (bench_time.h) */
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cglm/cglm.h>

#include "../host/gl_texture.h"
#include "../host/headless_gl.h"
#include "plume/plume_particles.h"
#include "plume_lab.h"
#include "bench_time.h"

enum { MAX_FRAMES = 2000, VARIANTS = 3 };

static const char *const VARIANT_NAMES[VARIANTS] = {"no self-shadowing (baseline)", "self-shadow 64 x 64 x 8",
                                                    "self-shadow 128 x 128 x 16"};
static const plume_self_shadow_desc VARIANT_SHADOWS[VARIANTS] = {
    {0}, {.strength = 1.0f, .map_size = 64, .slices = 8}, {.strength = 1.0f, .map_size = 128, .slices = 16}};

/* A ball of `count` long-lived lit smoke particles drifting in curl noise. */
static plume_system_desc smoke_ball(uint32_t count, plume_self_shadow_desc shadow) {
    plume_system_desc d = {.capacity = count, .seed = 3u, .lit = true, .self_shadow = shadow};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {1.2f}, .burst_count = count,
                                         .lifetime = {1000, 1000}, .speed = {0, 0.05f}, .spread = 3.14159f,
                                         .size = {0.015f, 0.03f}};
    d.forces = (plume_forces){.drag = 0.5f, .turbulence = 0.3f, .turbulence_scale = 1.0f, .turbulence_speed = 0.2f};
    d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {0.6f, 0.6f, 0.62f, 0.3f}}}};
    return d;
}

typedef struct options {
    uint32_t count, frames, warmup, resolution, path;
    int width, height;
} options;

static bool parse_options(int argc, char **argv, options *o) {
    *o = (options){.count = 1u << 20, .frames = 100, .warmup = 30, .width = 1280, .height = 720,
                   .resolution = PLUME_DRAW_HALF, .path = PLUME_DRAW_PATH_TILED};
    if (argc % 2 == 0) return false;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *arg = argv[i], *value = argv[i + 1];
        if (strcmp(arg, "--count") == 0) o->count = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--frames") == 0) o->frames = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--warmup") == 0) o->warmup = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--size") == 0) {
            if (sscanf(value, "%dx%d", &o->width, &o->height) != 2) return false;
        } else if (strcmp(arg, "--resolution") == 0) {
            o->resolution = strcmp(value, "full") == 0      ? PLUME_DRAW_FULL
                            : strcmp(value, "quarter") == 0 ? PLUME_DRAW_QUARTER
                                                             : PLUME_DRAW_HALF;
        } else if (strcmp(arg, "--path") == 0) {
            o->path = strcmp(value, "raster") == 0 ? PLUME_DRAW_PATH_RASTER : PLUME_DRAW_PATH_TILED;
        } else {
            return false;
        }
    }
    return o->count > 0 && o->count <= (1u << 26) && o->frames > 0 && o->frames <= MAX_FRAMES && o->width > 0 &&
           o->height > 0;
}

/* The p-th fraction of `values` (sorted in place). */
static double percentile(double *values, uint32_t count, double p) {
    bench_median(values, count); /* sorts */
    return count ? values[(uint32_t)(p * (count - 1) + 0.5)] : NAN;
}

int main(int argc, char **argv) {
    options o;
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: plume_self_shadow_bench [--count N] [--frames N] [--warmup N] [--size WxH]"
                        " [--resolution full|half|quarter] [--path raster|tiled]\n");
        return 2;
    }
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "no headless GL context: %s\n", error);
        return 1;
    }
    printf("GL: %s\n%u particles, %dx%d, %s path, resolution 1/%d, %u frames after %u warm-up\n",
           headless_gl_describe(), o.count, o.width, o.height, o.path == PLUME_DRAW_PATH_TILED ? "tiled" : "raster",
           o.resolution == PLUME_DRAW_FULL ? 1 : o.resolution == PLUME_DRAW_HALF ? 2 : 4, o.frames, o.warmup);
    plume_context *context = NULL;
    if (plume_context_create(NULL, &context) != PLUME_OK) return 1;
    GLuint color = host_texture_2d(GL_RGBA16F, o.width, o.height, "bench colour");
    GLuint depth = host_texture_2d(GL_DEPTH_COMPONENT32F, o.width, o.height, "bench depth");
    GLuint scene_depth = host_texture_2d(GL_DEPTH_COMPONENT32F, o.width, o.height, "bench scene depth");
    GLuint framebuffer = 0;
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, scene_depth, 0);
    glClearDepth(1.0);
    glClear(GL_DEPTH_BUFFER_BIT); /* an empty scene: everything at the far plane */
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
    glViewport(0, 0, o.width, o.height);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return 1;

    plume_system systems[VARIANTS];
    for (int v = 0; v < VARIANTS; ++v) {
        plume_system_desc desc = smoke_ball(o.count, VARIANT_SHADOWS[v]);
        if (plume_system_create(context, &desc, &systems[v]) != PLUME_OK) return 1;
    }
    GLuint queries[2 * VARIANTS];
    glGenQueries(2 * VARIANTS, queries);
    static double draw_ms[VARIANTS][MAX_FRAMES];
    uint32_t measured = 0;
    for (uint32_t f = 0; f < o.warmup + o.frames; ++f) {
        float angle = 0.01f * (float)f;
        mat4 view, projection;
        glm_lookat((vec3){5.0f * sinf(angle), 1.0f, 5.0f * cosf(angle)}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
        glm_perspective(0.9f, (float)o.width / (float)o.height, 0.1f, 100.0f, projection);
        plume_frame_desc frame = {.dt = 1.0f / 60.0f, .depth_texture = scene_depth, .draw_resolution = o.resolution,
                                  .draw_path = o.path, .light_direction = {0.6f, 0.7f, 0.2f},
                                  .light_color = {1.2f, 1.1f, 1.0f}, .ambient_color = {0.15f, 0.17f, 0.2f}};
        memcpy(frame.view, view, sizeof frame.view);
        memcpy(frame.projection, projection, sizeof frame.projection);
        for (int v = 0; v < VARIANTS; ++v) plume_system_update(context, systems[v], &frame);
        for (int k = 0; k < VARIANTS; ++k) {
            int v = f % 2 ? VARIANTS - 1 - k : k;
            glClearColor(0.05f, 0.05f, 0.08f, 1.0f);
            glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
            glQueryCounter(queries[2 * v], GL_TIMESTAMP);
            plume_system_draw(context, systems[v], &frame);
            glQueryCounter(queries[2 * v + 1], GL_TIMESTAMP);
        }
        glFinish();
        if (f < o.warmup) continue;
        for (int v = 0; v < VARIANTS; ++v) draw_ms[v][measured] = bench_timestamps_ms(queries[2 * v], queries[2 * v + 1]);
        ++measured;
    }
    printf("\n%-32s %10s %10s %10s %12s\n", "draw", "median ms", "p10 ms", "p90 ms", "added ms");
    double baseline = NAN;
    for (int v = 0; v < VARIANTS; ++v) {
        double median = bench_median(draw_ms[v], measured);
        if (v == 0) baseline = median;
        printf("%-32s %10.4f %10.4f %10.4f %12.4f\n", VARIANT_NAMES[v], median, percentile(draw_ms[v], measured, 0.1),
               percentile(draw_ms[v], measured, 0.9), median - baseline);
    }
    glDeleteQueries(2 * VARIANTS, queries);
    for (int v = 0; v < VARIANTS; ++v) plume_system_destroy(context, systems[v]);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &framebuffer);
    GLuint textures[3] = {color, depth, scene_depth};
    glDeleteTextures(3, textures);
    plume_context_destroy(context);
    headless_gl_destroy(&gl);
    return 0;
}
