/* Trail benchmark: N particles (default 64 K, every one alive: one burst of
 * long-lived particles in a ball, swirling under curl noise) drawn at
 * WxH (default 1280x720) into an offscreen target over a depth texture,
 * without trails and with trails of K points (default 16), each on the raster
 * and the tiled path, the trails also at 1/2 resolution; the same camera
 * circling the ball. Per configuration a system of its own, a warm-up, then
 * the median GPU ms of its update (simulate, record, keys, both sorts) and
 * of its draw, timed with timestamp queries around each call, read once
 * the run is over: the CPU issues up to two frames ahead of the GPU, as a
 * game's swap chain lets it, so that a call's figure is its GPU work, not
 * the GPU waiting while the CPU issues the call's commands (the timestamps
 * keep each call's time its own: a timestamp is taken once every command
 * before it is done); the median CPU ms of the draw calls beside it; then
 * a few frames profiled (not timed) say which path drew and the tiled
 * entries (a tiled frame over its budget draws raster: counted).
 * Then the trails beside a smoke ball of as many sprites (another system),
 * full resolution on both paths: the two drawn one after the other (the
 * baseline: each sorted alone), and through one draw group (segments and
 * squares in one order; its profile's drawn count counts the pairs). The
 * "+smoke" rows' update column is both systems' updates, their draw column
 * both draws or the group's (gather, joint sort, draw).
 * Each segment draws as many quads as its curve on the screen needs (1, 2
 * or 4); the "4/seg" rows force 4 on every segment (the lab's
 * plume_lab_trail_full_subdivisions: how trails drew before), the baseline
 * of the same configuration; for the tiled rows of the trails alone, the
 * segments by the quads that drew (plume_lab_trail_tiled_quads_drawn).
 * The "box" rows list each splat in every tile of its pixels' box (the
 * lab's plume_lab_tiled_knobs.box_tiles), the baseline of the projection's
 * test of the tiles a splat may show in; "whole lists" has every pixel walk
 * the tile's whole batch (plume_lab_tiled_knobs.whole_tile_lists), the
 * baseline of each 8 x 4 region's list; the "tile 16"
 * rows draw with tiles of 16 pixels (plume_system_set_tiled_options), the
 * baseline of the default, 8; "shade all" has the composite shade every
 * splat as it tests it (plume_lab_tiled_knobs.hit_lists = -1), the
 * baseline of shading each pixel's hits, which trails get; "blend pass"
 * blends the composite's target (at 1/2 the upsample) onto the host's
 * RGBA16F colour with a raster pass (plume_lab_tiled_knobs.raster_blend),
 * the baseline of blending onto it in compute; "whole splats" loads whole
 * splats into the composite's batch (plume_lab_tiled_knobs.whole_splat_batch),
 * the baseline of a batch of their maps.
 * One table; the trails' and the group's memory beside it, and per row the
 * context's draw scratch measured after it (plume_lab_gpu_memory_of: the
 * tiled path's per-rank buffers, entries and target) and a tiled trail's
 * ranks needed and made (plume_lab_trail_tiled_ranks).
 *
 * Usage: plume_trail_bench [--count N] [--points K] [--frames N] [--warmup N] [--size WxH] [--rows TEXT]
 *                          [--profile-timed 1] [--chunk K|unchunked]
 * (--rows: only the configurations whose name holds TEXT, e.g. "trail, tiled";
 * "=NAME": only the one named NAME; several such, separated by ";";
 * --chunk: the most entries a composite workgroup walks, every row's
 * (plume_system_set_tiled_options; default the library's: whole tiles
 * for trails that can stop early, else 128);
 * --profile-timed 1: profile the timed frames too, so that the stages are
 * those of the frames the medians are of, the camera at their angles, not
 * of the few after; the draw medians then include the profile's
 * timestamps)
 * GPU times need a GPU: on llvmpipe they are CPU times. */
#define _POSIX_C_SOURCE 200809L
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cglm/cglm.h>

#include "../host/gl_texture.h"
#include "../host/headless_gl.h"
#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume/plume_profile.h"
#include "bench_time.h"
#include "plume_lab.h"

enum { MAX_SAMPLES = 4000 };

typedef struct options {
    uint32_t count, points, frames, warmup;
    int width, height;
    const char *rows;   /* only the rows it names (NULL: all; row_chosen) */
    bool profile_timed; /* profile from the first timed frame, not after them */
    uint32_t chunk_entries; /* plume_system_set_tiled_options's (0: the default) */
} options;

/* Whether `rows` (options.rows) names the row `name`: one of its
 * ";"-separated parts is "=" and the name, or is held in the name. An
 * empty part (";;", a trailing ";") names nothing: held in every name, it
 * would choose them all. */
static bool row_chosen(const char *rows, const char *name) {
    if (!rows) return true;
    for (const char *part = rows; *part;) {
        const char *end = strchr(part, ';');
        size_t length = end ? (size_t)(end - part) : strlen(part);
        char wanted[128];
        if (length > 0 && length < sizeof wanted) {
            memcpy(wanted, part, length);
            wanted[length] = '\0';
            if (wanted[0] == '=' ? strcmp(wanted + 1, name) == 0 : strstr(name, wanted) != NULL) return true;
        }
        part += length + (end ? 1 : 0);
    }
    return false;
}

static bool parse_options(int argc, char **argv, options *o) {
    *o = (options){.count = 65536, .points = 16, .frames = 120, .warmup = 30, .width = 1280, .height = 720};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!value) return false;
        ++i;
        if (strcmp(arg, "--count") == 0) o->count = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--points") == 0) o->points = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--frames") == 0) o->frames = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--warmup") == 0) o->warmup = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--rows") == 0) o->rows = value;
        else if (strcmp(arg, "--profile-timed") == 0) o->profile_timed = strcmp(value, "0") != 0;
        else if (strcmp(arg, "--chunk") == 0)
            o->chunk_entries = strcmp(value, "unchunked") == 0 ? PLUME_TILED_UNCHUNKED
                                                               : (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--size") == 0) {
            if (sscanf(value, "%dx%d", &o->width, &o->height) != 2) return false;
        } else return false;
    }
    return o->count > 0 && o->points >= 2 && o->frames > 0 && o->frames <= MAX_SAMPLES && o->width > 0 &&
           o->height > 0;
}

/* Every particle born at once and alive for the run: thin sparks swirling
 * in a ball of radius 1, translucent. */
static plume_system_desc swirl(uint32_t count, uint32_t points) {
    plume_system_desc desc = {.capacity = count, .seed = 31};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {1.0f}, .burst_count = count,
                                            .lifetime = {1000, 1000}, .speed = {0.3f, 0.8f}, .spread = 3.14f,
                                            .size = {0.008f, 0.015f}};
    desc.forces = (plume_forces){.drag = 0.3f, .turbulence = 2.0f, .turbulence_scale = 1.5f,
                                 .turbulence_speed = 0.3f};
    desc.appearance.color_over_life = (plume_gradient){1, {{0.0f, {1.0f, 0.7f, 0.3f, 0.5f}}}};
    if (points > 0)
        desc.trail = (plume_trail_desc){.points = points, .spacing = 1.0f / 60.0f,
                                        .opacity_over_length = {2, {{0.0f, 1.0f}, {1.0f, 0.0f}}}};
    return desc;
}

typedef struct target {
    GLuint framebuffer, color, depth_framebuffer, depth;
} target;

/* The host's frame: a colour target, and a depth texture (the far plane)
 * of the same size the draw reads but does not draw into. */
static target make_target(int width, int height) {
    target t;
    t.color = host_texture_2d(GL_RGBA16F, width, height, "bench colour");
    t.depth = host_texture_2d(GL_DEPTH_COMPONENT32F, width, height, "bench depth");
    glGenFramebuffers(1, &t.framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.color, 0);
    glGenFramebuffers(1, &t.depth_framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, t.depth_framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, t.depth, 0);
    glClearDepth(1.0);
    glClear(GL_DEPTH_BUFFER_BIT);
    glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer);
    glViewport(0, 0, width, height);
    return t;
}

typedef struct result {
    double update_ms, draw_ms, draw_cpu_ms;
    uint32_t drawn;
    plume_profile profile; /* of a frame after the timed ones */
    /* A tiled trail's last draw: its segments by the quads that drew
     * (plume_lab_trail_tiled_quads_drawn); all zero elsewhere. */
    uint32_t segments_by_quads[PLUME_TRAIL_SUBDIVISIONS + 1];
    /* The context's draw scratch after the run (plume_lab_gpu_memory_of:
     * the tiled path's per-rank buffers, entries, target...), and a tiled
     * trail's ranks its last draw needed and those made (else 0). */
    uint64_t scratch_bytes;
    uint32_t ranks_needed, ranks_made;
} result;

enum { PROFILED_FRAMES = 4 };

/* A smoke ball of soft squares, the sprite system beside the trails in the
 * two-system rows: as many particles, in the same ball. */
static plume_system_desc smoke(uint32_t count) {
    plume_system_desc desc = {.capacity = count, .seed = 37};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {1.0f}, .burst_count = count,
                                            .lifetime = {1000, 1000}, .speed = {0.02f, 0.05f}, .spread = 3.14f,
                                            .size = {0.03f, 0.06f}};
    desc.appearance.color_over_life = (plume_gradient){1, {{0.0f, {0.5f, 0.55f, 0.6f, 0.3f}}}};
    return desc;
}

/* How a row draws: the trail system alone, or beside the smoke, the two
 * drawn one after the other (each sorted on its own: the baseline) or
 * through one draw group (one order over both). */
typedef enum arrangement { ALONE, APART, GROUPED } arrangement;

/* One configuration on systems of its own: its updates' and draws' medians.
 * `knobs`: the first system's compositor knobs (NULL: the product's);
 * `tile_size`: its tiles (0: the default). */
static bool run(plume_context *context, const options *o, uint32_t points, plume_draw_path path,
                plume_draw_resolution resolution, arrangement how, const plume_lab_tiled_knobs *knobs,
                uint32_t tile_size, const target *t, result *out) {
    plume_system systems[2];
    uint32_t count = how == ALONE ? 1 : 2;
    const plume_system_desc descs[2] = {swirl(o->count, points), smoke(o->count)};
    for (uint32_t i = 0; i < count; ++i)
        if (plume_system_create(context, &descs[i], &systems[i]) != PLUME_OK) return false;
    if (knobs && plume_lab_tiled_set_knobs(context, systems[0], knobs) != PLUME_OK) return false;
    if (plume_system_set_tiled_options(context, systems[0], tile_size, o->chunk_entries) != PLUME_OK) return false;
    plume_draw_group group = {0};
    const plume_draw_group_desc grouping = {.systems = systems, .system_count = 2};
    if (how == GROUPED && plume_draw_group_create(context, &grouping, &group) != PLUME_OK) return false;
    /* Three timestamps a frame, every frame's its own. */
    const uint32_t collecting = o->warmup + o->frames + PROFILED_FRAMES;
    GLuint *queries = malloc(sizeof *queries * 3 * (collecting + 1));
    if (!queries) return false;
    glGenQueries((GLsizei)(3 * (collecting + 1)), queries);
    static double updates[MAX_SAMPLES], draws[MAX_SAMPLES], draw_cpu[MAX_SAMPLES];
    enum { FRAMES_IN_FLIGHT = 2 };
    GLsync in_flight[FRAMES_IN_FLIGHT] = {0};
    mat4 projection;
    glm_perspective(glm_rad(60.0f), (float)o->width / (float)o->height, 0.1f, 50.0f, projection);
    /* One frame past the profiled ones: a profiled frame's figures are
     * collected at a later frame's start once the GPU has run it (NVIDIA's
     * runs behind: without it the profile was often empty there). */
    for (uint32_t f = 0; f <= collecting; ++f) {
        GLuint *stamps = queries + 3 * f;
        GLsync *oldest = &in_flight[f % FRAMES_IN_FLIGHT];
        if (*oldest) {
            glClientWaitSync(*oldest, GL_SYNC_FLUSH_COMMANDS_BIT, UINT64_MAX);
            glDeleteSync(*oldest);
        }
        if (f == collecting) glFinish();
        if (f == (o->profile_timed ? o->warmup : o->warmup + o->frames)) {
            if (group.id) plume_draw_group_set_profiling(context, group, true);
            else plume_system_set_profiling(context, systems[0], true);
        }
        float angle = 0.01f * (float)f;
        mat4 view;
        glm_lookat((vec3){3.2f * sinf(angle), 0.6f, 3.2f * cosf(angle)}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
        plume_frame_desc frame = {.dt = 1.0f / 60.0f, .depth_texture = t->depth, .draw_path = path,
                                  .draw_resolution = resolution};
        memcpy(frame.view, view, sizeof frame.view);
        memcpy(frame.projection, projection, sizeof frame.projection);
        glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        /* Each timestamp flushed: Mesa's CPU rasterisers run what was issued
         * only then (a GPU's figures do not change). */
        glQueryCounter(stamps[0], GL_TIMESTAMP);
        glFlush();
        for (uint32_t i = 0; i < count; ++i)
            if (plume_system_update(context, systems[i], &frame) != PLUME_OK) return false;
        glQueryCounter(stamps[1], GL_TIMESTAMP);
        glFlush();
        double issue = bench_now_ms();
        if (group.id && plume_draw_group_draw(context, group, &frame) != PLUME_OK) return false;
        for (uint32_t i = 0; i < count && !group.id; ++i)
            if (plume_system_draw(context, systems[i], &frame) != PLUME_OK) return false;
        if (f >= o->warmup && f < o->warmup + o->frames) draw_cpu[f - o->warmup] = bench_now_ms() - issue;
        glQueryCounter(stamps[2], GL_TIMESTAMP);
        *oldest = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        glFlush();
    }
    for (uint32_t k = 0; k < FRAMES_IN_FLIGHT; ++k)
        if (in_flight[k]) glDeleteSync(in_flight[k]);
    for (uint32_t k = 0; k < o->frames; ++k) {
        const GLuint *stamps = queries + 3 * (o->warmup + k);
        updates[k] = bench_timestamps_ms(stamps[0], stamps[1]);
        draws[k] = bench_timestamps_ms(stamps[1], stamps[2]);
    }
    out->update_ms = bench_median(updates, o->frames);
    out->draw_ms = bench_median(draws, o->frames);
    out->draw_cpu_ms = bench_median(draw_cpu, o->frames);
    out->drawn = 0;
    for (uint32_t i = 0; i < count; ++i) {
        plume_readback readback = {0};
        plume_system_read_back(context, systems[i], &readback);
        out->drawn += readback.drawn_count;
    }
    glFinish();
    if (group.id) plume_draw_group_get_profile(context, group, &out->profile);
    else plume_system_get_profile(context, systems[0], &out->profile);
    memset(out->segments_by_quads, 0, sizeof out->segments_by_quads);
    out->ranks_needed = out->ranks_made = 0;
    /* The tiled per-rank counts are the context's: the trails' own only
     * where their draw was the frame's last. */
    if (how == ALONE && points > 0 && out->profile.draw_path == PLUME_DRAW_PATH_TILED) {
        plume_lab_trail_tiled_quads_drawn(context, systems[0], out->segments_by_quads);
        plume_lab_trail_tiled_ranks(context, systems[0], &out->ranks_needed, &out->ranks_made);
    }
    plume_lab_gpu_memory memory = {0};
    plume_lab_gpu_memory_of(context, systems[0], &memory);
    out->scratch_bytes = memory.shared_bytes;
    glDeleteQueries((GLsizei)(3 * (collecting + 1)), queries);
    free(queries);
    if (group.id) plume_draw_group_destroy(context, group);
    for (uint32_t i = 0; i < count; ++i) plume_system_destroy(context, systems[i]);
    return true;
}

int main(int argc, char **argv) {
    options o;
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: plume_trail_bench [--count N] [--points K] [--frames N] [--warmup N] [--size WxH] "
                        "[--rows TEXT] [--profile-timed 1] [--chunk K|unchunked]\n");
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
    target t = make_target(o.width, o.height);
    const plume_lab_tiled_knobs box = {.box_tiles = true}, whole_lists = {.whole_tile_lists = true},
                                each_as_tested = {.hit_lists = -1}, blend_pass = {.raster_blend = true},
                                whole_splats = {.whole_splat_batch = true};
    const struct {
        const char *name;
        uint32_t points;
        plume_draw_path path;
        plume_draw_resolution resolution;
        arrangement how;
        bool four_quads; /* every segment as PLUME_TRAIL_SUBDIVISIONS quads */
        const plume_lab_tiled_knobs *knobs; /* the trails' compositor knobs (NULL: the product's) */
        uint32_t tile_size; /* the tiled path's tiles (plume_system_set_tiled_options; 0: the default) */
    } rows[] = {
        {"no trail, raster", 0, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, ALONE, false, NULL, 0},
        {"no trail, tiled", 0, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, ALONE, false, NULL, 0},
        {"no trail, tiled, box", 0, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, ALONE, false, &box, 0},
        {"trail, raster", o.points, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, ALONE, false, NULL, 0},
        {"trail 4/seg, raster", o.points, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, ALONE, true, NULL, 0},
        {"trail, tiled", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, ALONE, false, NULL, 0},
        {"trail, tiled, blend pass", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, ALONE, false, &blend_pass, 0},
        {"trail, tiled, box", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, ALONE, false, &box, 0},
        {"trail, tiled, shade all", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, ALONE, false, &each_as_tested, 0},
        {"trail, tiled, 16, whole lists", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, ALONE, false, &whole_lists, 16},
        {"trail, tiled, tile 16", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, ALONE, false, NULL, 16},
        {"trail, tiled, whole splats", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, ALONE, false, &whole_splats, 0},
        {"trail 4/seg, tiled", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, ALONE, true, NULL, 0},
        {"trail, raster, 1/2", o.points, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_HALF, ALONE, false, NULL, 0},
        {"trail, tiled, 1/2", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_HALF, ALONE, false, NULL, 0},
        {"trail, tiled, 1/2, blend pass", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_HALF, ALONE, false, &blend_pass,
         0},
        {"trail, tiled, 1/2, box", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_HALF, ALONE, false, &box, 0},
        {"trail, tiled, 1/2, tile 16", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_HALF, ALONE, false, NULL, 16},
        {"trail, tiled, 1/2, whole splats", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_HALF, ALONE, false,
         &whole_splats, 0},
        {"trail 4/seg, tiled, 1/2", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_HALF, ALONE, true, NULL, 0},
        {"+smoke apart, raster", o.points, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, APART, false, NULL, 0},
        {"+smoke apart, tiled", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, APART, false, NULL, 0},
        {"+smoke group, raster", o.points, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, GROUPED, false, NULL, 0},
        {"+smoke group 4/seg, raster", o.points, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, GROUPED, true, NULL, 0},
        {"+smoke group, tiled", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, GROUPED, false, NULL, 0},
        {"+smoke group 4/seg, tiled", o.points, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, GROUPED, true, NULL, 0},
    };
    printf("GL: %s\n", headless_gl_describe());
    printf("%u particles, trails of %u points (a point every 1/60 s), %dx%d; medians of %u frames after %u\n",
           o.count, o.points, o.width, o.height, o.frames, o.warmup);
    double entries = o.points - 1 + 1;
    printf("trail memory: %.1f MB at creation (capacity x (16 K + 8 E)), + %.1f MB of radix scratch at 24 key bits\n",
           o.count * (16.0 * o.points + 8.0 * entries) / 1e6, o.count * entries * 17.0 / 1e6);
    /* The tiled path's per-rank buffers: a splat of 7 vec4s (this look's)
     * and a count, per triangle drawn (the ranks are dense: made for a quad
     * a pair of the particles drawn, grown to what frames need); each
     * pair's worst case was made for every pair before. */
    printf("tiled trail ranks: about 116 bytes each, made for 2 x the pairs drawn and grown to what frames need "
           "(the worst case, capacity x %.0f pairs x %d quads x 2 triangles: %.1f MB)\n", entries,
           PLUME_TRAIL_SUBDIVISIONS, o.count * entries * PLUME_TRAIL_SUBDIVISIONS * 2 * 116.0 / 1e6);
    printf("draw group of the trails and a smoke ball of %u squares: %.1f MB of records (capacity x (%.0f pairs + 1) "
           "x 96 bytes); its tiled ranks as the trails' (+ a square's one)\n",
           o.count, o.count * (entries + 1) * 96.0 / 1e6, entries);
    printf("| configuration              | drawn  | update GPU ms | draw GPU ms | draw CPU ms | drew with "
           "| tiled entries | overflowed | pairs at 1 / 2 / 4 quads    | scratch MB | ranks needed / made |\n");
    printf("|----------------------------|--------|---------------|-------------|-------------|-----------"
           "|---------------|------------|-----------------------------|------------|---------------------|\n");
    /* The last column: a tiled trail's pairs by the quads that drew, its
     * particles' own quads among those at 1. */
    enum { ROWS = sizeof rows / sizeof rows[0] };
    static result results[ROWS];
    for (size_t i = 0; i < ROWS; ++i) {
        result *r = &results[i];
        memset(r, 0, sizeof *r);
        if (!row_chosen(o.rows, rows[i].name)) continue;
        plume_lab_trail_full_subdivisions(rows[i].four_quads);
        if (!run(context, &o, rows[i].points, rows[i].path, rows[i].resolution, rows[i].how, rows[i].knobs,
                 rows[i].tile_size, &t, r)) {
            fprintf(stderr, "%s: failed\n", rows[i].name);
            return 1;
        }
        char quads[32] = "";
        const uint32_t *by = r->segments_by_quads;
        if (by[1] + by[2] + by[4] > 0) snprintf(quads, sizeof quads, "%u / %u / %u", by[1], by[2], by[4]);
        char ranks[32] = "";
        if (r->ranks_made > 0) snprintf(ranks, sizeof ranks, "%u / %u", r->ranks_needed, r->ranks_made);
        printf("| %-26s | %6u | %13.3f | %11.3f | %11.3f | %-9s | %13u | %7u/%-2d | %27s | %10.1f | %19s |\n",
               rows[i].name, r->drawn, r->update_ms, r->draw_ms, r->draw_cpu_ms,
               r->profile.draw_path == PLUME_DRAW_PATH_TILED ? "tiled" : "raster", r->profile.tiled_entries,
               r->profile.tiled_overflow_frames, PROFILED_FRAMES, quads, r->scratch_bytes / 1e6, ranks);
    }
    /* Where a tiled draw's time goes: the profile's sub-stages (means over
     * the profiled frames: a few after the timed ones, or with
     * --profile-timed the profile's window of the last ones profiled). */
    if (o.profile_timed) {
        uint32_t window = 0; /* the profile's frames: its window, or fewer */
        for (size_t i = 0; i < ROWS && !window; ++i) window = results[i].profile.stages[PLUME_STAGE_DRAW].samples;
        printf("\ntiled draws by stage, ms (means of the last %u profiled frames: the timed ones, profiled, and %d "
               "after):\n", window, PROFILED_FRAMES);
    } else
        printf("\ntiled draws by stage, ms (means of %d profiled frames):\n", PROFILED_FRAMES);
    printf("| configuration              | project | scan   | entries | tile sort | ranges | composite | resolve | blend  | "
           "down+up | whole draw |\n");
    printf("|----------------------------|---------|--------|---------|-----------|--------|-----------|---------|--------|"
           "---------|------------|\n");
    for (size_t i = 0; i < ROWS; ++i) {
        const plume_profile *p = &results[i].profile;
        if (p->draw_path != PLUME_DRAW_PATH_TILED) continue;
        double ms[PLUME_DRAW_STAGE_COUNT];
        for (int stage = 0; stage < PLUME_DRAW_STAGE_COUNT; ++stage) ms[stage] = p->draw_stages[stage].mean_ms;
        printf("| %-26s | %7.3f | %6.3f | %7.3f | %9.3f | %6.3f | %9.3f | %7.3f | %6.3f | %7.3f | %10.3f |\n",
               rows[i].name, ms[PLUME_DRAW_STAGE_PROJECT], ms[PLUME_DRAW_STAGE_SCAN], ms[PLUME_DRAW_STAGE_ENTRIES],
               ms[PLUME_DRAW_STAGE_TILE_SORT], ms[PLUME_DRAW_STAGE_RANGES], ms[PLUME_DRAW_STAGE_COMPOSITE],
               ms[PLUME_DRAW_STAGE_RESOLVE], ms[PLUME_DRAW_STAGE_BLEND],
               ms[PLUME_DRAW_STAGE_DOWNSAMPLE] + ms[PLUME_DRAW_STAGE_UPSAMPLE],
               p->stages[PLUME_STAGE_DRAW].mean_ms);
    }
    plume_context_destroy(context);
    return 0;
}
