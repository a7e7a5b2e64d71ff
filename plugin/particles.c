/* The particle system (plume_particles.h): GL objects, the per-update GPU
 * stages (simulate, sort) and the draw, each a separate function wrapped in
 * the profiler's stages, plus reset, profiling and the debug readback. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cglm/cglm.h>

#include "particles_internal.h"

static const char *SHADER_DEFINES = "#define SIMULATE_GROUP_SIZE 256\n"
                                    "#define EMIT_GROUP_SIZE 64\n"
                                    "#define RESET_GROUP_SIZE 256\n"
                                    "#define MAX_EMITTERS 8\n"
                                    "#define MAX_KEYS 8\n";

/* ---- Handles ----------------------------------------------------------------- */

static void free_system(void *object);
static uint32_t list_system_gl_objects(const void *object, plume_gl_object *out, uint32_t capacity);

static const plume_object_class system_class = {"system", free_system, list_system_gl_objects};

/* The live system `handle` names in `context`, or NULL (logged). */
static system_state *find_system(const plume_context *context, plume_system handle, const char *caller) {
    return plume_context_lookup(context, handle.id, &system_class, caller);
}

/* As find_system, and NULL (logged) also where the caller's pointer
 * `argument`, named `argument_name` in the message, is NULL. */
static system_state *find_system_with(const plume_context *context, plume_system handle, const char *caller,
                                      const void *argument, const char *argument_name) {
    system_state *system = find_system(context, handle, caller);
    if (system && !argument) {
        plume_log(&system->env, PLUME_LOG_ERROR, "%s: %s must not be NULL", caller, argument_name);
        return NULL;
    }
    return system;
}

/* ---- Profiling --------------------------------------------------------------- */

static void stage_begin(const system_state *s, plume_stage stage) { profiler_stage_begin(s->profiler, stage); }

static void stage_end(const system_state *s, plume_stage stage) { profiler_stage_end(s->profiler, stage); }

/* The sort's size follows from the GPU's live count, known only when the
 * frame's results arrive: what the network covered and how many of its
 * dispatches had work. */
static void finish_profiled_frame(void *user, profiler_frame *frame) {
    const system_state *s = user;
    const uint32_t needed = (1u << PROFILER_VALUE_LIVE_COUNT) | (1u << PROFILER_VALUE_SORT_BOUND);
    if ((frame->value_mask & needed) != needed) return;
    uint32_t live = frame->values[PROFILER_VALUE_LIVE_COUNT], bound = frame->values[PROFILER_VALUE_SORT_BOUND];
    uint32_t sorted = live < bound ? live : bound; /* the sort clamps the GPU count to the bound */
    frame->values[PROFILER_VALUE_SORT_PADDED_COUNT] = sorted < 2 ? 0 : plume_next_pow2(sorted);
    frame->values[PROFILER_VALUE_SORT_PASSES] = plume_sorter_pass_count(s->context, s->sorter, sorted);
    frame->value_mask |= (1u << PROFILER_VALUE_SORT_PADDED_COUNT) | (1u << PROFILER_VALUE_SORT_PASSES);
}

static plume_result create_profiler(system_state *s) {
    profiler_desc desc = {0};
    plume_result r = profiler_create(&s->env, &desc, &s->profiler);
    if (r == PLUME_OK) profiler_set_frame_finisher(s->profiler, finish_profiled_frame, s);
    return r;
}

plume_result plume_system_set_profiling(plume_context *context, plume_system handle, bool enabled) {
    system_state *system = find_system(context, handle, "plume_system_set_profiling");
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
    plume_result r = profiler_set_enabled(system->profiler, enabled);
    plume_gl_scope_end(&scope);
    return r;
}

plume_result plume_system_get_profile(const plume_context *context, plume_system handle, plume_profile *out) {
    if (out) memset(out, 0, sizeof *out);
    const system_state *system = find_system_with(context, handle, "plume_system_get_profile", out, "out");
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    profiler_get_profile(system->profiler, out);
    return PLUME_OK;
}

uint32_t plume_system_get_frame_profiles(const plume_context *context, plume_system handle, uint64_t first_frame,
                                         plume_frame_profile *out, uint32_t max) {
    const system_state *system = find_system(context, handle, "plume_system_get_frame_profiles");
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
        o->sort_padded_count = frame.values[PROFILER_VALUE_SORT_PADDED_COUNT];
        o->sort_passes = frame.values[PROFILER_VALUE_SORT_PASSES];
        first_frame = frame.index + 1;
    }
    return written;
}

/* ---- Creation -------------------------------------------------------------- */

static plume_result build_compute(system_state *s, const char *label, const char *last_file, const char *extra_file,
                                  const char *key_file, GLuint *out) {
    plume_shader_stage stage = {GL_COMPUTE_SHADER, {"particle_common.glsl", "particle_state.glsl", NULL}};
    int n = 2;
    if (extra_file) stage.files[n++] = extra_file;
    if (key_file) stage.files[n++] = key_file;
    stage.files[n++] = last_file;
    stage.files[n] = NULL;
    return plume_build_program(&s->env, label, &stage, 1, SHADER_DEFINES, out);
}

static plume_result build_programs(system_state *s) {
    plume_result r;
    if ((r = build_compute(s, "plume particles: reset", "particle_reset.comp", NULL, NULL, &s->reset_program)) ||
        (r = build_compute(s, "plume particles: prepare", "particle_prepare.comp", NULL, NULL, &s->prepare_program)) ||
        (r = build_compute(s, "plume particles: emit", "particle_emit.comp", NULL, NULL, &s->emit_program)) ||
        (r = build_compute(s, "plume particles: simulate", "particle_simulate.comp", "particle_noise.glsl",
                           "depth_key.glsl", &s->simulate_program)))
        return r;
    plume_shader_stage draw_stages[2] = {
        {GL_VERTEX_SHADER, {"particle_common.glsl", "particle_draw.vert", NULL}},
        {GL_FRAGMENT_SHADER, {"particle_draw.frag", NULL}},
    };
    r = plume_build_program(&s->env, "plume particles: draw", draw_stages, 2, SHADER_DEFINES, &s->draw_program);
    if (r != PLUME_OK) return r;

    s->reset_capacity_location = glGetUniformLocation(s->reset_program, "u_capacity");
    s->prepare_requested_location = glGetUniformLocation(s->prepare_program, "u_requested");
    s->emit_seed_location = glGetUniformLocation(s->emit_program, "u_seed");
    s->emit_end_location = glGetUniformLocation(s->emit_program, "u_emit_end");
    GLuint sim = s->simulate_program;
    s->simulate = (simulate_locations){
        .dt = glGetUniformLocation(sim, "u_dt"),
        .time = glGetUniformLocation(sim, "u_time"),
        .view = glGetUniformLocation(sim, "u_view"),
        .gravity = glGetUniformLocation(sim, "u_gravity"),
        .wind = glGetUniformLocation(sim, "u_wind"),
        .drag = glGetUniformLocation(sim, "u_drag"),
        .turbulence = glGetUniformLocation(sim, "u_turbulence"),
        .capacity = glGetUniformLocation(sim, "u_capacity"),
    };
    GLuint draw = s->draw_program;
    s->draw = (draw_locations){
        .view = glGetUniformLocation(draw, "u_view"),
        .projection = glGetUniformLocation(draw, "u_projection"),
        .inverse_projection = glGetUniformLocation(draw, "u_inverse_projection"),
        .camera_right = glGetUniformLocation(draw, "u_camera_right"),
        .camera_up = glGetUniformLocation(draw, "u_camera_up"),
        .has_texture = glGetUniformLocation(draw, "u_has_texture"),
        .flipbook = glGetUniformLocation(draw, "u_flipbook"),
        .frame_blend = glGetUniformLocation(draw, "u_frame_blend"),
        .soft_fade_distance = glGetUniformLocation(draw, "u_soft_fade_distance"),
        .viewport_size = glGetUniformLocation(draw, "u_viewport_size"),
    };
    return PLUME_OK;
}

/* The appearance never changes after creation: its uniforms are set once. */
static void set_curve_uniforms(GLuint program, const char *times_name, const char *values_name,
                               const char *count_name, const plume_curve *curve) {
    float times[PLUME_MAX_CURVE_KEYS] = {0}, values[PLUME_MAX_CURVE_KEYS] = {0};
    for (uint32_t k = 0; k < curve->key_count; ++k) {
        times[k] = curve->keys[k].time;
        values[k] = curve->keys[k].value;
    }
    glProgramUniform1fv(program, glGetUniformLocation(program, times_name), PLUME_MAX_CURVE_KEYS, times);
    glProgramUniform1fv(program, glGetUniformLocation(program, values_name), PLUME_MAX_CURVE_KEYS, values);
    glProgramUniform1i(program, glGetUniformLocation(program, count_name), (GLint)curve->key_count);
}

static void set_appearance_uniforms(system_state *s) {
    const plume_appearance *a = &s->desc.appearance;
    GLuint p = s->draw_program;
    set_curve_uniforms(p, "u_size_times", "u_size_values", "u_size_count", &a->size_over_life);
    set_curve_uniforms(p, "u_opacity_times", "u_opacity_values", "u_opacity_count", &a->opacity_over_life);
    float times[PLUME_MAX_CURVE_KEYS] = {0}, colors[PLUME_MAX_CURVE_KEYS][4] = {{0}};
    for (uint32_t k = 0; k < a->color_over_life.key_count; ++k) {
        times[k] = a->color_over_life.keys[k].time;
        memcpy(colors[k], a->color_over_life.keys[k].rgba, sizeof colors[k]);
    }
    glProgramUniform1fv(p, glGetUniformLocation(p, "u_color_times"), PLUME_MAX_CURVE_KEYS, times);
    glProgramUniform4fv(p, glGetUniformLocation(p, "u_color_values"), PLUME_MAX_CURVE_KEYS, &colors[0][0]);
    glProgramUniform1i(p, glGetUniformLocation(p, "u_color_count"), (GLint)a->color_over_life.key_count);
    glProgramUniform2ui(p, s->draw.flipbook, a->texture.columns, a->texture.rows);
    glProgramUniform1i(p, s->draw.frame_blend, !a->texture.disable_frame_blend);
    glProgramUniform1i(p, s->draw.has_texture, s->sprite_texture != 0);
    glProgramUniform1i(p, glGetUniformLocation(p, "u_sprite"), 0);
    glProgramUniform1i(p, glGetUniformLocation(p, "u_scene_depth"), 1);
}

/* The largest capacity this GL allows: every particle buffer within
 * GL_MAX_SHADER_STORAGE_BLOCK_SIZE, every pass within the workgroup count
 * limit, and the sort's own limit. */
static uint64_t capacity_limit(const char **which) {
    GLint64 block = 0;
    GLint groups = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &groups);
    uint64_t limit = (uint64_t)block / MOTION_BYTES;
    *which = "GL_MAX_SHADER_STORAGE_BLOCK_SIZE / 32 bytes of motion per particle";
    uint64_t by_groups = (uint64_t)groups * EMIT_GROUP_SIZE; /* the smallest group size */
    if (by_groups < limit) {
        limit = by_groups;
        *which = "GL_MAX_COMPUTE_WORK_GROUP_COUNT";
    }
    if (limit > (1u << 30)) {
        limit = 1u << 30;
        *which = "the sort's 2^30 pairs";
    }
    return limit;
}

static plume_result create_buffer(system_state *s, GLsizeiptr bytes, const void *data, const char *label,
                                  GLuint *out) {
    glGenBuffers(1, out);
    glBindBuffer(GL_COPY_WRITE_BUFFER, *out);
    glBufferData(GL_COPY_WRITE_BUFFER, bytes, data, GL_DYNAMIC_DRAW);
    glObjectLabel(GL_BUFFER, *out, -1, label);
    return plume_drain_gl_errors(&s->env, "plume_system_create (buffers)");
}

static void pack_emitter(const plume_emitter_desc *e, float out[EMITTER_GPU_FLOATS]) {
    const float packed[EMITTER_GPU_FLOATS] = {
        e->position[0],   e->position[1],   e->position[2],   (float)e->shape,
        e->extents[0],    e->extents[1],    e->extents[2],    e->spread,
        e->direction[0],  e->direction[1],  e->direction[2],  0.0f,
        e->lifetime.min,  e->lifetime.max,  e->speed.min,     e->speed.max,
        e->size.min,      e->size.max,      e->rotation.min,  e->rotation.max,
        e->spin.min,      e->spin.max,      0.0f,             0.0f,
    };
    memcpy(out, packed, sizeof packed);
}

static plume_result create_buffers(system_state *s) {
    GLsizeiptr capacity = s->desc.capacity;
    plume_result r;
    float emitters[PLUME_MAX_EMITTERS][EMITTER_GPU_FLOATS];
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e) pack_emitter(&s->desc.emitters[e], emitters[e]);
    if ((r = create_buffer(s, capacity * MOTION_BYTES, NULL, "plume particles: motion", &s->motion_buffer)) ||
        (r = create_buffer(s, capacity * TRAITS_BYTES, NULL, "plume particles: traits", &s->traits_buffer)) ||
        (r = create_buffer(s, capacity * PAIR_BYTES, NULL, "plume particles: live list", &s->live_list_buffer)) ||
        (r = create_buffer(s, STATE_HEADER_BYTES + capacity * 4, NULL, "plume particles: state and dead list",
                           &s->state_buffer)) ||
        (r = create_buffer(s, sizeof emitters, emitters, "plume particles: emitters", &s->emitter_buffer)))
        return r;
    glGenVertexArrays(1, &s->vertex_array);
    glGenSamplers(1, &s->sprite_sampler);
    glSamplerParameteri(s->sprite_sampler, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glSamplerParameteri(s->sprite_sampler, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glSamplerParameteri(s->sprite_sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(s->sprite_sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    /* The host's depth texture is read raw, whatever its own compare mode. */
    glGenSamplers(1, &s->depth_sampler);
    glSamplerParameteri(s->depth_sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glSamplerParameteri(s->depth_sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glSamplerParameteri(s->depth_sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(s->depth_sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(s->depth_sampler, GL_TEXTURE_COMPARE_MODE, GL_NONE);
    return plume_drain_gl_errors(&s->env, "plume_system_create (objects)");
}

/* Filed in the system's context (see system_state). */
static plume_result create_sorter(system_state *s) {
    plume_sorter_desc desc = {.capacity = s->desc.capacity, .logger = s->env.logger, .allocator = s->env.allocator};
    return plume_sorter_create(s->context, &desc, &s->sorter);
}

static plume_result reset_gpu_state(system_state *s);

static plume_result create_gl_objects(system_state *s, const plume_system_desc *user_desc) {
    static const char *CALLER = "plume_system_create";
    plume_result r = plume_check_gl_version(&s->env, CALLER);
    if (r != PLUME_OK) return r;
    const char *which = "";
    uint64_t limit = capacity_limit(&which);
    if (s->desc.capacity > limit) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: capacity %u is over this GL's limit of %llu particles (%s)", CALLER,
                  s->desc.capacity, (unsigned long long)limit, which);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if ((r = build_programs(s)) || (r = create_buffers(s)) || (r = create_sorter(s)) || (r = create_profiler(s)))
        return r;
    /* Last, so that a bad texture file also proves the cleanup of everything
     * made before it. */
    uint32_t width = 0, height = 0;
    r = plume_particles_load_texture(&s->env, &user_desc->appearance.texture, &s->sprite_texture, &width, &height);
    if (r != PLUME_OK) return r;
    s->desc.appearance.texture.path = NULL;
    s->desc.appearance.texture.pixels = NULL;
    s->desc.appearance.texture.width = width;
    s->desc.appearance.texture.height = height;
    set_appearance_uniforms(s);
    return reset_gpu_state(s);
}

enum { SYSTEM_GL_OBJECTS = 14 };

/* The system's own GL objects (the profiler and the sorter list theirs). */
static uint32_t list_own_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity) {
    const plume_gl_object all[SYSTEM_GL_OBJECTS] = {
        {GL_PROGRAM, s->reset_program},   {GL_PROGRAM, s->prepare_program}, {GL_PROGRAM, s->emit_program},
        {GL_PROGRAM, s->simulate_program}, {GL_PROGRAM, s->draw_program},  {GL_BUFFER, s->motion_buffer},
        {GL_BUFFER, s->traits_buffer},
        {GL_BUFFER, s->live_list_buffer}, {GL_BUFFER, s->state_buffer},
        {GL_BUFFER, s->emitter_buffer},   {GL_VERTEX_ARRAY, s->vertex_array}, {GL_TEXTURE, s->sprite_texture},
        {GL_SAMPLER, s->sprite_sampler},  {GL_SAMPLER, s->depth_sampler},
    };
    return plume_list_named_gl_objects(all, SYSTEM_GL_OBJECTS, out, capacity);
}

/* The context's listing of a system: its own objects and its profiler's. */
static uint32_t list_system_gl_objects(const void *object, plume_gl_object *out, uint32_t capacity) {
    const system_state *s = object;
    uint32_t own = list_own_gl_objects(s, out, capacity);
    uint32_t room = own < capacity ? capacity - own : 0;
    return own + profiler_list_gl_objects(s->profiler, room ? out + own : NULL, room);
}

/* Frees what a system holds, however far its creation got. */
static void free_system(void *object) {
    system_state *s = object;
    profiler_destroy(s->profiler);
    plume_sorter_destroy(s->context, s->sorter); /* {0} if it was never made */
    plume_gl_object owned[SYSTEM_GL_OBJECTS];
    plume_delete_gl_objects(owned, list_own_gl_objects(s, owned, SYSTEM_GL_OBJECTS));
    plume_env env = s->env;
    plume_free(&env, s);
}

plume_result plume_system_create(plume_context *context, const plume_system_desc *desc, plume_system *out_system) {
    static const char *CALLER = "plume_system_create";
    if (out_system) *out_system = (plume_system){0};
    plume_env env;
    plume_result r = plume_object_env(context, CALLER, desc != NULL, out_system != NULL, desc ? &desc->logger : NULL,
                                      desc ? &desc->allocator : NULL, &env);
    if (r != PLUME_OK) return r;
    system_state *s = plume_alloc(&env, sizeof *s);
    if (!s) return PLUME_ERROR_OUT_OF_MEMORY;
    s->env = env;
    s->context = context;
    r = plume_particles_resolve_desc(&s->env, CALLER, desc, &s->desc);
    if (r == PLUME_OK) {
        plume_gl_scope scope;
        plume_gl_scope_begin(&scope, &s->env);
        plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
        r = create_gl_objects(s, desc);
        plume_gl_scope_end(&scope);
    }
    return plume_context_file_or_free(context, &system_class, s, r, &out_system->id);
}

plume_result plume_system_destroy(plume_context *context, plume_system system) {
    return plume_context_destroy_object(context, system.id, &system_class, "plume_system_destroy");
}

plume_result plume_system_get_desc(const plume_context *context, plume_system handle, plume_system_desc *out_desc) {
    const system_state *s = find_system(context, handle, "plume_system_get_desc");
    if (out_desc) *out_desc = s ? s->desc : (plume_system_desc){0};
    if (s && !out_desc) plume_log(&s->env, PLUME_LOG_ERROR, "plume_system_get_desc: out_desc must not be NULL");
    return s && out_desc ? PLUME_OK : PLUME_ERROR_INVALID_ARGUMENT;
}

/* ---- Live-count bound --------------------------------------------------------- */

static double longest_lifetime_of(const plume_system_desc *desc) {
    double longest = 0.0;
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e)
        if (desc->emitters[e].lifetime.max > longest) longest = desc->emitters[e].lifetime.max;
    return longest;
}

static void window_record(emission_window *w, double time, uint64_t count) {
    if (count == 0) return;
    if (w->count == EMISSION_RECORDS) {
        /* Full: fold the oldest record into the next one. The next one's later
         * time keeps the fold's particles counted for longer: still a bound. */
        emission_record *oldest = &w->records[w->first];
        w->first = (w->first + 1) % EMISSION_RECORDS;
        w->records[w->first].count += oldest->count;
        --w->count;
    }
    w->records[(w->first + w->count) % EMISSION_RECORDS] = (emission_record){time, count};
    ++w->count;
}

/* The most particles that can be alive at `now`: those requested within the
 * longest lifetime. GPU ages are float sums of the steps, which can fall
 * short of the exact time by a little per step: the window is widened by 2%
 * and 1 ms, enough for 10^5 steps of float rounding. */
static uint32_t window_live_bound(emission_window *w, double now, uint32_t capacity) {
    double reach = w->longest_lifetime * 1.02 + 1e-3;
    while (w->count > 0 && now - w->records[w->first].time > reach) {
        w->first = (w->first + 1) % EMISSION_RECORDS;
        --w->count;
    }
    uint64_t bound = 0;
    for (uint32_t i = 0; i < w->count; ++i) bound += w->records[(w->first + i) % EMISSION_RECORDS].count;
    return bound < capacity ? (uint32_t)bound : capacity;
}

/* ---- Reset ------------------------------------------------------------------ */

static plume_result reset_gpu_state(system_state *s) {
    memset(s->clocks, 0, sizeof s->clocks);
    memset(&s->window, 0, sizeof s->window);
    s->window.longest_lifetime = longest_lifetime_of(&s->desc);
    s->time = 0.0;
    glUseProgram(s->reset_program);
    glProgramUniform1ui(s->reset_program, s->reset_capacity_location, s->desc.capacity);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, s->motion_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, s->state_buffer);
    glDispatchCompute((s->desc.capacity + RESET_GROUP_SIZE - 1) / RESET_GROUP_SIZE, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    return plume_drain_gl_errors(&s->env, "reset");
}

plume_result plume_system_reset(plume_context *context, plume_system handle) {
    system_state *system = find_system(context, handle, "plume_system_reset");
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    plume_result r = reset_gpu_state(system);
    plume_gl_scope_end(&scope);
    return r;
}

/* ---- Run-time changes ---------------------------------------------------------- */

plume_result plume_system_set_emitter(plume_context *context, plume_system handle, uint32_t index,
                                      const plume_emitter_desc *emitter) {
    static const char *CALLER = "plume_system_set_emitter";
    system_state *system = find_system(context, handle, CALLER);
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    if (!emitter || index >= PLUME_MAX_EMITTERS) {
        plume_log(&system->env, PLUME_LOG_ERROR, "%s: emitter %u must be below %d and its descriptor not NULL", CALLER,
                  index, PLUME_MAX_EMITTERS);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_emitter_desc resolved;
    plume_result r = plume_particles_resolve_emitter(&system->env, CALLER, index, emitter, &resolved);
    if (r != PLUME_OK) return r;
    system->desc.emitters[index] = resolved;
    /* Particles keep the lifetime they were born with: the bound's window
     * only grows until a reset. */
    if (resolved.lifetime.max > system->window.longest_lifetime) system->window.longest_lifetime = resolved.lifetime.max;
    float packed[EMITTER_GPU_FLOATS];
    pack_emitter(&resolved, packed);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
    glBindBuffer(GL_COPY_WRITE_BUFFER, system->emitter_buffer);
    glBufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)(index * sizeof packed), sizeof packed, packed);
    plume_gl_scope_end(&scope);
    return plume_drain_gl_errors(&system->env, CALLER);
}

plume_result plume_system_set_forces(plume_context *context, plume_system handle, const plume_forces *forces) {
    static const char *CALLER = "plume_system_set_forces";
    system_state *system = find_system_with(context, handle, CALLER, forces, "forces");
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    plume_forces resolved;
    plume_result r = plume_particles_resolve_forces(&system->env, CALLER, forces, &resolved);
    if (r == PLUME_OK) system->desc.forces = resolved;
    return r;
}

/* ---- Update ------------------------------------------------------------------- */

static bool matrix_is_finite(const float m[16]) {
    for (int i = 0; i < 16; ++i)
        if (!isfinite(m[i])) return false;
    return true;
}

/* A zero matrix stands for the identity (zero-initialised frames). */
static void matrix_or_identity(const float in[16], mat4 out) {
    bool zero = true;
    for (int i = 0; i < 16; ++i) zero = zero && in[i] == 0.0f;
    if (zero) glm_mat4_identity(out);
    else memcpy(out, in, sizeof(float) * 16);
}

static plume_result check_frame(const system_state *s, const char *caller, const plume_frame_desc *frame) {
    if (!frame) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: frame must not be NULL", caller);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (!isfinite(frame->dt) || frame->dt < 0.0f) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: dt is %g; it must be finite and >= 0", caller, frame->dt);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (!matrix_is_finite(frame->view) || !matrix_is_finite(frame->projection)) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: the view and projection matrices must be finite", caller);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return PLUME_OK;
}

/* Particles emitter `e` asks for in a step of dt: its rate with the fraction
 * carried over, plus the bursts that fall in [time, time + dt). */
static uint64_t requested_by_emitter(const plume_emitter_desc *e, emitter_clock *clock, double dt) {
    /* Counts over 2^32 cannot be emitted anyway (the capacity is a uint32):
     * clamping before the conversion keeps a huge dt defined. */
    const double most = 4294967295.0;
    if (dt <= 0.0) return 0;
    double due = clock->fraction + (double)e->rate * dt;
    double whole = floor(due);
    clock->fraction = due - whole;
    double count = whole;
    if (e->burst_count > 0) {
        double t0 = clock->time, t1 = clock->time + dt, bursts;
        if (e->burst_interval == 0.0f) bursts = t0 == 0.0 ? 1.0 : 0.0;
        else bursts = ceil(t1 / e->burst_interval) - ceil(t0 / e->burst_interval);
        count += fmin(bursts, most) * e->burst_count;
    }
    clock->time += dt;
    return (uint64_t)fmin(count, most);
}

/* How many particles each emitter asks for this step, as running totals
 * (at most the capacity: the GPU cannot place more). */
static uint32_t plan_emission(system_state *s, double dt, GLuint running_end[PLUME_MAX_EMITTERS]) {
    uint64_t total = 0;
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e) {
        total += requested_by_emitter(&s->desc.emitters[e], &s->clocks[e], dt);
        if (total > s->desc.capacity) total = s->desc.capacity;
        running_end[e] = (GLuint)total;
    }
    return (uint32_t)total;
}

/* Stage 1: prepare, emit, simulate. */
static void run_simulate_stage(system_state *s, const plume_frame_desc *frame, const mat4 view) {
    GLuint running_end[PLUME_MAX_EMITTERS];
    uint32_t requested = plan_emission(s, frame->dt, running_end);
    window_record(&s->window, s->time, requested);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, s->motion_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, s->traits_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, s->live_list_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, s->state_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, s->emitter_buffer);

    glUseProgram(s->prepare_program);
    glProgramUniform1ui(s->prepare_program, s->prepare_requested_location, requested);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);

    if (requested > 0) {
        glUseProgram(s->emit_program);
        glProgramUniform1ui(s->emit_program, s->emit_seed_location, s->desc.seed);
        glProgramUniform1uiv(s->emit_program, s->emit_end_location, PLUME_MAX_EMITTERS, running_end);
        glDispatchCompute((requested + EMIT_GROUP_SIZE - 1) / EMIT_GROUP_SIZE, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }

    const plume_forces *f = &s->desc.forces;
    GLuint sim = s->simulate_program;
    glUseProgram(sim);
    glProgramUniform1f(sim, s->simulate.dt, frame->dt);
    glProgramUniform1f(sim, s->simulate.time, (float)s->time);
    glProgramUniformMatrix4fv(sim, s->simulate.view, 1, GL_FALSE, &view[0][0]);
    glProgramUniform3fv(sim, s->simulate.gravity, 1, f->gravity);
    glProgramUniform3fv(sim, s->simulate.wind, 1, f->wind);
    glProgramUniform1f(sim, s->simulate.drag, f->drag);
    glProgramUniform3f(sim, s->simulate.turbulence, f->turbulence, f->turbulence_scale, f->turbulence_speed);
    glProgramUniform1ui(sim, s->simulate.capacity, s->desc.capacity);
    glDispatchCompute((s->desc.capacity + SIMULATE_GROUP_SIZE - 1) / SIMULATE_GROUP_SIZE, 1, 1);
    /* The sort and the draw read the list, the draw its indirect arguments,
     * a readback the buffers. */
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    s->time += frame->dt;
}

/* Stage 2: the live list, back-to-front. The GPU's live count sizes the
 * sort; the CPU's bound on it decides which passes are issued at all. */
static plume_result run_sort_stage(system_state *s) {
    uint32_t bound = window_live_bound(&s->window, s->time, s->desc.capacity);
    profiler_set_u32(s->profiler, PROFILER_VALUE_SORT_BOUND, bound);
    return plume_sort_indirect_bounded(s->context, s->sorter, s->live_list_buffer, s->state_buffer,
                                       STATE_LIVE_COUNT_OFFSET, bound);
}

plume_result plume_system_update(plume_context *context, plume_system handle, const plume_frame_desc *frame) {
    static const char *CALLER = "plume_system_update";
    system_state *system = find_system(context, handle, CALLER);
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    plume_result r = check_frame(system, CALLER, frame);
    if (r != PLUME_OK) return r;
    mat4 view;
    matrix_or_identity(frame->view, view);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    uint64_t frame_index = system->update_count++;
    profiler_frame_begin(system->profiler, frame_index, &scope);
    stage_begin(system, PLUME_STAGE_UPDATE);
    stage_begin(system, PLUME_STAGE_SIMULATE);
    run_simulate_stage(system, frame, view);
    stage_end(system, PLUME_STAGE_SIMULATE);
    profiler_capture_u32(system->profiler, PROFILER_VALUE_LIVE_COUNT, system->state_buffer, STATE_LIVE_COUNT_OFFSET,
                         &scope);
    stage_begin(system, PLUME_STAGE_SORT);
    if (!frame->disable_sort) r = run_sort_stage(system);
    stage_end(system, PLUME_STAGE_SORT);
    stage_end(system, PLUME_STAGE_UPDATE);
    plume_gl_scope_end(&scope);
    plume_result gl = plume_drain_gl_errors(&system->env, CALLER);
    return r != PLUME_OK ? r : gl;
}

/* ---- Draw --------------------------------------------------------------------- */

static void run_draw_stage(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection) {
    GLuint p = s->draw_program;
    glUseProgram(p);
    glProgramUniformMatrix4fv(p, s->draw.view, 1, GL_FALSE, &view[0][0]);
    glProgramUniformMatrix4fv(p, s->draw.projection, 1, GL_FALSE, &projection[0][0]);
    /* The quad spans the view plane: the view matrix's first two rows are the
     * camera's right and up axes in world space. */
    glProgramUniform3f(p, s->draw.camera_right, view[0][0], view[1][0], view[2][0]);
    glProgramUniform3f(p, s->draw.camera_up, view[0][1], view[1][1], view[2][1]);
    float fade = 0.0f;
    if (frame->depth_texture != 0) {
        mat4 inverse;
        glm_mat4_inv((vec4 *)projection, inverse);
        glProgramUniformMatrix4fv(p, s->draw.inverse_projection, 1, GL_FALSE, &inverse[0][0]);
        float width = (float)frame->viewport_size[0], height = (float)frame->viewport_size[1];
        if (frame->viewport_size[0] <= 0 || frame->viewport_size[1] <= 0) {
            GLint viewport[4] = {0, 0, 1, 1};
            glGetIntegerv(GL_VIEWPORT, viewport);
            width = (float)viewport[2];
            height = (float)viewport[3];
        }
        glProgramUniform2f(p, s->draw.viewport_size, width, height);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, frame->depth_texture);
        glBindSampler(1, s->depth_sampler);
        fade = s->desc.appearance.soft_fade_distance;
    }
    glProgramUniform1f(p, s->draw.soft_fade_distance, fade);
    if (s->sprite_texture) {
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, s->sprite_texture);
        glBindSampler(0, s->sprite_sampler);
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, s->motion_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, s->traits_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, s->live_list_buffer);
    glBindVertexArray(s->vertex_array);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, s->state_buffer);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glBlendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
    glEnable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);
    glDrawArraysIndirect(GL_TRIANGLES, (const void *)(uintptr_t)STATE_DRAW_ARGS_OFFSET);
}

plume_result plume_system_draw(plume_context *context, plume_system handle, const plume_frame_desc *frame) {
    static const char *CALLER = "plume_system_draw";
    system_state *system = find_system(context, handle, CALLER);
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    plume_result r = check_frame(system, CALLER, frame);
    if (r != PLUME_OK) return r;
    if (frame->depth_texture != 0 && !glIsTexture(frame->depth_texture)) {
        plume_log(&system->env, PLUME_LOG_ERROR, "%s: depth_texture %u is not a texture", CALLER,
                  frame->depth_texture);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    mat4 view, projection;
    matrix_or_identity(frame->view, view);
    matrix_or_identity(frame->projection, projection);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_DRAW | PLUME_SCOPE_TEXTURES);
    stage_begin(system, PLUME_STAGE_DRAW);
    run_draw_stage(system, frame, view, projection);
    stage_end(system, PLUME_STAGE_DRAW);
    plume_gl_scope_end(&scope);
    return plume_drain_gl_errors(&system->env, CALLER);
}

/* ---- Debug readback ---------------------------------------------------------- */

static void read_buffer(GLuint buffer, GLintptr offset, GLsizeiptr bytes, void *out) {
    if (bytes <= 0) return;
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    glGetBufferSubData(GL_COPY_READ_BUFFER, offset, bytes, out);
}

/* The particles as plume_particle: motion and traits side by side, the
 * rotation at the particle's age (rotation_at in particle_common.glsl). */
static bool read_back_particles(const system_state *s, plume_particle *out) {
    uint32_t capacity = s->desc.capacity;
    float *motions = plume_alloc(&s->env, (size_t)capacity * MOTION_BYTES);
    float *traits = plume_alloc(&s->env, (size_t)capacity * TRAITS_BYTES);
    if (motions && traits) {
        read_buffer(s->motion_buffer, 0, (GLsizeiptr)capacity * MOTION_BYTES, motions);
        read_buffer(s->traits_buffer, 0, (GLsizeiptr)capacity * TRAITS_BYTES, traits);
        for (uint32_t i = 0; i < capacity; ++i) {
            const float *m = motions + i * (MOTION_BYTES / 4), *t = traits + i * (TRAITS_BYTES / 4);
            plume_particle *p = &out[i];
            memcpy(p->position, m, sizeof p->position);
            p->age = m[3];
            memcpy(p->velocity, m + 4, sizeof p->velocity);
            p->lifetime = m[7];
            p->size = t[0];
            p->rotation = t[1] + t[2] * p->age;
            p->spin = t[2];
            memcpy(&p->id, &t[3], sizeof p->id);
        }
    }
    plume_free(&s->env, motions);
    plume_free(&s->env, traits);
    return motions && traits;
}

plume_result plume_system_read_back(plume_context *context, plume_system handle, plume_readback *readback) {
    static const char *CALLER = "plume_system_read_back";
    system_state *system = find_system_with(context, handle, CALLER, readback, "readback");
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    uint32_t header[STATE_HEADER_BYTES / 4];
    read_buffer(system->state_buffer, 0, STATE_HEADER_BYTES, header);
    uint32_t capacity = system->desc.capacity;
    /* Clamped so that a corrupt counter can never overrun the caller's arrays. */
    uint32_t live = header[STATE_LIVE_COUNT_OFFSET / 4], dead = header[STATE_DEAD_COUNT_OFFSET / 4];
    readback->live_count = live;
    readback->dead_count = dead;
    readback->emitted_total = header[STATE_EMITTED_TOTAL_OFFSET / 4];
    if (live > capacity) live = capacity;
    if (dead > capacity) dead = capacity;
    if (readback->particles && !read_back_particles(system, readback->particles)) {
        plume_gl_scope_end(&scope);
        return PLUME_ERROR_OUT_OF_MEMORY;
    }
    if (readback->dead_slots)
        read_buffer(system->state_buffer, STATE_HEADER_BYTES, (GLsizeiptr)dead * 4, readback->dead_slots);
    if (readback->draw_order || readback->draw_keys) {
        uint32_t *pairs = plume_alloc(&system->env, (size_t)live * PAIR_BYTES);
        if (!pairs) {
            plume_gl_scope_end(&scope);
            return PLUME_ERROR_OUT_OF_MEMORY;
        }
        read_buffer(system->live_list_buffer, 0, (GLsizeiptr)live * PAIR_BYTES, pairs);
        for (uint32_t i = 0; i < live; ++i) {
            if (readback->draw_keys) readback->draw_keys[i] = pairs[2 * i];
            if (readback->draw_order) readback->draw_order[i] = pairs[2 * i + 1];
        }
        plume_free(&system->env, pairs);
    }
    plume_gl_scope_end(&scope);
    return plume_drain_gl_errors(&system->env, CALLER);
}
