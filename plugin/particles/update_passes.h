/* The compute path's update cut where a batch (batch.c) runs its middle for
 * many systems at once: plume_system_update runs the three parts for one
 * system (system.c's particles_update_in_scope). Not part of the API. */
#ifndef PLUME_UPDATE_PASSES_H
#define PLUME_UPDATE_PASSES_H

#include "particles_internal.h"

/* What comes before the passes (the update's count, its profiler frame, the
 * scope's groups, the cull: update_culls), and what comes after (trails,
 * captures, the sort; the sort's host barrier left to the caller when
 * `host_barrier` is false: sort_host_barrier once after several). */
void particles_update_begin(system_state *system, const plume_frame_desc *frame, plume_gl_scope *scope);
plume_result particles_update_end(system_state *system, const plume_frame_desc *frame, const mat4 view,
                                  plume_gl_scope *scope, bool host_barrier);
/* Each pass of a step (the plan, prepare, emit, simulate, the compaction,
 * events to the CPU) for every system of `systems` before the next pass, in
 * their order, one barrier between two passes: each system as its own step
 * would leave it, where none reads what another writes (batch.c keeps systems
 * linked by event routes out). Culls as each system's update_culls says. */
void particles_run_passes(system_state *const *systems, uint32_t count, const plume_frame_desc *frame,
                          const mat4 view, const mat4 projection);

#endif
