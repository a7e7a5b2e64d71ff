/* Emission's CPU side: the emitters' clocks (simulate.c), the instances,
 * the emit queue and the step's spawn batches (spawn.c). Part of the
 * particle system's insides (particles_internal.h includes it). */
#ifndef PLUME_SPAWN_INTERNAL_H
#define PLUME_SPAWN_INTERNAL_H

#include "core/plume_internal.h"
#include "plume/plume_particles.h"
#include "shared/plume_gpu_layout.h"

typedef struct system_state system_state;

/* Time and fractions the CPU keeps per emitter to turn rates and bursts into
 * a count per update. Only counts go to the GPU, never slots. */
typedef struct emitter_clock {
    double time;      /* seconds since creation or reset */
    double fraction;  /* rate * dt left over from earlier updates, 0 .. 1 */
} emitter_clock;

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
    /* A bit per emitter whose rate or bursts ask for particles: an update
     * reads only those emitters' descriptors (spawn_note_emitter). */
    uint32_t emitting;
    spawn_batch *batches; /* this update's table */
    uint32_t batch_count, batch_room;
    plume_upload_ring batch_ring; /* its buffer current: the emit pass's table */
    /* Local space: per instance its placement at the last update and now
     * (LocalMotion in particle_simulate.comp). */
    float *instance_motion;
    uint32_t instance_motion_room;
    plume_upload_ring instance_ring;
} spawn_state;

/* ---- spawn.c: instances, emission on demand, the spawn batches ---- */

/* Instance 0 at the identity and the batch buffer; after the compute
 * programs (the fragment path has no instances). */
plume_result spawn_create(system_state *s);
void spawn_free(system_state *s);
uint32_t spawn_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity);
/* Emitter `index` of the descriptor set (at creation, by
 * plume_system_set_emitter): whether it emits. */
void spawn_note_emitter(system_state *s, uint32_t index);
/* Every placement starts again where it is; the queue is dropped. */
void spawn_reset(system_state *s);
/* The step's batches (rates and bursts per emitter and enabled instance,
 * then the queue, which it empties), uploaded to the batch buffer unless
 * `upload` is false (a batch's emit table uploads them with the others'); returns
 * the particles requested (at most the capacity); in local space also
 * each instance's motion since the last update. */
uint32_t spawn_plan(system_state *s, double dt, bool upload);
/* The longest lifetime of the emitters the step's batches name (what its
 * particles can live at most; 0: no batch). */
double spawn_longest_lifetime(const system_state *s);
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

#endif
