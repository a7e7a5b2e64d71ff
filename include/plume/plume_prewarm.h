/* Prewarm and bounds (part of plume_particles.h, which includes this
 * header): a system already T seconds into its life in one call, the GPU's
 * box of its live particles read back without a stall, and a conservative
 * box from its descriptor before any frame. [since 1.3] */
#ifndef PLUME_PREWARM_H
#define PLUME_PREWARM_H

#include <stdbool.h>
#include <stdint.h>

#include "plume_particles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Prewarm [since 1.3] ----------------------------------------------------
 * plume_system_prewarm's step (seconds) and its most steps: 20 s in steps of
 * PLUME_PREWARM_STEP; a longer prewarm takes PLUME_PREWARM_MAX_STEPS equal,
 * longer steps (seconds / PLUME_PREWARM_MAX_STEPS), so its cost is bounded. */
#define PLUME_PREWARM_STEP (1.0f / 30.0f)
#define PLUME_PREWARM_MAX_STEPS 600u
#define PLUME_PREWARM_MAX_SECONDS 3600.0f

/* Advances the system by `seconds` (0 .. PLUME_PREWARM_MAX_SECONDS; 0: a
 * no-op) in one call, on the GPU, from its state now: what updates of
 * PLUME_PREWARM_STEP (the last one shorter: seconds - k steps) would leave,
 * the particles equal to such updates' up to float rounding (emission, ages,
 * forces, collisions except with the scene's depth, which needs a frame's
 * depth texture, and events). No culling, no sort, no draw work, nothing read
 * back: each step is the update's emission and simulate passes only, and
 * the draw list is in slot order until the next update sorts it (update
 * before drawing, as every frame). Bounded time: at most
 * PLUME_PREWARM_MAX_STEPS steps; beyond PLUME_PREWARM_MAX_STEPS *
 * PLUME_PREWARM_STEP seconds the steps are longer (seconds /
 * PLUME_PREWARM_MAX_STEPS each), which moves rate emission into fewer, larger
 * cohorts. Also a way to catch up: a host that skipped updates of an
 * invisible system (its culling) may prewarm it by the time skipped instead
 * of one long update. The fragment path prewarms too (its steps also sort).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle,
 * seconds negative, not finite or over PLUME_PREWARM_MAX_SECONDS; the system
 * is unchanged then), PLUME_ERROR_GL.
 * Threading: where the system's GL context is current. [since 1.3] */
PLUME_API plume_result plume_system_prewarm(plume_context *context, plume_system system, float seconds);

/* ---- Bounds [since 1.3] -------------------------------------------------------
 * A box for the host's own culling: plume_system_get_bounds, the GPU's box
 * of the live particles a frame or two late; plume_system_desc_bounds, a
 * box from the descriptor before any frame. A host whose culling finds the
 * box invisible may skip update and draw and resume later: the particles
 * wait where they were (time stands still for them), and a
 * plume_system_prewarm by the time skipped catches up in steps (one update
 * of the whole time would emit it as one cohort). */
typedef struct plume_bounds {
    float min[3];               /* world units: every live particle's quad lies inside */
    float max[3];
    bool any_live;              /* false: no live particle (min and max are 0) */
    /* plume_system_desc_bounds: false where nothing bounds the particles
     * (attractors, a vector field, event routes): min and max are then the
     * box without them. plume_system_get_bounds: always true. */
    bool bounded;
    /* plume_system_get_bounds: the update the box describes, counted from 1
     * since creation (0: none has come back yet); _desc_bounds: 0. */
    uint64_t update;
} plume_bounds;

/* The box of the system's live particles after a recent update, each
 * particle's position widened by the largest quad's half diagonal (the
 * size curve's largest value times the emitters' largest size, the stretch
 * limit where the orientation stretches): the culling sphere's radius. It
 * is grown on the GPU by every update's simulate pass (culled particles
 * included) and comes back through a ring of fenced copies checked with a
 * zero timeout: never a wait, so it describes an update one to three frames
 * old (out->update says which; the same one again until a newer one has
 * come back). The first call starts the box's way back (a system whose
 * host never asks grows no box and places no fence): it and the calls
 * before a box has come back, and those after a reset, give out->update 0
 * and any_live false. A system moved by emitter transforms is boxed where
 * its particles are (world space). The fragment path has no GPU box:
 * PLUME_ERROR_GL_UNSUPPORTED, with a message.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle, out
 * NULL; *out is zeroed when not NULL), PLUME_ERROR_GL_UNSUPPORTED.
 * Threading: where the system's GL context is current. [since 1.3] */
PLUME_API plume_result plume_system_get_bounds(plume_context *context, plume_system system, plume_bounds *out);

/* A conservative box, from the descriptor alone, of every particle its
 * emitters can make over their lifetimes, quads included: each emitter's
 * shape around its position, moved by at most its largest speed for its
 * longest lifetime, with gravity, wind and drag as the simulation integrates
 * them and turbulence at its largest acceleration; with colliders or depth
 * collision, the same reach in every direction (a bounce turns a particle
 * but never speeds it up). In the emitters' frame: the frame their
 * positions are given in. Emitters that emit nothing (rate and burst_count
 * 0) are left out; none left: any_live false. Attractors, a vector field
 * and event routes leave the particles unbounded: bounded false (children
 * another system's routes send here are not covered either). Mesh
 * particles (plume_mesh.h) reach their size times their largest mesh scale
 * times the farthest vertex of uploaded meshes; a mesh in the host's
 * buffers leaves them unbounded (no GL here to read them) [since 1.3].
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (desc or out NULL, a descriptor
 * plume_system_desc_check refuses, with its message; *out is zeroed when not
 * NULL).
 * Threading: any thread; no GL call, no state. [since 1.3] */
PLUME_API plume_result plume_system_desc_bounds(const plume_system_desc *desc, plume_bounds *out);

#ifdef __cplusplus
}
#endif

#endif
