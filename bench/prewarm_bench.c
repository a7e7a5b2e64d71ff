/* Prewarm and bounds benchmark: the cost of plume_system_prewarm of a
 * system of N particles (default 64 K) by S seconds (default 10: 300 steps
 * of 1/30 s), CPU ms (the call) and GPU ms (timestamps around it, waited
 * for); and the GPU cost of the bounds reduction in the update: the
 * update's GPU ms with the box grown (the product) and without (the lab's
 * plume_lab_system_set_bounds off), alternating per frame on the same
 * system, medians after a warm-up. One table.
 *
 * Usage: plume_prewarm_bench [--count N] [--seconds S] [--runs N] [--frames N] [--warmup N]
 * GPU times need a GPU: on llvmpipe they are CPU times. */
#define _POSIX_C_SOURCE 200809L
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../host/headless_gl.h"
#include "plume/plume_particles.h"
#include "plume_lab.h"

enum { MAX_SAMPLES = 4000 };

typedef struct options {
    uint32_t count, runs, frames, warmup;
    float seconds;
} options;

static bool parse_options(int argc, char **argv, options *o) {
    *o = (options){.count = 65536, .runs = 5, .frames = 200, .warmup = 20, .seconds = 10.0f};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!value) return false;
        ++i;
        if (strcmp(arg, "--count") == 0) o->count = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--seconds") == 0) o->seconds = strtof(value, NULL);
        else if (strcmp(arg, "--runs") == 0) o->runs = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--frames") == 0) o->frames = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--warmup") == 0) o->warmup = (uint32_t)strtoul(value, NULL, 10);
        else return false;
    }
    return o->count > 0 && o->runs > 0 && o->runs <= MAX_SAMPLES && o->frames > 0 &&
           o->frames <= MAX_SAMPLES && o->seconds >= 0.0f;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, uint32_t n) {
    qsort(values, n, sizeof *values, compare_doubles);
    return n ? values[n / 2] : 0.0;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* GPU ms between two timestamp queries (waits for them). */
static double query_ms(GLuint begin, GLuint end) {
    GLuint64 a = 0, b = 0;
    glGetQueryObjectui64v(begin, GL_QUERY_RESULT, &a);
    glGetQueryObjectui64v(end, GL_QUERY_RESULT, &b);
    return (double)(b - a) * 1e-6;
}

/* A steady system that fills about its capacity: a rate of capacity / 2 per
 * second for 1.5 .. 2.5 s lifetimes, with gravity, drag and turbulence. */
static plume_system_desc steady(uint32_t count) {
    plume_system_desc desc = {.capacity = count, .seed = 4242};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {0.5f}, .rate = count * 0.5f,
                                            .lifetime = {1.5f, 2.5f}, .speed = {0.2f, 1.0f}, .spread = 3.14f,
                                            .size = {0.02f, 0.05f}};
    desc.forces = (plume_forces){.gravity = {0, 0.3f, 0}, .drag = 0.5f, .turbulence = 1.0f, .turbulence_scale = 1.0f,
                                 .turbulence_speed = 0.3f};
    return desc;
}

int main(int argc, char **argv) {
    options o;
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: plume_prewarm_bench [--count N] [--seconds S] [--runs N] [--frames N] [--warmup N]\n");
        return 2;
    }
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "no headless GL context: %s\n", error);
        return 1;
    }
    plume_context *context = NULL;
    if (plume_context_create(NULL, &context) != PLUME_OK) return 1;
    plume_system_desc desc = steady(o.count);
    plume_system system;
    if (plume_system_create(context, &desc, &system) != PLUME_OK) return 1;
    GLuint queries[2];
    glGenQueries(2, queries);

    static double prewarm_cpu[MAX_SAMPLES], prewarm_gpu[MAX_SAMPLES];
    for (uint32_t run = 0; run <= o.runs; ++run) { /* run 0 warms up */
        plume_system_reset(context, system);
        glFinish();
        glQueryCounter(queries[0], GL_TIMESTAMP);
        double start = now_ms();
        if (plume_system_prewarm(context, system, o.seconds) != PLUME_OK) return 1;
        double cpu = now_ms() - start;
        glQueryCounter(queries[1], GL_TIMESTAMP);
        double gpu = query_ms(queries[0], queries[1]);
        if (run > 0) prewarm_cpu[run - 1] = cpu, prewarm_gpu[run - 1] = gpu;
    }
    plume_readback readback = {0};
    plume_system_read_back(context, system, &readback);

    /* The host asks for the box: from now on every update grows it. */
    plume_bounds started;
    plume_system_get_bounds(context, system, &started);
    static double with_bounds[MAX_SAMPLES], without_bounds[MAX_SAMPLES];
    uint32_t with_count = 0, without_count = 0;
    plume_frame_desc frame = {.dt = 1.0f / 60.0f};
    for (uint32_t f = 0; f < o.warmup + 2 * o.frames; ++f) {
        bool bounds = f % 2 == 0;
        plume_lab_system_set_bounds(context, system, bounds);
        glQueryCounter(queries[0], GL_TIMESTAMP);
        if (plume_system_update(context, system, &frame) != PLUME_OK) return 1;
        glQueryCounter(queries[1], GL_TIMESTAMP);
        double gpu = query_ms(queries[0], queries[1]);
        if (f < o.warmup) continue;
        if (bounds) with_bounds[with_count++] = gpu;
        else without_bounds[without_count++] = gpu;
    }
    /* One more update with the box, waited for, to show it. */
    plume_lab_system_set_bounds(context, system, true);
    plume_system_update(context, system, &frame);
    plume_system_read_back(context, system, &readback);
    plume_bounds box;
    plume_system_get_bounds(context, system, &box);

    uint32_t steps = (uint32_t)(o.seconds / PLUME_PREWARM_STEP + 0.999f);
    if (steps > PLUME_PREWARM_MAX_STEPS) steps = PLUME_PREWARM_MAX_STEPS;
    double on = median(with_bounds, with_count), off = median(without_bounds, without_count);
    printf("GL: %s\n", headless_gl_describe());
    printf("system of %u particles (%u live after the prewarm); medians of %u prewarms, %u updates each way\n",
           o.count, readback.live_count, o.runs, o.frames);
    printf("| what                                   | CPU ms | GPU ms |\n");
    printf("|----------------------------------------|--------|--------|\n");
    printf("| prewarm %5.1f s (%3u steps)            | %6.2f | %6.2f |\n", o.seconds, steps,
           median(prewarm_cpu, o.runs), median(prewarm_gpu, o.runs));
    printf("| update, bounds on                      |        | %6.3f |\n", on);
    printf("| update, bounds off (lab)               |        | %6.3f |\n", off);
    printf("| bounds reduction (on - off)            |        | %6.3f |\n", on - off);
    printf("last box: update %llu, (%.2f %.2f %.2f) .. (%.2f %.2f %.2f)\n", (unsigned long long)box.update,
           box.min[0], box.min[1], box.min[2], box.max[0], box.max[1], box.max[2]);
    plume_system_destroy(context, system);
    plume_context_destroy(context);
    return 0;
}
