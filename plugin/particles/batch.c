/* plume_batch_update (plume_batch.h): many systems updated in one call.
 *
 * Every check comes first (the list, each handle, the frame, the host's
 * state and depth texture, once), so a refused call changes nothing; then one
 * GL scope, inside which each system runs the update plume_system_update
 * runs (particles_update_in_scope), and one drain of the GL's errors. */
#include "particles/particles_internal.h"
#include "plume/plume_batch.h"

static const char *const CALLER = "plume_batch_update";

/* The systems the call names (or every live one) into `list`, each live,
 * once and on the compute path, and the frame's matrices; logged otherwise.
 * Clears the marks it sets, whatever it finds. */
static plume_result check_systems(plume_context *context, const plume_env *env, const plume_system *systems,
                                  uint32_t count, const uint64_t *live, const plume_frame_desc *frame,
                                  system_state **list, mat4 view, mat4 projection) {
    plume_result r = PLUME_OK;
    uint32_t listed = 0;
    for (; listed < count && r == PLUME_OK; ++listed) {
        plume_system handle = systems ? systems[listed] : (plume_system){live[listed]};
        system_state *s = particles_peek_system(context, handle);
        list[listed] = s;
        if (!s) {
            plume_log(env, PLUME_LOG_ERROR,
                      "%s: systems[%u] (handle 0x%016llx) names no live system of this context (destroyed, another "
                      "context's, or no handle)",
                      CALLER, listed, (unsigned long long)handle.id);
            r = PLUME_ERROR_INVALID_ARGUMENT;
        } else if (s->batch_listed) {
            plume_log(env, PLUME_LOG_ERROR, "%s: systems[%u] names a system listed before it: name each system once",
                      CALLER, listed);
            r = PLUME_ERROR_INVALID_ARGUMENT;
            list[listed] = NULL; /* its mark is an earlier entry's */
        } else if (s->fragment) {
            plume_log(env, PLUME_LOG_ERROR,
                      "%s: systems[%u] runs the fragment path (plume_system_desc.path); a batch updates compute-path "
                      "systems: update it with plume_system_update",
                      CALLER, listed);
            r = PLUME_ERROR_GL_UNSUPPORTED;
        } else {
            s->batch_listed = true;
            /* The frame is checked once, with the first system's logger. */
            if (listed == 0) r = particles_find_frame_system(context, handle, CALLER, frame, &s, view, projection);
        }
    }
    for (uint32_t i = 0; i < listed; ++i)
        if (list[i]) list[i]->batch_listed = false;
    return r;
}

plume_result plume_batch_update(plume_context *context, const plume_system *systems, uint32_t system_count,
                                const plume_frame_desc *frame) {
    const plume_env *env = plume_context_env(context);
    if (!context) {
        plume_log(env, PLUME_LOG_ERROR, "%s: context must not be NULL", CALLER);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (plume_check_gl_context(env, CALLER) != PLUME_OK) return PLUME_ERROR_GL_UNSUPPORTED;
    if (!frame || (!systems && system_count > 0)) {
        plume_log(env, PLUME_LOG_ERROR, "%s: %s", CALLER,
                  !frame ? "frame must not be NULL" : "systems is NULL with a system_count (NULL takes 0: every system)");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    uint32_t count = systems ? system_count : particles_list_live_systems(context, NULL, 0);
    if (count == 0) return PLUME_OK;
    uint64_t *live = systems ? NULL : plume_alloc(env, (size_t)count * sizeof *live);
    system_state **list = plume_alloc(env, (size_t)count * sizeof *list);
    plume_result r = list && (systems || live) ? PLUME_OK : PLUME_ERROR_OUT_OF_MEMORY;
    if (r != PLUME_OK) plume_log(env, PLUME_LOG_ERROR, "%s: no memory for the list of %u systems", CALLER, count);
    if (live) particles_list_live_systems(context, live, count);
    mat4 view, projection;
    if (r == PLUME_OK) r = check_systems(context, env, systems, count, live, frame, list, view, projection);
    if (r == PLUME_OK) r = plume_check_host_state(env, CALLER);
    if (r == PLUME_OK) r = particles_check_depth_texture(env, CALLER, frame->depth_texture);
    if (r == PLUME_OK) {
        plume_gl_scope scope;
        plume_gl_scope_begin(&scope, env);
        for (uint32_t i = 0; i < count; ++i) {
            plume_result one = particles_update_in_scope(list[i], frame, view, projection, &scope);
            if (r == PLUME_OK) r = one;
        }
        plume_gl_scope_end(&scope);
        plume_result gl = plume_drain_gl_errors(env, CALLER);
        if (r == PLUME_OK) r = gl;
    }
    plume_free(env, list);
    plume_free(env, live);
    return r;
}
