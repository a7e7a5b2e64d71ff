/* What the draw group's two files share (draw_group.c: the draw, its
 * profile and read back; draw_group_resources.c: the group's creation, GL
 * objects and end). Not part of the API. */
#ifndef PLUME_RENDER_DRAW_GROUP_INTERNAL_H
#define PLUME_RENDER_DRAW_GROUP_INTERNAL_H

#include "particles/particles_internal.h"
#include "plume/plume_draw_group.h"
#include "render/draw_group.h"

enum { GROUP_RECORD_BYTES = 16 * PLUME_GROUP_RECORD_VEC4S };

typedef struct group_locations {
    GLint prepare_system;
    GLint gather_system, gather_first_record, gather_view, gather_camera_right, gather_camera_up, gather_eye,
        gather_by_distance, gather_light_direction;
    GLint draw_view, draw_projection, draw_soft_fade, draw_viewport_size, draw_inverse_projection, draw_light_color,
        draw_ambient_color;
} group_locations;

typedef struct group_state {
    plume_env env;
    plume_context *context;
    uint32_t system_count;
    plume_system systems[PLUME_DRAW_GROUP_MAX_SYSTEMS];
    uint32_t first_record[PLUME_DRAW_GROUP_MAX_SYSTEMS]; /* the capacities before each system's */
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
    /* The low resolutions run lowres_begin and lowres_end on this stand-in
     * for a system: the group's environment, state buffer (its drawn count
     * where a system's is), vertex array and depth sampler, its own
     * low-resolution targets, no profiler. */
    system_state *lowres_host;
    plume_profiler *profiler; /* its frames are the group's draws */
    uint64_t draws;
    draw_group_stage_hook stage_hook; /* benchmarks only (render/draw_group.h) */
    void *stage_hook_user;
} group_state;

/* The group's class in its context's handle table. */
extern const plume_object_class draw_group_class;

/* PLUME_ERROR_INVALID_ARGUMENT, with the message `why` under `caller`. */
static inline plume_result group_refuse(const plume_env *env, const char *caller, const char *why) {
    plume_log(env, PLUME_LOG_ERROR, "%s: %s", caller, why);
    return PLUME_ERROR_INVALID_ARGUMENT;
}

#endif
