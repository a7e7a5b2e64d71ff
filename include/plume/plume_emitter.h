/*
 * plume_emitter.h — what a particle system emits and how its particles move:
 * the system's handle, the per-system limits, emitters and forces.
 *
 * Part of the particle system's API: include plume_particles.h, which
 * includes this header (plume_system_desc.emitters, .forces).
 */
#ifndef PLUME_EMITTER_H
#define PLUME_EMITTER_H

#include <stdbool.h>

#include "plume_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A particle system, named by a checked handle (plume_context.h). */
typedef struct plume_system {
    uint64_t id;
} plume_system;

enum {
    PLUME_MAX_EMITTERS = 8,     /* emitters per system */
    PLUME_MAX_CURVE_KEYS = 8    /* keys per curve or gradient */
};

/* A value drawn uniformly from [min, max] for each particle at its birth.
 * min == max gives a constant. */
typedef struct plume_range {
    float min;
    float max;
} plume_range;

typedef enum plume_emitter_shape {
    PLUME_SHAPE_POINT = 0,   /* default: every particle starts at `position` */
    PLUME_SHAPE_SPHERE = 1,  /* uniformly inside a ball of radius extents[0] */
    PLUME_SHAPE_BOX = 2,     /* uniformly inside an axis-aligned box of half-sizes extents[0..2] */
    PLUME_SHAPE_CONE = 3     /* uniformly on a disc of radius extents[0] facing `direction`;
                                with `spread` the velocities fill a cone around it */
} plume_emitter_shape;

/* One emitter. Its particles start with speed `speed` in a direction drawn
 * uniformly inside the cone of half-angle `spread` around `direction`.
 * An emitter whose rate and burst count are 0 emits nothing (the default). */
typedef struct plume_emitter_desc {
    plume_emitter_shape shape;  /* default: PLUME_SHAPE_POINT */
    float position[3];          /* world units; default: the origin */
    float extents[3];           /* world units, >= 0; see the shapes; default: 0 (a point) */
    float direction[3];         /* any length but 0; normalised; default: {0, 1, 0} (all zero) */
    float spread;               /* radians, 0 .. pi (pi: every direction); default: 0 */
    float rate;                 /* particles per second, >= 0; default: 0. Fractions carry over
                                   between updates: rate 1000 over updates of 1/60 s emits
                                   16, 17, 17, 16, ... */
    uint32_t burst_count;       /* particles per burst; default: 0 (no bursts). A burst
                                 * emits what fits; over the capacity, create and
                                 * plume_system_desc_check warn [since 1.3] */
    float burst_interval;       /* seconds between bursts, >= 0; default: 0 = a single burst.
                                   Bursts fall at times 0, interval, 2 * interval, ... after
                                   creation or reset; an update from t0 to t1 fires those in
                                   [t0, t1) (an update of dt 0 fires none) */
    plume_range lifetime;       /* seconds, 0 < min <= max; default: {1, 1} (both 0) */
    plume_range speed;          /* world units per second, 0 <= min <= max; default: {0, 0} */
    plume_range size;           /* quad edge in world units at birth, 0 < min <= max;
                                   default: {0.1, 0.1} (both 0). The drawn size is this
                                   times appearance.size_over_life */
    plume_range rotation;       /* radians at birth; default: {0, 0} */
    plume_range spin;           /* radians per second; default: {0, 0} */
} plume_emitter_desc;

/* dv/dt = gravity + turbulence - drag * (v - wind), integrated exactly for
 * forces constant over a step (so the result barely depends on the step). */
typedef struct plume_forces {
    float gravity[3];           /* acceleration, world units / s^2; default: {0, 0, 0} */
    float wind[3];              /* the air's velocity; it acts through drag (with drag 0 the
                                   wind has no effect); default: {0, 0, 0} */
    float drag;                 /* 1 / s, >= 0; default: 0 */
    float turbulence;           /* strength of a curl-noise acceleration (divergence free),
                                   world units / s^2, >= 0; default: 0 (off) */
    float turbulence_scale;     /* spatial frequency of the noise, 1 / world units, > 0;
                                   default: 1 */
    float turbulence_speed;     /* how fast the noise field evolves, 1 / s, >= 0; default: 0
                                   (a still field) */
} plume_forces;

/* ---- Placements [since 1.3] ----
 * Where a system's emitters sit in the world: an emitter's position,
 * extents and direction are in the placement's local space; a particle is
 * born at position + rotation * (scale * local position), its velocity
 * turned by the rotation (not scaled). */
typedef struct plume_transform {
    float position[3];          /* world units; default: the origin */
    float rotation[4];          /* quaternion x, y, z, w, any length but 0 (normalised);
                                   all zero (default): no rotation */
    float scale[3];             /* per local axis, > 0; all zero (default): {1, 1, 1} */
} plume_transform;

/* Particles spawned now (plume_system_emit) [since 1.3]. */
typedef struct plume_emit_desc {
    uint32_t emitter;           /* the emitter (0 .. PLUME_MAX_EMITTERS - 1) whose shape,
                                   direction, spread, lifetime, speed, size, rotation and spin
                                   the particles take; its rate and bursts do not matter (an
                                   emitter of rate 0 makes a template); default: 0 */
    uint32_t count;             /* particles, 1 .. the system's capacity */
    plume_transform transform;  /* where the emitter's local space is; default: the identity */
    float velocity[3];          /* world units per second added to every particle (a carrier's
                                   velocity, a blast); default: 0 */
    float size_scale;           /* multiplies the birth size, > 0; default 0: 1 */
    uint32_t seed;              /* 0 (default): the system's random streams by emission number,
                                   as rates and bursts draw them; otherwise particle k of this
                                   emit draws from (seed, k): the same seed gives the same
                                   particles wherever and whenever it is emitted */
    float color[4];             /* multiplies the drawn colour (straight rgba: the gradient's
                                   colour and opacity) on every draw path, 0 .. 65504 (kept as
                                   half floats); all zero (default): {1, 1, 1, 1} */
} plume_emit_desc;

/* One placement of a system's emitters (plume_system_set_instances)
 * [since 1.3]. */
typedef struct plume_instance_desc {
    plume_transform transform;  /* default: the identity */
    bool enabled;               /* false (default): its emitters' rates and bursts emit nothing;
                                   its particles live on */
    bool jump;                  /* true: the instance moved without travelling (teleported,
                                   reused): no stream along the path, no inherited velocity */
} plume_instance_desc;

#ifdef __cplusplus
}
#endif

#endif
