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

_Static_assert(PLUME_GPU_MAX_COLLIDERS == PLUME_MAX_COLLIDERS && PLUME_GPU_MAX_ATTRACTORS == PLUME_MAX_ATTRACTORS &&
                   PLUME_GPU_MAX_EVENT_ROUTES == PLUME_MAX_EVENT_ROUTES,
               "the shaders' world limits are the API's");
_Static_assert(PLUME_BINDING_EVENTS_OWN < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_EVENTS_OTHER < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_TEXTURE_UNIT_SCENE_DEPTH < PLUME_SCOPE_TEXTURE_UNITS &&
                   PLUME_TEXTURE_UNIT_VECTOR_FIELD < PLUME_SCOPE_TEXTURE_UNITS &&
                   PLUME_TEXTURE_UNIT_SPRITE_ARRAY < PLUME_SCOPE_TEXTURE_UNITS &&
                   PLUME_TEXTURE_UNIT_FLIPBOOK_MOTION < PLUME_SCOPE_TEXTURE_UNITS,
               "the GL state scope restores every binding and texture unit the world uses");
_Static_assert(PLUME_GPU_MAX_EMITTERS <= 8, "an emitter's index fits the lifetime's three tag bits");

/* The simulate program's world uniforms (world.c's table). */
typedef union world_locations {
    struct {
        GLint world_forces, world_collisions;
        GLint attractor_count, attractors, vector_field, field_min, field_inverse_size, field_strength;
        GLint collider_count, colliders, depth_collision, depth_response, depth_thickness;
        GLint view_projection, inverse_view_projection, world_eye, depth_convention;
        GLint route_count, routes;
    };
    GLint at[19];
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

/* The programs of events to the CPU (cpu_events.c): one set of names for
 * its three passes (a pass without a uniform gets location -1, which GL
 * ignores). */
typedef union cpu_events_locations {
    struct {
        GLint capacity, groups, kinds, emitters, budget, skip, route_count, routes;
    };
    GLint at[8];
} cpu_events_locations;

enum { CPU_EVENTS_PASSES = 3, PLUME_CPU_EVENT_MAX_BUDGET = 65536, PLUME_CPU_EVENT_DEFAULT_BUDGET = 1024 };

/* A readback buffer of the ring: one update's header and records. */
typedef struct cpu_events_readback {
    GLuint buffer;
    GLsync fence;            /* placed after the copy; NULL: the buffer is free */
    const unsigned char *mapped; /* its persistent mapping, or NULL (read with glGetBufferSubData) */
    uint64_t update;         /* the update whose records it holds */
} cpu_events_readback;

/* Events to the CPU (cpu_events.c). Off (desc.cpu_events.kinds 0): all zero,
 * no GL object. */
typedef struct cpu_events_state {
    GLuint programs[CPU_EVENTS_PASSES];   /* count, scan, scatter */
    cpu_events_locations at[CPU_EVENTS_PASSES];
    GLuint record_buffer;       /* header + budget records */
    GLuint group_counts_buffer; /* a uint per simulate workgroup */
    cpu_events_readback ring[PLUME_EVENT_READBACK_DEPTH];
    uint32_t ring_first, ring_count;       /* in flight, oldest at ring_first */
    /* Delivered on the CPU, oldest at queue_first: PLUME_EVENT_READBACK_DEPTH x budget. */
    plume_particle_event *queue;
    uint32_t queue_capacity, queue_first, queue_count;
    unsigned char *staging;     /* a readback's bytes where the GL has no persistent mapping */
    uint32_t skipped_seen;      /* the header's skipped sum in the last readback taken */
    uint64_t dropped_budget, dropped_in_flight, dropped_queue;
} cpu_events_state;

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

/* One row of the emit pass's table (SpawnBatch in particle_emit.comp). */
typedef struct spawn_batch {
    uint32_t end, emitter, seed, instance; /* end: a count until spawn_plan makes it a running total */
    float first, step, dt, size_scale;   /* time fractions of the step; see particle_emit.comp */
    float from_position[4], from_rotation[4], from_scale[4];
    float to_position[4], to_rotation[4], to_scale[4];
    float velocity[4];
    float color[4];                        /* colour multiplier */
} spawn_batch;
_Static_assert(sizeof(spawn_batch) == 16 * PLUME_SPAWN_BATCH_VEC4S, "a spawn batch is SpawnBatch's size");

/* A placement of the system's emitters (instance 0: the system's own). */
typedef struct spawn_instance {
    plume_transform from, to; /* where the next update's path starts (at `to` after a jump), and ends */
    plume_transform last;     /* at the last update, jump or not: local space moves particles from it to `to` */
    bool enabled;
    bool jumped; /* no path from `from` to `to` (set with jump, new, reset) */
} spawn_instance;

/* The gameplay side of emission (spawn.c): instances, the emit queue, and
 * the table the emit pass walks. */
typedef struct spawn_state {
    spawn_instance *instances;
    uint32_t instance_count, instance_room;
    spawn_batch *queue; /* PLUME_MAX_EMITS_PER_UPDATE, allocated by the first emit */
    uint32_t queued;
    spawn_batch *batches; /* this update's table */
    uint32_t batch_count, batch_room;
    plume_upload_ring batch_ring; /* its buffer current: the emit pass's table */
    /* Local space: per instance its placement at the last update and now
     * (LocalMotion in particle_simulate.comp). */
    float *instance_motion;
    uint32_t instance_motion_room;
    plume_upload_ring instance_ring;
} spawn_state;

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
    particle_range state;    /* see the STATE_* layout, from its offset */
    plume_upload_ring emitter_ring; /* its buffer current: PLUME_MAX_EMITTERS Emitters */
    GLuint sprite_texture;   /* 0: no texture */
    GLuint motion_texture;   /* the flipbook's motion, plume's own (0: none or the host's) */

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

/* ---- particle_pool.c: the context's particle storage ---- */

/* One block of the context's pool for `count` ranges of `sizes` bytes, each
 * aligned for binding: out[i] the ranges, *block the whole (for the give
 * back); errors logged through `env`. Binds GL_COPY_WRITE_BUFFER (the
 * caller's scope restores it). */
plume_result particle_pool_take(plume_context *context, const plume_env *env, const GLsizeiptr *sizes,
                                uint32_t count, particle_range *out, particle_range *block);
/* Returns `block` to the pool (zeroed after; a zero block: nothing); the
 * pool goes with its last block. */
void particle_pool_give_back(plume_context *context, particle_range *block);

/* The pool's slot for the batch's tables of systems (NULL: no pool). */
typedef struct update_table update_table;
update_table **particle_pool_table(plume_context *context);

/* ---- update_table.c: a batch's passes as one dispatch a page (update_passes.h) ---- */

/* The passes that run over a table of systems. */
typedef enum table_pass {
    TABLE_PREPARE, TABLE_EMIT, TABLE_SIMULATE, TABLE_COMPACT_SCAN, TABLE_COMPACT_SCATTER, TABLE_PASSES
} table_pass;
void update_table_free(const plume_env *env, update_table *table);
uint32_t update_table_list(const update_table *table, plume_gl_object *out, uint32_t capacity);
/* Each pass's table dispatches and the systems they ran, so far (NULL: none). */
void update_table_counts(const update_table *table, uint64_t dispatches[TABLE_PASSES],
                         uint64_t systems[TABLE_PASSES]);

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

/* ---- world.c: collisions, force fields, events ---- */

/* The event passes, the event buffer and the samplers; after the compute
 * programs. */
plume_result world_create(system_state *s);
/* The GL objects world_create made (deleted with the system's). */
uint32_t world_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity);
/* Empties the event buffer (reset and creation). */
void world_reset_gpu_state(system_state *s);
/* Before the prepare pass: emits the children waiting in the event buffer
 * (they take free slots first). */
void world_emit_events(system_state *s);
/* Whether the emit passes tag lifetimes with the emitter. */
bool world_tags_emitter(const system_state *s);
/* The routes' uniforms of simulate, the compaction and the events to the
 * CPU, and the event buffers' bindings (before each of those passes). */
void world_set_routes(system_state *s);
/* The other live system one of `s`'s routes sends children to; NULL: none. */
system_state *world_other_target(const system_state *s);
/* Before the simulate dispatch: its world uniforms, event buffers and
 * textures (the caller's scope saved PLUME_SCOPE_TEXTURES when
 * world_uses_textures). */
void world_prepare_simulate(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection);
bool world_uses_textures(const system_state *s, const plume_frame_desc *frame);
/* No collider, attractor, vector field, depth collision or route acts in
 * this update's simulate (a table can run it: update_table.c). */
bool world_quiet_in_simulate(system_state *s, const plume_frame_desc *frame);
/* The routes' target systems are live systems of the context, at most one
 * besides `s` (logged under `caller`, naming the field). */
plume_result world_check_targets(const system_state *s, const char *caller, const plume_world *world);

/* ---- cpu_events.c: events to the CPU ---- */

/* Programs, buffers and the CPU queue where desc.cpu_events.kinds asks for
 * events; nothing otherwise. */
plume_result cpu_events_create(system_state *s);
uint32_t cpu_events_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity);
/* Deletes the fences and frees the queue (the GL objects go with the system's). */
void cpu_events_free(system_state *s);
/* Forgets the records in flight and queued, and the counts (reset). */
void cpu_events_reset(system_state *s);
bool cpu_events_enabled(const system_state *s);
/* The routes as world.c packed them for simulate (route triggers). */
void cpu_events_set_routes(system_state *s, int route_count, const GLuint routes[][4]);
/* After the compaction: this update's records, their copy into a readback
 * buffer and its fence (the caller's scope saved PLUME_SCOPE_COPY_BUFFERS). */
void cpu_events_record(system_state *s, uint64_t update);

/* ---- spawn.c: instances, emission on demand, the spawn batches ---- */

/* Instance 0 at the identity and the batch buffer; after the compute
 * programs (the fragment path has no instances). */
plume_result spawn_create(system_state *s);
void spawn_free(system_state *s);
uint32_t spawn_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity);
/* Every placement starts again where it is; the queue is dropped. */
void spawn_reset(system_state *s);
/* The step's batches (rates and bursts per emitter and enabled instance,
 * then the queue, which it empties), uploaded to the batch buffer unless
 * `upload` is false (a batch's emit table uploads them with the others'); returns
 * the particles requested (at most the capacity); in local space also
 * each instance's motion since the last update. */
uint32_t spawn_plan(system_state *s, double dt, bool upload);
/* The step's batches (none: nothing) into the next buffer of the ring. */
void spawn_upload(system_state *s);
/* Local space: binds the instances' motion for the simulate pass. */
void spawn_bind_local_motion(system_state *s);

/* Particles an emitter asks for in a step: its rate's and its bursts', and
 * when in the step (fractions of dt) they fall. */
typedef struct emitter_request {
    uint64_t rate_count, burst_count;
    double rate_first, rate_step; /* the rate's particle k falls at first + k * step */
    double burst_at;              /* the step's first burst */
} emitter_request;
/* Advances the emitter's clock by dt. */
void particles_request_emitter(const plume_emitter_desc *e, emitter_clock *clock, double dt, emitter_request *out);

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

/* Loads the sprite (file or pixels), premultiplies its alpha and uploads it
 * with mipmaps; or checks the host's texture (*out_texture stays 0: plume
 * owns none). No texture described: *out_texture = 0 and PLUME_OK. Fills
 * *width / *height with the image's size, *layers with a host array's
 * layers (else 1). Restores the GL state it uses. */
plume_result plume_particles_load_texture(const plume_env *env, const plume_texture_desc *texture,
                                          GLuint *out_texture, uint32_t *width, uint32_t *height, uint32_t *layers);
/* Loads the flipbook's motion (not premultiplied) or checks the host's,
 * refusing a size other than `sprite`'s (its width and height resolved). */
plume_result plume_particles_load_flipbook_motion(const plume_env *env, const plume_flipbook_motion *motion,
                                                  const plume_texture_desc *sprite, GLuint *out_texture);

#endif
