/* Gameplay benchmark (issue 30): what emission on demand and instances
 * cost, in one run, as medians after a warm-up in steady state.
 *
 * (a) Emits: a system holding a steady stream (rate emitter) updated every
 *     frame; odd frames also queue E plume_system_emit calls (default 1000,
 *     8 particles each, at random transforms) before the update. Reported:
 *     the GPU time of the update with and without them, and the CPU time of
 *     the E calls.
 * (b) Instances: I instances (default 1000) of a 256-particle effect (rate
 *     256/s, lifetime 1 s: I x 256 particles alive), every instance moved
 *     each frame by one plume_system_set_instances call, against one system
 *     of the same particle count (one placement, rate I x 256/s). Reported:
 *     update + draw GPU ms of each and their ratio, and the CPU ms of the
 *     set_instances call.
 * GL timestamps bracket each part; every frame is waited for before the
 * next. GPU times need a GPU: on llvmpipe they are CPU times.
 *
 * Usage: plume_gameplay_bench [--emits N] [--instances N] [--frames N] [--warmup N] [--size WxH] */
#define _POSIX_C_SOURCE 200809L
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cglm/cglm.h>

#include "../host/gl_texture.h"
#include "../host/headless_gl.h"
#include "plume/plume_particles.h"
#include "bench_time.h"

enum { MAX_FRAMES = 2000, PARTICLES_PER_INSTANCE = 256, PARTICLES_PER_EMIT = 8 };

typedef struct options {
    uint32_t emits, instances, frames, warmup;
    int width, height;
} options;

static bool parse_options(int argc, char **argv, options *o) {
    *o = (options){.emits = 1000, .instances = 1000, .frames = 60, .warmup = 90, .width = 1280, .height = 720};
    if (argc % 2 == 0) return false;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *arg = argv[i], *value = argv[i + 1];
        if (strcmp(arg, "--emits") == 0) o->emits = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--instances") == 0) o->instances = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--frames") == 0) o->frames = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--warmup") == 0) o->warmup = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--size") == 0) {
            if (sscanf(value, "%dx%d", &o->width, &o->height) != 2) return false;
        } else {
            return false;
        }
    }
    return o->emits <= PLUME_MAX_EMITS_PER_UPDATE && o->instances > 0 && o->instances < PLUME_MAX_INSTANCES &&
           o->frames > 1 && o->frames <= MAX_FRAMES && o->width > 0 && o->height > 0;
}

/* A small puff: a ball of slow particles living a second. */
static plume_emitter_desc puff(float rate) {
    return (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {0.2f}, .rate = rate, .lifetime = {1, 1},
                                .speed = {0.1f, 0.4f}, .spread = 3.14159f, .size = {0.02f, 0.05f}};
}

static plume_frame_desc camera_frame(const options *o, uint32_t f) {
    float angle = 0.01f * (float)f;
    mat4 view, projection;
    glm_lookat((vec3){30.0f * sinf(angle), 8.0f, 30.0f * cosf(angle)}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_perspective(0.9f, (float)o->width / (float)o->height, 0.1f, 200.0f, projection);
    plume_frame_desc frame = {.dt = 1.0f / 60.0f, .draw_path = PLUME_DRAW_PATH_RASTER};
    memcpy(frame.view, view, sizeof frame.view);
    memcpy(frame.projection, projection, sizeof frame.projection);
    return frame;
}

/* Where instance i is at frame f: on a grid, each circling its own spot. */
static plume_transform instance_at(uint32_t i, uint32_t f) {
    float phase = 0.05f * (float)f + 0.37f * (float)i;
    return (plume_transform){.position = {(float)(i % 40) - 20.0f + 0.3f * cosf(phase), 0.3f * sinf(phase),
                                          (float)(i / 40) - 12.0f}};
}

typedef struct emit_figures {
    double update_without, update_with, calls_cpu;
} emit_figures;

static bool bench_emits(plume_context *context, const options *o, GLuint queries[2], emit_figures *out) {
    plume_system_desc desc = {.capacity = 1u << 20, .seed = 5};
    desc.emitters[0] = puff(100000.0f);                    /* the steady stream: 100 K alive */
    desc.emitters[1] = puff(0.0f);                         /* the template the emits use */
    plume_system system;
    if (plume_system_create(context, &desc, &system) != PLUME_OK) return false;
    static double without[MAX_FRAMES], with[MAX_FRAMES], cpu[MAX_FRAMES];
    int n_without = 0, n_with = 0;
    uint32_t random = 1;
    for (uint32_t f = 0; f < o->warmup + o->frames; ++f) {
        bool emitting = f % 2 == 1;
        double start = bench_now_ms();
        for (uint32_t e = 0; emitting && e < o->emits; ++e) {
            random = random * 1664525u + 1013904223u;
            plume_emit_desc emit = {.emitter = 1, .count = PARTICLES_PER_EMIT,
                                    .transform = {.position = {(float)(random % 40) - 20.0f, 0.0f,
                                                               (float)((random >> 8) % 30) - 15.0f}}};
            if (plume_system_emit(context, system, &emit) != PLUME_OK) return false;
        }
        double calls = bench_now_ms() - start;
        plume_frame_desc frame = camera_frame(o, f);
        glQueryCounter(queries[0], GL_TIMESTAMP);
        plume_system_update(context, system, &frame);
        glQueryCounter(queries[1], GL_TIMESTAMP);
        double gpu = bench_timestamps_ms(queries[0], queries[1]);
        if (f < o->warmup) continue;
        if (emitting) {
            with[n_with] = gpu;
            cpu[n_with++] = calls;
        } else {
            without[n_without++] = gpu;
        }
    }
    out->update_without = bench_median(without, n_without);
    out->update_with = bench_median(with, n_with);
    out->calls_cpu = bench_median(cpu, n_with);
    plume_system_destroy(context, system);
    return true;
}

typedef struct instance_figures {
    double instanced, single, set_cpu;
    uint32_t instanced_live, single_live;
} instance_figures;

/* update + draw GPU ms of `system` a frame (moving its instances each frame
 * when `instances` is not NULL), and its live count at the end. */
static bool run_frames(plume_context *context, const options *o, GLuint queries[2], plume_system system,
                       plume_instance_desc *instances, double *gpu_median, double *set_median, uint32_t *live) {
    static double gpu[MAX_FRAMES], set[MAX_FRAMES];
    int n = 0;
    for (uint32_t f = 0; f < o->warmup + o->frames; ++f) {
        double start = bench_now_ms();
        if (instances) {
            for (uint32_t i = 0; i < o->instances; ++i) instances[i].transform = instance_at(i, f);
            if (plume_system_set_instances(context, system, 0, o->instances, instances) != PLUME_OK) return false;
        }
        double set_ms = bench_now_ms() - start;
        plume_frame_desc frame = camera_frame(o, f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glQueryCounter(queries[0], GL_TIMESTAMP);
        plume_system_update(context, system, &frame);
        plume_system_draw(context, system, &frame);
        glQueryCounter(queries[1], GL_TIMESTAMP);
        double ms = bench_timestamps_ms(queries[0], queries[1]);
        if (f < o->warmup) continue;
        gpu[n] = ms;
        set[n++] = set_ms;
    }
    *gpu_median = bench_median(gpu, n);
    *set_median = bench_median(set, n);
    plume_readback rb = {0};
    if (plume_system_read_back(context, system, &rb) != PLUME_OK) return false;
    *live = rb.live_count;
    return true;
}

static bool bench_instances(plume_context *context, const options *o, GLuint queries[2], instance_figures *out) {
    uint32_t total = o->instances * PARTICLES_PER_INSTANCE;
    plume_system_desc desc = {.capacity = total + total / 8, .seed = 9};
    desc.emitters[0] = puff((float)PARTICLES_PER_INSTANCE);
    plume_system instanced, single;
    if (plume_system_create(context, &desc, &instanced) != PLUME_OK) return false;
    desc.emitters[0] = puff((float)total);
    desc.emitters[0].shape = PLUME_SHAPE_BOX; /* spread over the instances' grid */
    desc.emitters[0].extents[0] = 20.0f, desc.emitters[0].extents[1] = 0.3f, desc.emitters[0].extents[2] = 12.0f;
    if (plume_system_create(context, &desc, &single) != PLUME_OK) return false;
    plume_instance_desc *instances = calloc(o->instances, sizeof *instances);
    if (!instances) return false;
    for (uint32_t i = 0; i < o->instances; ++i) instances[i].enabled = true;
    double unused;
    bool ok = run_frames(context, o, queries, instanced, instances, &out->instanced, &out->set_cpu,
                         &out->instanced_live) &&
              run_frames(context, o, queries, single, NULL, &out->single, &unused, &out->single_live);
    free(instances);
    plume_system_destroy(context, instanced);
    plume_system_destroy(context, single);
    return ok;
}

int main(int argc, char **argv) {
    options o;
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: plume_gameplay_bench [--emits N] [--instances N] [--frames N] [--warmup N]"
                        " [--size WxH]\n");
        return 2;
    }
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "no headless GL context: %s\n", error);
        return 1;
    }
    printf("GL: %s\n%dx%d, %u frames after %u warm-up, medians\n", headless_gl_describe(), o.width, o.height,
           o.frames, o.warmup);
    plume_context *context = NULL;
    if (plume_context_create(NULL, &context) != PLUME_OK) return 1;
    GLuint color = host_texture_2d(GL_RGBA16F, o.width, o.height, "bench colour");
    GLuint depth = host_texture_2d(GL_DEPTH_COMPONENT32F, o.width, o.height, "bench depth");
    GLuint framebuffer = 0;
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
    glViewport(0, 0, o.width, o.height);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return 1;
    GLuint queries[2];
    glGenQueries(2, queries);

    emit_figures emits;
    instance_figures inst;
    bool ok = bench_emits(context, &o, queries, &emits) && bench_instances(context, &o, queries, &inst);
    if (ok) {
        char label[96];
        printf("\n%-62s %10s\n", "", "median ms");
        printf("%-62s %10.4f\n", "(a) update GPU, steady stream, no emits", emits.update_without);
        snprintf(label, sizeof label, "(a) update GPU, the same + %u emits of %d", o.emits, PARTICLES_PER_EMIT);
        printf("%-62s %10.4f\n", label, emits.update_with);
        printf("%-62s %10.4f\n", "(a)   so the emits' GPU cost", emits.update_with - emits.update_without);
        snprintf(label, sizeof label, "(a) CPU of the %u plume_system_emit calls", o.emits);
        printf("%-62s %10.4f\n", label, emits.calls_cpu);
        snprintf(label, sizeof label, "(b) update+draw GPU, %u instances x %d (%u live)", o.instances,
                 PARTICLES_PER_INSTANCE, inst.instanced_live);
        printf("%-62s %10.4f\n", label, inst.instanced);
        snprintf(label, sizeof label, "(b) update+draw GPU, one system (%u live)", inst.single_live);
        printf("%-62s %10.4f\n", label, inst.single);
        printf("%-62s %10.3f\n", "(b)   instanced / one system", inst.instanced / inst.single);
        printf("%-62s %10.4f\n", "(b) CPU of set_instances (all moved, one call)", inst.set_cpu);
    } else {
        fprintf(stderr, "a plume call failed\n");
    }
    glDeleteQueries(2, queries);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &framebuffer);
    GLuint textures[2] = {color, depth};
    glDeleteTextures(2, textures);
    plume_context_destroy(context);
    headless_gl_destroy(&gl);
    return ok ? 0 : 1;
}
