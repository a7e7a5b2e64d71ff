/* The batch update's profile (plume_batch_set_profiling, plume_batch.h):
 * a context attachment holding the batch's profiler, whose frames are the
 * context's plume_batch_update calls (UPDATE the call, SIMULATE the passes
 * of the systems updated together, SORT what follows them: their sorts,
 * trails, captures), and the last call's counts. Made by the first call
 * that switches profiling; a context that never asks has none and a batch
 * update then pays one attachment lookup. The batch draw's side (its
 * group's profiler) is render/batch_draw.c's. */
#include "particles/batch_profile.h"

#include "profile/profiler.h"

typedef struct batch_profile_state {
    plume_profiler *profiler; /* off until switched on */
    uint64_t updates;         /* profiled frames begun: the frames' indices */
    particles_batch_counts last;
} batch_profile_state;

static void release(void *state, plume_context *context) {
    (void)context;
    batch_profile_state *p = state;
    profiler_destroy(p->profiler);
    p->profiler = NULL;
}

static uint32_t list_gl_objects(const void *state, plume_gl_object *out, uint32_t capacity) {
    const batch_profile_state *p = state;
    return profiler_list_gl_objects(p->profiler, out, capacity);
}

static const plume_context_attachment_class BATCH_PROFILE = {"batch profile", release, list_gl_objects};

plume_result particles_batch_set_profiling(plume_context *context, bool enabled) {
    const plume_env *env = plume_context_env(context);
    batch_profile_state *p = plume_context_attachment(context, &BATCH_PROFILE);
    if (!p && !enabled) return PLUME_OK;
    if (!p && !(p = plume_context_attach(context, &BATCH_PROFILE, sizeof *p))) return PLUME_ERROR_OUT_OF_MEMORY;
    if (!p->profiler) {
        profiler_desc desc = {0};
        plume_result r = profiler_create(env, &desc, &p->profiler);
        if (r != PLUME_OK) return r;
    }
    return profile_switch(p->profiler, env, enabled);
}

bool particles_batch_profiling(const plume_context *context) {
    const batch_profile_state *p = plume_context_attachment(context, &BATCH_PROFILE);
    return p && profiler_is_enabled(p->profiler);
}

void particles_batch_get_update_profile(const plume_context *context, plume_profile *out,
                                        particles_batch_counts *counts) {
    const batch_profile_state *p = plume_context_attachment(context, &BATCH_PROFILE);
    *out = (plume_profile){0};
    *counts = (particles_batch_counts){0};
    if (!p) return;
    profiler_get_profile(p->profiler, out);
    *counts = p->last;
}

plume_profiler *particles_batch_profiler_begin(plume_context *context, plume_gl_scope *scope) {
    batch_profile_state *p = plume_context_attachment(context, &BATCH_PROFILE);
    if (!p || !profiler_is_enabled(p->profiler)) return NULL;
    profiler_frame_begin(p->profiler, ++p->updates, scope);
    profiler_stage_begin(p->profiler, PLUME_STAGE_UPDATE);
    return p->profiler;
}

void particles_batch_profiler_end(plume_context *context, plume_profiler *profiler,
                                  const particles_batch_counts *counts) {
    batch_profile_state *p = plume_context_attachment(context, &BATCH_PROFILE);
    if (!p) return;
    p->last = *counts;
    if (!profiler) return;
    profiler_stage_end(profiler, PLUME_STAGE_UPDATE);
    profiler_frame_end(profiler);
}
