/* The batch update's profile (batch_profile.c), which batch.c times and
 * render/batch_draw.c reports with the batch draw's (plume_batch.h). Not
 * part of the API. */
#ifndef PLUME_BATCH_PROFILE_H
#define PLUME_BATCH_PROFILE_H

#include <stdbool.h>

#include "plume/plume_profile.h"
#include "core/plume_internal.h"
#include "profile/profiler.h"

/* What the last plume_batch_update did (plume_batch_profile's counts). */
typedef struct particles_batch_counts {
    uint32_t systems;           /* updated by the call */
    uint32_t systems_in_tables; /* of those, their passes over tables of systems */
    uint32_t systems_alone;     /* of those, updated on their own (an event route, a profiler of their own) */
    uint32_t table_pages;       /* the pool pages the tables ran over */
} particles_batch_counts;

/* Switches the batch's profiler (made by the first call that switches it
 * on). Errors: PLUME_ERROR_OUT_OF_MEMORY, PLUME_ERROR_GL (logged). */
plume_result particles_batch_set_profiling(plume_context *context, bool enabled);
bool particles_batch_profiling(const plume_context *context);
/* The update's profile and the last call's counts (all zero: never profiled). */
void particles_batch_get_update_profile(const plume_context *context, plume_profile *out,
                                        particles_batch_counts *counts);
/* batch.c: a profiled call's frame and its UPDATE stage opened (NULL: not
 * profiled), then closed with the call's counts, which are kept either way
 * once the context has the profile. */
plume_profiler *particles_batch_profiler_begin(plume_context *context, plume_gl_scope *scope);
void particles_batch_profiler_end(plume_context *context, plume_profiler *profiler,
                                  const particles_batch_counts *counts);

#endif
