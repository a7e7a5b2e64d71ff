/* plume_system_prewarm and the descriptor's prewarm_time: the system stepped
 * by fixed steps on the GPU, each step the update's emission and simulate
 * passes only (no culling, no sort, no profiler frame, no draw work). The
 * steps are the ones an update of the same dt runs, so a prewarm equals the
 * updates it stands for up to float rounding. */
#include <math.h>

#include "fragment_particles.h"

/* How `seconds` is cut: `count` steps, each `step` long but the last, which
 * is `last` (at most PLUME_PREWARM_MAX_STEPS in all). */
typedef struct prewarm_plan {
    uint32_t count;
    float step, last;
} prewarm_plan;

static prewarm_plan plan_prewarm(float seconds) {
    prewarm_plan plan = {0, PLUME_PREWARM_STEP, PLUME_PREWARM_STEP};
    if (seconds <= 0.0f) return plan;
    /* A whole number of steps (2 s = 60 of 1/30 s) stays whole despite the
     * step's rounding: a thousandth of a step is forgiven. */
    double steps = ceil((double)seconds / PLUME_PREWARM_STEP - 1e-3);
    if (steps < 1.0) steps = 1.0;
    if (steps > PLUME_PREWARM_MAX_STEPS) {
        plan.count = PLUME_PREWARM_MAX_STEPS;
        plan.step = plan.last = seconds / (float)PLUME_PREWARM_MAX_STEPS;
        return plan;
    }
    plan.count = (uint32_t)steps;
    double last = (double)seconds - (steps - 1.0) * PLUME_PREWARM_STEP;
    if (fabs(last - PLUME_PREWARM_STEP) > 1e-3 * PLUME_PREWARM_STEP) plan.last = (float)last;
    return plan;
}

plume_result particles_prewarm(system_state *s, float seconds, plume_gl_scope *scope) {
    prewarm_plan plan = plan_prewarm(seconds);
    if (plan.count == 0) return PLUME_OK;
    mat4 identity;
    glm_mat4_identity(identity);
    plume_frame_desc frame = {.disable_culling = true, .disable_sort = true};
    if (s->fragment) plume_gl_scope_save(scope, FRAGMENT_PARTICLES_SCOPE_GROUPS);
    else plume_gl_scope_save(scope, PLUME_SCOPE_OPTIONAL_SSBO | (world_uses_textures(s, &frame) ? PLUME_SCOPE_TEXTURES : 0));
    /* The steps are no frames of the profile (the fragment path's update
     * measures its stages): the profiler is out of reach meanwhile. */
    plume_profiler *profiler = s->profiler;
    s->profiler = NULL;
    s->prewarming = true;
    for (uint32_t k = 0; k < plan.count; ++k) {
        frame.dt = k + 1 == plan.count ? plan.last : plan.step;
        if (s->fragment) fragment_particles_update(s, &frame, identity, identity, false, scope);
        else particles_run_simulate_stage(s, &frame, identity, identity, false);
        PLUME_LAB_SYNC_POINT("prewarm_step");
    }
    s->profiler = profiler;
    s->prewarming = false;
    return plume_drain_gl_errors(&s->env, "plume_system_prewarm");
}

plume_result plume_system_prewarm(plume_context *context, plume_system handle, float seconds) {
    static const char *CALLER = "plume_system_prewarm";
    system_state *system = particles_find_system(context, handle, CALLER);
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    plume_result r = particles_check_prewarm(&system->env, CALLER, "seconds", seconds);
    if (r == PLUME_OK) r = plume_check_host_state(&system->env, CALLER);
    if (r != PLUME_OK || seconds == 0.0f) return r;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    r = particles_prewarm(system, seconds, &scope);
    plume_gl_scope_end(&scope);
    return r;
}
