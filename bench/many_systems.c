/* Many small systems benchmark: what a game's frame of dozens to hundreds of
 * small effects costs with the per-system calls and with the batch's
 * (plume_batch_update), and what spawning one costs (issue 36's figures).
 *
 * Frames: N systems of capacity 1024 (rate 300/s, lifetime 1 s: about 300
 * live each), their emitters spread in a grid across the view, each updated
 * and then drawn once a frame as a host would, into an offscreen 1280x720
 * target. Per N and path (raster, tiled): the median over the timed frames,
 * after a warm-up, of the CPU milliseconds of the frame's calls (the host's
 * clock around every update and draw, the GPU not waited on) and of its GPU
 * milliseconds (a GL_TIME_ELAPSED query around the same calls, read after the
 * frame, so frames do not overlap), and the same two of the update alone
 * (its own clock reading and query before the draws). The ways in one run,
 * on the same systems, each in a block of frames of its own (its warm-up,
 * then `--frames` timed frames; `--interleaved on`: frame by frame in
 * turn, after one warm-up): per system (a plume_system_update each, then a plume_system_draw
 * each), batched system by system (one plume_batch_update as it ran before
 * its passes went stage-major: each system's passes in turn,
 * plume_lab_batch_system_by_system) and batched stage-major (one
 * plume_batch_update, each pass for every system before the next, a shared
 * barrier between), then the same draws, and batch-drawn (the stage-major
 * batch update with the frame's disable_sort, then one plume_batch_draw of
 * them all: one joint sort, one draw); those two stage-major ways without
 * the tables (plume_lab_batch_tables(0): each system its own prepare, emit,
 * simulate and compaction dispatches, the batch as it was) and with them
 * ("table": one dispatch a pool page a pass over the systems that fit; the
 * passes on as --tables says, default all); a row each, and
 * the ratio of the update's CPU and GPU times to the per-system update's.
 * Those two draw the batch with each system's own gather; "tables
 * update+draw" is the table update with the batch draw's gathers over
 * tables too (plume_lab_batch_draw_table: a count pass and a gather
 * dispatch a pool page instead of a copy and a gather a system). `--modes`
 * names the ways to run (their rows' names, '-' for a space; the others'
 * rows say nan): one way alone under a CPU profiler.
 *
 * Creation: in a fresh plume_context, the CPU milliseconds of
 * plume_system_create for the first system (which builds whatever the first
 * of a look builds) and the median of the next `--creations`; then the median
 * of each new system's first update and draw (raster, then tiled), where the
 * programs built on first use show up. GPU memory per system, where the GL
 * has GL_NVX_gpu_memory_info: the available memory before creating the
 * systems, after creating them and drawing each once raster, and after
 * drawing each once tiled, divided by their count. Then the churn: each of
 * the first `--creations` systems destroyed and made again among the others
 * (its block of the context's particle pool taken again): the medians of
 * destroy and create, the pages the pool made meanwhile (0 expected), and
 * the pool's and a system's bytes as the lab counts them.
 *
 * Usage: plume_many_systems [--counts 1,10,50,200,1000] [--paths raster,tiled]
 *                           [--frames 120] [--warmup 70] [--size 1280x720]
 *                           [--creations 200] [--capacity 1024]
 *                           [--tables prepare,emit,simulate,compaction]
 *                           [--cpu-samples FILE] [--interleaved on|off]
 * --cpu-samples: the timed calls' stacks sampled every 250 us of the
 * thread's CPU into FILE (bench/cpu_sampler.h; tools/cpu_samples.py folds
 * them into the functions the CPU was in, where perf is not at hand).
 * GPU times need a GPU: on llvmpipe they are CPU times. */
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
#include "plume/plume_batch.h"
#include "plume/plume_particles.h"
#include "bench_time.h"
#include "cpu_sampler.h"
#include "plume_lab.h"

enum { MAX_FRAMES = 20000, MAX_COUNTS = 16, MAX_SYSTEMS = 100000, CPU_SAMPLE_PERIOD_US = 250 };

#ifndef GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX
#define GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX 0x9049
#endif

typedef struct options {
    uint32_t counts[MAX_COUNTS];
    int count_count;
    bool raster, tiled;
    uint32_t frames, warmup, creations, capacity;
    uint32_t tables; /* the table modes' passes over tables (plume_lab_batch_tables) */
    uint32_t modes;  /* the ways timed, a bit each (--modes: all of them unless named) */
    int width, height;
    const char *cpu_samples; /* where the timed calls' CPU samples go (cpu_sampler.h); NULL: none */
    bool interleaved;        /* the ways take turns frame by frame (frame_way) */
} options;

/* The frame's calls, timed: the update per system (a plume_system_update
 * each), batched system by system or stage-major (one plume_batch_update),
 * then a plume_system_draw each, or with the systems' sorts skipped and one
 * plume_batch_draw. */
enum { PER_SYSTEM, BATCHED_BY_SYSTEM, STAGE_MAJOR, BATCH_DRAWN, TABLE_STAGE_MAJOR, TABLE_DRAWN, TABLES_DRAWN, MODES };
static const char *const MODE_NAMES[MODES] = {"per system",        "batch by system",   "batch stage-major",
                                              "batch update+draw", "table stage-major", "table update+draw",
                                              "tables update+draw"};

/* The offscreen target a host would draw into, and the camera. */
typedef struct scene {
    int width, height;
    GLuint color, depth, scene_depth, framebuffer;
    float view[16], projection[16];
} scene;

static bool parse_counts(const char *text, options *o) {
    o->count_count = 0;
    for (const char *p = text; *p;) {
        char *end = NULL;
        unsigned long value = strtoul(p, &end, 10);
        if (end == p || value == 0 || value > MAX_SYSTEMS || o->count_count == MAX_COUNTS) return false;
        o->counts[o->count_count++] = (uint32_t)value;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return false;
    }
    return o->count_count > 0;
}

/* "prepare,emit,simulate,compaction" (any of them) as lab table bits. */
static uint32_t parse_tables(const char *text) {
    static const struct {
        const char *name;
        uint32_t bit;
    } PASSES[] = {{"prepare", PLUME_LAB_TABLE_PREPARE},
                  {"emit", PLUME_LAB_TABLE_EMIT},
                  {"simulate", PLUME_LAB_TABLE_SIMULATE},
                  {"compaction", PLUME_LAB_TABLE_COMPACTION}};
    uint32_t bits = 0;
    for (size_t i = 0; i < sizeof PASSES / sizeof PASSES[0]; ++i)
        if (strstr(text, PASSES[i].name)) bits |= PASSES[i].bit;
    return bits;
}

/* "per,tables,..." (MODE_NAMES' words, spaces as '-': "tables-update+draw")
 * as mode bits; 0 where a word names no mode. */
static uint32_t parse_modes(const char *text) {
    uint32_t bits = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, ",");
        bool found = false;
        for (int m = 0; m < MODES; ++m) {
            char name[32];
            snprintf(name, sizeof name, "%s", MODE_NAMES[m]);
            for (char *c = name; *c; ++c) *c = *c == ' ' ? '-' : *c;
            if (strlen(name) == n && strncmp(name, p, n) == 0) bits |= 1u << m, found = true;
        }
        if (!found) return 0;
        p += n + (p[n] == ',');
    }
    return bits;
}

static bool parse_options(int argc, char **argv, options *o) {
    *o = (options){.raster = true, .tiled = true, .frames = 120, .warmup = 70, .creations = 200,
                   .capacity = 1024, .tables = PLUME_LAB_TABLE_ALL, .modes = (1u << MODES) - 1, .width = 1280,
                   .height = 720};
    if (!parse_counts("1,10,50,200,1000", o)) return false;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *arg = argv[i], *value = argv[i + 1];
        if (strcmp(arg, "--counts") == 0) {
            if (!parse_counts(value, o)) return false;
        } else if (strcmp(arg, "--paths") == 0) {
            o->raster = strstr(value, "raster") != NULL;
            o->tiled = strstr(value, "tiled") != NULL;
        } else if (strcmp(arg, "--frames") == 0) o->frames = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--warmup") == 0) o->warmup = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--creations") == 0) o->creations = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--capacity") == 0) o->capacity = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--tables") == 0) o->tables = parse_tables(value);
        else if (strcmp(arg, "--cpu-samples") == 0) o->cpu_samples = value;
        else if (strcmp(arg, "--interleaved") == 0) o->interleaved = strcmp(value, "on") == 0;
        else if (strcmp(arg, "--modes") == 0) {
            if (!(o->modes = parse_modes(value))) return false;
        }
        else if (strcmp(arg, "--size") == 0) {
            if (sscanf(value, "%dx%d", &o->width, &o->height) != 2) return false;
        } else {
            return false;
        }
    }
    if (argc % 2 == 0) return false;
    return o->frames > 0 && o->frames <= MAX_FRAMES && o->creations > 0 && o->creations < MAX_SYSTEMS &&
           o->capacity > 0 && o->width > 0 && o->height > 0 && (o->raster || o->tiled);
}

/* System `index` of `count`: a small fountain at its cell of a square grid
 * spanning the view (x and y in -4..4 at z 0, the camera 10 units away). */
static plume_system_desc small_effect(uint32_t index, uint32_t count, uint32_t capacity) {
    uint32_t side = (uint32_t)ceil(sqrt((double)count));
    float cell = 8.0f / (float)side;
    float x = -4.0f + cell * ((float)(index % side) + 0.5f), y = -4.0f + cell * ((float)(index / side) + 0.5f);
    plume_system_desc d = {.capacity = capacity, .seed = 17u + index};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .position = {x, y, 0}, .extents = {0.1f},
                                         .rate = 300.0f, .lifetime = {0.9f, 1.0f}, .speed = {0.2f, 0.6f},
                                         .direction = {0, 1, 0}, .spread = 0.6f, .size = {0.03f, 0.06f}};
    d.forces = (plume_forces){.gravity = {0, -0.5f, 0}, .drag = 0.3f};
    d.appearance.color_over_life = (plume_gradient){2, {{0.0f, {1.0f, 0.6f, 0.2f, 0.8f}}, {1.0f, {0.3f, 0.3f, 0.3f, 0.0f}}}};
    return d;
}

static plume_frame_desc frame_for(const scene *s, uint32_t path) {
    plume_frame_desc frame = {.dt = 1.0f / 60.0f, .depth_texture = s->scene_depth, .draw_path = path};
    memcpy(frame.view, s->view, sizeof frame.view);
    memcpy(frame.projection, s->projection, sizeof frame.projection);
    return frame;
}

static bool scene_create(scene *s, int width, int height) {
    *s = (scene){.width = width, .height = height};
    s->color = host_texture_2d(GL_RGBA16F, width, height, "bench colour");
    s->depth = host_texture_2d(GL_DEPTH_COMPONENT32F, width, height, "bench depth");
    s->scene_depth = host_texture_2d(GL_DEPTH_COMPONENT32F, width, height, "bench scene depth");
    glGenFramebuffers(1, &s->framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, s->framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, s->scene_depth, 0);
    glClearDepth(1.0);
    glClear(GL_DEPTH_BUFFER_BIT); /* an empty scene: everything at the far plane */
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, s->color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, s->depth, 0);
    glViewport(0, 0, width, height);
    mat4 view, projection;
    glm_lookat((vec3){0, 0, 10}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_perspective(0.9f, (float)width / (float)height, 0.1f, 100.0f, projection);
    memcpy(s->view, view, sizeof s->view);
    memcpy(s->projection, projection, sizeof s->projection);
    return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

static void scene_destroy(scene *s) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &s->framebuffer);
    GLuint textures[3] = {s->color, s->depth, s->scene_depth};
    glDeleteTextures(3, textures);
}

static void clear_target(void) {
    glClearColor(0.05f, 0.05f, 0.08f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

static bool batch_drawn(int mode) {
    return mode == BATCH_DRAWN || mode == TABLE_DRAWN || mode == TABLES_DRAWN;
}
enum { UPDATE, FRAME, SPANS }; /* the update alone, the whole frame */

typedef struct frame_figures {
    double cpu_ms[MODES][SPANS], gpu_ms[MODES][SPANS];
    plume_lab_batch_draw_counts tables; /* the last "tables update+draw" frame's batch draw */
    bool ok;
} frame_figures;

static bool run_update(plume_context *context, const plume_system *systems, uint32_t count,
                       const plume_frame_desc *frame, int mode, uint32_t tables) {
    bool ok = true;
    plume_lab_batch_system_by_system(mode == BATCHED_BY_SYSTEM);
    plume_lab_batch_tables(mode == TABLE_STAGE_MAJOR || mode == TABLE_DRAWN || mode == TABLES_DRAWN ? tables : 0);
    plume_lab_batch_draw_table(mode == TABLES_DRAWN);
    plume_frame_desc unsorted = *frame;
    /* The batch's draw sorts every system together. */
    unsorted.disable_sort = batch_drawn(mode);
    if (mode != PER_SYSTEM) ok = plume_batch_update(context, systems, count, &unsorted) == PLUME_OK;
    else
        for (uint32_t i = 0; i < count; ++i) ok = ok && plume_system_update(context, systems[i], frame) == PLUME_OK;
    return ok;
}

static bool run_draws(plume_context *context, const plume_system *systems, uint32_t count,
                      const plume_frame_desc *frame, int mode) {
    if (batch_drawn(mode)) return plume_batch_draw(context, systems, count, frame) == PLUME_OK;
    bool ok = true;
    for (uint32_t i = 0; i < count; ++i) ok = ok && plume_system_draw(context, systems[i], frame) == PLUME_OK;
    return ok;
}

/* Frame `f` of the run: its way, and whether it is timed. Each way in a
 * block of its own (its warm-up, then its timed frames), the systems
 * updated every frame, so every way sees the same steady state (every
 * system at its full live count after the first warm-up) and the CPU
 * caches and the driver's state as a host using that way leaves them.
 * --interleaved: the ways take turns frame by frame after one warm-up (as
 * the earlier runs did: each way's CPU figure then pays for what the other
 * ways evicted). */
static bool frame_way(const options *o, uint32_t f, int *mode) {
    if (o->interleaved) {
        *mode = (int)(f % MODES);
        return f >= o->warmup;
    }
    uint32_t block = o->warmup + o->frames;
    *mode = (int)(f / block);
    return f % block >= o->warmup;
}

/* N systems updated and drawn a frame on `path` (see the top) each way in
 * turn (frame_way). */
static frame_figures time_frames(plume_context *context, const scene *s, const options *o, uint32_t count,
                                 uint32_t path) {
    frame_figures figures = {.ok = false};
    plume_system *systems = calloc(count, sizeof *systems);
    static double cpu[MODES][SPANS][MAX_FRAMES], gpu[MODES][SPANS][MAX_FRAMES];
    uint32_t created = 0;
    for (; created < count; ++created) {
        plume_system_desc desc = small_effect(created, count, o->capacity);
        if (plume_system_create(context, &desc, &systems[created]) != PLUME_OK) break;
    }
    if (created == count) {
        GLuint queries[2] = {0, 0}; /* the update's, the draws' */
        glGenQueries(2, queries);
        plume_frame_desc frame = frame_for(s, path);
        int timed[MODES] = {0};
        bool ok = true;
        uint32_t frames = o->interleaved ? o->warmup + MODES * o->frames : MODES * (o->warmup + o->frames);
        for (uint32_t f = 0; ok && f < frames; ++f) {
            int mode;
            bool timed_frame = frame_way(o, f, &mode);
            if (!(o->modes & (1u << mode))) continue;
            clear_target();
            glBeginQuery(GL_TIME_ELAPSED, queries[0]);
            if (timed_frame) cpu_sampler_enter();
            double t0 = bench_now_ms();
            ok = run_update(context, systems, count, &frame, mode, o->tables);
            double t1 = bench_now_ms();
            cpu_sampler_leave();
            glEndQuery(GL_TIME_ELAPSED);
            glBeginQuery(GL_TIME_ELAPSED, queries[1]);
            if (timed_frame) cpu_sampler_enter();
            double t2 = bench_now_ms();
            ok = run_draws(context, systems, count, &frame, mode) && ok;
            double t3 = bench_now_ms();
            cpu_sampler_leave();
            if (mode == TABLES_DRAWN) plume_lab_batch_draw_counts_of(context, &figures.tables);
            glEndQuery(GL_TIME_ELAPSED);
            GLuint64 update_ns = 0, draw_ns = 0;
            glGetQueryObjectui64v(queries[0], GL_QUERY_RESULT, &update_ns);
            glGetQueryObjectui64v(queries[1], GL_QUERY_RESULT, &draw_ns);
            if (!timed_frame) continue;
            int n = timed[mode]++;
            cpu[mode][UPDATE][n] = t1 - t0;
            cpu[mode][FRAME][n] = (t1 - t0) + (t3 - t2);
            gpu[mode][UPDATE][n] = (double)update_ns * 1e-6;
            gpu[mode][FRAME][n] = (double)(update_ns + draw_ns) * 1e-6;
        }
        plume_lab_batch_system_by_system(false);
        plume_lab_batch_tables(PLUME_LAB_TABLE_ALL);
        plume_lab_batch_draw_table(true);
        glDeleteQueries(2, queries);
        for (int m = 0; m < MODES; ++m)
            for (int span = 0; span < SPANS; ++span) {
                figures.cpu_ms[m][span] = bench_median(cpu[m][span], timed[m]);
                figures.gpu_ms[m][span] = bench_median(gpu[m][span], timed[m]);
            }
        figures.ok = ok;
    }
    for (uint32_t i = 0; i < created; ++i) plume_system_destroy(context, systems[i]);
    free(systems);
    return figures;
}

static bool has_extension(const char *name) {
    GLint count = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &count);
    for (GLint i = 0; i < count; ++i)
        if (strcmp((const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i), name) == 0) return true;
    return false;
}

static double available_mb(bool nvx) {
    if (!nvx) return NAN;
    glFinish();
    GLint kb = 0;
    glGetIntegerv(GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX, &kb);
    return (double)kb / 1024.0;
}

/* A system's first update and draw on `path`, CPU ms (the GPU waited for). */
static double first_frame_ms(plume_context *context, const scene *s, plume_system system, uint32_t path) {
    plume_frame_desc frame = frame_for(s, path);
    double t0 = bench_now_ms();
    plume_system_update(context, system, &frame);
    plume_system_draw(context, system, &frame);
    glFinish();
    return bench_now_ms() - t0;
}

typedef struct pool_churn {
    double destroy_ms, create_ms;            /* medians */
    uint64_t pages_made, pages;              /* pages the pool made during the churn; its pages after */
    double pool_mb, pool_used_mb, system_mb; /* the pool, its blocks in use, one system's (lab figures) */
} pool_churn;

/* Each of the first `o->creations` systems (at most count - 1: one stays)
 * destroyed and made again with its descriptor, timed. */
static bool churn_systems(plume_context *context, plume_system *systems, uint32_t count, const options *o,
                          pool_churn *out) {
    uint32_t rounds = o->creations < count - 1 ? o->creations : count - 1;
    double *destroy_ms = calloc(rounds + 1, sizeof *destroy_ms), *create_ms = calloc(rounds + 1, sizeof *create_ms);
    plume_lab_particle_storage before = {0}, after = {0};
    bool ok = destroy_ms && create_ms && plume_lab_particle_storage_of(context, (plume_system){0}, &before) == PLUME_OK;
    for (uint32_t i = 0; ok && i < rounds; ++i) {
        plume_system_desc desc = small_effect(i, count, o->capacity);
        double t0 = bench_now_ms();
        ok = plume_system_destroy(context, systems[i]) == PLUME_OK;
        double t1 = bench_now_ms();
        systems[i] = (plume_system){0};
        ok = ok && plume_system_create(context, &desc, &systems[i]) == PLUME_OK;
        create_ms[i] = bench_now_ms() - t1;
        destroy_ms[i] = t1 - t0;
    }
    plume_lab_gpu_memory memory = {0};
    ok = ok && plume_lab_particle_storage_of(context, (plume_system){0}, &after) == PLUME_OK &&
         plume_lab_gpu_memory_of(context, systems[count - 1], &memory) == PLUME_OK;
    if (ok)
        *out = (pool_churn){bench_median(destroy_ms, (int)rounds), bench_median(create_ms, (int)rounds),
                            after.pool_pages_made - before.pool_pages_made, after.pool_pages,
                            memory.pool_bytes / 1048576.0, memory.pool_used_bytes / 1048576.0,
                            memory.system_bytes / 1048576.0};
    free(destroy_ms);
    free(create_ms);
    return ok;
}

/* Creation and memory (see the top), in a fresh context. */
static bool time_creation(const scene *s, const options *o) {
    plume_context *context = NULL;
    if (plume_context_create(NULL, &context) != PLUME_OK) return false;
    bool nvx = has_extension("GL_NVX_gpu_memory_info");
    uint32_t count = o->creations + 1;
    plume_system *systems = calloc(count, sizeof *systems);
    double *create_ms = calloc(count, sizeof *create_ms);
    double *raster_ms = calloc(count, sizeof *raster_ms), *tiled_ms = calloc(count, sizeof *tiled_ms);
    double before = available_mb(nvx);
    bool ok = true;
    clear_target();
    for (uint32_t i = 0; ok && i < count; ++i) {
        plume_system_desc desc = small_effect(i, count, o->capacity);
        double t0 = bench_now_ms();
        ok = plume_system_create(context, &desc, &systems[i]) == PLUME_OK;
        create_ms[i] = bench_now_ms() - t0;
        if (ok) raster_ms[i] = first_frame_ms(context, s, systems[i], PLUME_DRAW_PATH_RASTER);
    }
    double after_raster = available_mb(nvx);
    plume_lab_gpu_memory raster_memory = {0}, tiled_memory = {0};
    ok = ok && plume_lab_gpu_memory_of(context, systems[count - 1], &raster_memory) == PLUME_OK;
    for (uint32_t i = 0; ok && i < count; ++i) tiled_ms[i] = first_frame_ms(context, s, systems[i], PLUME_DRAW_PATH_TILED);
    double after_tiled = available_mb(nvx);
    ok = ok && plume_lab_gpu_memory_of(context, systems[count - 1], &tiled_memory) == PLUME_OK;
    /* The churn of a game's effects: each of the first systems destroyed and
     * made again among the others, its block of the particle pool taken
     * again (pool_churn says what the pool made meanwhile). */
    pool_churn churn = {0};
    if (ok) ok = churn_systems(context, systems, count, o, &churn);
    if (ok) {
        printf("\nsystem creation (capacity %u), CPU ms: first %.3f, median of the next %u %.4f\n", o->capacity,
               create_ms[0], o->creations, bench_median(create_ms + 1, (int)o->creations));
        printf("a new system's first update + draw (GPU waited for), CPU ms: raster first %.3f, median %.4f;"
               " tiled first %.3f, median %.4f\n",
               raster_ms[0], bench_median(raster_ms + 1, (int)o->creations), tiled_ms[0],
               bench_median(tiled_ms + 1, (int)o->creations));
        printf("a live system destroyed and made again among %u (its pool block reused), CPU ms: destroy median"
               " %.4f, create median %.4f; pool pages made meanwhile %llu\n",
               count, churn.destroy_ms, churn.create_ms, (unsigned long long)churn.pages_made);
        printf("particle pool: %llu pages, %.3f MB, %.3f MB in systems' blocks; a system's own GL objects and block"
               " %.3f MB (plume_lab_gpu_memory_of)\n",
               (unsigned long long)churn.pages, churn.pool_mb, churn.pool_used_mb, churn.system_mb);
        printf("a system's GPU memory as the lab counts it (plume_lab_gpu_memory_of: its GL objects and pool"
               " block): drawn raster %.3f MB, raster + tiled %.3f MB; the context's shared screen scratch %.3f MB\n",
               raster_memory.system_bytes / 1048576.0, tiled_memory.system_bytes / 1048576.0,
               tiled_memory.shared_bytes / 1048576.0);
        if (nvx)
            printf("GPU memory per system (GL_NVX_gpu_memory_info, %u systems): raster %.3f MB, raster + tiled"
                   " %.3f MB\n",
                   count, (before - after_raster) / count, (before - after_tiled) / count);
        else
            printf("GPU memory per system: no GL_NVX_gpu_memory_info on this GL\n");
    }
    for (uint32_t i = 0; i < count; ++i)
        if (systems[i].id) plume_system_destroy(context, systems[i]);
    plume_context_destroy(context);
    free(systems);
    free(create_ms);
    free(raster_ms);
    free(tiled_ms);
    return ok;
}

int main(int argc, char **argv) {
    options o;
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: plume_many_systems [--counts 1,10,50,200,1000] [--paths raster,tiled] [--frames N]"
                        " [--warmup N] [--size WxH] [--creations N] [--capacity N]"
                        " [--tables prepare,emit,simulate,compaction] [--modes per-system,tables-update+draw,...]"
                        " [--cpu-samples FILE] [--interleaved on|off]\n");
        return 2;
    }
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "no headless GL context: %s\n", error);
        return 1;
    }
    printf("GL: %s\nsystems of capacity %u (rate 300/s, lifetime 1 s), %dx%d, %u frames after %u warm-up\n",
           headless_gl_describe(), o.capacity, o.width, o.height, o.frames, o.warmup);
    scene s;
    if (!scene_create(&s, o.width, o.height)) return 1;
    bool ok = time_creation(&s, &o);

    plume_context *context = NULL;
    if (plume_context_create(NULL, &context) != PLUME_OK) return 1;
    FILE *samples = o.cpu_samples ? fopen(o.cpu_samples, "w") : NULL;
    if (o.cpu_samples && (!samples || !cpu_sampler_start(CPU_SAMPLE_PERIOD_US))) {
        fprintf(stderr, "plume_many_systems: cannot sample the CPU into %s\n", o.cpu_samples);
        return 1;
    }
    printf("\nthe update: per system (a plume_system_update each), batch by system (one plume_batch_update,"
           " each system's passes in turn, as before 1.3's stage-major batch), batch stage-major (one"
           " plume_batch_update, each pass for every system, then the next); then a plume_system_draw each;"
           " batch update+draw: the stage-major update without the systems' sorts, then one plume_batch_draw;"
           " those two without the tables (each system its own prepare, emit, simulate and compaction dispatches,"
           " as before), and table stage-major / table update+draw the same with them (one dispatch a pool page"
           " a pass over the systems that fit; tables: %s%s%s%s); tables update+draw: with the batch draw's"
           " gathers over tables too (a count pass and a gather a pool page);"
           " %s; medians; x per: the update's time over the per-system update's\n",
           o.tables & PLUME_LAB_TABLE_PREPARE ? "prepare " : "", o.tables & PLUME_LAB_TABLE_EMIT ? "emit " : "",
           o.tables & PLUME_LAB_TABLE_SIMULATE ? "simulate " : "",
           o.tables & PLUME_LAB_TABLE_COMPACTION ? "compaction" : "",
           o.interleaved ? "the ways take turns frame by frame after one warm-up"
                         : "each way in a block of frames of its own, after a warm-up of its own");
    printf("%8s %-7s %-18s %11s %11s %11s %11s %9s %9s\n", "systems", "path", "update", "upd CPU ms",
           "upd GPU ms", "frame CPU", "frame GPU", "CPU x per", "GPU x per");
    for (int pass = 0; pass < 2; ++pass) {
        uint32_t path = pass == 0 ? PLUME_DRAW_PATH_RASTER : PLUME_DRAW_PATH_TILED;
        if ((pass == 0 && !o.raster) || (pass == 1 && !o.tiled)) continue;
        for (int c = 0; c < o.count_count; ++c) {
            frame_figures f = time_frames(context, &s, &o, o.counts[c], path);
            for (int m = 0; m < MODES; ++m)
                printf("%8u %-7s %-18s %11.3f %11.3f %11.3f %11.3f %9.2f %9.2f%s\n", o.counts[c],
                       pass == 0 ? "raster" : "tiled", MODE_NAMES[m], f.cpu_ms[m][UPDATE], f.gpu_ms[m][UPDATE],
                       f.cpu_ms[m][FRAME], f.gpu_ms[m][FRAME], f.cpu_ms[m][UPDATE] / f.cpu_ms[PER_SYSTEM][UPDATE],
                       f.gpu_ms[m][UPDATE] / f.gpu_ms[PER_SYSTEM][UPDATE], f.ok ? "" : "  (a call failed)");
            printf("%8u %-7s the tables' batch draw: %u dispatches before its sort for %u systems (%u over %u pool"
                   " pages' tables, %u alone)\n",
                   o.counts[c], pass == 0 ? "raster" : "tiled", f.tables.dispatches, f.tables.systems,
                   f.tables.table_systems, f.tables.table_pages, f.tables.own_systems);
            fflush(stdout);
            ok = ok && f.ok;
        }
    }
    if (samples) {
        printf("CPU samples inside the timed calls (every %u us of the thread's CPU): %u, in %s\n",
               CPU_SAMPLE_PERIOD_US, cpu_sampler_write(samples), o.cpu_samples);
        fclose(samples);
    }
    plume_context_destroy(context);
    scene_destroy(&s);
    headless_gl_destroy(&gl);
    return ok ? 0 : 1;
}
