/* Mesh particles benchmark (plume_mesh.h): N particles (default 100 K), each
 * an 80-triangle lit mesh (a sphere of 5 rings x 8 segments), in a ball in
 * front of the camera, drawn at WxH (default 1280x720) into an offscreen
 * RGBA8 framebuffer with a depth buffer; beside them the same particles as
 * lit sprites (no rotation: the baseline of simulate). Every system lives in
 * the same run, updated and drawn each frame, timed by its own profiler;
 * medians of each stage over the frames after the warm-up. The opaque mesh
 * system drawn by the raster back end alone (the compute raster off), then
 * with each of the draw's levels and culling (plume_mesh_lod) alone and all
 * together: culling by the frustum (the ball is all in view: what the test
 * costs), the back faces culled (the rock is closed), the coarse mesh below
 * --coarse-below pixels, the impostors below --impostor-below; then the
 * compute raster (render/mesh_compute.h) at the module's threshold, at 16
 * and 32 pixels, and with the back faces culled; then behind a wall that
 * hides the ball's far half on the left of the screen (in the depth buffer,
 * and given as the frame's depth_texture): the raster back end, culling by
 * the depth alone, all together, and the compute raster. One table:
 * simulate, sort and draw GPU ms per system, the draw's ratio to the raster
 * back end's (the same scene's), the instances the last frame drew at each
 * level and in compute, and simulate with rotation over simulate without.
 * The target on an H100: the opaque mesh draw <= 2 ms, simulate with
 * rotation <= 1.3x without.
 *
 * Usage: plume_mesh_bench [--count N] [--frames N] [--warmup N] [--size WxH]
 *                         [--coarse-below PIXELS] [--impostor-below PIXELS]
 * GPU times need a GPU: on llvmpipe they say nothing. */
#define _POSIX_C_SOURCE 200809L
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cglm/cglm.h>

#include "../host/gl_texture.h"
#include "../host/headless_gl.h"
#include "bench_time.h"
#include "mesh_reference.h"
#include "plume/plume_particles.h"
#include "plume_lab.h"

enum { MAX_FRAMES = 4000, PROFILES_AT_ONCE = 64 };

/* A row: the kind of system (0 sprites, 1 opaque mesh), its levels
 * (coarse, impostors, culling: from the options), whether the wall is in
 * the scene, the compute raster's threshold (plume_lab_mesh_draw_set_compute_below:
 * 0 off, the raster back end alone; -1 the module's; else pixels), and the
 * row whose draw it is compared with (-1: none). */
typedef struct row {
    const char *name;
    int kind;
    bool coarse, impostors, cull, back_faces, wall;
    float compute_below;
    int baseline;
} row;

static const row ROWS[] = {
    {"sprites, lit (no rotation)", 0, false, false, false, false, false, 0, -1},
    {"meshes: raster back end", 1, false, false, false, false, false, 0, 1},
    {"  + frustum culling alone", 1, false, false, true, false, false, 0, 1},
    {"  + back faces culled alone", 1, false, false, false, true, false, 0, 1},
    {"  + coarse mesh alone", 1, true, false, false, false, false, 0, 1},
    {"  + impostors alone", 1, false, true, false, false, false, 0, 1},
    {"  all together", 1, true, true, true, true, false, 0, 1},
    {"compute raster (default)", 1, false, false, false, false, false, -1, 1},
    {"  compute below 16 px", 1, false, false, false, false, false, 16, 1},
    {"  compute below 32 px", 1, false, false, false, false, false, 32, 1},
    {"  compute, back faces culled", 1, false, false, false, true, false, -1, 1},
    {"behind a wall: raster back end", 1, false, false, false, false, true, 0, 11},
    {"  + depth culling alone", 1, false, false, true, false, true, 0, 11},
    {"  all together", 1, true, true, true, true, true, 0, 11},
    {"  compute raster (default)", 1, false, false, false, false, true, -1, 11},
};
enum { SYSTEMS = sizeof ROWS / sizeof ROWS[0], TODAY = 1, ALL_TOGETHER = 6, COMPUTE = 7 };

typedef struct options {
    uint32_t count, frames, warmup;
    int width, height;
    float coarse_below, impostor_below;
} options;

static bool parse_options(int argc, char **argv, options *o) {
    *o = (options){.count = 100000, .frames = 300, .warmup = 60, .width = 1280, .height = 720,
                   .coarse_below = 24.0f, .impostor_below = 6.0f};
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *arg = argv[i], *value = argv[i + 1];
        if (strcmp(arg, "--count") == 0) o->count = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--frames") == 0) o->frames = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--warmup") == 0) o->warmup = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--coarse-below") == 0) o->coarse_below = strtof(value, NULL);
        else if (strcmp(arg, "--impostor-below") == 0) o->impostor_below = strtof(value, NULL);
        else if (strcmp(arg, "--size") == 0) {
            if (sscanf(value, "%dx%d", &o->width, &o->height) != 2) return false;
        } else return false;
    }
    return argc % 2 == 1 && o->count > 0 && o->frames > 0 && o->frames <= MAX_FRAMES && o->width > 0 &&
           o->height > 0 && o->coarse_below >= 0.0f && o->impostor_below >= 0.0f;
}

/* A ball of radius 3 of long-lived particles drifting slowly, seen from 8
 * units away: every particle on screen, a mesh 4 to 23 pixels across
 * (about 8 at the ball's centre). */
static plume_system_desc ball(uint32_t count) {
    plume_system_desc d = {.capacity = count, .seed = 1234, .lit = true};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {3.0f}, .burst_count = count,
                                         .lifetime = {1e6f, 1e6f}, .speed = {0.01f, 0.1f}, .spread = 3.14159f,
                                         .size = {0.06f, 0.1f}, .position = {0, 0, -8}};
    return d;
}

typedef struct timings {
    double stage[PLUME_STAGE_COUNT][MAX_FRAMES];
    uint32_t samples[PLUME_STAGE_COUNT];
    uint64_t next_frame;
} timings;

static void collect(plume_context *context, plume_system system, timings *t, uint64_t warmup) {
    plume_frame_profile frames[PROFILES_AT_ONCE];
    uint32_t n;
    while ((n = plume_system_get_frame_profiles(context, system, t->next_frame, frames, PROFILES_AT_ONCE)) > 0) {
        for (uint32_t i = 0; i < n; ++i) {
            t->next_frame = frames[i].frame + 1;
            if (frames[i].frame < warmup) continue;
            for (int s = 0; s < PLUME_STAGE_COUNT; ++s)
                if (frames[i].stage_mask & (1u << s) && t->samples[s] < MAX_FRAMES)
                    t->stage[s][t->samples[s]++] = frames[i].stage_ms[s];
        }
        if (n < PROFILES_AT_ONCE) break;
    }
}

static double median_of(timings *t, plume_stage stage) {
    return t->samples[stage] ? bench_median(t->stage[stage], t->samples[stage]) : 0.0;
}

/* A depth texture (and a framebuffer reading it) of a wall 7 units in front
 * of the camera over the left half of the screen, the background elsewhere:
 * it hides the far half of the ball's left side. */
static GLuint make_wall(const mat4 projection, int width, int height, GLuint *framebuffer) {
    vec4 clip;
    glm_mat4_mulv((vec4 *)projection, (vec4){0, 0, -7.0f, 1}, clip);
    float wall_depth = clip[2] / clip[3] * 0.5f + 0.5f;
    float *depths = malloc(sizeof(float) * (size_t)width * (size_t)height);
    if (!depths) return 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) depths[(size_t)y * (size_t)width + (size_t)x] = x < width / 2 ? wall_depth : 1.0f;
    GLuint texture = host_texture_2d(GL_DEPTH_COMPONENT32F, width, height, "bench wall");
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_DEPTH_COMPONENT, GL_FLOAT, depths);
    free(depths);
    GLuint draw = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, (GLint *)&draw);
    glGenFramebuffers(1, framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, *framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, texture, 0);
    glReadBuffer(GL_NONE);
    glDrawBuffer(GL_NONE);
    glBindFramebuffer(GL_FRAMEBUFFER, draw);
    return texture;
}

int main(int argc, char **argv) {
    options o;
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: plume_mesh_bench [--count N] [--frames N] [--warmup N] [--size WxH] "
                        "[--coarse-below PIXELS] [--impostor-below PIXELS]\n");
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
    mesh_arrays rock = mesh_reference_sphere(5, 8); /* 80 triangles */
    plume_system systems[SYSTEMS];
    for (int s = 0; s < SYSTEMS; ++s) {
        plume_system_desc d = ball(o.count);
        if (ROWS[s].kind > 0) {
            d.meshes.count = 1;
            d.meshes.meshes[0] = mesh_reference_desc(&rock);
            d.meshes.angular_speed = (plume_range){0.5f, 4.0f};
            d.meshes.angular_drag = 0.1f;
            d.meshes.lod = (plume_mesh_lod){.coarse_below_pixels = ROWS[s].coarse ? o.coarse_below : 0.0f,
                                            .impostor_below_pixels = ROWS[s].impostors ? o.impostor_below : 0.0f,
                                            .cull = ROWS[s].cull, .cull_back_faces = ROWS[s].back_faces};
        }
        if (plume_system_create(context, &d, &systems[s]) != PLUME_OK) return 1;
        plume_system_set_profiling(context, systems[s], true);
        if (ROWS[s].kind > 0 && plume_lab_mesh_draw_set_compute_below(context, systems[s], ROWS[s].compute_below))
            return 1;
    }
    GLuint color = host_texture_2d(GL_RGBA8, o.width, o.height, "bench colour");
    GLuint depth = host_texture_2d(GL_DEPTH_COMPONENT32F, o.width, o.height, "bench depth");
    GLuint framebuffer = 0;
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
    glViewport(0, 0, o.width, o.height);
    glEnable(GL_DEPTH_TEST);
    mat4 view, projection;
    glm_mat4_identity(view);
    glm_perspective(glm_rad(50.0f), (float)o.width / (float)o.height, 0.5f, 100.0f, projection);
    GLuint wall_framebuffer = 0, wall = make_wall(projection, o.width, o.height, &wall_framebuffer);
    plume_frame_desc frame = {.dt = 1.0f / 60.0f, .light_direction = {0.4f, 0.8f, 0.45f},
                              .light_color = {1, 0.95f, 0.9f}, .ambient_color = {0.2f, 0.22f, 0.25f}};
    memcpy(frame.view, view, sizeof frame.view);
    memcpy(frame.projection, projection, sizeof frame.projection);
    static timings t[SYSTEMS];
    for (uint32_t f = 0; f < o.warmup + o.frames; ++f) {
        for (int s = 0; s < SYSTEMS; ++s) {
            plume_frame_desc this_frame = frame;
            glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
            if (ROWS[s].wall) { /* the wall's depth in the depth buffer, and as the frame's depth texture */
                glBindFramebuffer(GL_READ_FRAMEBUFFER, wall_framebuffer);
                glBlitFramebuffer(0, 0, o.width, o.height, 0, 0, o.width, o.height, GL_DEPTH_BUFFER_BIT, GL_NEAREST);
                glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
                this_frame.depth_texture = wall;
            }
            if (plume_system_update(context, systems[s], &this_frame) != PLUME_OK ||
                plume_system_draw(context, systems[s], &this_frame) != PLUME_OK)
                return 1;
        }
        glFinish(); /* at most one frame in flight: the stages never overlap another system's */
        if (f % 16 == 15)
            for (int s = 0; s < SYSTEMS; ++s) collect(context, systems[s], &t[s], o.warmup);
    }
    for (int k = 0; k < 8; ++k) { /* the last frames' queries */
        glFinish();
        for (int s = 0; s < SYSTEMS; ++s) collect(context, systems[s], &t[s], o.warmup);
    }
    plume_profile profile;
    plume_system_get_profile(context, systems[TODAY], &profile);
    printf("GL: %s\n", headless_gl_describe());
    printf("%u particles a system (%u drawn), meshes of %u triangles, %dx%d; coarse below %.1f px, impostors below "
           "%.1f px; medians of %u frames after %u\n",
           o.count, profile.drawn_count, rock.index_count / 3, o.width, o.height, o.coarse_below, o.impostor_below,
           t[TODAY].samples[PLUME_STAGE_DRAW], o.warmup);
    printf("| system                         | simulate ms | sort ms | draw ms | draw / raster's "
           "| full / coarse / impostors | in compute |\n");
    printf("|--------------------------------|-------------|---------|---------|-----------------"
           "|---------------------------|------------|\n");
    for (int s = 0; s < SYSTEMS; ++s) {
        double draw = median_of(&t[s], PLUME_STAGE_DRAW);
        double base = ROWS[s].baseline >= 0 ? median_of(&t[ROWS[s].baseline], PLUME_STAGE_DRAW) : 0.0;
        char ratio[32] = "", levels[64] = "";
        if (base > 0.0) snprintf(ratio, sizeof ratio, "%.3fx", draw / base);
        uint32_t counts[3], in_compute = 0;
        if (ROWS[s].kind > 0 && plume_lab_mesh_draw_level_counts(context, systems[s], counts) == PLUME_OK &&
            plume_lab_mesh_draw_compute_count(context, systems[s], &in_compute) == PLUME_OK)
            snprintf(levels, sizeof levels, "%u / %u / %u", counts[0], counts[1], counts[2]);
        printf("| %-30s | %11.3f | %7.3f | %7.3f | %15s | %25s | %10u |\n", ROWS[s].name,
               median_of(&t[s], PLUME_STAGE_SIMULATE), median_of(&t[s], PLUME_STAGE_SORT), draw, ratio, levels,
               in_compute);
    }
    double without = median_of(&t[0], PLUME_STAGE_SIMULATE);
    double with = median_of(&t[TODAY], PLUME_STAGE_SIMULATE);
    printf("simulate with rotation / without: %.2fx (target <= 1.3x); opaque mesh draw by the raster back end %.3f ms, "
           "its levels all together %.3f ms, the compute raster (default) %.3f ms (target <= 2 ms)\n",
           without > 0.0 ? with / without : 0.0, median_of(&t[TODAY], PLUME_STAGE_DRAW),
           median_of(&t[ALL_TOGETHER], PLUME_STAGE_DRAW), median_of(&t[COMPUTE], PLUME_STAGE_DRAW));
    for (int s = 0; s < SYSTEMS; ++s) plume_system_destroy(context, systems[s]);
    plume_context_destroy(context);
    mesh_reference_free(&rock);
    return 0;
}
