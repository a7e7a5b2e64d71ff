/* A frame of many systems (part of plume_particles.h, which includes this
 * header): a game shows dozens to hundreds of small effects at once, each a
 * system; one call updates all of them. [since 1.3]
 *
 *     // every frame, after the opaque scene:
 *     plume_batch_update(context, NULL, 0, &frame);     // every live system of the context
 *     plume_draw_group_draw(context, group, &frame);     // or each system's plume_system_draw
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

#ifdef __cplusplus
}
#endif

#endif
