/* The update's GPU stages: their programs (prepare, emit, simulate, the
 * compaction that packs the live list, the dead list and the event records
 * in slot order; the passes themselves run in update_passes.c), emission
 * planned on the CPU (counts only), the sort of the live list, the reset
 * pass, and the CPU's bound on the live count that sizes the sort. */
#include <math.h>
#include <string.h>

#include "update_passes.h"

/* ---- Programs ------------------------------------------------------------------ */

/* The programs' uniforms, in the order of their locations' fields
 * (particles_internal.h). */
static const char *const RESET_UNIFORMS[] = {"u_capacity", NULL};
static const char *const PREPARE_UNIFORMS[] = {"u_requested", NULL};
static const char *const EMIT_UNIFORMS[] = {"u_seed", "u_batch_count", "u_tag_emitter", NULL};
static const char *const SIMULATE_UNIFORMS[] = {
    "u_dt", "u_time", "u_view", "u_gravity", "u_wind", "u_drag", "u_turbulence", "u_capacity",
    "u_cull", "u_cull_planes", "u_cull_radius", "u_eye", "u_cull_distance", "u_sort_mode", "u_sort_key_shift",
    "u_bounds", "u_local_space", NULL};
static const char *const COMPACT_SCAN_UNIFORMS[] = {"u_groups", NULL};
static const char *const COMPACT_SCATTER_UNIFORMS[] = {"u_capacity", "u_route_count", "u_routes", "u_event_capacity",
                                                       NULL};
_Static_assert(PLUME_UNIFORM_NAMES_FIT(EMIT_UNIFORMS, emit_locations) &&
                   PLUME_UNIFORM_NAMES_FIT(SIMULATE_UNIFORMS, simulate_locations) &&
                   PLUME_UNIFORM_NAMES_FIT(COMPACT_SCATTER_UNIFORMS, compact_scatter_locations),
               "a name for each location");

/* A compute program from the pass's .comp file (its includes name the rest). */
plume_result particles_build_compute(system_state *s, const char *label, const char *file, GLuint *out) {
    plume_shader_stage stage = {GL_COMPUTE_SHADER, file};
    return plume_build_program(&s->env, label, &stage, 1, NULL, out);
}

plume_result particles_build_compute_programs(system_state *s) {
    plume_result r;
    if ((r = particles_build_compute(s, "plume particles: reset", "particles/particle_reset.comp",
                                     &s->reset_program)) ||
        (r = particles_build_compute(s, "plume particles: prepare", "particles/particle_prepare.comp",
                                     &s->prepare_program)) ||
        (r = particles_build_compute(s, "plume particles: emit", "particles/particle_emit.comp", &s->emit_program)) ||
        (r = plume_build_program(&s->env, "plume particles: simulate",
                                 &(plume_shader_stage){GL_COMPUTE_SHADER, "particles/particle_simulate.comp"}, 1,
                                 s->desc.meshes.count ? "#define PLUME_MESH 1\n" : NULL, &s->simulate_program)))
        return r;
    plume_find_uniform_locations(s->reset_program, RESET_UNIFORMS, &s->reset_capacity_location);
    plume_find_uniform_locations(s->prepare_program, PREPARE_UNIFORMS, &s->prepare_requested_location);
    plume_find_uniform_locations(s->emit_program, EMIT_UNIFORMS, s->emit.at);
    plume_find_uniform_locations(s->simulate_program, SIMULATE_UNIFORMS, s->simulate.at);
    return PLUME_OK;
}

/* ---- Compaction ----------------------------------------------------------------
 * Simulate leaves each slot's outcome in slot order and each workgroup's
 * counts; particle_compact.comp (two dispatches: a scan of the counts, then a
 * scatter per simulate workgroup) packs the live list, pushes the dead slots
 * and writes the event records in slot order. Atomic appends in simulate
 * would order all three as the GPU happened to run its invocations: new
 * particles would take other slots (equal depths drawn in another order) and
 * children other emission numbers from run to run. In slot order the radix
 * sort (stable) gives equal keys in slot order, as the bitonic sort does. */

_Static_assert(PLUME_BINDING_SLOT_KEYS < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_GROUP_COUNTS < PLUME_SCOPE_SSBO_SLOTS,
               "the GL state scope restores the compaction's bindings");

uint32_t particles_simulate_groups(const system_state *s) {
    return (s->desc.capacity + PLUME_SIMULATE_GROUP_SIZE - 1) / PLUME_SIMULATE_GROUP_SIZE;
}

static plume_result build_compact(system_state *s, bool scan, GLuint *out) {
    plume_shader_stage stage = {GL_COMPUTE_SHADER, "particles/particle_compact.comp"};
    return plume_build_program(&s->env, scan ? "plume particles: compact scan" : "plume particles: compact scatter",
                               &stage, 1,
                               scan ? "#define COMPACT_SCAN 1\n#define PARTICLE_TRAITS_ACCESS readonly\n"
                                    : "#define COMPACT_SCAN 0\n#define PARTICLE_TRAITS_ACCESS readonly\n",
                               out);
}

/* Binds GL_COPY_WRITE_BUFFER: the caller's scope restores it. */
plume_result particles_create_compaction(system_state *s) {
    plume_result r;
    if ((r = build_compact(s, true, &s->compact_scan_program)) ||
        (r = build_compact(s, false, &s->compact_scatter_program)))
        return r;
    plume_find_uniform_locations(s->compact_scan_program, COMPACT_SCAN_UNIFORMS, &s->compact_scan_groups);
    plume_find_uniform_locations(s->compact_scatter_program, COMPACT_SCATTER_UNIFORMS, s->compact_scatter.at);
    return plume_drain_gl_errors(&s->env, "plume_system_create (compaction)");
}

/* ---- Live-count bound --------------------------------------------------------- */

static double longest_lifetime(const plume_system_desc *desc) {
    double longest = 0.0;
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e)
        if (desc->emitters[e].lifetime.max > longest) longest = desc->emitters[e].lifetime.max;
    return longest;
}

void particles_window_record(emission_window *w, double time, uint64_t count, double lifetime) {
    if (count == 0) return;
    if (w->count == EMISSION_RECORDS) {
        /* Full: fold the oldest record into the next one. The next one's later
         * time and the longer of their lifetimes keep the fold's particles
         * counted for longer: still a bound. */
        emission_record *oldest = &w->records[w->first];
        w->first = (w->first + 1) % EMISSION_RECORDS;
        emission_record *next = &w->records[w->first];
        next->count += oldest->count;
        if (oldest->lifetime > next->lifetime) next->lifetime = oldest->lifetime;
        --w->count;
    }
    w->records[(w->first + w->count) % EMISSION_RECORDS] = (emission_record){time, lifetime, count};
    ++w->count;
    w->total += count;
}

/* The most particles that can be alive at `now`: those of the records still
 * within their lifetime. GPU ages are float sums of the steps, which can
 * fall short of the exact time by a little per step: a lifetime is widened
 * by 2% and 1 ms, enough for 10^5 steps of float rounding. Records leave
 * from the oldest on: one behind a longer-lived older record stays counted
 * until that one leaves (more than are alive: still a bound). */
uint32_t particles_window_live_bound(emission_window *w, double now, uint32_t capacity) {
    while (w->count > 0 && now - w->records[w->first].time > w->records[w->first].lifetime * 1.02 + 1e-3) {
        w->total -= w->records[w->first].count;
        w->first = (w->first + 1) % EMISSION_RECORDS;
        --w->count;
    }
    return w->total < capacity ? (uint32_t)w->total : capacity;
}

/* ---- Reset ------------------------------------------------------------------ */

plume_result particles_reset_gpu_state(system_state *s) {
    PLUME_LAB_SYNC_POINT("reset");
    memset(s->clocks, 0, sizeof s->clocks);
    memset(&s->window, 0, sizeof s->window);
    s->window.longest_lifetime = longest_lifetime(&s->desc);
    s->time = 0.0;
    bounds_reset(s);
    if (s->fragment) return fragment_particles_reset(s);
    glUseProgram(s->reset_program);
    glProgramUniform1ui(s->reset_program, s->reset_capacity_location, s->desc.capacity);
    particle_bind_storage(PLUME_BINDING_MOTION, s->motion);
    particle_bind_storage(PLUME_BINDING_STATE, s->state);
    glDispatchCompute((s->desc.capacity + PLUME_RESET_GROUP_SIZE - 1) / PLUME_RESET_GROUP_SIZE, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    world_reset_gpu_state(s);
    cpu_events_reset(s);
    trails_reset(s);
    mesh_reset(s);
    return plume_drain_gl_errors(&s->env, "reset");
}

void particles_request_emitter(const plume_emitter_desc *e, emitter_clock *clock, double dt, emitter_request *out) {
    /* Counts over 2^32 cannot be emitted anyway (the capacity is a uint32):
     * clamping before the conversion keeps a huge dt defined. */
    const double most = 4294967295.0;
    *out = (emitter_request){0};
    if (dt <= 0.0) return;
    double per_step = (double)e->rate * dt;
    double due = clock->fraction + per_step;
    double whole = floor(due);
    /* The rate's k-th particle falls where fraction + rate * t reaches k + 1. */
    if (per_step > 0.0) {
        out->rate_first = (1.0 - clock->fraction) / per_step;
        out->rate_step = 1.0 / per_step;
    }
    clock->fraction = due - whole;
    out->rate_count = (uint64_t)fmin(whole, most);
    if (e->burst_count > 0) {
        double t0 = clock->time, t1 = clock->time + dt, bursts;
        if (e->burst_interval == 0.0f) bursts = t0 == 0.0 ? 1.0 : 0.0;
        else {
            bursts = ceil(t1 / e->burst_interval) - ceil(t0 / e->burst_interval);
            out->burst_at = (ceil(t0 / e->burst_interval) * e->burst_interval - t0) / dt;
        }
        out->burst_count = (uint64_t)fmin(fmin(bursts, most) * e->burst_count, most);
    }
    clock->time += dt;
}

/* Particles emitter `e` asks for in a step of dt: its rate with the fraction
 * carried over, plus the bursts that fall in [time, time + dt). */
static uint64_t requested_by_emitter(const plume_emitter_desc *e, emitter_clock *clock, double dt) {
    emitter_request request;
    particles_request_emitter(e, clock, dt, &request);
    return request.rate_count + request.burst_count;
}

/* How many particles each emitter asks for this step, as running totals
 * (at most the capacity: the GPU cannot place more). */
uint32_t particles_plan_emission(system_state *s, double dt, GLuint running_end[PLUME_MAX_EMITTERS]) {
    uint64_t total = 0;
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e) {
        total += requested_by_emitter(&s->desc.emitters[e], &s->clocks[e], dt);
        if (total > s->desc.capacity) total = s->desc.capacity;
        running_end[e] = (GLuint)total;
    }
    return (uint32_t)total;
}

float particles_quad_radius(const plume_system_desc *desc, const plume_emitter_desc *emitter) {
    const plume_curve *curve = &desc->appearance.size_over_life;
    float largest = curve->key_count == 0 ? 1.0f : 0.0f;
    for (uint32_t k = 0; k < curve->key_count; ++k)
        if (curve->keys[k].value > largest) largest = curve->keys[k].value;
    /* The quad is size x (size * stretch) around the particle, turned any
     * way: its half diagonal bounds it. */
    float stretch = particles_largest_stretch(desc);
    return emitter->size.max * largest * 0.5f * sqrtf(1.0f + stretch * stretch);
}

/* The frustum of view and projection as six world-space planes (xyz: unit
 * normal pointing inwards, w: offset): the sums and differences of the last
 * row of projection * view with the others (clip space -w <= x, y, z <= w). */
void particles_frustum_planes(const mat4 view, const mat4 projection, float planes[PLUME_CULL_PLANES][4]) {
    mat4 clip;
    glm_mat4_mul((vec4 *)projection, (vec4 *)view, clip);
    for (int p = 0; p < PLUME_CULL_PLANES; ++p) {
        int axis = p / 2;
        float sign = p % 2 ? -1.0f : 1.0f;
        for (int c = 0; c < 4; ++c) planes[p][c] = clip[c][3] + sign * clip[c][axis];
        float length = sqrtf(planes[p][0] * planes[p][0] + planes[p][1] * planes[p][1] + planes[p][2] * planes[p][2]);
        if (length > 0.0f)
            for (int c = 0; c < 4; ++c) planes[p][c] /= length;
    }
}

/* Stage 2: the live list, back-to-front. The GPU's live count sizes the
 * sort; the CPU's bound on it decides which passes are issued at all. The
 * update checked the call, and the system made both buffers: the sort runs
 * inside the update's scope without the public call's checks, each of which
 * asks the GL (on NVIDIA a wait for its thread). */
plume_result particles_run_sort_stage(system_state *s, bool host_barrier) {
    uint32_t bound = s->sort_bound;
    profiler_set_u32(s->profiler, PROFILER_VALUE_SORT_BOUND, bound);
    s->last_sort = plume_sorter_algorithm_for(s->context, s->sorter, bound);
    particles_settle_live_list(s);
    return sort_indirect_in_scope(s->context, s->sorter, s->live_list_buffer, s->state.buffer,
                                  (uint32_t)(s->state.offset + STATE_DRAWN_COUNT_OFFSET), s->state.offset + s->state.size,
                                  bound, host_barrier);
}
