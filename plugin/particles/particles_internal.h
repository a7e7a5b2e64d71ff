/* The particle system's insides, shared by its source files only: the draw
 * paths read a system through particle_view.h. Not part of the API. */
#ifndef PLUME_PARTICLES_INTERNAL_H
#define PLUME_PARTICLES_INTERNAL_H

#include <cglm/cglm.h>
#include <stddef.h>

#include "plume/plume_particles.h"
#include "plume/plume_profile.h"
#include "plume/plume_sort.h"
#include "core/plume_internal.h"
#include "particles/particle_view.h"
#include "profile/profiler.h"
#include "sort/sort_in_scope.h"
#include "shared/plume_gpu_layout.h"

typedef struct system_state system_state; /* below; the parts' headers take it */

#include "particles/particle_pool.h"
#include "particles/spawn_internal.h"
#include "particles/world_internal.h"

/* Byte offsets into the state buffer, from its words in the shared layout. */
enum {
    /* STATE_DRAW_ARGS_OFFSET and STATE_DRAWN_COUNT_OFFSET: particle_view.h */
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

/* Particles requested in one update (or, merged, several), when, and the
 * longest lifetime they were born with. Every live particle was requested
 * within its record's lifetime, so the records still within theirs bound the
 * live count from above without reading anything back; the sort is then
 * sized by that bound. A record's own lifetime (not the longest of every
 * emitter) keeps the bound of short-lived sparks tight beside the emitters
 * a system leaves unused or keeps for emit calls. */
enum { EMISSION_RECORDS = 64 };

typedef struct emission_record {
    double time;       /* start of the update that requested them */
    double lifetime;   /* the longest any of them lives */
    uint64_t count;
} emission_record;

typedef struct emission_window {
    emission_record records[EMISSION_RECORDS]; /* a ring, oldest at `first` */
    uint32_t first, count;
    uint64_t total; /* the records' counts summed (each update reads it) */
    double longest_lifetime; /* over every emitter in effect since creation or reset (events' children) */
} emission_window;

/* The programs' uniform locations, named, over `at` in the order of their
 * name tables (simulate.c, world.c): plume_find_uniform_locations fills `at`
 * once when the program is built. */
typedef union simulate_locations {
    struct {
        GLint dt, time, view, gravity, wind, drag, turbulence, capacity;
        GLint cull, cull_planes, cull_radius, eye, cull_distance, sort_mode, sort_key_shift, bounds, local_space;
    };
    GLint at[17];
} simulate_locations;

typedef union emit_locations {
    struct {
        GLint seed, batch_count, tag_emitter;
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

/* The draw part's per-system state (particle_view.h's attachments), in the
 * order it was made. */
typedef struct particle_attachments {
    const particle_attachment_class *kinds[PARTICLE_MAX_ATTACHMENTS];
    void *states[PARTICLE_MAX_ATTACHMENTS]; /* in storage */
    size_t used;
    _Alignas(max_align_t) unsigned char storage[PARTICLE_ATTACHMENT_BYTES];
} particle_attachments;

/* The GPU box's way back (bounds.c): once the host has asked for the box
 * (a system whose host never asks grows no box and places no fence), each
 * update copies the state buffer's box and live count into the next of a
 * ring of small buffers and fences it; plume_system_get_bounds reads the
 * newest whose fence has signalled (checked with a zero timeout), never
 * waiting. */
enum { BOUNDS_RING = 4, BOUNDS_RECORD_WORDS = 8 }; /* live count, min xyz, max xyz, padding */

typedef struct bounds_ring {
    GLuint buffers[BOUNDS_RING];
    GLsync fences[BOUNDS_RING];
    uint64_t updates[BOUNDS_RING]; /* the update (1: the first) each slot holds */
    uint32_t next;
    plume_bounds latest;           /* the newest read so far */
    bool wanted;                   /* plume_system_get_bounds was called: the ring exists and runs */
    bool lab_disabled;             /* the lab's baseline: simulate grows no box */
} bounds_ring;

/* Trails (trails.c; plume_trail_desc): the history every update records,
 * the segment pairs and their sorter. Without a trail: all zero. */
typedef union trail_record_locations {
    struct {
        GLint capacity, by_distance, spacing, ring, ribbon;
    };
    GLint at[5];
} trail_record_locations;

typedef union trail_key_locations {
    struct {
        GLint view, eye, sort_mode, sort_key_shift, ring, entries, ribbon, capacity, spacing;
    };
    GLint at[9];
} trail_key_locations;

typedef struct trail_state {
    GLuint record_program, key_program;
    trail_record_locations record;
    trail_key_locations keys;
    GLuint header_buffer;   /* capacity uvec4s */
    GLuint point_buffer;    /* capacity x (K - 1) vec4s */
    GLuint pair_buffer;     /* capacity x entries {key, value} pairs */
    GLuint control_buffer;  /* PLUME_TRAIL_CONTROL_WORDS */
    plume_sorter sorter;    /* capacity x entries pairs, filed in the context */
    uint32_t entries;       /* pairs a particle: K - 1 segments, + 1 where its quad is drawn */
} trail_state;
/* A mesh system's own objects (mesh.c): the draw's view of the meshes, the
 * buffers of uploaded meshes, the simulate program's mesh uniforms. */
typedef struct mesh_state {
    particle_mesh_view view;      /* view.count 0: a sprite system */
    GLuint uploaded[PLUME_GPU_MAX_MESHES][4]; /* positions, normals, texcoords, indices plume owns */
    float radius[PLUME_GPU_MAX_MESHES];      /* the farthest vertex from each mesh's origin */
    GLint at[8];                  /* the simulate program's mesh uniforms (MESH_UNIFORMS) */
} mesh_state;

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
    particle_range slot_keys;    /* capacity {depth key, outcome bits}, one a slot */
    particle_range group_counts; /* a uvec4 per simulate workgroup */
    uint32_t sort_bound;        /* this update's bound on the drawn count (the sort's max_count) */

    GLuint reset_program, prepare_program, emit_program, simulate_program;
    GLint reset_capacity_location, prepare_requested_location;
    emit_locations emit;
    simulate_locations simulate;
    particle_attachments attachments; /* the draw paths' state (render/) */

    /* The capacity-sized storage, ranges of one block of the context's
     * particle pool (particle_pool.c); the live list is a buffer of its own,
     * which the sorter binds whole. */
    particle_range pool_block;
    particle_range motion;   /* capacity ParticleMotions: what simulate reads and writes */
    particle_range traits;   /* capacity ParticleTraits: fixed at birth */
    GLuint live_list_buffer; /* capacity {depth key, slot} pairs: this update's survivors, sorted */
    /* A batch's table wrote this step's live list into its scratch, from
     * pair live_scratch_first on, and copies it here only once something
     * reads it (particles_settle_live_list): a batch drawn by its own
     * table's gathers never does. */
    bool live_list_pending;
    uint32_t live_scratch_first;
    particle_range state;    /* see the STATE_* layout, from its offset */
    plume_upload_ring emitter_ring; /* its buffer current: PLUME_MAX_EMITTERS Emitters */
    GLuint sprite_texture;   /* 0: no texture */
    GLuint motion_texture;   /* the flipbook's motion, plume's own (0: none or the host's) */
    /* Where the sprite's frames can show (sprite_cover.h): octagons of
     * sprite_cover_levels levels a frame; 0: no table (the whole quad). */
    GLuint sprite_cover_buffer;
    uint32_t sprite_cover_levels;
    float motion_reach;      /* plume_particles_load_flipbook_motion's */

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
    bool prewarming;         /* a prewarm's steps run: their events carry the next update's index */
    bool warned_long_dt;     /* a dt over 1 s was said once */
    bool batch_listed;       /* named earlier in the plume_batch_update being checked (batch.c) */
    bool batch_alone;        /* linked to another by event routes: a batch updates it on its own (batch.c) */
    bool update_culls;       /* this update's simulate culls against the frame */
    bool in_table;           /* this step's record is in a batch's table (update_table.c) */
    uint32_t requested;      /* the particles this step asks for (the emit pass's count) */
    plume_system handle;     /* this system's own handle (event routes name it) */
    world_state world;
    mesh_state mesh;
    bounds_ring bounds;
    cpu_events_state cpu_events;
    spawn_state spawn;
    /* The fragment path's objects (fragment_update.c), or NULL on the compute
     * path (desc.path says which runs). */
    struct fragment_particles *fragment;
    trail_state trail; /* trails.c; all zero without a trail */
} system_state;

/* ---- system.c ---- */

/* A buffer of `bytes` (from `data`, or undefined), labelled; binds
 * GL_COPY_WRITE_BUFFER (the caller's scope restores it). */
plume_result particles_create_buffer(system_state *s, GLsizeiptr bytes, const void *data, const char *label,
                                     GLuint *out);

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
/* The update's GL work for one system whose call checked its frame, host
 * state and depth texture, inside the caller's scope: plume_system_update's
 * and plume_batch_update's (batch.c). */
plume_result particles_update_in_scope(system_state *system, const plume_frame_desc *frame, const mat4 view,
                                       const mat4 projection, plume_gl_scope *scope);
/* An emitter whose rate or bursts ask for particles (plume_emitter.h:
 * one with both 0 emits nothing). */
static inline bool particles_emitter_emits(const plume_emitter_desc *e) {
    return e->rate > 0.0f || e->burst_count > 0;
}

/* An emitter as the shaders' Emitter record. */
void particles_pack_emitter(const plume_emitter_desc *e, float out[EMITTER_GPU_FLOATS]);

/* ---- simulate.c: the update's GPU stages ---- */

/* A compute program from the pass's .comp file (its includes name the rest). */
plume_result particles_build_compute(system_state *s, const char *label, const char *file, GLuint *out);

/* The reset, prepare, emit and simulate programs and their uniforms. */
plume_result particles_build_compute_programs(system_state *s);
/* Every slot free, the counters and clocks zero. */
plume_result particles_reset_gpu_state(system_state *s);
/* The culling sphere's radius for particles of `emitter` (see cull_radius). */
float particles_quad_radius(const plume_system_desc *desc, const plume_emitter_desc *emitter);
/* The CPU's emission plan for a step of dt: running totals per emitter
 * (capped at the capacity); returns the total. */
uint32_t particles_plan_emission(system_state *s, double dt, GLuint running_end[PLUME_MAX_EMITTERS]);
/* Records `count` particles requested at `time`, living at most `lifetime`,
 * in the live-count window. */
void particles_window_record(emission_window *w, double time, uint64_t count, double lifetime);
/* The most particles that can be alive at `now` (at most the capacity). */
uint32_t particles_window_live_bound(emission_window *w, double now, uint32_t capacity);
/* Plans this step's emission, then runs prepare, emit and simulate
 * (update_passes.c); culls against view and projection when `cull` is set. */
void particles_run_simulate_stage(system_state *s, const plume_frame_desc *frame, const mat4 view,
                                  const mat4 projection, bool cull);
/* Simulate's workgroups over the capacity. */
uint32_t particles_simulate_groups(const system_state *s);
/* The live list, back-to-front; without the barrier that makes it readable
 * to the draw when `host_barrier` is false (sort_host_barrier after several). */
plume_result particles_run_sort_stage(system_state *s, bool host_barrier);
/* After the sorter: the slot-order passes and buffers where the sorter can
 * run its radix sort (see system_state). */
plume_result particles_create_compaction(system_state *s);

/* ---- fragment_update.c: the fragment path's update (GL 3.3 core) ---- */

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
/* What the fragment path's draw reads of the last update (particle_view.h). */
void fragment_particles_view(const system_state *s, particle_fragment_view *out);

/* ---- trails.c: trails (plume_trail_desc) ---- */

/* The history, pairs, programs and sorter where desc.trail asks; nothing
 * otherwise. After the compute programs. */
plume_result trails_create(system_state *s);
uint32_t trails_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity);
/* Destroys the sorter (the GL objects go with the system's). */
void trails_free(system_state *s);
/* Every slot's trail forgotten (reset and creation). */
void trails_reset(system_state *s);
/* After the simulate stage: the live particles' points. */
void trails_record(system_state *s);
/* In the sort stage: the drawn particles' segment pairs, sorted unless
 * `sort` is false (then in list order). */
plume_result trails_sort(system_state *s, const mat4 view, bool sort);

/* ---- system_profile.c: the system's profiling calls ---- */

plume_result particles_create_profiler(system_state *s);
/* The GPU events the update's emit consumed (world.c), into the open frame. */
void particles_capture_event_counts(system_state *s, plume_gl_scope *scope);

/* ---- particle_view.c ---- */

/* The attachments' GL objects, as plume_list_named_gl_objects. */
uint32_t particles_list_attachment_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity);
/* Releases every attachment (the system's end). */
void particles_free_attachments(system_state *s);

/* ---- desc.c: defaults and validation (no GL); the look: particle_look.h ---- */

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

/* `seconds` is a prewarm time (0 .. PLUME_PREWARM_MAX_SECONDS), else logged
 * under `caller` naming `field`. */
plume_result particles_check_prewarm(const plume_env *env, const char *caller, const char *field, float seconds);

/* ---- prewarm.c ---- */

/* Steps the system by `seconds` (checked) as plume_system_prewarm; the
 * caller's scope is open. */
plume_result particles_prewarm(system_state *s, float seconds, plume_gl_scope *scope);

/* ---- bounds.c ---- */

uint32_t bounds_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity);
/* Deletes the fences (the system's end). */
void bounds_destroy(system_state *s);
/* Forgets every box (reset). */
void bounds_reset(system_state *s);
/* Whether simulate grows the GPU box this update: the host asked for it, or
 * self-shadowing fits its map to it (unless the lab's baseline turns it off). */
bool bounds_grown(const system_state *s);
/* After the update's simulate stage, once the host asked for the box: the
 * box into the ring, fenced; binds the copy buffers (saved in `scope`). */
void bounds_capture(system_state *s, uint64_t update, plume_gl_scope *scope);

/* ---- mesh.c: mesh particles (since 1.3) ---- */

/* The descriptor's meshes checked and resolved without GL (defaults in, one
 * message naming the field on a refusal). */
plume_result particles_resolve_meshes(const plume_env *env, const char *caller, plume_system_desc *desc);
/* At creation (compute path): the host buffers checked against the GL, the
 * uploaded meshes made, the spin buffer; the data pointers of s->desc
 * cleared. Binds GL_COPY_READ_BUFFER and GL_COPY_WRITE_BUFFER (the caller's
 * scope saved them). */
plume_result mesh_create(system_state *s);
uint32_t mesh_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity);
/* The culling sphere's radius of a mesh system, from the sprite's (a
 * quad's half diagonal at the largest size): the meshes' reach instead. */
float mesh_cull_radius(const system_state *s, float quad_radius);
/* The same from a resolved descriptor alone (no GL): false where a mesh is
 * in the host's buffers (its reach unknown). */
bool particles_desc_mesh_reach(const plume_system_desc *desc, float quad_radius, float *out);
/* Before the simulate dispatch: the mesh uniforms and the spin buffer. */
void mesh_prepare_simulate(system_state *s);
/* Every slot's spin forgotten (reset). */
void mesh_reset(system_state *s);

/* ---- texture.c ---- */

/* The sprite's cover as loaded (particles/sprite_cover.h). */
typedef struct loaded_sprite_cover {
    const plume_system_desc *desc;
    float *octagons;   /* the system's allocator's; NULL: none (the host's sprite, or a book too large) */
    uint32_t levels;
} loaded_sprite_cover;
/* Loads the sprite (file or pixels), premultiplies its alpha and uploads it
 * with the levels plume makes (mip_chain.h); or checks the host's texture
 * (*out_texture stays 0: plume owns none). No texture described:
 * *out_texture = 0 and PLUME_OK. Fills *width / *height with the image's
 * size, *layers with a host array's layers (else 1), and where plume
 * loaded the pixels *cover with the frames' octagons (sprite_cover.h),
 * which the caller frees. Restores the GL state it uses. */
plume_result plume_particles_load_texture(const plume_env *env, const plume_system_desc *desc, GLuint *out_texture,
                                          uint32_t *width, uint32_t *height, uint32_t *layers,
                                          loaded_sprite_cover *cover);
/* Loads the flipbook's motion (not premultiplied) or checks the host's,
 * refusing a size other than `sprite`'s (its width and height resolved).
 * *reach: how far its largest component reaches (sprite_motion_reach; 1 for
 * the host's, whose pixels plume does not read; 0 without a motion). */
plume_result plume_particles_load_flipbook_motion(const plume_env *env, const plume_flipbook_motion *motion,
                                                  const plume_texture_desc *sprite, GLuint *out_texture,
                                                  float *reach);

#endif
