/* The particle system object (plume_particles.h): its handle, creation and
 * GL objects, run-time changes, and the update, which runs the GPU stages of
 * simulate.c inside the profiler's stages. The draw paths are in render/
 * (they read a system through particle_view.c and keep their state in its
 * attachments), profiling in system_profile.c, the readback in readback.c. */
#include <math.h>
#include <string.h>

#include "fragment_particles.h"
#include "update_passes.h"
#include "particles/sprite_cover.h"

/* ---- Handles ----------------------------------------------------------------- */

static void free_system(void *object);
static uint32_t list_system_gl_objects(const void *object, plume_gl_object *out, uint32_t capacity);

static const plume_object_class system_class = {"system", free_system, list_system_gl_objects};

system_state *particles_find_system(const plume_context *context, plume_system handle, const char *caller) {
    return plume_context_lookup(context, handle.id, &system_class, caller);
}

uint32_t particles_list_live_systems(const plume_context *context, uint64_t *out, uint32_t capacity) {
    return plume_context_list_ids(context, &system_class, out, capacity);
}

system_state *particles_peek_system(const plume_context *context, plume_system handle) {
    return plume_context_find(context, handle.id, &system_class);
}

system_state *particles_find_system_with(const plume_context *context, plume_system handle, const char *caller,
                                         const void *argument, const char *argument_name) {
    system_state *system = particles_find_system(context, handle, caller);
    if (system && !argument) {
        plume_log(&system->env, PLUME_LOG_ERROR, "%s: %s must not be NULL", caller, argument_name);
        return NULL;
    }
    return system;
}

/* ---- Creation -------------------------------------------------------------- */

/* The largest capacity this GL allows: every particle buffer within
 * GL_MAX_SHADER_STORAGE_BLOCK_SIZE, every pass within the workgroup count
 * limit, and the sort's own limit. */
static uint64_t capacity_limit(const char **which) {
    GLint64 block = 0;
    GLint groups = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &groups);
    uint64_t limit = (uint64_t)block / PLUME_MOTION_BYTES;
    *which = "GL_MAX_SHADER_STORAGE_BLOCK_SIZE / 32 bytes of motion per particle";
    uint64_t by_groups = (uint64_t)groups * PLUME_EMIT_GROUP_SIZE; /* the smallest group size */
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

plume_result particles_create_buffer(system_state *s, GLsizeiptr bytes, const void *data, const char *label,
                                     GLuint *out) {
    *out = plume_make_buffer(&s->env, bytes, data, GL_DYNAMIC_DRAW, label);
    return plume_drain_gl_errors(&s->env, "plume_system_create (buffers)");
}

void particles_pack_emitter(const plume_emitter_desc *e, float out[EMITTER_GPU_FLOATS]) {
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
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e) particles_pack_emitter(&s->desc.emitters[e], emitters[e]);
    /* The capacity-sized storage in one block of the context's pool; the
     * compaction's outcome per slot and counts per workgroup with it. */
    const GLsizeiptr sizes[5] = {capacity * PLUME_MOTION_BYTES, capacity * PLUME_TRAITS_BYTES,
                                 STATE_HEADER_BYTES + capacity * 4, capacity * PLUME_PAIR_BYTES,
                                 (GLsizeiptr)particles_simulate_groups(s) * PLUME_GROUP_COUNT_BYTES};
    particle_range ranges[5];
    if ((r = particle_pool_take(s->context, &s->env, sizes, 5, ranges, &s->pool_block))) return r;
    s->motion = ranges[0], s->traits = ranges[1], s->state = ranges[2];
    s->slot_keys = ranges[3], s->group_counts = ranges[4];
    if ((r = particles_create_buffer(
             s, capacity * PLUME_PAIR_BYTES, NULL, "plume particles: live list", &s->live_list_buffer)))
        return r;
    plume_upload_ring_create(&s->env, &s->emitter_ring, sizeof emitters, emitters, "plume particles: emitters");
    return plume_drain_gl_errors(&s->env, "plume_system_create (buffers)");
}

/* Filed in the system's context (see system_state). */
static plume_result create_sorter(system_state *s) {
    plume_sorter_desc desc = {.capacity = s->desc.capacity, .logger = s->env.logger, .allocator = s->env.allocator,
                              .path = s->desc.path, .key_bits = s->desc.sort_key_bits};
    return plume_sorter_create(s->context, &desc, &s->sorter);
}

static plume_result create_gl_objects(system_state *s, plume_gl_scope *scope) {
    static const char *CALLER = "plume_system_create";
    plume_gpu_path path = PLUME_PATH_AUTO;
    plume_result r = plume_resolve_gpu_path(&s->env, CALLER, s->desc.path, &path);
    if (r == PLUME_OK) r = plume_check_host_state(&s->env, CALLER);
    if (r != PLUME_OK) return r;
    s->desc.path = path;
    bool fragment = path == PLUME_PATH_FRAGMENT;
    if (fragment && (r = fragment_particles_check_desc(&s->env, CALLER, &s->desc)) != PLUME_OK) return r;
    if (fragment && s->desc.meshes.count > 0) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: meshes.count is %u; mesh particles need the compute path (GL 4.3)",
                  CALLER, s->desc.meshes.count);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    const char *which = "";
    uint64_t limit = fragment ? fragment_particles_capacity_limit(&which) : capacity_limit(&which);
    if (s->desc.capacity > limit) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: capacity %u is over this GL's limit of %llu particles (%s)", CALLER,
                  s->desc.capacity, (unsigned long long)limit, which);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    /* The fragment path refused the world, and has no compaction (its key
     * pass writes the ring's slots in slot order itself); its key pass
     * depends on the sorter's backend, made first. */
    if (fragment) {
        if ((r = create_sorter(s)) == PLUME_OK) r = fragment_particles_create(s);
    } else if ((r = particles_build_compute_programs(s)) == PLUME_OK && (r = create_buffers(s)) == PLUME_OK &&
             (r = spawn_create(s)) == PLUME_OK && (r = world_create(s)) == PLUME_OK &&
             (r = cpu_events_create(s)) == PLUME_OK && (r = trails_create(s)) == PLUME_OK)
        r = mesh_create(s);
    if (r != PLUME_OK || (!fragment && (r = create_sorter(s))) || (!fragment && (r = particles_create_compaction(s))) ||
        (r = particles_create_profiler(s)))
        return r;
    /* Last, so that a bad texture file also proves the cleanup of everything
     * made before it. */
    uint32_t width = 0, height = 0, layers = 1;
    loaded_sprite_cover cover;
    r = plume_particles_load_texture(&s->env, &s->desc, &s->sprite_texture, &width, &height, &layers, &cover);
    /* The tiled draw reads the cover (the compute path's). */
    if (r == PLUME_OK && cover.octagons && !fragment) {
        GLsizeiptr bytes = (GLsizeiptr)((size_t)s->desc.appearance.texture.columns * s->desc.appearance.texture.rows *
                                        cover.levels * SPRITE_COVER_FLOATS * sizeof(float));
        r = particles_create_buffer(s, bytes, cover.octagons, "plume particles: sprite cover", &s->sprite_cover_buffer);
        if (r == PLUME_OK) s->sprite_cover_levels = cover.levels;
    }
    plume_free(&s->env, cover.octagons);
    if (r != PLUME_OK) return r;
    plume_texture_desc *texture = &s->desc.appearance.texture;
    texture->path = NULL;
    texture->pixels = NULL;
    texture->width = width;
    texture->height = height;
    /* An array's frames are its layers: a flipbook of one row. */
    if (s->desc.host_sprite.target == GL_TEXTURE_2D_ARRAY) texture->columns = layers, texture->rows = 1;
    plume_flipbook_motion *motion = &s->desc.flipbook_motion;
    r = plume_particles_load_flipbook_motion(&s->env, motion, texture, &s->motion_texture, &s->motion_reach);
    if (r != PLUME_OK) return r;
    if (motion->path || motion->pixels || motion->host_texture) motion->width = width, motion->height = height;
    motion->path = NULL;
    motion->pixels = NULL;
    r = particles_reset_gpu_state(s);
    PLUME_LAB_SYNC_POINT("create_reset");
    return r == PLUME_OK ? particles_prewarm(s, s->desc.prewarm_time, scope) : r;
}

enum { SYSTEM_GL_OBJECTS = 17 }; /* the most of any list below */
_Static_assert(1 + 4 * PLUME_GPU_MAX_MESHES <= SYSTEM_GL_OBJECTS, "the meshes' list fits");

/* The system's own GL objects (the draw paths' attachments, the profiler and
 * the sorter list theirs). */
static uint32_t list_own_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity) {
    const plume_gl_object all[SYSTEM_GL_OBJECTS] = {
        {GL_PROGRAM, s->reset_program},    {GL_PROGRAM, s->prepare_program}, {GL_PROGRAM, s->emit_program},
        {GL_PROGRAM, s->simulate_program}, {GL_BUFFER, s->live_list_buffer},
        {GL_TEXTURE, s->sprite_texture},   {GL_PROGRAM, s->compact_scan_program},
        {GL_PROGRAM, s->compact_scatter_program}, {GL_TEXTURE, s->motion_texture},
        {GL_BUFFER, s->sprite_cover_buffer},
    };
    return plume_list_named_gl_objects(all, SYSTEM_GL_OBJECTS, out, capacity);
}

/* The context's listing of a system: its own objects, its draw paths' and its
 * profiler's (the sorter is filed in the context on its own). */
static uint32_t list_system_gl_objects(const void *object, plume_gl_object *out, uint32_t capacity) {
    const system_state *s = object;
    uint32_t n = list_own_gl_objects(s, out, capacity);
    n += particles_list_attachment_gl_objects(s, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    n += fragment_particles_list_gl_objects(s, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    n += profiler_list_gl_objects(s->profiler, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    n += world_list_gl_objects(s, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    n += bounds_list_gl_objects(s, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    n += cpu_events_list_gl_objects(s, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    n += trails_list_gl_objects(s, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    n += mesh_list_gl_objects(s, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    n += spawn_list_gl_objects(s, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    return n;
}

/* Frees what a system holds, however far its creation got. */
static void free_system(void *object) {
    system_state *s = object;
    update_table_forget(s);
    profiler_destroy(s->profiler);
    plume_sorter_destroy(s->context, s->sorter); /* {0} if it was never made */
    particles_free_attachments(s);
    fragment_particles_destroy(s);
    plume_gl_object owned[SYSTEM_GL_OBJECTS];
    plume_delete_gl_objects(&s->env, owned, list_own_gl_objects(s, owned, SYSTEM_GL_OBJECTS));
    particle_pool_give_back(s->context, &s->pool_block);
    plume_delete_gl_objects(&s->env, owned, world_list_gl_objects(s, owned, SYSTEM_GL_OBJECTS));
    bounds_destroy(s);
    cpu_events_free(s);
    plume_delete_gl_objects(&s->env, owned, cpu_events_list_gl_objects(s, owned, SYSTEM_GL_OBJECTS));
    trails_free(s);
    plume_delete_gl_objects(&s->env, owned, trails_list_gl_objects(s, owned, SYSTEM_GL_OBJECTS));
    plume_delete_gl_objects(&s->env, owned, mesh_list_gl_objects(s, owned, SYSTEM_GL_OBJECTS));
    plume_gl_object rings[3 * PLUME_UPLOAD_RING];
    plume_delete_gl_objects(&s->env, rings, spawn_list_gl_objects(s, rings, 3 * PLUME_UPLOAD_RING));
    spawn_free(s);
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
    s->last_sort = PLUME_SORT_AUTOMATIC;
    r = plume_particles_resolve_desc(&s->env, CALLER, desc, &s->desc);
    if (r == PLUME_OK) r = world_check_targets(s, CALLER, &s->desc.world);
    for (int e = 0; e < PLUME_MAX_EMITTERS && r == PLUME_OK; ++e) {
        float radius = particles_quad_radius(&s->desc, &s->desc.emitters[e]);
        if (radius > s->cull_radius) s->cull_radius = radius;
    }
    if (r == PLUME_OK) {
        plume_gl_scope scope;
        plume_gl_scope_begin(&scope, &s->env);
        /* The fragment path's textures, framebuffers and vertex arrays are
         * bound while they are made. */
        plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS | FRAGMENT_PARTICLES_SCOPE_GROUPS);
        r = create_gl_objects(s, &scope);
        plume_gl_scope_end(&scope);
    }
    r = plume_context_file_or_free(context, &system_class, s, r, &out_system->id);
    if (r == PLUME_OK) s->handle = *out_system;
    return r;
}

plume_result plume_system_destroy(plume_context *context, plume_system system) {
    return plume_context_destroy_object(context, system.id, &system_class, "plume_system_destroy");
}

plume_result plume_system_get_desc(const plume_context *context, plume_system handle, plume_system_desc *out_desc) {
    const system_state *s = particles_find_system(context, handle, "plume_system_get_desc");
    if (out_desc) *out_desc = s ? s->desc : (plume_system_desc){0};
    if (s && !out_desc) plume_log(&s->env, PLUME_LOG_ERROR, "plume_system_get_desc: out_desc must not be NULL");
    return s && out_desc ? PLUME_OK : PLUME_ERROR_INVALID_ARGUMENT;
}

plume_sort_algorithm plume_system_get_sort_algorithm(const plume_context *context, plume_system handle) {
    const system_state *s = particles_find_system(context, handle, "plume_system_get_sort_algorithm");
    return s ? s->last_sort : PLUME_SORT_AUTOMATIC;
}

/* ---- Run-time changes ---------------------------------------------------------- */

plume_result plume_system_reset(plume_context *context, plume_system handle) {
    static const char *CALLER = "plume_system_reset";
    system_state *system = particles_find_system(context, handle, CALLER);
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    plume_result r = plume_check_host_state(&system->env, CALLER);
    if (r != PLUME_OK) return r;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    if (system->fragment) plume_gl_scope_save(&scope, FRAGMENT_PARTICLES_SCOPE_GROUPS);
    r = particles_reset_gpu_state(system);
    spawn_reset(system);
    if (r == PLUME_OK) r = particles_prewarm(system, system->desc.prewarm_time, &scope);
    plume_gl_scope_end(&scope);
    return r;
}

plume_result plume_system_set_emitter(plume_context *context, plume_system handle, uint32_t index,
                                      const plume_emitter_desc *emitter) {
    static const char *CALLER = "plume_system_set_emitter";
    system_state *system = particles_find_system(context, handle, CALLER);
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    if (plume_check_gl_context(&system->env, CALLER) != PLUME_OK) return PLUME_ERROR_GL_UNSUPPORTED;
    if (!emitter || index >= PLUME_MAX_EMITTERS) {
        plume_log(&system->env, PLUME_LOG_ERROR, "%s: emitter %u must be below %d and its descriptor not NULL", CALLER,
                  index, PLUME_MAX_EMITTERS);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_emitter_desc resolved;
    plume_result r = plume_particles_resolve_emitter(&system->env, CALLER, index, emitter, &resolved);
    if (r != PLUME_OK) return r;
    /* New bursts start their clock at the next update: a single burst set
     * after time 0 fires then (its clock would otherwise be past 0 for
     * good), a repeating one then and every interval after. The same bursts
     * sent again (a host re-sending its emitters each frame) carry on. */
    plume_emitter_desc *old = &system->desc.emitters[index];
    if (resolved.burst_count != old->burst_count || resolved.burst_interval != old->burst_interval)
        system->clocks[index].time = 0.0;
    system->desc.emitters[index] = resolved;
    spawn_note_emitter(system, index);
    /* Particles keep the lifetime they were born with: the bound's window
     * only grows until a reset. */
    if (resolved.lifetime.max > system->window.longest_lifetime) system->window.longest_lifetime = resolved.lifetime.max;
    float radius = particles_quad_radius(&system->desc, &resolved);
    if (radius > system->cull_radius) system->cull_radius = radius;
    if (system->fragment) return PLUME_OK; /* its passes read the emitters from the descriptor */
    /* The whole table into the ring's next buffer: passes still in flight
     * may read the current one. */
    float packed[PLUME_MAX_EMITTERS][EMITTER_GPU_FLOATS];
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e) particles_pack_emitter(&system->desc.emitters[e], packed[e]);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
    plume_upload_ring_write(&system->emitter_ring, GL_COPY_WRITE_BUFFER, sizeof packed, packed);
    plume_gl_scope_end(&scope);
    return plume_drain_gl_errors(&system->env, CALLER);
}

plume_result plume_system_set_forces(plume_context *context, plume_system handle, const plume_forces *forces) {
    static const char *CALLER = "plume_system_set_forces";
    system_state *system = particles_find_system_with(context, handle, CALLER, forces, "forces");
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    plume_forces resolved;
    plume_result r = plume_particles_resolve_forces(&system->env, CALLER, forces, &resolved);
    if (r == PLUME_OK) system->desc.forces = resolved;
    return r;
}

/* ---- Frames ------------------------------------------------------------------- */

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
    if (frame->draw_resolution > PLUME_DRAW_QUARTER) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: draw_resolution %u is not a plume_draw_resolution", caller,
                  frame->draw_resolution);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (frame->draw_path > PLUME_DRAW_PATH_RASTER) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: draw_path %u is not a plume_draw_path", caller, frame->draw_path);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (frame->draw_quality > PLUME_DRAW_QUALITY_MAY_LOWER) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: draw_quality %u is not a plume_draw_quality", caller,
                  frame->draw_quality);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    for (int i = 0; i < 3; ++i)
        if (!isfinite(frame->light_direction[i]) || !isfinite(frame->light_color[i]) || frame->light_color[i] < 0.0f ||
            !isfinite(frame->ambient_color[i]) || frame->ambient_color[i] < 0.0f) {
            plume_log(&s->env, PLUME_LOG_ERROR,
                      "%s: light_direction must be finite, light_color and ambient_color finite and >= 0", caller);
            return PLUME_ERROR_INVALID_ARGUMENT;
        }
    if (!(frame->transmittance_threshold >= 0.0f && frame->transmittance_threshold <= 1.0f)) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: transmittance_threshold is %g; it must be in 0 .. 1", caller,
                  frame->transmittance_threshold);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (!isfinite(frame->cull_distance) || frame->cull_distance < 0.0f) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: cull_distance is %g; it must be finite and >= 0", caller,
                  frame->cull_distance);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return PLUME_OK;
}

plume_result particles_find_frame_system(const plume_context *context, plume_system handle, const char *caller,
                                         const plume_frame_desc *frame, system_state **out_system, mat4 view,
                                         mat4 projection) {
    system_state *system = particles_find_system(context, handle, caller);
    *out_system = system;
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    plume_result r = check_frame(system, caller, frame);
    if (r != PLUME_OK) return r;
    matrix_or_identity(frame->view, view);
    matrix_or_identity(frame->projection, projection);
    return PLUME_OK;
}

/* ---- Update ------------------------------------------------------------------- */

void particles_update_begin(system_state *system, const plume_frame_desc *frame, plume_gl_scope *scope) {
    /* A step over a second is usually a stall or a unit mix-up (ms for s),
     * but a pre-warm is legitimate: simulated as given, said once. */
    if (frame->dt > 1.0f && !system->warned_long_dt) {
        plume_log(&system->env, PLUME_LOG_WARNING,
                  "plume_system_update: dt is %g s, over a second (seconds, not milliseconds?); simulated as given, "
                  "said once",
                  frame->dt);
        system->warned_long_dt = true;
    }
    PLUME_LAB_SYNC_POINT("update_begin");
    uint64_t frame_index = system->update_count++;
    profiler_frame_begin(system->profiler, frame_index, scope);
    profiler_stage_begin(system->profiler, PLUME_STAGE_UPDATE);
    bool projection_given = false;
    for (int i = 0; i < 16; ++i) projection_given = projection_given || frame->projection[i] != 0.0f;
    system->update_culls = projection_given && !frame->disable_culling;
    if (system->fragment) return;
    profiler_stage_begin(system->profiler, PLUME_STAGE_SIMULATE);
    plume_gl_scope_save(scope, PLUME_SCOPE_OPTIONAL_SSBO); /* the emit pass's table */
    if (world_uses_textures(system, frame)) plume_gl_scope_save(scope, PLUME_SCOPE_TEXTURES);
    if (cpu_events_enabled(system)) plume_gl_scope_save(scope, PLUME_SCOPE_COPY_BUFFERS); /* the readback's copy */
    /* A trail reaches past its particle's culling sphere: not culled. */
    system->update_culls = system->update_culls && system->desc.trail.points == 0;
}

plume_result particles_update_end(system_state *system, const plume_frame_desc *frame, const mat4 view,
                                  plume_gl_scope *scope, bool host_barrier) {
    PLUME_LAB_SYNC_POINT("simulate_end");
    trails_record(system);
    profiler_stage_end(system->profiler, PLUME_STAGE_SIMULATE);
    particles_capture_event_counts(system, scope);
    bounds_capture(system, system->update_count, scope);
    profiler_capture_u32(system->profiler, PROFILER_VALUE_LIVE_COUNT, system->state.buffer,
                         system->state.offset + STATE_LIVE_COUNT_OFFSET, scope);
    profiler_capture_u32(system->profiler, PROFILER_VALUE_DRAWN_COUNT, system->state.buffer,
                         system->state.offset + STATE_DRAWN_COUNT_OFFSET, scope);
    profiler_stage_begin(system->profiler, PLUME_STAGE_SORT);
    system->last_sort = PLUME_SORT_AUTOMATIC;
    bool sort = !frame->disable_sort && !particles_sort_skipped(&system->desc);
    plume_result r = trails_sort(system, view, sort);
    if (sort && r == PLUME_OK) r = particles_run_sort_stage(system, host_barrier);
    profiler_stage_end(system->profiler, PLUME_STAGE_SORT);
    profiler_stage_end(system->profiler, PLUME_STAGE_UPDATE);
    PLUME_LAB_SYNC_POINT("update_end");
    return r;
}

/* The update's work once the call's checks are done, inside the caller's
 * scope. */
plume_result particles_update_in_scope(system_state *system, const plume_frame_desc *frame, const mat4 view,
                                       const mat4 projection, plume_gl_scope *scope) {
    particles_update_begin(system, frame, scope);
    if (system->fragment) {
        fragment_particles_update(system, frame, view, projection, system->update_culls, scope);
        profiler_stage_end(system->profiler, PLUME_STAGE_UPDATE);
        return PLUME_OK;
    }
    particles_run_passes(&system, 1, frame, view, projection);
    return particles_update_end(system, frame, view, scope, true);
}

plume_result plume_system_update(plume_context *context, plume_system handle, const plume_frame_desc *frame) {
    static const char *CALLER = "plume_system_update";
    system_state *system;
    mat4 view, projection;
    plume_result r = particles_find_frame_system(context, handle, CALLER, frame, &system, view, projection);
    if (r != PLUME_OK) return r;
    if ((r = plume_check_host_state(&system->env, CALLER)) != PLUME_OK) return r;
    if ((r = particles_check_depth_texture(&system->env, CALLER, frame->depth_texture)) != PLUME_OK) return r;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    r = particles_update_in_scope(system, frame, view, projection, &scope);
    plume_gl_scope_end(&scope);
    plume_result gl = plume_drain_gl_errors(&system->env, CALLER);
    return r != PLUME_OK ? r : gl;
}
