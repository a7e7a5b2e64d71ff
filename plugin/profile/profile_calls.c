/* What the profiling calls of a particle system (particles/system_profile.c)
 * and of a draw group (render/draw_group.c) share: switching a profiler on
 * or off inside a GL state scope, and a profiled frame's sort size. */
#include "plume/plume_sort.h"
#include "profiler.h"

void profile_finish_sort_values(profiler_frame *frame, const plume_context *context, plume_sorter sorter) {
    const uint32_t needed = (1u << PROFILER_VALUE_DRAWN_COUNT) | (1u << PROFILER_VALUE_SORT_BOUND);
    if ((frame->value_mask & needed) != needed) return;
    uint32_t drawn = frame->values[PROFILER_VALUE_DRAWN_COUNT], bound = frame->values[PROFILER_VALUE_SORT_BOUND];
    uint32_t sorted = drawn < bound ? drawn : bound; /* the sort clamps the GPU count to the bound */
    frame->values[PROFILER_VALUE_SORT_PADDED_COUNT] = sorted < 2 ? 0 : plume_next_pow2(sorted);
    frame->values[PROFILER_VALUE_SORT_PASSES] = plume_sorter_pass_count(context, sorter, sorted);
    frame->value_mask |= (1u << PROFILER_VALUE_SORT_PADDED_COUNT) | (1u << PROFILER_VALUE_SORT_PASSES);
}

plume_result profile_switch(plume_profiler *profiler, const plume_env *env, bool enabled) {
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
    plume_result r = profiler_set_enabled(profiler, enabled);
    plume_gl_scope_end(&scope);
    return r;
}
