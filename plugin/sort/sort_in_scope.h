/* What the particle system's update and the draws take from the sorter
 * besides the public calls: an indirect sort inside the caller's GL scope,
 * without the public call's checks, for buffers the module made itself (the
 * public call's buffer size queries, host state checks and a scope of its
 * own were a tenth of a batch frame's CPU on the GPU machine). Not part of
 * the API. */
#ifndef PLUME_SORT_IN_SCOPE_H
#define PLUME_SORT_IN_SCOPE_H

#include "sort_internal.h"

/* plume_sort_indirect_bounded of the `count_buffer_bytes`-byte count buffer,
 * without checking the buffers, the host's state or the current context (the
 * caller made both buffers and checked the call), inside the caller's scope
 * (which restores the storage buffer bindings), on the compute path. With
 * `host_barrier` false it leaves out the barrier after the last pass that
 * makes the pairs readable to draws and reads: a caller sorting several
 * lists issues sort_host_barrier once after the last. Returns
 * PLUME_ERROR_INVALID_ARGUMENT for a stale handle, PLUME_ERROR_CAPACITY for a
 * max_count over the sorter's capacity (logged). */
plume_result sort_indirect_in_scope(plume_context *context, plume_sorter sorter, GLuint pairs_buffer,
                                    GLuint count_buffer, uint32_t count_offset, GLsizeiptr count_buffer_bytes,
                                    uint32_t max_count, bool host_barrier);
/* The barrier after sorts that sort_indirect_in_scope left without one. */
void sort_host_barrier(void);

#endif
