/* A frame of many systems (part of plume_particles.h, which includes this
 * header): a game shows dozens to hundreds of small effects at once, each a
 * system; one call updates all of them. [since 1.3]
 *
 *     // every frame, after the opaque scene:
 *     plume_batch_update(context, NULL, 0, &frame);     // every live system of the context
 *     plume_batch_draw(context, NULL, 0, &frame);        // or each system's plume_system_draw
 *
 * What one call saves over a plume_system_update per system: the host's GL
 * state is saved and restored once, and the frame, the host's state and the
 * depth texture are checked once, not per system; and the update runs
 * stage-major: each pass of the step (prepare, emit, simulate, the
 * compaction) for every system before the next pass, so all systems share
 * one GPU barrier a pass instead of each paying its own, and one after
 * their sorts. A system linked to another by an event route
 * (plume_world.events' target_system, either end) or profiled
 * (plume_system_set_profiling) is updated on its own within the call, after
 * the others. Each system's particles come out exactly as its own
 * plume_system_update with the same frame would leave them (slots, order,
 * events, bounds, profile: the per-system calls and the batch may be mixed
 * from frame to frame). */
#ifndef PLUME_BATCH_H
#define PLUME_BATCH_H

#include <stdint.h>

#include "plume_particles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Updates `system_count` systems of `context` by one frame, in the order
 * given, as plume_system_update would update each with `frame` (see above).
 * `systems` NULL with `system_count` 0: every live system of the context,
 * in the order of their handles' slots (systems created since the last call
 * join, destroyed ones drop out); `systems` not NULL with `system_count` 0:
 * nothing. Every system runs the compute path (plume_system_desc.path).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (context or frame NULL; systems NULL
 * with a count; a handle that names no live system of this context; a system
 * named twice; what plume_system_update refuses of the frame),
 * PLUME_ERROR_GL_UNSUPPORTED (a fragment-path system), PLUME_ERROR_HOST_STATE,
 * PLUME_ERROR_OUT_OF_MEMORY: each logs one message naming the field or the
 * index, and then no system is updated. PLUME_ERROR_GL (a system's update
 * failed: the others are updated). GL state: as plume_system_update's.
 * Threading: where the context's GL context is current. [since 1.3] */
PLUME_API plume_result plume_batch_update(plume_context *context, const plume_system *systems,
                                          uint32_t system_count, const plume_frame_desc *frame);

/* Draws `system_count` systems of `context` for `frame`'s camera as one
 * draw group of any size (plume_draw_group.h): the host's GL state saved and
 * restored once, each system's drawn count copied and scanned by one pass,
 * a gather dispatch per system (no barrier between them), one sort of every
 * drawn particle together by view depth (one back-to-front order, so
 * effects that overlap interleave correctly), and one draw on the frame's
 * path (raster, or tiled where the frame picks it and gives a depth
 * texture) at its draw_resolution, every system's blend mode, orientation,
 * lighting, flipbook and sprite kept. Instead of the systems' own draws:
 *
 *     plume_batch_update(context, NULL, 0, &update_frame); // disable_sort set: the batch sorts
 *     plume_batch_draw(context, NULL, 0, &frame);          // every live system, one order
 *
 * `systems` NULL with `system_count` 0: every live system of the context, in
 * the order of their handles' slots; `systems` not NULL with `system_count`
 * 0: nothing. The context keeps the last list's draw state (buffers sized
 * by the capacities, the sprites' texture array, the systems' table); a
 * call with another list (systems created or destroyed between frames, or
 * another selection) remakes it: buffers and sprite copies, never a shader
 * build once the looks' programs are built (plume_context_warm_programs).
 * Systems drawn only through batches can skip their own sort: update them
 * with the frame's disable_sort (the batch sorts everything together, and
 * reads their lists in any order).
 * Which systems can join: as a draw group's (compute path, sprites or none,
 * every textured sprite of one size, at most 2^28 particles each, 2^30 in
 * all; trail systems with their segments, a trail's pairs counting against
 * those limits), with no limit on their number but the GL's: one sprite array layer
 * per textured system (GL_MAX_ARRAY_TEXTURE_LAYERS, at least 2048).
 * A system joins one batch a frame: a call whose list differs from the one
 * that last drew one of its systems since that system's last update is
 * refused (drawing one batch for several views is fine).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (context or frame NULL; systems NULL
 * with a count; a handle that names no live system of this context; a system
 * named twice; a mesh system; sprites of different sizes; a trail with a
 * texture repeating along it; a system drawn by
 * another batch since its last update; what plume_system_draw refuses of the
 * frame), PLUME_ERROR_GL_UNSUPPORTED (a fragment-path system; more textured
 * systems than the sprite array's layers), PLUME_ERROR_HOST_STATE,
 * PLUME_ERROR_OUT_OF_MEMORY, PLUME_ERROR_SHADER, PLUME_ERROR_GL: each logs
 * one message naming the field or the index, and then nothing is drawn.
 * GL state: as plume_draw_group_draw's. Threading: where the context's GL
 * context is current. [since 1.3] */
PLUME_API plume_result plume_batch_draw(plume_context *context, const plume_system *systems, uint32_t system_count,
                                        const plume_frame_desc *frame);

/* The batch's profile (plume_batch_set_profiling) [since 1.3]. */
typedef struct plume_batch_profile {
    /* The context's plume_batch_update calls, each a frame: stages[UPDATE]
     * the whole call, [SIMULATE] the passes of the systems updated together
     * (prepare, emit, simulate, the compaction, for every system), [SORT]
     * what follows them (their sorts, trails, captures); the systems the
     * call updates on their own count in UPDATE only. The particle counts
     * are zero: each system's own profile has them. */
    plume_profile update;
    /* The context's plume_batch_draw calls, each a frame, as a draw group's
     * profile (plume_draw_group_get_profile): [SORT] the joint sort, [DRAW]
     * the draw and its sub-stages, drawn_count, the path and resolution that
     * ran. It starts again when a call draws another list (the batch's group
     * is remade). */
    plume_profile draw;
    /* The last plume_batch_update: the systems it updated; of those, the
     * systems whose passes ran over tables of systems (a dispatch a pool
     * page a pass) and the pages; and those it updated on their own (linked
     * by an event route, or profiled themselves). Counted from the first
     * call after profiling was first switched on, on or off since. */
    uint32_t systems, systems_in_tables, table_pages, systems_alone;
    /* The last plume_batch_draw's systems. */
    uint32_t drawn_systems;
} plume_batch_profile;

/* Switches the profile of the context's batch calls on or off (off by
 * default): GL timestamp queries around the stages of each plume_batch_update
 * and plume_batch_draw, read without waiting (figures lag a few frames, as a
 * system's do: plume_profile.h). Off, the batch calls issue no query. A
 * system's own profiling (plume_system_set_profiling) is separate and takes
 * the system out of the batch's shared passes. Errors:
 * PLUME_ERROR_INVALID_ARGUMENT (context NULL), PLUME_ERROR_GL_UNSUPPORTED (no
 * current GL context), PLUME_ERROR_OUT_OF_MEMORY, PLUME_ERROR_GL; each logs
 * one message. GL state: restored. Threading: where the context's GL context
 * is current. [since 1.3] */
PLUME_API plume_result plume_batch_set_profiling(plume_context *context, bool enabled);

/* The batch calls' profile (see plume_batch_profile); all zero (enabled
 * false) before profiling was switched on. Touches no GL. Errors:
 * PLUME_ERROR_INVALID_ARGUMENT (context or out NULL; *out zeroed where not
 * NULL), logged. [since 1.3] */
PLUME_API plume_result plume_batch_get_profile(const plume_context *context, plume_batch_profile *out);

#ifdef __cplusplus
}
#endif

#endif
