/* The lab's particle entries (lab/plume_lab.h). Lab builds only. */
#ifdef PLUME_LAB
#include <string.h>

#include "plume_lab.h"
#include "update_passes.h"

plume_result plume_lab_system_set_bounds(plume_context *context, plume_system handle, bool enabled) {
    system_state *system = particles_find_system(context, handle, "plume_lab_system_set_bounds");
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    system->bounds.lab_disabled = !enabled;
    return PLUME_OK;
}

uint32_t plume_lab_system_live_bound(plume_context *context, plume_system handle) {
    system_state *system = particles_find_system(context, handle, "plume_lab_system_live_bound");
    return system ? system->sort_bound : 0;
}

plume_result plume_lab_read_spins(plume_context *context, plume_system handle, float *out, uint32_t count) {
    system_state *s = particles_find_system(context, handle, "plume_lab_read_spins");
    if (!s || !s->mesh.view.spin_buffer || count > s->desc.capacity) return PLUME_ERROR_INVALID_ARGUMENT;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &s->env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, s->mesh.view.spin_buffer);
    glGetBufferSubData(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)count * PLUME_SPIN_BYTES, out);
    plume_gl_scope_end(&scope);
    return plume_drain_gl_errors(&s->env, "plume_lab_read_spins");
}

plume_result plume_lab_particle_storage_of(plume_context *context, plume_system handle,
                                           plume_lab_particle_storage *out) {
    static const char *CALLER = "plume_lab_particle_storage_of";
    system_state *s = handle.id ? particles_find_system_with(context, handle, CALLER, out, "out") : NULL;
    if ((handle.id && !s) || !context || !out) return PLUME_ERROR_INVALID_ARGUMENT;
    *out = (plume_lab_particle_storage){0};
    particle_pool_usage_counts pool;
    particle_pool_usage(context, &pool);
    out->pool_pages = pool.pages;
    out->pool_pages_made = pool.pages_made;
    out->pool_blocks = pool.blocks;
    out->alignment = pool.alignment;
    out->table_dispatches = pool.table_dispatches;
    out->table_systems = pool.table_systems;
    _Static_assert(sizeof out->table_pass_dispatches == sizeof pool.table_pass_dispatches, "a count a table pass");
    memcpy(out->table_pass_dispatches, pool.table_pass_dispatches, sizeof pool.table_pass_dispatches);
    memcpy(out->table_pass_systems, pool.table_pass_systems, sizeof pool.table_pass_systems);
    out->pass_dispatches = particles_lab_pass_dispatches;
    if (!s) return PLUME_OK;
    const particle_range ranges[PLUME_LAB_STORAGE_RANGES] = {s->motion, s->traits, s->state, s->slot_keys,
                                                             s->group_counts};
    for (int i = 0; i < PLUME_LAB_STORAGE_RANGES; ++i) {
        out->buffers[i] = ranges[i].buffer;
        out->offsets[i] = (uint64_t)ranges[i].offset;
        out->sizes[i] = (uint64_t)ranges[i].size;
    }
    return PLUME_OK;
}
#else
/* ISO C wants something in a translation unit. */
typedef int particles_lab_is_lab_only;
#endif
