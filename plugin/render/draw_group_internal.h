/* What the draw group's two files share (draw_group.c: the draw, its
 * profile and read back; draw_group_resources.c: the group's creation, GL
 * objects and end). Not part of the API. */
#ifndef PLUME_RENDER_DRAW_GROUP_INTERNAL_H
#define PLUME_RENDER_DRAW_GROUP_INTERNAL_H

#include "plume/plume_draw_group.h"
#include "render/draw_group.h"
#include "render/lowres.h"
#include "render/particle_uniforms.h"
#include "render/tiled.h"

enum { GROUP_RECORD_BYTES = 16 * PLUME_GROUP_RECORD_VEC4S };

/* Each program's uniforms, in the order of its name table
 * (draw_group_resources.c). */
enum { PREPARE_SYSTEM, PREPARE_UNIFORMS };
enum {
    GATHER_SYSTEM, GATHER_FIRST_RECORD, GATHER_VIEW, GATHER_CAMERA_RIGHT, GATHER_CAMERA_UP, GATHER_EYE,
    GATHER_BY_DISTANCE, GATHER_LIGHT_DIRECTION, GATHER_UNIFORMS
};
enum {
    DRAW_VIEW, DRAW_PROJECTION, DRAW_SOFT_FADE, DRAW_VIEWPORT_SIZE, DRAW_INVERSE_PROJECTION, DRAW_LIGHT_COLOR,
    DRAW_AMBIENT_COLOR, DRAW_SPRITES, DRAW_SCENE_DEPTH, DRAW_LAYER, DRAW_SYSTEM_FLIPBOOK, DRAW_SYSTEM_LIT,
    DRAW_FIRST_RECORD, DRAW_DEPTH_CONVENTION, DRAW_UNIFORMS
};

typedef struct group_locations {
    GLint prepare[PREPARE_UNIFORMS], gather[GATHER_UNIFORMS], draw[DRAW_UNIFORMS];
    particle_uniforms gather_appearance; /* the systems' appearance, set per system in each gather */
} group_locations;

typedef struct group_state {
    plume_env env;
    plume_context *context;
    uint32_t system_count;
    plume_system systems[PLUME_DRAW_GROUP_MAX_SYSTEMS];
    uint32_t first_record[PLUME_DRAW_GROUP_MAX_SYSTEMS]; /* the capacities before each system's */
    /* The draw's per-system uniforms (set at each draw: groups of the same
     * looks share their programs): the sprite layer (-1: none), the flipbook's
     * columns and rows, lit. */
    GLint system_layer[PLUME_DRAW_GROUP_MAX_SYSTEMS];
    GLuint system_flipbook[2 * PLUME_DRAW_GROUP_MAX_SYSTEMS];
    GLint system_lit[PLUME_DRAW_GROUP_MAX_SYSTEMS];
    uint32_t total_capacity;
    bool by_distance;
    plume_sorter sorter;
    GLuint prepare_program, gather_program, draw_program;
    group_locations at;
    GLuint state_buffer;   /* PLUME_GROUP_STATE_WORDS: see the layout */
    GLuint pairs_buffer;   /* total_capacity {key, value} pairs */
    GLuint records_buffer; /* total_capacity records */
    GLuint sprite_array;   /* a layer per textured system; 0: none */
    GLuint sprite_sampler, depth_sampler, vertex_array;
    /* The low resolutions: the wrapper's state, run with the group's own
     * view (group_view). */
    lowres_state lowres;
    /* The tiled path's state (PLUME_DRAW_PATH_TILED), made on its first
     * tiled draw for the union of the systems' looks. */
    tiled_renderer tiled;
    uint32_t look;
    bool warned_lowres_without_depth, warned_lit_without_light, warned_tiled_without_depth;
    plume_profiler *profiler; /* its frames are the group's draws */
    uint64_t draws;
    draw_group_stage_hook stage_hook; /* benchmarks only (render/draw_group.h) */
    void *stage_hook_user;
} group_state;

/* The group's class in its context's handle table. */
extern const plume_object_class draw_group_class;

/* The group as the low-resolution wrapper sees it: its environment, its
 * state buffer (its drawn count where a system's is) and its profiler. */
static inline particle_view group_view(group_state *g) {
    return (particle_view){.env = &g->env, .context = g->context, .state_buffer = g->state_buffer,
                           .profiler = g->profiler};
}

/* PLUME_ERROR_INVALID_ARGUMENT, with the message `why` under `caller`. */
static inline plume_result group_refuse(const plume_env *env, const char *caller, const char *why) {
    plume_log(env, PLUME_LOG_ERROR, "%s: %s", caller, why);
    return PLUME_ERROR_INVALID_ARGUMENT;
}

#endif
