/* The draw paths as peers behind one interface (render/draw.c picks one per
 * frame): the raster path (raster.c), the compute-tiled path (tiled.c) and
 * the fragment path's raster draw (fragment_draw.c). Each reads a system
 * through its particle view only and keeps its per-system state in an
 * attachment of the system (particle_view.h), made on its first draw and
 * freed with the system. Drawing at 1/2 or 1/4 is a wrapper around any
 * path's draw (lowres.h), not a path. What every path shares is here too:
 * the draw sub-stages, the blend, the frame's light and depth size, the
 * samplers. Not part of the API. */
#ifndef PLUME_RENDER_DRAW_PATH_H
#define PLUME_RENDER_DRAW_PATH_H

#include <cglm/cglm.h>

#include "particles/particle_view.h"

/* The frame a path draws: the host's descriptor, its checked matrices and
 * the scene depth's convention (plume_depth_convention, read once a draw). */
typedef struct draw_frame {
    const plume_frame_desc *desc;
    mat4 view, projection;
    uint32_t depth_convention;
} draw_frame;

/* Where a path draws, bound as the draw framebuffer: the host's (full
 * resolution) or a low-resolution target (lowres_target). */
typedef struct draw_target {
    int factor;              /* 1: the host's framebuffer; 2, 4: a low-resolution target */
    GLuint texture;          /* the low-resolution target's colour (0: the host's framebuffer) */
    int width, height;       /* its pixels (the host's: the viewport's size) */
    GLint viewport[4];       /* the host's viewport */
    GLint depth_function;    /* the host's */
    GLuint depth_texture;    /* the depth the draw tests and fades against (0: none, no fade) */
    int depth_origin[2];     /* the depth texel under the target's pixel 0, 0 */
    float depth_size[2];     /* the pixels depth_texture covers */
} draw_target;

/* An instanced draw's arguments: a DrawArraysIndirectCommand at `offset` of
 * `buffer`. A path given none draws the system's drawn count (its state
 * buffer at STATE_DRAW_ARGS_OFFSET). */
typedef struct draw_count {
    GLuint buffer;
    GLintptr offset;
} draw_count;

typedef struct draw_path {
    const char *name;
    /* Draws the view's particles (sorted by the last update) onto `target`.
     * The caller's scope saved PLUME_SCOPE_TEXTURES, with the raster state
     * neutral; the path saves in `scope` what else it binds. `count`: NULL,
     * or the arguments an instanced path draws with instead (a fallback's
     * share of a frame). PLUME_ERROR_GL_UNSUPPORTED, having drawn nothing,
     * where the path cannot be made on this GL (said once): the caller draws
     * with the fallback path. */
    plume_result (*draw)(const particle_view *view, const draw_frame *frame, const draw_target *target,
                         const draw_count *count, plume_gl_scope *scope);
} draw_path;

/* The paths (their files say what each does). */
extern const draw_path raster_draw_path, tiled_draw_path, fragment_raster_draw_path;
/* Trails (trail_draw.c): every path of a system with a trail. */
extern const draw_path trail_draw_path;
/* A mesh system's instanced meshes (mesh_draw.c, since 1.3): always this
 * path, at full resolution, whatever the frame's resolution; the frame's
 * path says whether its meshes small on screen may be rasterized in
 * compute (mesh_compute.h: not where it asks for PLUME_DRAW_PATH_RASTER). */
extern const draw_path mesh_draw_path;
/* The lab's baselines of the mesh draw (plume_lab_mesh_draw_set_options):
 * the speed-ups `lab_off` names left out of the view's system's draws from
 * the next on (its draw objects made again). */
enum { MESH_DRAW_LAB_NO_INSTANCE_PASS = 1u << 0, MESH_DRAW_LAB_NO_EARLY_DEPTH = 1u << 1 };
plume_result mesh_draw_set_lab_options(const particle_view *view, uint32_t lab_off);
/* The lab's read back of the last draw's instances per level
 * (plume_lab_mesh_draw_level_counts). */
void mesh_draw_read_level_counts(const particle_view *view, uint32_t counts[3]);
/* The lab's threshold of the compute raster (plume_lab_mesh_draw_set_compute_below;
 * negative: the module's) and its read back of the last draw's particles
 * rasterized in compute (plume_lab_mesh_draw_compute_count). */
plume_result mesh_draw_set_compute_below(const particle_view *view, float pixels);
uint32_t mesh_draw_read_compute_count(const particle_view *view);

/* ---- draw.c: what every path shares ---- */

/* The host's colour texture that a compute pass blends onto itself in place
 * of a blend pass (draw_find_host_colour). */
typedef struct host_colour {
    GLuint texture;
    GLint level;
    GLint origin[2]; /* the viewport's corner */
    GLint clip[4];   /* the pixels a blend pass would write: first x, y, past x, y */
} host_colour;
/* Whether draw buffer 0 of the bound draw framebuffer (an object, not the
 * default) is a level of an RGBA16F GL_TEXTURE_2D, the format the compute
 * passes read and write (an engine's usual scene colour), asked without
 * binding anything (direct state access): then *out names it, with the
 * pixels a blend pass over `viewport` would write (inside the scissor where
 * the host has it on). */
bool draw_find_host_colour(const plume_env *env, const GLint viewport[4], host_colour *out);
/* The host's colour on image unit 0 for a compute pass to read and write,
 * after a barrier for the host's own image stores to it, if its last writes
 * were those. */
void draw_bind_host_colour(const host_colour *host);
/* A sub-stage of the draw: its KHR_debug group ("plume draw: tiled
 * project", ...), always, and its GPU time in the profile while the view's
 * profiler is on. Ends pop what begins pushed. */
void draw_stage_begin(const particle_view *view, plume_draw_stage stage);
void draw_stage_end(const particle_view *view, plume_draw_stage stage);
/* The frame's light as the draw uses it (the direction normalised). */
frame_light draw_frame_light(const plume_frame_desc *frame);
/* The checks of what the host hands every draw (a system's or a group's),
 * logged under `caller`, PLUME_ERROR_INVALID_ARGUMENT: a negative
 * viewport_size; a depth_texture that is not a 2D depth texture
 * (particles_check_depth_texture) or is attached to the bound draw
 * framebuffer's depth (a feedback loop). Changes no state the host sees. */
plume_result draw_check_host_inputs(const plume_env *env, const char *caller, const plume_frame_desc *frame);
/* The current GL viewport has no pixel (a minimised window): the draw draws
 * nothing and returns PLUME_OK before it binds anything. */
bool draw_viewport_is_empty(void);
/* No light reaches a lit particle: no ambient term and no directional light
 * (a zero colour or a zero direction). */
bool draw_frame_is_dark(const plume_frame_desc *frame);
/* The host's framebuffer as a target: the current viewport and depth
 * function, the frame's depth texture covering frame->viewport_size
 * (default: the viewport). */
draw_target draw_host_target(const plume_frame_desc *frame);
/* What a draw runs: the tiled path or the raster one, at 1/`factor`. */
typedef struct draw_decision {
    bool tiled;
    int factor;
} draw_decision;
/* A compute-path frame's path and resolution: as it asks, or, for
 * PLUME_DRAW_PATH_AUTOMATIC (and zero), tiled where a depth texture and a
 * bound on the drawn count, `drawn_bound`, or the raster draw's measured
 * `fill` (its samples over the viewport's pixels, render/fill_probe.h; 0:
 * none) let it pay, at 1/2 where the frame's draw_quality may lower it and
 * the count pays for that (render/draw_tuning.h); tiled and the low
 * resolutions need the frame's depth texture (without one: raster at full
 * resolution). `kept` (NULL: none) is the automatic choice the same
 * system or group made last, which a choice near its threshold keeps
 * (draw_tuning.keep_share); the automatic choice made is written there.
 * `trail_ranks`: where trails are drawn, the tiled path's ranks a frame
 * makes at least (a quad a segment pair: its two triangles; 0: no trails):
 * past draw_tuning.trail_tiled_most_ranks the tiled path is taken only
 * where the frame asks for it. */
draw_decision draw_decide(const plume_frame_desc *frame, uint32_t drawn_bound, float fill, uint64_t trail_ranks,
                          draw_decision *kept);
/* The frame leaves the path to the module (PLUME_DRAW_PATH_AUTOMATIC or zero). */
bool draw_path_is_automatic(const plume_frame_desc *frame);
/* The path that drew and its resolution into `profiler`'s frame
 * (plume_profile.draw_path, draw_resolution). */
void draw_profile_choice(plume_profiler *profiler, bool tiled, int factor);
/* The pixels the frame's depth texture covers: viewport_size, or the
 * current viewport's size where it is not given. */
void draw_depth_size(const plume_frame_desc *frame, float size[2]);
/* The blend of every particle draw into the host's first draw buffer:
 * premultiplied colour over what is there (an additive part comes in the
 * source's alpha, which it lowers), both for colour and alpha. Draw buffer
 * 0's functions where the GL has indexed blending (the scope then saves only
 * those: on a 3.3 context with ARB_draw_buffers_blend, glBlendFunc would
 * change every buffer's and the scope restore buffer 0's), else all
 * buffers' at once (GL 3.3 without it: the fragment path). */
void draw_blend_premultiplied(const plume_env *env);
/* draw_blend_premultiplied, and the host's depth tested, not written. */
void draw_blend_particles_over_depth(const plume_env *env);
/* The particle draws' samplers (both GPU paths; glGenSamplers, GL 3.3): the
 * sprite's (trilinear, clamped) and the host depth's (nearest, no compare:
 * read raw, whatever the texture's compare mode). */
void draw_create_samplers(GLuint *sprite_sampler, GLuint *depth_sampler);
/* `texture` (2D) and `sampler` on texture unit `unit`. */
void draw_bind_texture(GLuint unit, GLuint texture, GLuint sampler);
/* The view's sprite, if any, through `sampler`: a 2D texture on unit 0, the
 * host's array on PLUME_TEXTURE_UNIT_SPRITE_ARRAY (the caller's scope saved
 * PLUME_SCOPE_TEXTURES). */
void draw_bind_sprite(const particle_view *view, GLuint sampler);

#endif
