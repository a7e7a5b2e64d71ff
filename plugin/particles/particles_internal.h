/* The particle system's insides, shared by its source files and by the draw
 * paths (render/) and profiling (profile/) that work on a system. Not part of
 * the API. */
#ifndef PLUME_PARTICLES_INTERNAL_H
#define PLUME_PARTICLES_INTERNAL_H

#include <cglm/cglm.h>

#include "plume/plume_particles.h"
#include "plume/plume_profile.h"
#include "plume/plume_sort.h"
#include "core/plume_internal.h"
#include "profile/profiler.h"
#include "render/lowres.h"
#include "render/raster.h"
#include "render/tiled.h"
#include "sort/sort_fragment_path.h"
#include "shared/plume_gpu_layout.h"

/* Byte offsets into the state buffer, from its words in the shared layout. */
enum {
    STATE_DRAW_ARGS_OFFSET = 4 * PLUME_STATE_DRAW_VERTEX_COUNT, /* the draw's {6, live count, 0, 0} */
    STATE_DRAWN_COUNT_OFFSET = 4 * PLUME_STATE_DRAWN_COUNT,
    STATE_LIVE_COUNT_OFFSET = 4 * PLUME_STATE_LIVE_COUNT,
    STATE_DEAD_COUNT_OFFSET = 4 * PLUME_STATE_DEAD_COUNT,
    STATE_EMITTED_TOTAL_OFFSET = 4 * PLUME_STATE_EMITTED_TOTAL,
    STATE_HEADER_BYTES = 4 * PLUME_STATE_HEADER_WORDS,
    EMITTER_GPU_FLOATS = 4 * PLUME_EMITTER_VEC4S
};
_Static_assert(PLUME_GPU_MAX_EMITTERS == PLUME_MAX_EMITTERS, "the shaders' emitter count is the API's");
_Static_assert(PLUME_GPU_MAX_CURVE_KEYS == PLUME_MAX_CURVE_KEYS, "the shaders' curve length is the API's");
_Static_assert(PLUME_MOTION_BYTES == 16 * PLUME_MOTION_VEC4S, "motion is read as 16-byte words");
_Static_assert(PLUME_BINDING_TRAITS < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_EMITTERS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_STATE < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_LIVE_LIST < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_DRAW_LIST < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_MOTION < PLUME_SCOPE_SSBO_SLOTS,
               "the GL state scope restores every binding the particle passes use");

/* Time and fractions the CPU keeps per emitter to turn rates and bursts into
 * a count per update. Only counts go to the GPU, never slots. */
typedef struct emitter_clock {
    double time;      /* seconds since creation or reset */
    double fraction;  /* rate * dt left over from earlier updates, 0 .. 1 */
} emitter_clock;

/* Particles requested in one update (or, merged, several), and when. Every
 * live particle was requested within the longest lifetime in effect, so the
 * records of that window bound the live count from above without reading
 * anything back; the sort is then sized by that bound. */
enum { EMISSION_RECORDS = 64 };

typedef struct emission_record {
    double time;       /* start of the update that requested them */
    uint64_t count;
} emission_record;

typedef struct emission_window {
    emission_record records[EMISSION_RECORDS]; /* a ring, oldest at `first` */
    uint32_t first, count;
    double longest_lifetime; /* over every emitter in effect since creation or reset */
} emission_window;

/* The programs' uniform locations, named, over `at` in the order of their
 * name tables (simulate.c, world.c): plume_find_uniform_locations fills `at`
 * once when the program is built. */
typedef union simulate_locations {
    struct {
        GLint dt, time, view, gravity, wind, drag, turbulence, capacity;
        GLint cull, cull_planes, cull_radius, eye, cull_distance, sort_mode, sort_key_shift;
    };
    GLint at[15];
} simulate_locations;

typedef union emit_locations {
    struct {
        GLint seed, end, tag_emitter;
    };
    GLint at[3];
} emit_locations;

/* The compaction's scatter pass. */
typedef union compact_scatter_locations {
    struct {
        GLint capacity, route_count, routes, event_capacity;
    };
    GLint at[4];
} compact_scatter_locations;

/* The frame's light as the draw uses it (plume_frame_desc, since 1.2): the
 * direction normalised (zero: none). */
typedef struct frame_light {
    float direction[3], color[3], ambient[3];
} frame_light;

_Static_assert(PLUME_GPU_MAX_COLLIDERS == PLUME_MAX_COLLIDERS && PLUME_GPU_MAX_ATTRACTORS == PLUME_MAX_ATTRACTORS &&
                   PLUME_GPU_MAX_EVENT_ROUTES == PLUME_MAX_EVENT_ROUTES,
               "the shaders' world limits are the API's");
_Static_assert(PLUME_BINDING_EVENTS_OWN < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_EVENTS_OTHER < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_TEXTURE_UNIT_SCENE_DEPTH < PLUME_SCOPE_TEXTURE_UNITS &&
                   PLUME_TEXTURE_UNIT_VECTOR_FIELD < PLUME_SCOPE_TEXTURE_UNITS,
               "the GL state scope restores every binding and texture unit the world uses");
_Static_assert(PLUME_GPU_MAX_EMITTERS <= 8, "an emitter's index fits the lifetime's three tag bits");

/* The simulate program's world uniforms (world.c's table). */
typedef union world_locations {
    struct {
        GLint world_forces, world_collisions;
        GLint attractor_count, attractors, vector_field, field_min, field_inverse_size, field_strength;
        GLint collider_count, colliders, depth_collision, depth_response, depth_thickness;
        GLint view_projection, inverse_view_projection, world_eye;
        GLint route_count, routes;
    };
    GLint at[18];
} world_locations;

typedef union events_emit_locations {
    struct {
        GLint seed, tag_emitter;
    };
    GLint at[2];
} events_emit_locations;

/* The world's GL side (world.c): the event passes, the system's event
 * buffer, the samplers simulate reads the host's textures with. */
typedef struct world_state {
    GLuint events_prepare_program, events_emit_program;
    GLint prepare_capacity_location;
    events_emit_locations events_emit;
    world_locations simulate;
    GLuint event_buffer;     /* header + event_capacity records */
    GLuint depth_sampler, field_sampler;
    /* Some simulate pass (this system's or another's) may have appended to
     * the event buffer since this system last emitted its children. */
    bool events_pending;
    /* This update emitted children: the profile reads the buffer's counts. */
    bool consumed_this_update;
    bool warned_missing_target, warned_bad_field;
} world_state;

/* What a plume_system handle names. */
typedef struct system_state {
    plume_env env;
    plume_system_desc desc;  /* defaults filled in; texture pointers cleared */
    /* The context the system is filed in: its sorter is filed there too (so
     * the context lists the sorter's GL objects and, destroying a forgotten
     * system, frees its sorter through the system), and freeing the system
     * destroys the sorter through it. */
    plume_context *context;
    plume_sorter sorter;
    plume_sort_algorithm last_sort; /* the backend the last update's sort ran; AUTOMATIC: none */
    /* The compaction after simulate (simulate.c): the live list, the dead
     * list and the event records in slot order. */
    GLuint compact_scan_program, compact_scatter_program;
    GLint compact_scan_groups;
    compact_scatter_locations compact_scatter;
    GLuint slot_keys_buffer;    /* capacity {depth key, outcome bits}, one a slot */
    GLuint group_counts_buffer; /* a uvec4 per simulate workgroup */
    uint32_t sort_bound;        /* this update's bound on the drawn count (the sort's max_count) */

    GLuint reset_program, prepare_program, emit_program, simulate_program;
    GLint reset_capacity_location, prepare_requested_location;
    emit_locations emit;
    simulate_locations simulate;
    frame_light light;       /* the current draw's */
    raster_renderer raster;  /* the draw paths */
    lowres_renderer lowres;
    tiled_renderer tiled;

    GLuint motion_buffer;    /* capacity ParticleMotions: what simulate reads and writes */
    GLuint traits_buffer;    /* capacity ParticleTraits: fixed at birth */
    GLuint live_list_buffer; /* capacity {depth key, slot} pairs: this update's survivors, sorted */
    GLuint state_buffer;     /* see the STATE_* layout */
    GLuint emitter_buffer;   /* PLUME_MAX_EMITTERS Emitters */
    GLuint sprite_texture;   /* 0: no texture */

    emitter_clock clocks[PLUME_MAX_EMITTERS];
    emission_window window;
    /* Half the diagonal of the largest quad the system can draw, over every
     * emitter in effect since creation: the culling sphere's radius. */
    float cull_radius;
    double time;             /* seconds since creation or reset (the noise's clock) */
    /* Wraps each GPU stage of update and draw (PLUME_STAGE_UPDATE encloses
     * SIMULATE and SORT); switched off it makes no GL call. */
    plume_profiler *profiler;
    uint64_t update_count;   /* the profiler's frame index */
    plume_system handle;     /* this system's own handle (event routes name it) */
    world_state world;
    /* The fragment path's objects (fragment_update.c), or NULL on the compute
     * path (desc.path says which runs). */
    struct fragment_particles *fragment;
} system_state;

/* ---- system.c ---- */

/* The live system `handle` names in `context`, or NULL (logged). */
system_state *particles_find_system(const plume_context *context, plume_system handle, const char *caller);
/* The live system `handle` names in `context`, or NULL (not logged). */
system_state *particles_peek_system(const plume_context *context, plume_system handle);
/* As particles_find_system, and NULL (logged) also where the caller's pointer
 * `argument`, named `argument_name` in the message, is NULL. */
system_state *particles_find_system_with(const plume_context *context, plume_system handle, const char *caller,
                                         const void *argument, const char *argument_name);
/* The first step of update and draw: the live system `handle` names (NULL
 * when none) and its checked frame's matrices (a zero matrix stands for the
 * identity); errors are logged under `caller`. */
plume_result particles_find_frame_system(const plume_context *context, plume_system handle, const char *caller,
                                         const plume_frame_desc *frame, system_state **out_system, mat4 view,
                                         mat4 projection);
/* An emitter as the shaders' Emitter record. */
void particles_pack_emitter(const plume_emitter_desc *e, float out[EMITTER_GPU_FLOATS]);

/* ---- simulate.c: the update's GPU stages ---- */

/* A compute program from the pass's .comp file (its includes name the rest). */
plume_result particles_build_compute(system_state *s, const char *label, const char *file, GLuint *out);
/* Counts `count` particles requested at `time` into the live-count bound. */
void particles_window_record(emission_window *w, double time, uint64_t count);

/* The reset, prepare, emit and simulate programs and their uniforms. */
plume_result particles_build_compute_programs(system_state *s);
/* Every slot free, the counters and clocks zero. */
plume_result particles_reset_gpu_state(system_state *s);
/* The culling sphere's radius for particles of `emitter` (see cull_radius). */
float particles_quad_radius(const plume_system_desc *desc, const plume_emitter_desc *emitter);
/* The CPU's emission plan for a step of dt: running totals per emitter
 * (capped at the capacity); returns the total. */
uint32_t particles_plan_emission(system_state *s, double dt, GLuint running_end[PLUME_MAX_EMITTERS]);
/* Records `count` particles requested at `time` in the live-count window. */
void particles_window_record(emission_window *w, double time, uint64_t count);
/* The most particles that can be alive at `now` (at most the capacity). */
uint32_t particles_window_live_bound(emission_window *w, double now, uint32_t capacity);
/* The view frustum as six world-space planes pointing inwards (culling). */
void particles_frustum_planes(const mat4 view, const mat4 projection, float planes[PLUME_CULL_PLANES][4]);
/* Plans this step's emission, then runs prepare, emit and simulate; culls
 * against view and projection when `cull` is set. */
void particles_run_simulate_stage(system_state *s, const plume_frame_desc *frame, const mat4 view,
                                  const mat4 projection, bool cull);
/* The live list, back-to-front. */
plume_result particles_run_sort_stage(system_state *s);
/* After the sorter: the slot-order passes and buffers where the sorter can
 * run its radix sort (see system_state). */
plume_result particles_create_compaction(system_state *s);

/* ---- world.c: collisions, force fields, events ---- */

/* The event passes, the event buffer and the samplers; after the compute
 * programs. */
plume_result world_create(system_state *s);
/* The GL objects world_create made (deleted with the system's). */
uint32_t world_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity);
/* Empties the event buffer (reset and creation). */
void world_reset_gpu_state(system_state *s);
/* Before the prepare pass: emits the children waiting in the event buffer
 * (they take free slots first) and tells the emit passes whether to tag
 * lifetimes with the emitter. */
void world_emit_events(system_state *s);
/* Before the simulate dispatch: its world uniforms, event buffers and
 * textures (the caller's scope saved PLUME_SCOPE_TEXTURES when
 * world_uses_textures). */
void world_prepare_simulate(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection);
bool world_uses_textures(const system_state *s, const plume_frame_desc *frame);
/* The routes' target systems are live systems of the context, at most one
 * besides `s` (logged under `caller`, naming the field). */
plume_result world_check_targets(const system_state *s, const char *caller, const plume_world *world);

/* ---- render/draw.c ---- */

/* A sub-stage of the draw: its KHR_debug group ("plume draw: tiled
 * project", ...), always, and its GPU time in the profile while profiling
 * is on. Ends pop what begins pushed. */
void draw_stage_begin(system_state *s, plume_draw_stage stage);
void draw_stage_end(system_state *s, plume_draw_stage stage);
/* The frame's light as the draw uses it (the direction normalised). */
frame_light draw_frame_light(const plume_frame_desc *frame);
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
void draw_blend_premultiplied(void);
/* draw_blend_premultiplied, and the host's depth tested, not written. */
void draw_blend_particles_over_depth(void);

/* ---- fragment_update.c: the fragment path's update (GL 3.3 core) ---- */

/* The state groups every fragment-path call saves (textures, draw state,
 * pixel transfers, texture buffers, transform feedback). */
#define FRAGMENT_PARTICLES_SCOPE_GROUPS SORT_FRAGMENT_PATH_SCOPE_GROUPS
/* Refuses (logged under `caller`, naming the field) what a descriptor asks
 * of the fragment path that only the compute path has. */
plume_result fragment_particles_check_desc(const plume_env *env, const char *caller, const plume_system_desc *desc);
/* PLUME_ERROR_GL_UNSUPPORTED (logged under `caller`, naming the field)
 * where `world` asks for anything: collisions, force fields and events need
 * the compute path. */
plume_result fragment_particles_check_world(const plume_env *env, const char *caller, const plume_world *world);
/* The most particles the fragment path holds on this GL (texture sizes). */
uint64_t fragment_particles_capacity_limit(const char **which);
/* Textures, framebuffers, programs and the draw's objects; then a reset. The
 * caller's scope saved FRAGMENT_PARTICLES_SCOPE_GROUPS. */
plume_result fragment_particles_create(system_state *s);
void fragment_particles_destroy(system_state *s);
uint32_t fragment_particles_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity);
/* Every slot free, the ring at slot 0 (the CPU's clocks are reset by the caller). */
plume_result fragment_particles_reset(system_state *s);
/* Emission and simulate (one pass), then the keys and the sort, in the
 * profiler's stages; `scope` gets the state groups it touches. */
void fragment_particles_update(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection,
                               bool cull, plume_gl_scope *scope);
/* plume_system_read_back on the fragment path (the counts are counted here). */
plume_result fragment_particles_read_back(system_state *s, plume_readback *readback);
/* The draw of the last update's list into the bound framebuffer (the
 * caller's scope saved FRAGMENT_PARTICLES_SCOPE_GROUPS and neutral raster). */
void fragment_particles_draw(system_state *s, const mat4 view, const mat4 projection, GLuint scene_depth,
                             const float target_size[2]);

/* ---- profile/system_profile.c ---- */

/* The sort's size follows from the GPU's drawn count, known only when the
 * frame's results arrive: what the network covered and how many of its
 * dispatches had work (from the frame's drawn count and sort bound), for a
 * profiler whose frames sort with `sorter` (a system's, a draw group's). */
void profile_finish_sort_values(profiler_frame *frame, const plume_context *context, plume_sorter sorter);
/* Switches `profiler` on or off (profiler_set_enabled) inside a GL state
 * scope of `env` that restores the copy buffers its queries and readback
 * buffers bind: a system's and a draw group's set_profiling. */
plume_result profile_switch(plume_profiler *profiler, const plume_env *env, bool enabled);
plume_result particles_create_profiler(system_state *s);
/* The GPU events the update's emit consumed (world.c), into the open frame. */
void particles_capture_event_counts(system_state *s, plume_gl_scope *scope);

/* ---- desc.c: defaults and validation (no GL) ---- */

/* Copies `in` with defaults filled into `out`, checking every field; logs one
 * message naming the first bad field (prefixed by `caller`). */
plume_result plume_particles_resolve_desc(const plume_env *env, const char *caller, const plume_system_desc *in,
                                          plume_system_desc *out);
plume_result plume_particles_resolve_emitter(const plume_env *env, const char *caller, uint32_t index,
                                             const plume_emitter_desc *in, plume_emitter_desc *out);
plume_result plume_particles_resolve_forces(const plume_env *env, const char *caller, const plume_forces *in,
                                            plume_forces *out);
/* The world's fields (not its route targets: world_check_targets). */
plume_result plume_particles_resolve_world(const plume_env *env, const char *caller, const plume_world *in,
                                           plume_world *out);

/* The look (desc.c, since 1.2). The blend mode's additive part k as a
 * curve over life (constant 0 or 1 but in PREMULTIPLIED_ADDITIVE), its
 * largest value, and whether the update skips the sort (ADDITIVE blending,
 * sort mode NONE). */
plume_curve particles_additive_curve(const plume_system_desc *desc);
float particles_largest_additive(const plume_system_desc *desc);
bool particles_sort_skipped(const plume_system_desc *desc);
/* The bits a resolved descriptor's sort keys are shifted right by: those
 * below its sort_key_bits (particle_sort_key.glsl). */
uint32_t particles_sort_key_shift(const plume_system_desc *desc);
/* The quad's longest edge as a multiple of its size (the stretch's upper
 * limit in PLUME_ORIENT_VELOCITY_STRETCHED, else 1). */
float particles_largest_stretch(const plume_system_desc *desc);

/* The parts of the look a draw program is built with: each a define of the
 * draw shaders (particle_appearance.glsl, tiled_common.glsl), so that a
 * program pays only for what its system uses, and the default look
 * (camera-facing, unlit, nothing emitted, premultiplied) compiles to the
 * shaders as they were before the look. A program built with more features
 * than a system uses draws it the same (unlit, camera-facing, no light
 * emitted, no additive part are values the features' code handles: u_lit,
 * u_orientation, the curves), so programs shared by systems can be built
 * for the union of their features. */
typedef enum particles_look_feature {
    LOOK_ORIENTED = 1u << 0, /* PLUME_LOOK_ORIENTED: an orientation other than camera-facing */
    LOOK_LIT = 1u << 1,      /* PLUME_LOOK_LIT: lit by the frame's light */
    LOOK_EMISSIVE = 1u << 2, /* PLUME_LOOK_EMISSIVE: emits light at some age */
    LOOK_ADDITIVE = 1u << 3  /* PLUME_LOOK_ADDITIVE: an additive part above 0 at some age */
} particles_look_feature;
enum { LOOK_DEFINES_SIZE = 128 }; /* enough for every feature's define */

uint32_t particles_look_features(const plume_system_desc *desc);
/* The features' defines ("#define PLUME_LOOK_LIT\n" ...; "" for none) into
 * out[LOOK_DEFINES_SIZE]. */
void particles_look_defines(uint32_t features, char out[LOOK_DEFINES_SIZE]);

/* ---- texture.c ---- */

/* Loads the sprite (file or pixels), premultiplies its alpha and uploads it
 * with mipmaps. No texture described: *out_texture = 0 and PLUME_OK. Fills
 * *width / *height with the image's size. Restores the GL state it uses. */
plume_result plume_particles_load_texture(const plume_env *env, const plume_texture_desc *texture,
                                          GLuint *out_texture, uint32_t *width, uint32_t *height);

#endif
