/* What the draw group's files share (draw_group.c: the draw, its profile
 * and read back; draw_group_resources.c: the group's creation, GL objects
 * and end; batch_draw.c: a batch's draw, a group of any number of systems
 * kept by the context). Not part of the API. */
#ifndef PLUME_RENDER_DRAW_GROUP_INTERNAL_H
#define PLUME_RENDER_DRAW_GROUP_INTERNAL_H

#include "plume/plume_draw_group.h"
#include "render/draw_group.h"
#include "render/fill_probe.h"
#include "render/lowres.h"
#include "render/particle_uniforms.h"
#include "render/tiled.h"
#include "render/trail_draw.h"

enum { GROUP_RECORD_BYTES = 16 * PLUME_GROUP_RECORD_VEC4S };

/* Each program's uniforms, in the order of its name table
 * (draw_group_resources.c). */
enum { PREPARE_SYSTEM_COUNT, PREPARE_VERTICES, PREPARE_UNIFORMS };
enum {
    GATHER_SYSTEM, GATHER_FIRST_RECORD, GATHER_VIEW, GATHER_CAMERA_RIGHT, GATHER_CAMERA_UP, GATHER_EYE,
    GATHER_BY_DISTANCE, GATHER_LIGHT_DIRECTION, GATHER_UNIFORMS
};
enum {
    DRAW_VIEW, DRAW_PROJECTION, DRAW_SOFT_FADE, DRAW_VIEWPORT_SIZE, DRAW_INVERSE_PROJECTION, DRAW_LIGHT_COLOR,
    DRAW_AMBIENT_COLOR, DRAW_SPRITES, DRAW_SCENE_DEPTH, DRAW_DEPTH_CONVENTION, DRAW_EYE, DRAW_CAMERA_RIGHT,
    DRAW_CAMERA_UP, DRAW_LIGHT_DIRECTION, DRAW_TRAIL_TARGET, DRAW_UNIFORMS
};
/* A trail system's gather (render/draw_group_trail_gather.comp). */
enum {
    TRAIL_GATHER_SYSTEM, TRAIL_GATHER_LAST_SYSTEM, TRAIL_GATHER_FIRST_RECORD, TRAIL_GATHER_VIEW,
    TRAIL_GATHER_CAMERA_RIGHT, TRAIL_GATHER_CAMERA_UP, TRAIL_GATHER_EYE, TRAIL_GATHER_BY_DISTANCE,
    TRAIL_GATHER_LIGHT_DIRECTION, TRAIL_GATHER_UNIFORMS
};

typedef struct group_locations {
    GLint prepare[PREPARE_UNIFORMS], gather[GATHER_UNIFORMS], draw[DRAW_UNIFORMS];
    particle_uniforms gather_appearance; /* the systems' appearance, set per system in each gather */
    GLint trail_gather[TRAIL_GATHER_UNIFORMS]; /* where a trail system is grouped */
    particle_uniforms trail_gather_appearance;
    trail_uniforms trail_gather_trail;
} group_locations;

/* The systems a group gathers over tables, a dispatch a pool page
 * (draw_group_table.c); NULL in a group where none does. */
typedef struct group_table group_table;

/* What a draw's gather stage did (the lab's counts): its compute
 * dispatches, the systems that took their own (a count copy and a gather
 * each), the pool pages gathered over tables and their systems. */
typedef struct group_gather_counts {
    uint32_t dispatches, own_systems, table_pages, table_systems;
} group_gather_counts;

typedef struct group_state {
    plume_env env;
    plume_context *context;
    uint32_t system_count;
    plume_system *systems;   /* system_count of them, in the group's order */
    uint32_t *first_record;  /* per system: the records before its own */
    uint32_t *entries;       /* per system: its records a slot (a trail system's pairs a particle; else 1) */
    particle_view *views;    /* per system: its view at the draw (the draw's scratch) */
    uint32_t total_capacity; /* records: the capacities, a trail system's times its entries */
    bool has_trails;         /* a trail system is grouped: its segments are records */
    float largest_soft_fade; /* of every system */
    bool by_distance;
    plume_sorter sorter;
    GLuint prepare_program, gather_program, draw_program;
    GLuint trail_gather_program; /* 0 without a trail system */
    group_locations at;
    GLuint state_buffer;   /* PLUME_GROUP_STATE_WORDS: see the layout */
    GLuint pairs_buffer;   /* total_capacity {key, value} pairs */
    GLuint records_buffer; /* total_capacity records */
    GLuint systems_buffer; /* per system PLUME_GROUP_SYSTEM_WORDS: render/draw_group_systems.glsl */
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
    draw_decision kept; /* the automatic path's last choice */
    fill_probe fill;    /* the automatic path's measure of the raster draw's pixels */
    plume_profiler *profiler; /* its frames are the group's draws */
    uint64_t draws;
    group_table *table;               /* NULL: every system gathers on its own */
    group_gather_counts gathered;     /* the last draw's */
    draw_group_stage_hook stage_hook; /* benchmarks only (render/draw_group.h) */
    void *stage_hook_user;
} group_state;

/* The group's class in its context's handle table. */
extern const plume_object_class draw_group_class;

/* The bytes of a group's state buffer (the layout's words for its systems). */
static inline size_t group_state_bytes(uint32_t system_count) {
    return 4 * ((size_t)PLUME_GROUP_STATE_SYSTEMS + (size_t)PLUME_GROUP_STATE_SYSTEM_WORDS * system_count);
}

/* The group as the low-resolution wrapper sees it: its environment, its
 * state buffer (its drawn count where a system's is) and its profiler. */
static inline particle_view group_view(group_state *g) {
    return (particle_view){.env = &g->env, .context = g->context, .state = {g->state_buffer, 0, 0},
                           .profiler = g->profiler};
}

/* The systems `handles` names (count of them, at most max_count), checked
 * as a group's: each live in `context`, once, on the compute path, drawn as
 * sprites or trails (a textured trail's texture stretched), every sprite of one size (sprite_size: 0 where none); their
 * views into `views`. Logged under `caller` ("systems[i]") otherwise. */
plume_result group_check_systems(const plume_env *env, plume_context *context, const char *caller,
                                 const plume_system *handles, uint32_t count, uint32_t max_count,
                                 particle_view *views, uint32_t sprite_size[2]);
/* A group of the checked systems `handles` (their `views`), made with
 * `env` in `context` (not filed there): programs from the context's cache,
 * its buffers, sprites, table, sorter and profiler; *out NULL on failure. */
plume_result group_make(plume_context *context, const plume_env *env, const plume_system *handles,
                        const particle_view *views, uint32_t count, bool by_distance, const uint32_t sprite_size[2],
                        const char *caller, group_state **out);
/* Frees what group_make made (NULL: nothing). */
void group_free(group_state *g);
/* The GL objects of `g`, as an object's list_gl_objects. */
uint32_t group_list_gl_objects(const group_state *g, plume_gl_object *out, uint32_t capacity);
/* Draws `g`'s systems (g->views, their views now, found by the caller) for
 * `frame` and its matrices, as plume_draw_group_draw; errors logged under
 * `caller`. */
plume_result group_draw_frame(group_state *g, const plume_frame_desc *frame, mat4 view, mat4 projection,
                              const char *caller);

/* The group's table (draw_group_table.c), made once its look (g->look) and
 * first records are: every system whose storage lies in a pool page gathers
 * over it where at least two do; the others (trails, the largest) take
 * their own dispatch. PLUME_OK with no table where fewer fit. Binds
 * GL_COPY_WRITE_BUFFER. */
plume_result group_table_make(group_state *g, const particle_view *views);
/* Frees the table (NULL: nothing). */
void group_table_free(group_state *g);
uint32_t group_table_list_gl_objects(const group_state *g, plume_gl_object *out, uint32_t capacity);
/* Whether system `i` gathers over the table in this draw (the lab can turn
 * the table off: plume_lab_batch_draw_table). */
bool group_table_gathers(const group_state *g, uint32_t i);
/* The tabled systems' drawn counts into the group's state (before the
 * prepare pass), then, after it, their gathers: a dispatch a page each.
 * The group's state is bound at PLUME_BINDING_GROUP_STATE; the gather binds
 * what it reads and leaves the pairs and records bound. */
void group_table_copy_counts(group_state *g);
void group_table_gather(group_state *g, const vec4 *view, const mat4 inverse_view, const frame_light *light);

/* The camera, the group's order and the light into a gather program: `at`
 * its locations of u_view, u_camera_right, u_camera_up, the eye, the
 * order's by-distance switch and u_light_direction, in that order. */
void group_set_gather_camera(const group_state *g, GLuint program, const GLint *at, const vec4 *view,
                             const mat4 inverse_view, const frame_light *light);

/* PLUME_ERROR_INVALID_ARGUMENT, with the message `why` under `caller`. */
static inline plume_result group_refuse(const plume_env *env, const char *caller, const char *why) {
    plume_log(env, PLUME_LOG_ERROR, "%s: %s", caller, why);
    return PLUME_ERROR_INVALID_ARGUMENT;
}

#endif
