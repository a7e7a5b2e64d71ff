/* plume_batch_update (plume_batch.h): many systems updated in one call.
 *
 * Every check comes first (the list, each handle, the frame, the host's
 * state and depth texture, once), so a refused call changes nothing; then one
 * GL scope and one drain of the GL's errors around the update, stage-major:
 * each pass of the step (prepare, emit, simulate, the compaction's two) for
 * every system before the next pass, so the systems share one barrier a
 * pass instead of each paying its own (particles_run_passes), then each
 * system's sort. A system linked to another by an event route (one's
 * simulate writes the other's event buffer, which the other's first pass
 * reads) or timed by its profiler (its stages' timestamps bracket its own
 * passes) is updated on its own, after them, as plume_system_update runs it
 * (particles_update_in_scope): no other system reads what those write, so
 * the order between the two kinds changes nothing. */
#include "particles/batch_profile.h"
#include "particles/update_passes.h"
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

#ifdef PLUME_LAB
#include "plume_lab.h"
static bool lab_system_by_system;
void plume_lab_batch_system_by_system(bool on) { lab_system_by_system = on; }
#else
enum { lab_system_by_system = 0 };
#endif

/* Marks the systems of `list` a batch updates on its own (batch_alone). */
static void mark_alone(system_state **list, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
        system_state *target = world_other_target(list[i]);
        if (target) list[i]->batch_alone = target->batch_alone = true;
        if (profiler_is_enabled(list[i]->profiler) || lab_system_by_system) list[i]->batch_alone = true;
    }
}

/* Clears the marks mark_alone set, on the list's systems and their targets. */
static void clear_alone(system_state **list, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
        system_state *target = world_other_target(list[i]);
        if (target) target->batch_alone = false;
        list[i]->batch_alone = false;
    }
}

/* The pool pages the last table ran over (0: no table). */
static uint32_t table_pages(plume_context *context) {
    update_table **table = particle_pool_table(context);
    return table && *table ? update_table_pages(*table) : 0;
}

/* The update of the checked list inside `scope` (see the top); `staged`
 * has room for `count`. Profiled (plume_batch_set_profiling): SIMULATE the
 * passes of the systems updated together, SORT what follows them. */
static plume_result update_systems(plume_context *context, system_state **list, system_state **staged, uint32_t count,
                                   const plume_frame_desc *frame, const mat4 view, const mat4 projection,
                                   plume_gl_scope *scope) {
    mark_alone(list, count);
    uint32_t staged_count = 0;
    for (uint32_t i = 0; i < count; ++i)
        if (!list[i]->batch_alone) staged[staged_count++] = list[i];
    plume_profiler *profiler = particles_batch_profiler_begin(context, scope);
    for (uint32_t i = 0; i < staged_count; ++i) particles_update_begin(staged[i], frame, scope);
    if (staged_count > 1) plume_gl_scope_save(scope, PLUME_SCOPE_COPY_BUFFERS); /* the tables' live lists */
    profiler_stage_begin(profiler, PLUME_STAGE_SIMULATE);
    particles_run_passes(staged, staged_count, frame, view, projection);
    profiler_stage_end(profiler, PLUME_STAGE_SIMULATE);
    particles_batch_counts counts = {.systems = count, .systems_alone = count - staged_count};
    for (uint32_t i = 0; i < staged_count; ++i) counts.systems_in_tables += staged[i]->in_table;
    if (counts.systems_in_tables > 0) counts.table_pages = table_pages(context);
    plume_result r = PLUME_OK;
    profiler_stage_begin(profiler, PLUME_STAGE_SORT);
    for (uint32_t i = 0; i < staged_count; ++i) {
        plume_result one = particles_update_end(staged[i], frame, view, scope, false);
        if (r == PLUME_OK) r = one;
    }
    if (staged_count > 0) sort_host_barrier(); /* one for every sort */
    profiler_stage_end(profiler, PLUME_STAGE_SORT);
    for (uint32_t i = 0; i < count; ++i) {
        if (!list[i]->batch_alone) continue;
        plume_result one = particles_update_in_scope(list[i], frame, view, projection, scope);
        if (r == PLUME_OK) r = one;
    }
    clear_alone(list, count);
    particles_batch_profiler_end(context, profiler, &counts);
    return r;
}

plume_result particles_check_batch_call(const plume_context *context, const char *caller, const plume_system *systems,
                                        uint32_t system_count, const plume_frame_desc *frame) {
    const plume_env *env = plume_context_env(context);
    if (!context) {
        plume_log(env, PLUME_LOG_ERROR, "%s: context must not be NULL", caller);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (plume_check_gl_context(env, caller) != PLUME_OK) return PLUME_ERROR_GL_UNSUPPORTED;
    if (!frame || (!systems && system_count > 0)) {
        plume_log(env, PLUME_LOG_ERROR, "%s: %s", caller,
                  !frame ? "frame must not be NULL" : "systems is NULL with a system_count (NULL takes 0: every system)");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return PLUME_OK;
}

plume_result plume_batch_update(plume_context *context, const plume_system *systems, uint32_t system_count,
                                const plume_frame_desc *frame) {
    const plume_env *env = plume_context_env(context);
    plume_result checked = particles_check_batch_call(context, CALLER, systems, system_count, frame);
    if (checked != PLUME_OK) return checked;
    uint32_t count = systems ? system_count : particles_list_live_systems(context, NULL, 0);
    if (count == 0) return PLUME_OK;
    uint64_t *live = systems ? NULL : plume_alloc(env, (size_t)count * sizeof *live);
    system_state **list = plume_alloc(env, 2 * (size_t)count * sizeof *list); /* and the stage-major ones */
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
        r = update_systems(context, list, list + count, count, frame, view, projection, &scope);
        plume_gl_scope_end(&scope);
        plume_result gl = plume_drain_gl_errors(env, CALLER);
        if (r == PLUME_OK) r = gl;
    }
    plume_free(env, list);
    plume_free(env, live);
    return r;
}
