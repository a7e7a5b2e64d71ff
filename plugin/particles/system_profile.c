/* The particle system's profiling calls (plume_particles.h): each system has
 * a profiler (profile/profiler.h) that times its stages; these calls switch
 * it and turn its frames into the public records. */
#include <string.h>

#include "particles_internal.h"

static void finish_profiled_frame(void *user, profiler_frame *frame) {
    const system_state *s = user;
    profile_finish_sort_values(frame, s->context, s->sorter);
}

void particles_capture_event_counts(system_state *s, plume_gl_scope *scope) {
    if (!s->world.consumed_this_update) {
        profiler_set_u32(s->profiler, PROFILER_VALUE_EVENT_CHILDREN, 0);
        profiler_set_u32(s->profiler, PROFILER_VALUE_EVENT_DROPPED, 0);
        return;
    }
    profiler_capture_u32(s->profiler, PROFILER_VALUE_EVENT_CHILDREN, s->world.event_buffer,
                         4 * PLUME_EVENT_LAST_REQUESTED, scope);
    profiler_capture_u32(s->profiler, PROFILER_VALUE_EVENT_DROPPED, s->world.event_buffer,
                         4 * PLUME_EVENT_LAST_DROPPED, scope);
}

plume_result particles_create_profiler(system_state *s) {
    profiler_desc desc = {0};
    plume_result r = profiler_create(&s->env, &desc, &s->profiler);
    if (r == PLUME_OK) profiler_set_frame_finisher(s->profiler, finish_profiled_frame, s);
    return r;
}

plume_result plume_system_set_profiling(plume_context *context, plume_system handle, bool enabled) {
    system_state *system = particles_find_system(context, handle, "plume_system_set_profiling");
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    if (plume_check_gl_context(&system->env, "plume_system_set_profiling") != PLUME_OK)
        return PLUME_ERROR_GL_UNSUPPORTED;
    return profile_switch(system->profiler, &system->env, enabled);
}

plume_result plume_system_get_profile(const plume_context *context, plume_system handle, plume_profile *out) {
    if (out) memset(out, 0, sizeof *out);
    const system_state *system = particles_find_system_with(context, handle, "plume_system_get_profile", out, "out");
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    profiler_get_profile(system->profiler, out);
    out->path = system->desc.path;
    return PLUME_OK;
}

uint32_t plume_system_get_frame_profiles(const plume_context *context, plume_system handle, uint64_t first_frame,
                                         plume_frame_profile *out, uint32_t max) {
    const system_state *system = particles_find_system(context, handle, "plume_system_get_frame_profiles");
    if (!system || !out) return 0;
    uint32_t written = 0;
    profiler_frame frame;
    /* One at a time through a local record: the caller's array has the
     * public layout. */
    while (written < max && profiler_frames_from(system->profiler, first_frame, &frame, 1) == 1) {
        plume_frame_profile *o = &out[written++];
        memset(o, 0, sizeof *o);
        o->frame = frame.index;
        o->stage_mask = frame.stage_mask;
        memcpy(o->stage_ms, frame.stage_ms, sizeof o->stage_ms);
        o->live_count = frame.values[PROFILER_VALUE_LIVE_COUNT];
        o->drawn_count = frame.values[PROFILER_VALUE_DRAWN_COUNT];
        o->sort_padded_count = frame.values[PROFILER_VALUE_SORT_PADDED_COUNT];
        o->sort_passes = frame.values[PROFILER_VALUE_SORT_PASSES];
        o->tiled_entries = frame.values[PROFILER_VALUE_TILED_ENTRIES];
        o->tiled_entry_budget = frame.values[PROFILER_VALUE_TILED_BUDGET];
        o->draw_stage_mask = frame.draw_stage_mask;
        memcpy(o->draw_stage_ms, frame.draw_stage_ms, sizeof o->draw_stage_ms);
        o->event_children = frame.values[PROFILER_VALUE_EVENT_CHILDREN];
        o->event_children_dropped = frame.values[PROFILER_VALUE_EVENT_DROPPED];
        first_frame = frame.index + 1;
    }
    return written;
}
