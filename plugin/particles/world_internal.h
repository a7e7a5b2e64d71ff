/* The world's GL side (world.c: collisions, force fields, events between
 * systems) and events to the CPU (cpu_events.c). Part of the particle
 * system's insides (particles_internal.h includes it). */
#ifndef PLUME_WORLD_INTERNAL_H
#define PLUME_WORLD_INTERNAL_H

#include <cglm/cglm.h>

#include "core/plume_internal.h"
#include "plume/plume_particles.h"
#include "shared/plume_gpu_layout.h"

typedef struct system_state system_state;

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
    GLuint event_buffer;     /* header + event_capacity records; 0 until a route reaches the system */
    GLuint depth_sampler, field_sampler;
    /* Some simulate pass (this system's or another's) may have appended to
     * the event buffer since this system last emitted its children. */
    bool events_pending;
    /* This update emitted children: the profile reads the buffer's counts. */
    bool consumed_this_update;
    bool warned_missing_target, warned_bad_field;
    /* The descriptor's world asks for nothing (no collider, attractor,
     * vector field, depth collision or event route): whatever the frame,
     * simulate runs none of it. Set with the world (world_note_desc), read
     * by every update of a batch instead of the world's kilobyte. */
    bool quiet;
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

/* ---- world.c: collisions, force fields, events ---- */

/* The event passes, the event buffer and the samplers; after the compute
 * programs. */
plume_result world_create(system_state *s);
/* Names in `name` (NULL with size 0: none) the first field of `world`
 * that asks for something (a collider, depth collision, an attractor, a
 * vector field, an event route); false where it asks for nothing: the
 * fragment path's refusal, and world_state.quiet. */
bool world_field_in_use(const plume_world *world, char *name, size_t size);
/* world_state.quiet from the descriptor's world (at creation and with
 * each plume_system_set_world). No GL call. */
void world_note_desc(system_state *s);
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
/* The event buffers `s`'s routes reach (its own, its other target's), made
 * where not yet (they are never given back before the system goes); the
 * caller's scope saved PLUME_SCOPE_COPY_BUFFERS. */
void world_make_event_buffers(system_state *s);
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

#endif
