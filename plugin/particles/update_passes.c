/* The update's first stage, pass by pass (update_passes.h): the CPU's plan
 * of each step, then prepare, emit, simulate and the compaction, each for
 * every system of a batch before the next, one barrier between two passes;
 * the systems that fit a table run a pass as one dispatch a pool page
 * (update_table.c), the others, and a system alone, their own. */
#include "update_passes.h"

#ifdef PLUME_LAB
uint64_t particles_lab_pass_dispatches;
#endif

static void set_cull_uniforms(system_state *s, const plume_frame_desc *frame, const mat4 view,
                              const mat4 projection, bool cull) {
    GLuint sim = s->simulate_program;
    glProgramUniform1i(sim, s->simulate.cull, cull);
    /* The eye: the distance sort and the cull distance measure from it. */
    mat4 inverse;
    glm_mat4_inv((vec4 *)view, inverse);
    glProgramUniform3f(sim, s->simulate.eye, inverse[3][0], inverse[3][1], inverse[3][2]);
    /* The bounds widen each particle by it, culled or not. */
    glProgramUniform1f(sim, s->simulate.cull_radius, mesh_cull_radius(s, s->cull_radius));
    glProgramUniform1i(sim, s->simulate.bounds, bounds_grown(s));
    if (!cull) return;
    float planes[PLUME_CULL_PLANES][4];
    particles_frustum_planes(view, projection, planes);
    glProgramUniform4fv(sim, s->simulate.cull_planes, PLUME_CULL_PLANES, &planes[0][0]);
    glProgramUniform1f(sim, s->simulate.cull_distance, frame->cull_distance);
}

/* ---- Stage 1: prepare, emit, simulate, compaction ----------------------------------
 * One function a pass, each binding the buffers it reads and setting its
 * program's uniforms itself: a program is shared by every system of a look
 * (the context's cache), and a batch runs each pass for all its systems
 * between two barriers (particles_run_passes), so nothing may carry over from
 * one of a system's passes to its next in the GL's bindings or uniforms. */

static void bind_particle_buffers(const system_state *s) {
    particle_bind_storage(PLUME_BINDING_MOTION, s->motion);
    particle_bind_storage(PLUME_BINDING_TRAITS, s->traits);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_LIVE_LIST, s->live_list_buffer);
    particle_bind_storage(PLUME_BINDING_STATE, s->state);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_EMITTERS, s->emitter_ring.buffers[s->emitter_ring.current]);
}

/* What the compaction and the passes after it (events to the CPU, trails)
 * read: the particles, simulate's outcomes and counts, the event buffers. */
static void bind_compaction_buffers(system_state *s) {
    bind_particle_buffers(s);
    particle_bind_storage(PLUME_BINDING_SLOT_KEYS, s->slot_keys);
    particle_bind_storage(PLUME_BINDING_GROUP_COUNTS, s->group_counts);
    world_set_routes(s);
}

/* The CPU's plan of the step, then the waiting events' passes (with
 * barriers of their own). */
static void plan_step(system_state *s, const plume_frame_desc *frame, bool upload) {
    s->live_list_pending = false; /* this step writes the list anew */
    uint32_t requested = spawn_plan(s, frame->dt, upload);
    s->requested = requested;
    /* Recorded at the end of the step: a sub-frame birth lives up to dt
     * past a start-of-step one. */
    particles_window_record(&s->window, s->time + frame->dt, requested, spawn_longest_lifetime(s));
    if (s->world.events_pending) bind_particle_buffers(s);
    world_emit_events(s); /* records its children in the window */
    /* The bound at the end of this update, which picks the sort's backend
     * (after the events' children are recorded). */
    s->sort_bound = particles_window_live_bound(&s->window, s->time + frame->dt, s->desc.capacity);
}

static void pass_prepare(system_state *s) {
    particle_bind_storage(PLUME_BINDING_STATE, s->state);
    glUseProgram(s->prepare_program);
    glProgramUniform1ui(s->prepare_program, s->prepare_requested_location, s->requested);
    particles_dispatch(1);
}

/* False when the step asks for no particle (no dispatch). */
static bool pass_emit(system_state *s) {
    if (s->requested == 0) return false;
    bind_particle_buffers(s);
    glUseProgram(s->emit_program);
    glProgramUniform1ui(s->emit_program, s->emit.seed, s->desc.seed);
    glProgramUniform1ui(s->emit_program, s->emit.batch_count, s->spawn.batch_count);
    glProgramUniform1i(s->emit_program, s->emit.tag_emitter, world_tags_emitter(s));
    const plume_upload_ring *table = &s->spawn.batch_ring;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SPAWN_BATCHES, table->buffers[table->current]);
    particles_dispatch((s->requested + PLUME_EMIT_GROUP_SIZE - 1) / PLUME_EMIT_GROUP_SIZE);
    return true;
}

static void pass_simulate(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection) {
    const plume_forces *f = &s->desc.forces;
    GLuint sim = s->simulate_program;
    bind_particle_buffers(s);
    glUseProgram(sim);
    glProgramUniform1f(sim, s->simulate.dt, frame->dt);
    glProgramUniform1f(sim, s->simulate.time, (float)s->time);
    glProgramUniformMatrix4fv(sim, s->simulate.view, 1, GL_FALSE, &view[0][0]);
    glProgramUniform3fv(sim, s->simulate.gravity, 1, f->gravity);
    glProgramUniform3fv(sim, s->simulate.wind, 1, f->wind);
    glProgramUniform1f(sim, s->simulate.drag, f->drag);
    glProgramUniform3f(sim, s->simulate.turbulence, f->turbulence, f->turbulence_scale, f->turbulence_speed);
    glProgramUniform1ui(sim, s->simulate.capacity, s->desc.capacity);
    glProgramUniform1ui(sim, s->simulate.sort_mode, s->desc.sort_mode);
    glProgramUniform1ui(sim, s->simulate.sort_key_shift, particles_sort_key_shift(&s->desc));
    set_cull_uniforms(s, frame, view, projection, s->update_culls);
    particle_bind_storage(PLUME_BINDING_SLOT_KEYS, s->slot_keys);
    particle_bind_storage(PLUME_BINDING_GROUP_COUNTS, s->group_counts);
    world_prepare_simulate(s, frame, view, projection); /* binds the event buffers */
    bool local = s->desc.simulation_space == PLUME_SPACE_LOCAL;
    glProgramUniform1i(sim, s->simulate.local_space, local);
    if (local) spawn_bind_local_motion(s); /* the live list's binding, free until the compaction */
    mesh_prepare_simulate(s);
    particles_dispatch(particles_simulate_groups(s));
}

static void pass_compact_scan(system_state *s) {
    bind_compaction_buffers(s);
    glUseProgram(s->compact_scan_program);
    glProgramUniform1ui(s->compact_scan_program, s->compact_scan_groups, particles_simulate_groups(s));
    particles_dispatch(1);
}

static void pass_compact_scatter(system_state *s) {
    bind_compaction_buffers(s);
    glUseProgram(s->compact_scatter_program);
    glProgramUniform1ui(s->compact_scatter_program, s->compact_scatter.capacity, s->desc.capacity);
    particles_dispatch(particles_simulate_groups(s));
}

/* The passes after the compaction that still belong to the step. */
static void pass_finish(system_state *s, const plume_frame_desc *frame) {
    if (cpu_events_enabled(s)) bind_compaction_buffers(s); /* what its passes read */
    /* The update's index (update counted it already); a prewarm's steps,
     * between updates, the next one's, so records come in update order. */
    cpu_events_record(s, s->prewarming ? s->update_count : s->update_count - 1);
    s->time += frame->dt;
}

/* A system's own dispatch of `pass`; false where it dispatched nothing (an
 * emit that asks for no particle). */
static bool run_own_pass(system_state *s, table_pass pass, const plume_frame_desc *frame, const mat4 view,
                         const mat4 projection) {
    switch (pass) {
    case TABLE_PREPARE: pass_prepare(s); return true;
    case TABLE_EMIT: return pass_emit(s);
    case TABLE_SIMULATE: pass_simulate(s, frame, view, projection); return true;
    case TABLE_COMPACT_SCAN: pass_compact_scan(s); return true;
    default: pass_compact_scatter(s); return true;
    }
}

/* What follows each pass: the next reads its writes (prepare's also as
 * dispatch arguments); after the scatter, the sort and the draw read the
 * list, the draw its indirect arguments, a readback the buffers, a copy the
 * table's scratch. */
static const GLbitfield BARRIER_AFTER[TABLE_PASSES] = {
    [TABLE_PREPARE] = GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT,
    [TABLE_EMIT] = GL_SHADER_STORAGE_BARRIER_BIT,
    [TABLE_SIMULATE] = GL_SHADER_STORAGE_BARRIER_BIT,
    [TABLE_COMPACT_SCAN] = GL_SHADER_STORAGE_BARRIER_BIT,
    [TABLE_COMPACT_SCATTER] = GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT,
};

void particles_run_passes(system_state *const *systems, uint32_t count, const plume_frame_desc *frame,
                          const mat4 view, const mat4 projection) {
    if (count == 0) return; /* a batch whose systems all update alone */
    /* A batch's systems that fit a table share one dispatch a pool page a
     * pass (update_table.c); the others, and a system alone, their own. */
    update_table *table = update_table_choose(systems, count, frame);
    for (uint32_t i = 0; i < count; ++i) plan_step(systems[i], frame, !update_table_takes_emit(table, systems[i]));
    if (!update_table_upload(table))
        for (uint32_t i = 0; i < count; ++i) /* out of memory: each its own emit after all */
            if (update_table_takes_emit(table, systems[i])) spawn_upload(systems[i]);
    /* Where every system fits the table, a pass that ran there leaves no
     * system its own: the loop over them is skipped (it looks into every
     * system's state, a cache miss apiece at hundreds of systems). */
    bool all_fit = update_table_fit(table) == count;
    for (table_pass pass = 0; pass < TABLE_PASSES; ++pass) {
        bool ran = update_table_dispatch(table, pass, frame, view, projection), dispatched = ran;
        for (uint32_t i = 0; !(ran && all_fit) && i < count; ++i)
            if (!update_table_ran(table, systems[i], pass))
                dispatched = run_own_pass(systems[i], pass, frame, view, projection) || dispatched;
        /* No emit dispatched: nothing for simulate to wait for. */
        if (pass != TABLE_EMIT || dispatched) glMemoryBarrier(BARRIER_AFTER[pass]);
    }
    update_table_finish_live_lists(table);
    for (uint32_t i = 0; i < count; ++i) pass_finish(systems[i], frame);
}

void particles_run_simulate_stage(system_state *s, const plume_frame_desc *frame, const mat4 view,
                                  const mat4 projection, bool cull) {
    s->update_culls = cull;
    particles_run_passes(&s, 1, frame, view, projection);
}
