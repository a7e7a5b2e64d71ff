/* The fragment path in an OpenGL ES 3.0 context against the desktop GL's
 * paths, one run (issue 34's figure): the same smoke of N particles (65536
 * by default) drawn raster into an offscreen 1280x720 RGBA8 target, in
 * steady state (its lifetime of updates before the timed frames), in
 *   - an OpenGL ES 3.0 context (EGL_OPENGL_ES_API): the fragment path, the
 *     only one ES 3.0 has (its list in a texture, its particles in RGBA32F
 *     targets: needs EXT_color_buffer_float);
 *   - a desktop context: the fragment path (desc.path PLUME_PATH_FRAGMENT)
 *     and the compute path.
 * Per frame the CPU milliseconds of the update and draw calls, and the
 * frame's milliseconds to a glFinish after them (what the GPU took, with
 * the call's CPU time: ES 3.0 has no timer query without an extension, so
 * every row is measured the same way); medians of the timed frames. The
 * drawn count is read back after them, to show each row drew the smoke.
 *
 * Usage: plume_gles_bench [--count N] [--frames N] [--size WxH] */
#define _POSIX_C_SOURCE 200809L /* clock_gettime (bench_time.h) */
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cglm/cglm.h>

#include "../host/gl_texture.h"
#include "../host/headless_gl.h"
#include "bench_time.h"
#include "plume/plume_particles.h"

enum { MAX_FRAMES = 4000 };
static const float LIFETIME = 2.0f, DT = 1.0f / 60.0f;

typedef struct options {
    uint32_t count, frames;
    int width, height;
} options;

typedef struct row {
    const char *context, *path;
    double cpu_ms, frame_ms;
    uint32_t drawn;
    bool ok;
} row;

/* The smoke: soft squares rising from a disc, fading, a lifetime long, as
 * many born a second as keep `count` alive. */
static plume_system_desc smoke(uint32_t count, plume_gpu_path path) {
    plume_system_desc desc = {.capacity = count, .seed = 41, .path = (uint32_t)path};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {0.8f}, .rate = count / LIFETIME,
                                            .lifetime = {LIFETIME, LIFETIME}, .speed = {0.1f, 0.4f}, .spread = 0.6f,
                                            .size = {0.04f, 0.09f}};
    desc.forces.drag = 0.3f;
    desc.appearance.color_over_life =
        (plume_gradient){3, {{0.0f, {0.7f, 0.7f, 0.75f, 0.0f}}, {0.2f, {0.6f, 0.6f, 0.65f, 0.35f}},
                             {1.0f, {0.4f, 0.4f, 0.45f, 0.0f}}}};
    return desc;
}

/* An RGBA8 colour target and a 24-bit depth buffer, bound. */
static GLuint make_target(const options *o, GLuint objects[3]) {
    objects[0] = host_texture_2d(GL_RGBA8, o->width, o->height, "plume_gles_bench: colour");
    glGenRenderbuffers(1, &objects[1]);
    glBindRenderbuffer(GL_RENDERBUFFER, objects[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, o->width, o->height);
    glGenFramebuffers(1, &objects[2]);
    glBindFramebuffer(GL_FRAMEBUFFER, objects[2]);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, objects[0], 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, objects[1]);
    glViewport(0, 0, o->width, o->height);
    return glCheckFramebufferStatus(GL_FRAMEBUFFER);
}

static void log_to_stderr(plume_log_level level, const char *message, void *user) {
    (void)user;
    if (level <= PLUME_LOG_WARNING) fprintf(stderr, "  plume: %s\n", message);
}

/* One row: the smoke on `path` in the current context. */
static row measure(const options *o, const char *context_name, const char *path_name, plume_gpu_path path) {
    row r = {.context = context_name, .path = path_name};
    static double cpu[MAX_FRAMES], frame[MAX_FRAMES];
    GLuint target[3];
    if (make_target(o, target) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "%s: the offscreen target is incomplete\n", context_name);
        return r;
    }
    plume_context *context = NULL;
    plume_context_desc context_desc = {.logger = {log_to_stderr, NULL}};
    plume_system system = {0};
    plume_system_desc desc = smoke(o->count, path);
    desc.logger = context_desc.logger;
    if (plume_context_create(&context_desc, &context) != PLUME_OK ||
        plume_system_create(context, &desc, &system) != PLUME_OK) {
        plume_context_destroy(context);
        return r;
    }
    plume_frame_desc f = {.dt = DT};
    glm_lookat((vec3){0.0f, 0.6f, 3.5f}, (vec3){0.0f, 0.5f, 0.0f}, (vec3){0.0f, 1.0f, 0.0f}, (vec4 *)f.view);
    glm_perspective(glm_rad(50.0f), (float)o->width / (float)o->height, 0.1f, 50.0f, (vec4 *)f.projection);
    uint32_t warmup = (uint32_t)(1.5f * LIFETIME / DT); /* steady: a lifetime and a half */
    r.ok = true;
    for (uint32_t k = 0; r.ok && k < warmup + o->frames; ++k) {
        glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glFinish();
        double t0 = bench_now_ms();
        r.ok = plume_system_update(context, system, &f) == PLUME_OK && plume_system_draw(context, system, &f) == PLUME_OK;
        double t1 = bench_now_ms();
        glFinish();
        double t2 = bench_now_ms();
        if (k < warmup) continue;
        cpu[k - warmup] = t1 - t0;
        frame[k - warmup] = t2 - t0;
    }
    plume_readback readback = {0};
    if (r.ok && plume_system_read_back(context, system, &readback) == PLUME_OK) r.drawn = readback.drawn_count;
    r.cpu_ms = bench_median(cpu, o->frames);
    r.frame_ms = bench_median(frame, o->frames);
    plume_system_destroy(context, system);
    plume_context_destroy(context);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &target[2]);
    glDeleteRenderbuffers(1, &target[1]);
    glDeleteTextures(1, &target[0]);
    return r;
}

static bool parse_options(int argc, char **argv, options *o) {
    *o = (options){.count = 65536, .frames = 300, .width = 1280, .height = 720};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--count") == 0) o->count = (uint32_t)strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--frames") == 0) o->frames = (uint32_t)strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--size") == 0) {
            if (sscanf(argv[i + 1], "%dx%d", &o->width, &o->height) != 2) return false;
        } else return false;
    }
    return argc % 2 == 1 && o->count > 0 && o->frames > 0 && o->frames <= MAX_FRAMES && o->width > 0 && o->height > 0;
}

int main(int argc, char **argv) {
    options o;
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: plume_gles_bench [--count N] [--frames N (at most %d)] [--size WxH]\n", MAX_FRAMES);
        return 2;
    }
    row rows[3];
    int count = 0;
    char error[256];
    headless_gl gl;
    if (headless_gl_create_es(&gl, 3, 0, error, sizeof error)) {
        printf("ES context: %s | %s, EXT_color_buffer_float: %s\n", (const char *)glGetString(GL_RENDERER),
               (const char *)glGetString(GL_VERSION),
               epoxy_has_gl_extension("GL_EXT_color_buffer_float") ? "yes" : "no");
        rows[count++] = measure(&o, "OpenGL ES 3.0", "fragment", PLUME_PATH_AUTO);
        headless_gl_destroy(&gl);
    } else {
        printf("no OpenGL ES 3.0 context: %s\n", error);
    }
    if (headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        printf("desktop context: %s | %s\n", (const char *)glGetString(GL_RENDERER),
               (const char *)glGetString(GL_VERSION));
        rows[count++] = measure(&o, "desktop GL", "fragment", PLUME_PATH_FRAGMENT);
        rows[count++] = measure(&o, "desktop GL", "compute", PLUME_PATH_COMPUTE);
        headless_gl_destroy(&gl);
    } else {
        printf("no desktop GL context: %s\n", error);
    }
    printf("%u particles (a smoke in steady state), %dx%d RGBA8, raster; medians of %u frames\n", o.count, o.width,
           o.height, o.frames);
    printf("| context       | path     | drawn  | CPU ms (calls) | frame ms (to glFinish) |\n");
    printf("|---------------|----------|-------:|---------------:|-----------------------:|\n");
    bool ok = count == 3;
    for (int i = 0; i < count; ++i) {
        if (rows[i].ok)
            printf("| %-13s | %-8s | %6u | %14.3f | %22.3f |\n", rows[i].context, rows[i].path, rows[i].drawn,
                   rows[i].cpu_ms, rows[i].frame_ms);
        else printf("| %-13s | %-8s | failed (see the messages above) |\n", rows[i].context, rows[i].path);
        ok = ok && rows[i].ok && rows[i].drawn > 0;
    }
    return ok ? 0 : 1;
}
