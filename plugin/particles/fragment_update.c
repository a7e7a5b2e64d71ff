/* The particle system's fragment path (GL 3.3 core: no compute shaders,
 * storage buffers, image load/store or atomic counters): particles in float
 * textures, one fragment pass that emits and simulates every slot, a key pass
 * that transform feedback records into the sort's input buffer, the sort
 * (sort/feedback_sort.c: vertex passes, no rasterization), and
 * (render/fragment_draw.c) an instanced draw that fetches the sorted slots
 * from a buffer texture. On OpenGL ES 3.0 (no buffer textures, no recording
 * sort) the key pass is a render pass into a list texture instead, which the
 * render-pass sort sorts in place and the draw reads.
 *
 * Emission needs no counter: the CPU plans how many particles each update
 * asks for (particles_plan_emission, as on the compute path) and they take the
 * next slots of a ring, in emission order. So every particle alive was
 * emitted within the live-count window (particles_window_live_bound), and
 * lies among the `bound` slots before the ring's head: the key pass covers
 * those only, and the sort's cost follows the live count. When the system is
 * full, a new particle replaces the oldest one (the compute path drops it
 * instead); the same seed gives the same particles on both paths, the i-th
 * emission being the same particle. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fragment_particles.h"

/* ---- What the fragment path lacks ---------------------------------------------- */

plume_result fragment_particles_check_world(const plume_env *env, const char *caller, const plume_world *world) {
    char name[64];
    if (!world_field_in_use(world, name, sizeof name)) return PLUME_OK;
    plume_log(env, PLUME_LOG_ERROR, "%s: %s needs the compute path (GL 4.3); this system runs the fragment path",
              caller, name);
    return PLUME_ERROR_GL_UNSUPPORTED;
}

plume_result fragment_particles_check_desc(const plume_env *env, const char *caller, const plume_system_desc *desc) {
    /* OpenGL ES 3.0 (WebGL 2) runs the path with the list in a texture
     * (no buffer textures), but its simulate pass renders into RGBA32F
     * textures, which ES makes renderable only with EXT_color_buffer_float
     * (every WebGL 2 browser has it on desktops). */
    if (plume_gl_is_es() && !epoxy_has_gl_extension("GL_EXT_color_buffer_float")) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: path: the fragment path's particle systems render into RGBA32F textures, which OpenGL ES "
                  "makes renderable only with EXT_color_buffer_float, absent from this context (%s)",
                  caller, (const char *)glGetString(GL_VERSION));
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    /* A field that only the compute path supports is refused here, by name:
     * the world (event_capacity alone is harmless: nothing fires). Every
     * look draws on this path. */
    if (desc->simulation_space != PLUME_SPACE_WORLD) {
        plume_log(env, PLUME_LOG_ERROR, "%s: simulation_space local needs the compute path (GL 4.3)", caller);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    if (desc->cpu_events.kinds != 0) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: cpu_events.kinds needs the compute path (GL 4.3); this system runs the fragment path", caller);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    if (desc->trail.points != 0) {
        plume_log(env, PLUME_LOG_ERROR, "%s: trail.points needs the compute path (GL 4.3); this system runs the "
                  "fragment path", caller);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    if (desc->self_shadow.strength > 0.0f) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: self_shadow.strength needs the compute path (GL 4.3); this system runs the fragment path",
                  caller);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    return fragment_particles_check_world(env, caller, &desc->world);
}

uint64_t fragment_particles_capacity_limit(const char **which) {
    GLint size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &size);
    uint64_t width = (uint64_t)size < FRAGMENT_PARTICLE_WIDTH ? (uint64_t)size : FRAGMENT_PARTICLE_WIDTH;
    uint64_t limit = width * (uint64_t)size;
    *which = "GL_MAX_TEXTURE_SIZE rows of the particle textures";
    /* The sort's buffers are read as buffer textures of the capacity's power
     * of two (on OpenGL ES the list is a texture of the particles' size and
     * the render passes' limit is the sorter's, checked at its creation). */
    if (plume_gl_is_es()) return limit; /* at creation only */
    GLint texels = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &texels);
    uint64_t pow2 = 1;
    while (pow2 * 2 <= (uint64_t)texels) pow2 *= 2;
    if (pow2 < limit) {
        limit = pow2;
        *which = "the sort's buffer textures: the largest power of two within GL_MAX_TEXTURE_BUFFER_SIZE";
    }
    return limit;
}

/* ---- Creation ----------------------------------------------------------------- */

static const GLenum PARTICLE_FORMATS[FRAGMENT_PARTICLE_TEXTURES][3] = {
    {GL_RGBA32F, GL_RGBA, GL_FLOAT},
    {GL_RGBA32F, GL_RGBA, GL_FLOAT},
    {GL_RGBA32F, GL_RGBA, GL_FLOAT},
    {GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT},
};
static const GLenum DRAW_BUFFERS[FRAGMENT_PARTICLE_TEXTURES] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1,
                                                               GL_COLOR_ATTACHMENT2, GL_COLOR_ATTACHMENT3};

/* A texture of the particles' size with `format` (PARTICLE_FORMATS' row),
 * attached at `attachment` of the bound draw framebuffer. */
static void attach_particle_texture(const fragment_particles *f, const GLenum format[3], GLenum attachment,
                                    GLuint texture) {
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, (GLint)format[0], (GLsizei)f->width, (GLsizei)f->rows, 0, format[1], format[2],
                 NULL);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, attachment, GL_TEXTURE_2D, texture, 0);
}

static plume_result check_framebuffer(system_state *s, const fragment_particles *f, const char *what) {
    GLenum status = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER);
    plume_result r = plume_drain_gl_errors(&s->env, "plume_system_create (particle textures)");
    if (r == PLUME_OK && status != GL_FRAMEBUFFER_COMPLETE) {
        plume_log(&s->env, PLUME_LOG_ERROR,
                  "plume_system_create: the %s (%ux%u) make an incomplete framebuffer (status 0x%04x)", what,
                  f->width, f->rows, status);
        r = PLUME_ERROR_GL_UNSUPPORTED;
    }
    return r;
}

static const GLenum LIST_FORMAT[3] = {GL_RG32UI, GL_RG_INTEGER, GL_UNSIGNED_INT};

static plume_result create_particle_textures(system_state *s, fragment_particles *f, bool list_texture) {
    /* NULL data means no upload only with no pixel unpack buffer bound (the host may have one). */
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    plume_result r;
    for (int set = 0; set < 2; ++set) {
        glGenTextures(FRAGMENT_PARTICLE_TEXTURES, f->textures[set]);
        glGenFramebuffers(1, &f->framebuffers[set]);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, f->framebuffers[set]);
        for (int t = 0; t < FRAGMENT_PARTICLE_TEXTURES; ++t)
            attach_particle_texture(f, PARTICLE_FORMATS[t], DRAW_BUFFERS[t], f->textures[set][t]);
        glDrawBuffers(FRAGMENT_PARTICLE_TEXTURES, DRAW_BUFFERS);
        if ((r = check_framebuffer(s, f, "particle textures (RGBA32F and R32UI)")) != PLUME_OK) return r;
    }
    if (list_texture) {
        glGenTextures(1, &f->list_texture);
        glGenFramebuffers(1, &f->list_framebuffer);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, f->list_framebuffer);
        attach_particle_texture(f, LIST_FORMAT, GL_COLOR_ATTACHMENT0, f->list_texture);
        if ((r = check_framebuffer(s, f, "list texture (RG32UI)")) != PLUME_OK) return r;
    }
    glGenSamplers(1, &f->sampler);
    glSamplerParameteri(f->sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glSamplerParameteri(f->sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return PLUME_OK;
}

/* The programs' uniforms, in the order of their locations' fields
 * (fragment_particles.h), and the simulate pass's samplers, unit t the t-th. */
static const char *const SIMULATE_UNIFORMS[] = {
    "u_width", "u_capacity", "u_emit_first", "u_emit_count", "u_emit_id_base", "u_emitters", "u_seed", "u_emit_end",
    "u_dt", "u_time", "u_gravity", "u_wind", "u_drag", "u_turbulence", NULL};
static const char *const KEYS_UNIFORMS[] = {
    "u_particle_width", "u_capacity", "u_first_slot", "u_view", "u_sort_mode", "u_sort_key_shift",
    "u_cull", "u_cull_planes", "u_cull_radius", "u_eye", "u_cull_distance", NULL};
static const char *const SIMULATE_SAMPLERS[FRAGMENT_PARTICLE_TEXTURES + 1] = {"u_position_age", "u_velocity",
                                                                             "u_traits", "u_ids", NULL};
_Static_assert(PLUME_UNIFORM_NAMES_FIT(SIMULATE_UNIFORMS, fragment_simulate_locations) &&
                   PLUME_UNIFORM_NAMES_FIT(KEYS_UNIFORMS, fragment_keys_locations),
               "a name for each location");

static plume_result build_programs(system_state *s, fragment_particles *f, bool records) {
    const plume_shader_stage simulate[2] = {
        {GL_VERTEX_SHADER, "sort/fragment_pass.vert"},
        {GL_FRAGMENT_SHADER, "particles/fragment_simulate.frag"},
    };
    const plume_shader_stage keys[2] = {
        {GL_VERTEX_SHADER, "particles/feedback_keys.vert"},
        {GL_FRAGMENT_SHADER, "sort/feedback_unused.frag"},
    };
    const plume_shader_stage key_pass[2] = {
        {GL_VERTEX_SHADER, "sort/fragment_pass.vert"},
        {GL_FRAGMENT_SHADER, "particles/fragment_keys.frag"},
    };
    const char *const key_outputs[] = {"out_pair"};
    const char *const keys_label = "plume particles (fragment path): keys";
    plume_result r;
    if ((r = plume_build_program_330(&s->env, "plume particles (fragment path): simulate", simulate, 2, NULL,
                                     &f->simulate_program)) ||
        (r = records ? plume_build_feedback_program_330(&s->env, keys_label, keys, 2, NULL, key_outputs, 1,
                                                        &f->keys_program)
                     : plume_build_program_330(&s->env, keys_label, key_pass, 2, NULL, &f->keys_program)))
        return r;
    plume_find_uniform_locations(f->simulate_program, SIMULATE_UNIFORMS, f->simulate.at);
    plume_find_uniform_locations(f->keys_program, KEYS_UNIFORMS, f->keys.at);
    GLint samplers[FRAGMENT_PARTICLE_TEXTURES];
    plume_find_uniform_locations(f->simulate_program, SIMULATE_SAMPLERS, samplers);
    glUseProgram(f->simulate_program);
    for (int t = 0; t < FRAGMENT_PARTICLE_TEXTURES; ++t) glUniform1i(samplers[t], t);
    return PLUME_OK;
}

plume_result fragment_particles_create(system_state *s) {
    fragment_particles *f = plume_alloc(&s->env, sizeof *f);
    s->fragment = f;
    if (!f) return PLUME_ERROR_OUT_OF_MEMORY;
    f->width = s->desc.capacity < FRAGMENT_PARTICLE_WIDTH ? s->desc.capacity : FRAGMENT_PARTICLE_WIDTH;
    f->rows = (s->desc.capacity + f->width - 1) / f->width;
    /* The render-pass sort (OpenGL ES) records no keys: they go into a texture. */
    bool records = sort_key_input_records(sort_key_input_of(s->context, s->sorter));
    plume_result r;
    if ((r = build_programs(s, f, records)) || (r = create_particle_textures(s, f, !records))) return r;
    glGenVertexArrays(1, &f->vertex_array);
    glBindVertexArray(f->vertex_array); /* made by its first binding (the scope restores it) */
    return plume_drain_gl_errors(&s->env, "plume_system_create (fragment-path vertex array)");
}

enum { FRAGMENT_UPDATE_GL_OBJECTS = 2 * FRAGMENT_PARTICLE_TEXTURES + 8 };

uint32_t fragment_particles_list_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity) {
    const fragment_particles *f = s->fragment;
    if (!f) return 0;
    plume_gl_object all[FRAGMENT_UPDATE_GL_OBJECTS];
    uint32_t n = 0;
    for (int set = 0; set < 2; ++set) {
        for (int t = 0; t < FRAGMENT_PARTICLE_TEXTURES; ++t) all[n++] = (plume_gl_object){GL_TEXTURE, f->textures[set][t]};
        all[n++] = (plume_gl_object){GL_FRAMEBUFFER, f->framebuffers[set]};
    }
    all[n++] = (plume_gl_object){GL_SAMPLER, f->sampler};
    all[n++] = (plume_gl_object){GL_PROGRAM, f->simulate_program};
    all[n++] = (plume_gl_object){GL_PROGRAM, f->keys_program};
    all[n++] = (plume_gl_object){GL_VERTEX_ARRAY, f->vertex_array};
    if (f->list_texture) {
        all[n++] = (plume_gl_object){GL_TEXTURE, f->list_texture};
        all[n++] = (plume_gl_object){GL_FRAMEBUFFER, f->list_framebuffer};
    }
    return plume_list_named_gl_objects(all, n, out, capacity);
}

void fragment_particles_destroy(system_state *s) {
    if (!s->fragment) return;
    plume_gl_object owned[FRAGMENT_UPDATE_GL_OBJECTS];
    plume_delete_gl_objects(&s->env, owned, fragment_particles_list_gl_objects(s, owned, FRAGMENT_UPDATE_GL_OBJECTS));
    plume_free(&s->env, s->fragment);
    s->fragment = NULL;
}

void fragment_particles_view(const system_state *s, particle_fragment_view *out) {
    const fragment_particles *f = s->fragment;
    *out = (particle_fragment_view){
        .particle_width = f->width,
        .list_count = f->list_count,
        .position_age = f->textures[f->current][0],
        .velocity = f->textures[f->current][1],
        .traits = f->textures[f->current][2],
        .sampler = f->sampler,
        .vertex_array = f->vertex_array,
    };
    /* The sort's own texture over the list's buffer: no glTexBuffer a frame. */
    if (f->list_texture) out->list_texture = f->list_texture;
    else if (f->list_count > 0)
        out->list_texture =
            sort_key_input_pairs_texture(sort_key_input_of(s->context, s->sorter), f->list_buffer);
}

/* ---- Passes ------------------------------------------------------------------- */

/* Every colour channel of the four targets written: per draw buffer where
 * the GL has masks per draw buffer, else (OpenGL ES 3.0) all at once. */
static void unmask_particle_targets(const plume_env *env) {
    if (!plume_env_gl_caps(env).indexed_draw_buffer_state) glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    else for (GLuint i = 0; i < FRAGMENT_PARTICLE_TEXTURES; ++i) glColorMaski(i, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
}

/* The state the simulate pass draws under (the caller's scope saved it). */
static void prepare_pass_state(const plume_env *env, const fragment_particles *f, plume_gl_scope *scope) {
    plume_gl_scope_save(scope, FRAGMENT_PARTICLES_SCOPE_GROUPS);
    plume_gl_scope_neutral_raster(scope);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_DEPTH_TEST);
    /* Every draw buffer (the scope restores each): blending left on by the
     * host would mix the float targets with the set written two updates
     * before (a lifetime of 100 read back as -9800). */
    glDisable(GL_BLEND);
    unmask_particle_targets(env);
    glBindVertexArray(f->vertex_array);
}

plume_result fragment_particles_reset(system_state *s) {
    fragment_particles *f = s->fragment;
    f->ring_head = 0;
    f->emitted_total = 0;
    f->list_count = 0;
    f->list_buffer = 0;
    f->current = 0;
    /* Every slot free: age FREE_SLOT_AGE (fragment_simulate.frag). */
    static const GLfloat free_slot[4] = {0.0f, 0.0f, 0.0f, -1.0f}, zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    static const GLuint no_id[4] = {0, 0, 0, 0};
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_RASTERIZER_DISCARD);
    unmask_particle_targets(&s->env);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, f->framebuffers[0]);
    glClearBufferfv(GL_COLOR, 0, free_slot);
    glClearBufferfv(GL_COLOR, 1, zero);
    glClearBufferfv(GL_COLOR, 2, zero);
    glClearBufferuiv(GL_COLOR, 3, no_id);
    return plume_drain_gl_errors(&s->env, "reset");
}

static void bind_particle_textures(const fragment_particles *f, uint32_t set, int count) {
    for (int t = 0; t < count; ++t) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)t);
        glBindTexture(GL_TEXTURE_2D, f->textures[set][t]);
        glBindSampler((GLuint)t, f->sampler);
    }
}

static void run_simulate_pass(system_state *s, const plume_frame_desc *frame) {
    fragment_particles *f = s->fragment;
    GLuint running_end[PLUME_MAX_EMITTERS];
    uint32_t requested = particles_plan_emission(s, frame->dt, running_end);
    double lifetime = 0.0;
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e)
        if (running_end[e] > (e > 0 ? running_end[e - 1] : 0u) && s->desc.emitters[e].lifetime.max > lifetime)
            lifetime = s->desc.emitters[e].lifetime.max;
    particles_window_record(&s->window, s->time, requested, lifetime);
    float emitters[PLUME_MAX_EMITTERS][EMITTER_GPU_FLOATS];
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e) particles_pack_emitter(&s->desc.emitters[e], emitters[e]);
    const fragment_simulate_locations *at = &f->simulate;
    const plume_forces *forces = &s->desc.forces;
    glUseProgram(f->simulate_program);
    glUniform1ui(at->width, f->width);
    glUniform1ui(at->capacity, s->desc.capacity);
    glUniform1ui(at->emit_first, f->ring_head);
    glUniform1ui(at->emit_count, requested);
    glUniform1ui(at->emit_id_base, (GLuint)f->emitted_total);
    glUniform4fv(at->emitters, PLUME_MAX_EMITTERS * PLUME_EMITTER_VEC4S, &emitters[0][0]);
    glUniform1ui(at->seed, s->desc.seed);
    glUniform1uiv(at->emit_end, PLUME_MAX_EMITTERS, running_end);
    glUniform1f(at->dt, frame->dt);
    glUniform1f(at->time, (float)s->time);
    glUniform3fv(at->gravity, 1, forces->gravity);
    glUniform3fv(at->wind, 1, forces->wind);
    glUniform1f(at->drag, forces->drag);
    glUniform3f(at->turbulence, forces->turbulence, forces->turbulence_scale, forces->turbulence_speed);
    bind_particle_textures(f, f->current, FRAGMENT_PARTICLE_TEXTURES);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, f->framebuffers[f->current ^ 1]);
    fragment_sort_draw_range(f->width, s->desc.capacity);
    f->current ^= 1;
    f->ring_head = (uint32_t)(((uint64_t)f->ring_head + requested) % s->desc.capacity);
    f->emitted_total += requested;
    s->time += frame->dt;
}

static void set_cull_uniforms(system_state *s, const plume_frame_desc *frame, const mat4 view,
                              const mat4 projection, bool cull) {
    const fragment_keys_locations *at = &s->fragment->keys;
    /* The eye: for the distance culling and the sort mode by distance. */
    mat4 inverse;
    glm_mat4_inv((vec4 *)view, inverse);
    glUniform3f(at->eye, inverse[3][0], inverse[3][1], inverse[3][2]);
    glUniform1i(at->cull, cull);
    if (!cull) return;
    float planes[PLUME_CULL_PLANES][4];
    particles_frustum_planes(view, projection, planes);
    glUniform4fv(at->cull_planes, PLUME_CULL_PLANES, &planes[0][0]);
    glUniform1f(at->cull_radius, s->cull_radius);
    glUniform1f(at->cull_distance, frame->cull_distance);
}

/* The pairs of `count` slots from `first_slot` round the ring into the sort's
 * input buffer. */
static void run_key_pass(system_state *s, const sort_key_input *sort, const plume_frame_desc *frame, const mat4 view,
                         const mat4 projection, bool cull, uint32_t first_slot, uint32_t count) {
    fragment_particles *f = s->fragment;
    const fragment_keys_locations *at = &f->keys;
    glUseProgram(f->keys_program);
    glUniform1ui(at->particle_width, f->width);
    glUniform1ui(at->capacity, s->desc.capacity);
    glUniform1ui(at->first_slot, first_slot);
    glUniformMatrix4fv(at->view, 1, GL_FALSE, &view[0][0]);
    glUniform1ui(at->sort_mode, s->desc.sort_mode);
    glUniform1ui(at->sort_key_shift, particles_sort_key_shift(&s->desc));
    set_cull_uniforms(s, frame, view, projection, cull);
    bind_particle_textures(f, f->current, 1);
    if (f->list_texture) {
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, f->list_framebuffer);
        glBindVertexArray(f->vertex_array);
        fragment_sort_draw_range(f->width, count);
    } else {
        sort_key_input_record(sort, sort_key_input_buffer(sort), count, count * (uint32_t)sizeof(GLuint[2]));
    }
}

void fragment_particles_update(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection,
                               bool cull, plume_gl_scope *scope) {
    fragment_particles *f = s->fragment;
    const sort_key_input *sort = sort_key_input_of(s->context, s->sorter);
    prepare_pass_state(&s->env, f, scope);
    profiler_stage_begin(s->profiler, PLUME_STAGE_SIMULATE);
    run_simulate_pass(s, frame);
    profiler_stage_end(s->profiler, PLUME_STAGE_SIMULATE);
    profiler_stage_begin(s->profiler, PLUME_STAGE_SORT);
    uint32_t capacity = s->desc.capacity, bound = particles_window_live_bound(&s->window, s->time, capacity);
    uint32_t first_slot = (uint32_t)(((uint64_t)f->ring_head + capacity - bound) % capacity);
    /* Additive light, a sort_mode of NONE or a frame without the sort: the
     * list is drawn as the key pass writes it, which must then be ascending
     * slots. The bound's slots are, unless they wrap round the ring's end:
     * then every slot from 0 (the free ones draw nothing). */
    bool unsorted = frame->disable_sort || particles_sort_skipped(&s->desc);
    uint32_t listed = bound;
    if (unsorted && (uint64_t)first_slot + bound > capacity) first_slot = 0, listed = capacity;
    f->list_count = listed;
    f->list_buffer = f->list_texture ? 0 : sort_key_input_buffer(sort);
    /* plume_system_get_sort_algorithm: the fragment sort is a bitonic network. */
    s->last_sort = unsorted ? PLUME_SORT_AUTOMATIC : PLUME_SORT_BITONIC;
    if (bound > 0) {
        sort_key_input_prepare_state(sort, scope);
        run_key_pass(s, sort, frame, view, projection, cull, first_slot, listed);
        if (!unsorted && f->list_texture) sort_key_input_sort_texture(sort, f->list_texture, f->width, bound);
        else if (!unsorted) f->list_buffer = sort_key_input_sort(sort, bound);
    }
    profiler_stage_end(s->profiler, PLUME_STAGE_SORT);
    /* The counts stay on the GPU on this path: the profile reports the sort's
     * size, from the bound it covered. */
    profiler_set_u32(s->profiler, PROFILER_VALUE_SORT_BOUND, bound);
    profiler_set_u32(s->profiler, PROFILER_VALUE_SORT_PADDED_COUNT, bound < 2 || unsorted ? 0 : plume_next_pow2(bound));
    profiler_set_u32(s->profiler, PROFILER_VALUE_SORT_PASSES,
                     unsorted ? 0 : plume_sorter_pass_count(s->context, s->sorter, bound));
}

/* ---- Readback ----------------------------------------------------------------- */

/* Texture `t` of the current set (FRAGMENT_PARTICLE_TEXTURES: the list
 * texture) into `out`, in `format`: through glGetTexImage, or on OpenGL ES
 * (which has none) read from its framebuffer's attachment. Integer
 * textures are read as RGBA_INTEGER, the one format ES always accepts. */
static void read_texture(const plume_env *env, const fragment_particles *f, int t, GLenum format, GLenum type,
                         void *out) {
    bool list = t == FRAGMENT_PARTICLE_TEXTURES;
    if (plume_env_gl_caps(env).es) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, list ? f->list_framebuffer : f->framebuffers[f->current]);
        glReadBuffer(list ? GL_COLOR_ATTACHMENT0 : DRAW_BUFFERS[t]);
        glReadPixels(0, 0, (GLsizei)f->width, (GLsizei)f->rows, format, type, out);
        return;
    }
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, list ? f->list_texture : f->textures[f->current][t]);
    glGetTexImage(GL_TEXTURE_2D, 0, format, type, out);
}

plume_result fragment_particles_read_back(system_state *s, plume_readback *readback) {
    fragment_particles *f = s->fragment;
    uint32_t capacity = s->desc.capacity, texels = f->width * f->rows;
    size_t list_texels = capacity;
    float *position_age = plume_alloc(&s->env, (size_t)texels * 16), *velocity = plume_alloc(&s->env, (size_t)texels * 16);
    float *traits = plume_alloc(&s->env, (size_t)texels * 16);
    /* Ids and a list texture's pairs as RGBA_INTEGER: four words a texel. */
    uint32_t *ids = plume_alloc(&s->env, (size_t)texels * 16);
    const uint32_t pair_words = f->list_texture ? 4 : 2;
    uint32_t *pairs = plume_alloc(&s->env, (f->list_texture ? texels : list_texels) * 4 * pair_words);
    plume_result r = PLUME_ERROR_OUT_OF_MEMORY;
    if (position_age && velocity && traits && ids && pairs) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        glPixelStorei(GL_PACK_ALIGNMENT, 4);
        glPixelStorei(GL_PACK_ROW_LENGTH, 0);
        glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
        glPixelStorei(GL_PACK_SKIP_ROWS, 0);
        if (plume_pixel_store_parameter_count(&s->env) > 4) glPixelStorei(GL_PACK_SWAP_BYTES, GL_FALSE);
        read_texture(&s->env, f, 0, GL_RGBA, GL_FLOAT, position_age);
        read_texture(&s->env, f, 1, GL_RGBA, GL_FLOAT, velocity);
        read_texture(&s->env, f, 2, GL_RGBA, GL_FLOAT, traits);
        read_texture(&s->env, f, 3, GL_RGBA_INTEGER, GL_UNSIGNED_INT, ids);
        if (f->list_count && f->list_texture) {
            read_texture(&s->env, f, FRAGMENT_PARTICLE_TEXTURES, GL_RGBA_INTEGER, GL_UNSIGNED_INT, pairs);
        } else if (f->list_count) {
            glBindBuffer(GL_COPY_READ_BUFFER, f->list_buffer);
            glGetBufferSubData(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)f->list_count * 8, pairs);
        }
        uint32_t live = 0, dead = 0, drawn = 0;
        for (uint32_t slot = 0; slot < capacity; ++slot) {
            const float *m = position_age + 4 * slot, *v = velocity + 4 * slot, *t = traits + 4 * slot;
            if (m[3] >= 0.0f) ++live;
            else if (readback->dead_slots) readback->dead_slots[dead++] = slot;
            else ++dead;
            if (readback->particles) {
                plume_particle *p = &readback->particles[slot];
                memcpy(p->position, m, sizeof p->position);
                p->age = m[3];
                memcpy(p->velocity, v, sizeof p->velocity);
                p->lifetime = t[3];
                p->size = t[0];
                p->rotation = t[1] + t[2] * p->age;
                p->spin = t[2];
                p->id = ids[4 * slot];
            }
        }
        for (uint32_t i = 0; i < f->list_count; ++i) {
            const uint32_t *pair = pairs + pair_words * i;
            if (pair[0] == PLUME_KEY_LAST) continue;
            if (readback->draw_keys) readback->draw_keys[drawn] = pair[0] << particles_sort_key_shift(&s->desc);
            if (readback->draw_order) readback->draw_order[drawn] = pair[1];
            ++drawn;
        }
        readback->live_count = live;
        readback->dead_count = capacity - live;
        readback->emitted_total = (uint32_t)f->emitted_total;
        readback->drawn_count = drawn;
        r = PLUME_OK;
    }
    plume_free(&s->env, position_age);
    plume_free(&s->env, velocity);
    plume_free(&s->env, traits);
    plume_free(&s->env, ids);
    plume_free(&s->env, pairs);
    return r;
}
