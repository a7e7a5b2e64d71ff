/* Draw group benchmark: two systems of N particles each (default 512 K),
 * interleaved in one volume (smoke and fire), drawn each on its own and by
 * one draw group (plume_draw_group.h), in the same run and the same frames.
 *
 * Every frame updates both systems (even frames: each sorts its own list, as
 * separate draws need; odd frames: disable_sort, as a group that re-sorts
 * needs), then draws them separately into the offscreen target, then by the
 * group into it again. GL timestamps bracket each part, and the group's own
 * stages (gather, sort, draw) through its stage hook (render/draw_group.h,
 * internal); each frame is waited for before the next (so no frame's work
 * overlaps another's). Medians after a warm-up. After the timed frames the
 * group's order is read back once and checked: every drawn particle of both
 * systems once, keys ascending, equal keys by system and slot.
 *
 * Usage: plume_draw_group_bench [--count N] [--frames N] [--warmup N] [--size WxH]
 *                              [--resolution full|half|quarter] [--path raster|tiled|automatic]
 *   --path  both draws' plume_draw_path (default raster; tiled: the separate
 *           draws and the group's through the tiled path, since 1.3)
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
#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume_lab.h"
#include "bench_time.h"

enum { MAX_FRAMES = 2000 };

/* Timestamps of one frame, in order. */
enum {
    STAMP_UPDATE,
    STAMP_SEPARATE,
    STAMP_GATHER,
    STAMP_SORT,
    STAMP_DRAW,
    STAMP_GROUP_END,
    STAMPS
};

typedef struct stamp_hook {
    GLuint *queries;
    int next;
} stamp_hook;

/* The group's stage hook: a timestamp before gather, sort, draw and after. */
static void stamp(void *user, const char *stage) {
    (void)stage;
    stamp_hook *h = user;
    glQueryCounter(h->queries[h->next++], GL_TIMESTAMP);
}

/* A ball of `count` long-lived particles round `centre`, drifting in curl
 * noise: smoke (premultiplied, grey) or fire (an additive part over life). */
static plume_system_desc cloud(uint32_t count, float x, bool fire) {
    plume_system_desc d = {.capacity = count, .seed = fire ? 7u : 3u};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .position = {x, 0, 0}, .extents = {1.2f},
                                         .burst_count = count, .lifetime = {1000, 1000}, .speed = {0, 0.05f},
                                         .spread = 3.14159f, .size = {0.015f, 0.03f}};
    d.forces = (plume_forces){.drag = 0.5f, .turbulence = 0.3f, .turbulence_scale = 1.0f, .turbulence_speed = 0.2f};
    if (fire) {
        d.blend_mode = PLUME_BLEND_PREMULTIPLIED_ADDITIVE;
        d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {1.0f, 0.5f, 0.1f, 0.5f}}}};
    } else {
        d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {0.5f, 0.5f, 0.55f, 0.3f}}}};
    }
    return d;
}

typedef struct options {
    uint32_t count, frames, warmup, resolution, path;
    int width, height;
} options;

static bool parse_options(int argc, char **argv, options *o) {
    *o = (options){.count = 512u * 1024u, .frames = 60, .warmup = 20, .width = 1280, .height = 720,
                   .path = PLUME_DRAW_PATH_RASTER};
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *arg = argv[i], *value = argv[i + 1];
        if (strcmp(arg, "--count") == 0) o->count = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--frames") == 0) o->frames = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--warmup") == 0) o->warmup = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--size") == 0) {
            if (sscanf(value, "%dx%d", &o->width, &o->height) != 2) return false;
        } else if (strcmp(arg, "--resolution") == 0) {
            o->resolution = strcmp(value, "half") == 0 ? PLUME_DRAW_HALF
                            : strcmp(value, "quarter") == 0 ? PLUME_DRAW_QUARTER
                                                             : PLUME_DRAW_FULL;
        } else if (strcmp(arg, "--path") == 0) {
            o->path = strcmp(value, "tiled") == 0       ? PLUME_DRAW_PATH_TILED
                      : strcmp(value, "automatic") == 0 ? PLUME_DRAW_PATH_AUTOMATIC
                                                        : PLUME_DRAW_PATH_RASTER;
        } else {
            return false;
        }
    }
    if (argc % 2 == 0) return false;
    return o->count > 0 && o->count <= (1u << 26) && o->frames > 0 && o->frames <= MAX_FRAMES && o->width > 0 &&
           o->height > 0;
}

/* The group's order against both systems' readbacks (see the top). */
static bool order_ok(plume_context *context, plume_draw_group group, const plume_system *systems, uint32_t capacity) {
    plume_readback rb[2];
    uint32_t drawn = 0;
    unsigned char *seen[2];
    for (int s = 0; s < 2; ++s) {
        rb[s] = (plume_readback){.draw_order = malloc(sizeof(uint32_t) * capacity)};
        if (plume_system_read_back(context, systems[s], &rb[s]) != PLUME_OK) return false;
        drawn += rb[s].drawn_count;
        seen[s] = calloc(capacity, 1);
        for (uint32_t i = 0; i < rb[s].drawn_count; ++i) seen[s][rb[s].draw_order[i]] = 1;
    }
    plume_draw_group_entry *entries = malloc(sizeof *entries * (2 * (size_t)capacity));
    uint32_t count = 0;
    bool ok = plume_draw_group_read_back(context, group, entries, 2 * capacity, &count) == PLUME_OK && count == drawn;
    for (uint32_t i = 0; ok && i < count; ++i) {
        const plume_draw_group_entry *e = &entries[i];
        ok = e->system_index < 2 && e->slot < capacity && seen[e->system_index][e->slot] == 1;
        if (ok) seen[e->system_index][e->slot] = 2;
        if (ok && i > 0) {
            const plume_draw_group_entry *p = &entries[i - 1];
            ok = p->key < e->key ||
                 (p->key == e->key && (p->system_index < e->system_index ||
                                       (p->system_index == e->system_index && p->slot < e->slot)));
        }
    }
    printf("group order read back: %u entries (%u + %u drawn), %s\n", count, rb[0].drawn_count, rb[1].drawn_count,
           ok ? "ok: every drawn particle once, back to front, ties by system and slot" : "WRONG");
    for (int s = 0; s < 2; ++s) {
        free(rb[s].draw_order);
        free(seen[s]);
    }
    free(entries);
    return ok;
}

int main(int argc, char **argv) {
    options o;
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: plume_draw_group_bench [--count N] [--frames N] [--warmup N] [--size WxH]"
                        " [--resolution full|half|quarter] [--path raster|tiled|automatic]\n");
        return 2;
    }
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "no headless GL context: %s\n", error);
        return 1;
    }
    printf("GL: %s\n2 systems x %u particles, %dx%d, resolution %u, path %s, %u frames after %u warm-up, median GPU "
           "ms\n",
           headless_gl_describe(), o.count, o.width, o.height, o.resolution,
           o.path == PLUME_DRAW_PATH_TILED ? "tiled" : o.path == PLUME_DRAW_PATH_AUTOMATIC ? "automatic" : "raster",
           o.frames, o.warmup);
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

    plume_system systems[2];
    plume_system_desc smoke = cloud(o.count, -0.4f, false), fire = cloud(o.count, 0.4f, true);
    if (plume_system_create(context, &smoke, &systems[0]) != PLUME_OK ||
        plume_system_create(context, &fire, &systems[1]) != PLUME_OK)
        return 1;
    plume_draw_group group;
    plume_draw_group_desc group_desc = {.systems = systems, .system_count = 2};
    if (plume_draw_group_create(context, &group_desc, &group) != PLUME_OK) return 1;
    GLuint queries[STAMPS + 1];
    glGenQueries(STAMPS + 1, queries);
    stamp_hook hook = {.queries = queries};
    plume_lab_draw_group_set_stage_hook(context, group, stamp, &hook);

    static double update_sorted[MAX_FRAMES], update_unsorted[MAX_FRAMES], separate[MAX_FRAMES];
    static double gather[MAX_FRAMES], sort[MAX_FRAMES], draw[MAX_FRAMES], grouped[MAX_FRAMES];
    int sorted_frames = 0, unsorted_frames = 0, group_frames = 0;
    for (uint32_t f = 0; f < o.warmup + o.frames; ++f) {
        float angle = 0.01f * (float)f;
        mat4 view, projection;
        glm_lookat((vec3){5.0f * sinf(angle), 1.0f, 5.0f * cosf(angle)}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
        glm_perspective(0.9f, (float)o.width / (float)o.height, 0.1f, 100.0f, projection);
        plume_frame_desc frame = {.dt = 1.0f / 60.0f, .depth_texture = scene_depth, .draw_resolution = o.resolution,
                                  .disable_sort = f % 2 == 1, .draw_path = o.path};
        memcpy(frame.view, view, sizeof frame.view);
        memcpy(frame.projection, projection, sizeof frame.projection);
        glQueryCounter(queries[STAMP_UPDATE], GL_TIMESTAMP);
        for (int s = 0; s < 2; ++s) plume_system_update(context, systems[s], &frame);
        glQueryCounter(queries[STAMP_SEPARATE], GL_TIMESTAMP);
        glClearColor(0.05f, 0.05f, 0.08f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glQueryCounter(queries[STAMPS], GL_TIMESTAMP); /* after the clear */
        for (int s = 0; s < 2; ++s) plume_system_draw(context, systems[s], &frame);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        hook.next = STAMP_GATHER;
        plume_draw_group_draw(context, group, &frame);
        if (hook.next != STAMP_GROUP_END + 1) {
            fprintf(stderr, "the group's draw did not run its stages\n");
            return 1;
        }
        GLuint64 t[STAMPS + 1];
        for (int q = 0; q <= STAMPS; ++q) glGetQueryObjectui64v(queries[q], GL_QUERY_RESULT, &t[q]);
        if (f < o.warmup) continue;
        double update_ms = (double)(t[STAMP_SEPARATE] - t[STAMP_UPDATE]) * 1e-6;
        if (f % 2 == 0) {
            update_sorted[sorted_frames] = update_ms;
            separate[sorted_frames++] = (double)(t[STAMP_GATHER] - t[STAMPS]) * 1e-6;
        } else {
            update_unsorted[unsorted_frames++] = update_ms;
        }
        gather[group_frames] = (double)(t[STAMP_SORT] - t[STAMP_GATHER]) * 1e-6;
        sort[group_frames] = (double)(t[STAMP_DRAW] - t[STAMP_SORT]) * 1e-6;
        draw[group_frames] = (double)(t[STAMP_GROUP_END] - t[STAMP_DRAW]) * 1e-6;
        grouped[group_frames++] = (double)(t[STAMP_GROUP_END] - t[STAMP_GATHER]) * 1e-6;
    }
    /* The separate draws' time includes the group's clear (between its last
     * draw and the gather stamp): a few microseconds. */
    double m_sorted = bench_median(update_sorted, sorted_frames), m_unsorted = bench_median(update_unsorted, unsorted_frames);
    double m_separate = bench_median(separate, sorted_frames), m_group = bench_median(grouped, group_frames);
    double m_gather = bench_median(gather, group_frames), m_sort = bench_median(sort, group_frames);
    double m_draw = bench_median(draw, group_frames);
    printf("\n%-58s %9s\n", "", "median ms");
    printf("%-58s %9.4f\n", "update x2, each system sorting its own list", m_sorted);
    printf("%-58s %9.4f\n", "update x2, disable_sort (a group re-sorts)", m_unsorted);
    printf("%-58s %9.4f\n", "  so the systems' two sorts", m_sorted - m_unsorted);
    printf("%-58s %9.4f\n", "separate draws x2 (each system's own)", m_separate);
    printf("%-58s %9.4f\n", "group draw: gather (both systems)", m_gather);
    printf("%-58s %9.4f\n", "group draw: sort (one list of both)", m_sort);
    printf("%-58s %9.4f\n", "group draw: draw (the path's draw)", m_draw);
    printf("%-58s %9.4f\n", "group draw: total", m_group);
    printf("%-58s %9.4f\n", "frame, separate: sorted updates + separate draws", m_sorted + m_separate);
    printf("%-58s %9.4f\n", "frame, grouped: unsorted updates + group draw", m_unsorted + m_group);
    printf("%-58s %9.3f\n", "grouped frame / separate frame", (m_unsorted + m_group) / (m_sorted + m_separate));
    printf("%-58s %9.3f\n", "group's sort / the systems' two sorts", m_sort / (m_sorted - m_unsorted));
    bool ok = order_ok(context, group, systems, o.count);
    glDeleteQueries(STAMPS + 1, queries);
    plume_draw_group_destroy(context, group);
    for (int s = 0; s < 2; ++s) plume_system_destroy(context, systems[s]);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &framebuffer);
    GLuint textures[3] = {color, depth, scene_depth};
    glDeleteTextures(3, textures);
    plume_context_destroy(context);
    headless_gl_destroy(&gl);
    return ok ? 0 : 1;
}
