/*
 * plume_world.h — what a particle system's particles meet: analytic
 * colliders, collisions with the host's scene depth, attractors and vortices,
 * a vector-field texture, and GPU events that spawn particles.
 *
 * Part of the particle system's API: include plume_particles.h, which
 * includes this header (plume_system_desc.world, plume_system_set_world).
 */
#ifndef PLUME_WORLD_H
#define PLUME_WORLD_H

#include <stdbool.h>

#include "plume_common.h"
#include "plume_context.h"
#include "plume_emitter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Particles that meet the world -----------------------------------------
 * Collisions with analytic shapes and with the host's depth buffer, force
 * fields (attractors, vortices, a 3D vector-field texture) and GPU events
 * (death and collision spawn particles of another emitter). All in
 * plume_system_desc.world, changeable at run time with plume_system_set_world.
 * Compute path only: on the fragment path (plume_system_desc.path) a world
 * that asks for anything (a collider, depth collision, an attractor, a
 * vector field, an event route) is refused with PLUME_ERROR_GL_UNSUPPORTED
 * and a message naming the field, at creation and in plume_system_set_world;
 * event_capacity alone is accepted (nothing fires). */
enum {
    PLUME_MAX_COLLIDERS = 8,        /* analytic colliders per system */
    PLUME_MAX_ATTRACTORS = 8,       /* point attractors and vortices per system */
    PLUME_MAX_EVENT_ROUTES = 4      /* event routes per system */
};

/* [since 1.2] */
typedef enum plume_collider_shape {
    PLUME_COLLIDER_NONE = 0,        /* default: off */
    PLUME_COLLIDER_PLANE = 1,       /* the half-space behind a plane through `position` facing
                                       `normal` is solid: particles stay in front */
    PLUME_COLLIDER_SPHERE = 2,      /* a ball of `radius` round `position` */
    PLUME_COLLIDER_BOX = 3          /* an axis-aligned box of half-sizes `extents` round `position` */
} plume_collider_shape;

/* [since 1.2] */
typedef enum plume_collision_response {
    PLUME_COLLISION_BOUNCE = 0,     /* default: reflect with restitution and friction */
    PLUME_COLLISION_STICK = 1,      /* stop at the contact point (velocity 0; forces still act,
                                       so a particle stuck on a slope slides down it) */
    PLUME_COLLISION_KILL = 2        /* the particle dies at the contact (its collision and death
                                       events fire) */
} plume_collision_response;

/* What a particle does when it hits a collider or the depth buffer [since 1.2]. */
typedef struct plume_collision_desc {
    uint32_t response;              /* a plume_collision_response; default: bounce */
    float restitution;              /* bounce: normal speed out / normal speed in, 0 .. 1;
                                       default: 0 (no bounce) */
    float friction;                 /* bounce: Coulomb coefficient >= 0: the tangential speed
                                       loses friction x the normal speed change at each contact
                                       (a particle resting on a plane under gravity g slows by
                                       friction x g); default: 0 */
    float rest_speed;               /* bounce: a normal speed out below this (world units / s,
                                       >= 0) becomes 0, so bouncing ends; default: 0 */
} plume_collision_desc;

/* An analytic collider [since 1.2]. */
typedef struct plume_collider_desc {
    uint32_t shape;                 /* a plume_collider_shape; default: none (off) */
    float position[3];              /* plane: a point on it; sphere, box: the centre */
    float normal[3];                /* plane: the side particles stay on, any length but 0;
                                       normalised; default: {0, 1, 0} (all zero) */
    float radius;                   /* sphere: > 0 */
    float extents[3];               /* box: half-sizes, each > 0 */
    bool inside;                    /* sphere, box: false (default): solid, particles stay
                                       outside; true: a container, particles stay inside */
    plume_collision_desc collision;
} plume_collider_desc;

/* Collisions with the host's scene depth: plume_frame_desc.depth_texture
 * with the frame's view and projection (GL depth range 0..1, depth test
 * GL_LESS: larger is farther) given to update. A particle whose new position
 * projects inside the viewport, in front of the eye, and lies behind the
 * scene's depth by less than `thickness` collides; the normal comes from the
 * depth of the neighbouring texels. Particles off-screen, behind the eye or
 * farther behind a surface than `thickness` do not collide, and a particle
 * faster than thickness per step can pass through a surface (the depth
 * buffer holds only the front faces). Without a depth_texture in the frame,
 * nothing collides with it. [since 1.2] */
typedef struct plume_depth_collision_desc {
    bool enabled;                   /* default: false */
    float thickness;                /* world units > 0 assumed behind each visible surface;
                                       default: 0.5 */
    plume_collision_desc collision;
} plume_depth_collision_desc;

/* [since 1.2] */
typedef enum plume_attractor_kind {
    PLUME_ATTRACTOR_NONE = 0,       /* default: off */
    PLUME_ATTRACTOR_POINT = 1,      /* acceleration `strength` toward `position` (negative: away) */
    PLUME_ATTRACTOR_VORTEX = 2      /* acceleration `strength` round the line through `position`
                                       along `axis`, turning by the right-hand rule about it
                                       (counter-clockwise seen from the axis' tip) */
} plume_attractor_kind;

/* A force centre: the acceleration's size is |strength| x (1 - d / radius)
 * within `radius` of it (d: the distance to the point, or to the axis of a
 * vortex) and 0 beyond; radius 0: |strength| everywhere. [since 1.2] */
typedef struct plume_attractor_desc {
    uint32_t kind;                  /* a plume_attractor_kind; default: none (off) */
    float position[3];
    float axis[3];                  /* vortex: any length but 0; normalised; default: {0, 1, 0} */
    float strength;                 /* world units / s^2, finite */
    float radius;                   /* world units >= 0; default: 0 (no falloff) */
} plume_attractor_desc;

/* An acceleration field from a 3D texture the host owns (any format
 * sampling to floats: RGB = acceleration in world units / s^2, times
 * `strength`), stretched over the box bounds_min .. bounds_max and sampled
 * trilinearly with edges clamped; outside the box it adds nothing. The module
 * samples it with its own sampler; the host keeps the texture alive while
 * the system uses it. [since 1.2] */
typedef struct plume_vector_field_desc {
    uint32_t texture;               /* a GL_TEXTURE_3D name; default: 0 (off) */
    float bounds_min[3];
    float bounds_max[3];            /* each above bounds_min */
    float strength;                 /* default: 0 = 1 */
} plume_vector_field_desc;

/* [since 1.2] */
typedef enum plume_event_trigger {
    PLUME_EVENT_NONE = 0,           /* default: off */
    PLUME_EVENT_DEATH = 1,          /* the particle dies (age, or killed by a collider) */
    PLUME_EVENT_COLLISION = 2       /* the particle hits a collider or the depth buffer: a kill,
                                       or a contact with a normal speed in above that
                                       collision's rest_speed (so a particle resting on a
                                       surface, touching it every step, fires nothing) */
} plume_event_trigger;

/* A GPU event route: each particle of the source emitters that triggers it
 * spawns `count` particles of emitter `target_emitter` of `target_system`
 * (this system when {0}) at its position: the target emitter's attributes
 * (its shape round the parent's position, its speed, direction, spread,
 * lifetime, size, ...) with the parent's velocity times `inherit_velocity`
 * added. Events go into the target system's event buffer
 * (world.event_capacity children) and are emitted at the target's next
 * update; children that do not fit (buffer or particles full) are dropped
 * and counted (plume_profile.event_children_dropped). Nothing is read back.
 * A system's routes reach at most one system besides itself.
 * Which emitter a particle came from: while its system has routes (or CPU
 * events, plume_cpu_events_desc), a particle's lifetime carries its
 * emitter's index in its three lowest mantissa bits (a change of at most 7
 * ulp); particles born while the system had neither are matched by those
 * bits as they are.
 * Determinism: a child's attributes depend on the seed, its parent's
 * emission number, the route and its number among the parent's children;
 * the children of one update are numbered (`id`) in their parents' slot
 * order (route, then child, within a parent), several systems' children in
 * one buffer in the order their updates ran, and when a buffer or the
 * particles overflow, the children kept are the first in that order. So the
 * same steps give the same particles in the same slots, whatever order the
 * GPU runs its invocations in. [since 1.2] */
typedef struct plume_event_route_desc {
    uint32_t trigger;               /* a plume_event_trigger; default: none (off) */
    uint32_t source_emitters;       /* bit e set: particles of emitter e fire it; default: 0 = all */
    plume_system target_system;     /* default: {0} = this system */
    uint32_t target_emitter;        /* 0 .. PLUME_MAX_EMITTERS - 1 */
    uint32_t count;                 /* children per event, 1 .. 64; default: 0 = 1 */
    float inherit_velocity;         /* finite; default: 0 */
} plume_event_route_desc;

/* What a system's particles meet (see the section's head) [since 1.2]. */
typedef struct plume_world {
    plume_collider_desc colliders[PLUME_MAX_COLLIDERS];   /* applied in order */
    plume_depth_collision_desc depth_collision;
    plume_attractor_desc attractors[PLUME_MAX_ATTRACTORS];
    plume_vector_field_desc vector_field;
    plume_event_route_desc events[PLUME_MAX_EVENT_ROUTES];
    /* Children this system's event buffer holds between two of its updates,
     * 1 .. 2^21; read at creation only; default: 0 = 4096. */
    uint32_t event_capacity;
} plume_world;

/* ---- Events to the CPU ------------------------------------------------------
 * Deaths, collisions and route triggers reported back to the CPU, for
 * sounds and gameplay. Each update writes its records in slot order into a
 * GPU buffer (at most `budget` of them; the rest are counted), copies them
 * into one of PLUME_EVENT_READBACK_DEPTH readback buffers and places a
 * fence; plume_system_poll_events checks the fences without waiting and
 * hands each record over once, oldest first, one to three frames late. An
 * update that finds every readback buffer still in flight copies nothing and
 * counts its records as dropped rather than waiting. Records the caller has
 * not taken wait on the CPU (PLUME_EVENT_READBACK_DEPTH x budget of them;
 * the rest are counted as dropped). Off (kinds 0, the default): no GL
 * object, no pass, no cost. Compute path only: on the fragment path a
 * descriptor with kinds set is refused with PLUME_ERROR_GL_UNSUPPORTED and a
 * message. [since 1.3] */
enum { PLUME_EVENT_READBACK_DEPTH = 4 };  /* readback buffers per system [since 1.3] */

/* A record's kind, and its bit in plume_cpu_events_desc.kinds [since 1.3]. */
typedef enum plume_particle_event_kind {
    PLUME_PARTICLE_EVENT_DEATH = 1,       /* the particle died (age, or killed by a collider) */
    PLUME_PARTICLE_EVENT_COLLISION = 2,   /* it hit a collider or the depth buffer (as
                                             PLUME_EVENT_COLLISION: a kill, or a contact above
                                             rest_speed) */
    PLUME_PARTICLE_EVENT_ROUTE = 4        /* it fired a GPU event route (world.events[route]) */
} plume_particle_event_kind;

/* Which events a system reports to the CPU (plume_system_desc.cpu_events),
 * read at creation only [since 1.3]. */
typedef struct plume_cpu_events_desc {
    uint32_t kinds;            /* plume_particle_event_kind bits; default: 0 = off */
    uint32_t source_emitters;  /* bit e set: particles of emitter e report; default: 0 = all */
    uint32_t budget;           /* records one update reports, 1 .. 65536; default: 0 = 1024 */
} plume_cpu_events_desc;

/* One reported event [since 1.3]. A particle that both hit and died in one
 * update gives a collision record, then a death record, then one record per
 * route it fired, in route order; the records of one update come in
 * ascending slot order. */
typedef struct plume_particle_event {
    float position[3];         /* death by age: its last position (the update before's);
                                  collision or kill: after the contact (this update's) */
    uint32_t kind;             /* one plume_particle_event_kind */
    float velocity[3];         /* as position: the velocity that goes with it (a bounce's
                                  outgoing velocity) */
    uint32_t particle_id;      /* its emission number (plume_particle.id) */
    uint32_t emitter;          /* the emitter it came from, 0 .. PLUME_MAX_EMITTERS - 1 */
    uint32_t instance;         /* the placement (plume_system_set_instances) whose emitters
                                  spawned it: 0 for the system's own, for plume_system_emit's
                                  particles and for GPU events' children */
    uint32_t route;            /* PLUME_PARTICLE_EVENT_ROUTE: the index into world.events; else 0 */
    uint32_t reserved;         /* 0 */
    uint64_t update;           /* the update it came from: its index since creation
                                  (plume_frame_profile.frame); a prewarm's records carry
                                  the index of the update after it, so records come in
                                  order of this field */
} plume_particle_event;

/* What a poll found [since 1.3]. The dropped counts are those since the
 * previous poll (or creation, or reset). */
typedef struct plume_event_poll_info {
    uint32_t delivered;        /* records written to out by this call */
    uint32_t queued;           /* records waiting on the CPU after it (the next poll's) */
    uint32_t in_flight;        /* updates whose records are still on their way from the GPU */
    uint32_t reserved;         /* 0 */
    uint64_t dropped_budget;   /* records over an update's budget */
    uint64_t dropped_in_flight;/* records of updates that found every readback buffer in flight */
    uint64_t dropped_queue;    /* records that found the CPU queue full */
} plume_event_poll_info;

/* Hands over the system's events that have come back from the GPU, oldest
 * first, at most `max` (the rest stay queued for the next call). Checks the
 * readback fences with a zero timeout: it never waits for the GPU. Each
 * record is delivered once; a reset forgets the records not yet delivered.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle, out
 * NULL with max > 0, info NULL, a system created without cpu_events.kinds);
 * nothing is delivered then (*info zeroed when not NULL). PLUME_ERROR_GL.
 * Threading: where the system's GL context is current. [since 1.3] */
PLUME_API plume_result plume_system_poll_events(plume_context *context, plume_system system,
                                                plume_particle_event *out, uint32_t max,
                                                plume_event_poll_info *info);

#ifdef __cplusplus
}
#endif

#endif
