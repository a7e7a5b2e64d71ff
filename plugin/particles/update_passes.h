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

/* glDispatchCompute of `groups` workgroups, counted in lab builds (the
 * passes' dispatches: plume_lab_particle_storage). */
#ifdef PLUME_LAB
extern uint64_t particles_lab_pass_dispatches;
#endif
static inline void particles_dispatch(GLuint groups) {
#ifdef PLUME_LAB
    ++particles_lab_pass_dispatches;
#endif
    glDispatchCompute(groups, 1, 1);
}

/* ---- update_table.c: the passes of the systems that fit, a dispatch a page ---- */

/* Marks the systems of `systems` whose step fits a table (in_table), by
 * page; NULL (none marked) where fewer than two fit, for a single system,
 * or out of memory. */
update_table *update_table_choose(system_state *const *systems, uint32_t count, const plume_frame_desc *frame);
/* Whether the table's emit takes the system's spawn batches (its plan then
 * uploads none of its own). */
bool update_table_takes_emit(const update_table *table, const system_state *system);
/* The records of the marked systems, after each one's plan (requested,
 * spawn batches), with their spawn batches and emitters, in one upload;
 * false (no table pass runs) where out of memory. Binds
 * GL_SHADER_STORAGE_BUFFER (the caller's scope restores it). */
bool update_table_upload(update_table *table);
/* Runs `pass` over the table, a dispatch a page; false where it did not
 * (no table, or the lab's switch off): the systems then run their own. */
bool update_table_dispatch(update_table *table, table_pass pass, const plume_frame_desc *frame, const mat4 view,
                           const mat4 projection);
/* The systems the table takes (0: no table). */
uint32_t update_table_fit(const update_table *table);
/* Whether `pass` of the system ran in the table. */
bool update_table_ran(const update_table *table, const system_state *system, table_pass pass);
/* Each tabled system's live list, written by the scatter's table into the
 * scratch (after the barrier that follows the scatter): marked as waiting
 * there (particles_settle_live_list copies it once something reads it), or
 * without GL 4.5's named copies copied to its own buffer now, binding
 * GL_COPY_READ_BUFFER and GL_COPY_WRITE_BUFFER (the caller's scope saves
 * them). */
void update_table_finish_live_lists(update_table *table);

#endif
