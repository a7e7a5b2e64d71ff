/* The context's particle storage (particle_pool.c) and the batch's tables
 * of systems over its pages (update_table.c, update_passes.h). Part of the
 * particle system's insides (particles_internal.h includes it). */
#ifndef PLUME_PARTICLE_POOL_H
#define PLUME_PARTICLE_POOL_H

#include "core/plume_internal.h"
#include "plume/plume_particles.h"
#include "shared/plume_gpu_layout.h"
#include "particles/particle_view.h"

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

/* The context's empty event buffer (a header of zeros, no record): what a
 * system that no event route reaches binds for its event buffers, with a
 * capacity of 0 (world.c). Made with the pool; 0 where there is none. */
GLuint particle_pool_empty_events(const plume_context *context);

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
/* The pool pages of the last batch's table (0: none fitted). */
uint32_t update_table_pages(const update_table *table);
/* The system's live list in its own buffer: a batch's table copies it there
 * now if it still waits in the table's scratch (live_list_pending). Call it
 * before anything reads live_list_buffer. Binds nothing (a GL 4.5 copy
 * between named buffers). */
void particles_settle_live_list(system_state *system);
/* A system freed: the table forgets its waiting copy. No GL call. */
void update_table_forget(system_state *system);

#endif
