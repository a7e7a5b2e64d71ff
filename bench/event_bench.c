/* Events to the CPU benchmark: what reporting deaths and collisions to the
 * CPU (plume_cpu_events_desc, plume_system_poll_events) costs a frame, with
 * events off and on, in one run.
 *
 * One system of N particles (default 1 M) streaming out of a fountain onto a
 * floor plane that they bounce on, dying after 0.3 .. 0.6 s: at 60 frames a
 * second, tens of thousands of deaths and collisions each frame. Each mode
 * (off, then on, then off and on again, so a drift in the machine shows)
 * runs its own system through a warm-up and then the timed frames, each
 * frame update + draw + poll (on), at most two frames queued on the GPU like
 * a swap chain. CPU frame time: the wall clock round those three calls (not
 * the pacer's wait), median. GPU update time: the system's profiler (GL
 * timestamps), median over the timed frames. Events per frame: records
 * delivered, and dropped (over the budget, every readback in flight, queue
 * full), averaged. The claim to check: the CPU frame time with events on is
 * within noise of off (the poll never waits: no stall).
 *
 * Usage: plume_event_bench [--count N] [--frames N] [--warmup N] [--budget N]
 *                          [--size WxH]
 * GPU times need a GPU: on llvmpipe they are CPU times. */
#define _POSIX_C_SOURCE 200809L
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cglm/cglm.h>

#include "../host/frame_pacer.h"
#include "../host/gl_texture.h"
#include "../host/headless_gl.h"
#include "plume/plume_particles.h"
#include "bench_time.h"

enum { MAX_FRAMES = 4000, MAX_POLL = 1 << 16 };

typedef struct options {
    uint32_t count, frames, warmup, budget;
    int width, height;
} options;

typedef struct mode_result {
    double cpu_frame_ms, cpu_update_ms, cpu_poll_ms, gpu_update_ms;
    double delivered_per_frame, dropped_per_frame;
} mode_result;

/* A fountain onto a floor: N alive in the steady state, each living 0.3 ..
 * 0.6 s and bouncing on the plane y = 0. */
static plume_system_desc fountain(uint32_t count, bool events, uint32_t budget) {
    plume_system_desc d = {.capacity = count, .seed = 11};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .position = {0, 1.5f, 0}, .extents = {0.3f},
                                         .rate = (float)count / 0.45f, .lifetime = {0.3f, 0.6f},
                                         .speed = {1, 4}, .direction = {0, 1, 0}, .spread = 1.2f,
                                         .size = {0.01f, 0.02f}};
    d.forces.gravity[1] = -9.8f;
    d.world.colliders[0] = (plume_collider_desc){
        .shape = PLUME_COLLIDER_PLANE, .collision = {.response = PLUME_COLLISION_BOUNCE, .restitution = 0.4f}};
    if (events)
        d.cpu_events = (plume_cpu_events_desc){
            .kinds = PLUME_PARTICLE_EVENT_DEATH | PLUME_PARTICLE_EVENT_COLLISION, .budget = budget};
    return d;
}

static bool parse_options(int argc, char **argv, options *o) {
    *o = (options){.count = 1u << 20, .frames = 300, .warmup = 120, .budget = 4096, .width = 1280, .height = 720};
    if (argc % 2 == 0) return false;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *arg = argv[i], *value = argv[i + 1];
        if (strcmp(arg, "--count") == 0) o->count = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--frames") == 0) o->frames = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--warmup") == 0) o->warmup = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--budget") == 0) o->budget = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--size") == 0) {
            if (sscanf(value, "%dx%d", &o->width, &o->height) != 2) return false;
        } else {
            return false;
        }
    }
    return o->count > 0 && o->frames > 0 && o->frames <= MAX_FRAMES && o->budget > 0 && o->budget <= MAX_POLL &&
           o->width > 0 && o->height > 0;
}

static plume_particle_event polled[MAX_POLL];

/* One mode's frames on a fresh system. */
static bool run_mode(plume_context *context, const options *o, bool events, GLuint scene_depth, mode_result *out) {
    plume_system system;
    plume_system_desc desc = fountain(o->count, events, o->budget);
    if (plume_system_create(context, &desc, &system) != PLUME_OK ||
        plume_system_set_profiling(context, system, true) != PLUME_OK)
        return false;
    static double frame_ms[MAX_FRAMES], update_ms[MAX_FRAMES], poll_ms[MAX_FRAMES], gpu_ms[MAX_FRAMES];
    uint64_t delivered = 0, dropped = 0;
    frame_pacer pacer;
    frame_pacer_init(&pacer, 2);
    for (uint32_t f = 0; f < o->warmup + o->frames; ++f) {
        float angle = 0.01f * (float)f;
        mat4 view, projection;
        glm_lookat((vec3){4.0f * sinf(angle), 2.0f, 4.0f * cosf(angle)}, (vec3){0, 0.5f, 0}, (vec3){0, 1, 0}, view);
        glm_perspective(0.9f, (float)o->width / (float)o->height, 0.1f, 100.0f, projection);
        plume_frame_desc frame = {.dt = 1.0f / 60.0f, .depth_texture = scene_depth, .draw_path = PLUME_DRAW_PATH_RASTER};
        memcpy(frame.view, view, sizeof frame.view);
        memcpy(frame.projection, projection, sizeof frame.projection);
        frame_pacer_begin_frame(&pacer);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        double t0 = bench_now_ms();
        plume_system_update(context, system, &frame);
        double t1 = bench_now_ms();
        plume_system_draw(context, system, &frame);
        double t2 = bench_now_ms();
        plume_event_poll_info info = {0};
        if (events && plume_system_poll_events(context, system, polled, MAX_POLL, &info) != PLUME_OK) return false;
        double t3 = bench_now_ms();
        frame_pacer_end_frame(&pacer);
        if (f < o->warmup) continue;
        uint32_t i = f - o->warmup;
        frame_ms[i] = t3 - t0;
        update_ms[i] = t1 - t0;
        poll_ms[i] = t3 - t2;
        delivered += info.delivered;
        dropped += info.dropped_budget + info.dropped_in_flight + info.dropped_queue;
    }
    frame_pacer_destroy(&pacer);
    glFinish();
    /* The profiler's frames come back a few frames late: the last timed ones are in by now. */
    plume_system_update(context, system, &(plume_frame_desc){.dt = 0});
    static plume_frame_profile profiles[MAX_FRAMES];
    uint32_t n = plume_system_get_frame_profiles(context, system, o->warmup, profiles, MAX_FRAMES);
    int gpu_count = 0;
    for (uint32_t i = 0; i < n; ++i)
        if (profiles[i].frame < o->warmup + o->frames && (profiles[i].stage_mask & (1u << PLUME_STAGE_UPDATE)))
            gpu_ms[gpu_count++] = profiles[i].stage_ms[PLUME_STAGE_UPDATE];
    int frames = (int)o->frames;
    *out = (mode_result){.cpu_frame_ms = bench_median(frame_ms, frames), .cpu_update_ms = bench_median(update_ms, frames),
                         .cpu_poll_ms = bench_median(poll_ms, frames), .gpu_update_ms = bench_median(gpu_ms, gpu_count),
                         .delivered_per_frame = (double)delivered / frames, .dropped_per_frame = (double)dropped / frames};
    plume_system_destroy(context, system);
    return true;
}

int main(int argc, char **argv) {
    options o;
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: plume_event_bench [--count N] [--frames N] [--warmup N] [--budget N] [--size WxH]\n");
        return 2;
    }
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "no headless GL context: %s\n", error);
        return 1;
    }
    printf("GL: %s\n%u particles (a fountain onto a floor), budget %u records an update, %dx%d, %u frames after %u "
           "warm-up, medians\n",
           headless_gl_describe(), o.count, o.budget, o.width, o.height, o.frames, o.warmup);
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
    glClear(GL_DEPTH_BUFFER_BIT);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
    glViewport(0, 0, o.width, o.height);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return 1;

    static const bool MODES[] = {false, true, false, true};
    enum { MODE_RUNS = sizeof MODES / sizeof MODES[0] };
    mode_result results[MODE_RUNS];
    for (int m = 0; m < MODE_RUNS; ++m)
        if (!run_mode(context, &o, MODES[m], scene_depth, &results[m])) {
            fprintf(stderr, "run %d (events %s) failed\n", m, MODES[m] ? "on" : "off");
            return 1;
        }
    printf("\n%-12s %10s %10s %10s %10s %12s %12s\n", "events", "CPU frame", "CPU update", "CPU poll", "GPU update",
           "records/fr", "dropped/fr");
    for (int m = 0; m < MODE_RUNS; ++m) {
        const mode_result *r = &results[m];
        printf("%-12s %10.4f %10.4f %10.4f %10.4f %12.1f %12.1f\n", MODES[m] ? "on" : "off", r->cpu_frame_ms,
               r->cpu_update_ms, r->cpu_poll_ms, r->gpu_update_ms, r->delivered_per_frame, r->dropped_per_frame);
    }
    double off = 0.5 * (results[0].cpu_frame_ms + results[2].cpu_frame_ms);
    double on = 0.5 * (results[1].cpu_frame_ms + results[3].cpu_frame_ms);
    double gpu_off = 0.5 * (results[0].gpu_update_ms + results[2].gpu_update_ms);
    double gpu_on = 0.5 * (results[1].gpu_update_ms + results[3].gpu_update_ms);
    printf("CPU frame on - off: %+.4f ms (off runs differ by %.4f ms: the noise); GPU update on - off: %+.4f ms\n",
           on - off, fabs(results[0].cpu_frame_ms - results[2].cpu_frame_ms), gpu_on - gpu_off);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &framebuffer);
    GLuint textures[3] = {color, depth, scene_depth};
    glDeleteTextures(3, textures);
    plume_context_destroy(context);
    headless_gl_destroy(&gl);
    return 0;
}
