/* Draw groups (plume_draw_group.h): several systems' drawn particles merged
 * into one list, sorted once and drawn by one instanced draw.
 *
 * Each system's drawn count is copied into the group's state, and one
 * workgroup (prepare) scans them: each system's gather dispatch and the
 * place of its pairs in the list. Then per system, with no barrier between
 * them (each writes its own records and pairs), the gather, with the
 * system's appearance uniforms, writes each drawn particle's record (what it
 * looks like this frame: corners, colour, additive part, flipbook frames,
 * light, its system's index) and its {key, record index} pair. The group's
 * sorter orders the list (its count on the GPU, its bound the sum of the
 * systems'), and one draw reads the records in that order. The records and
 * the systems' table (sprite layer, flipbook, lit, soft fade) make the draw
 * independent of each system's uniforms, so one program draws every system,
 * of a group or of a batch of any size (batch_draw.c); the sprites are one
 * texture array, a layer per textured system. The group has a profiler of
 * its own (plume_draw_group_set_profiling): the gather and the sort are its
 * sort stage, the draw its draw stage.
 *
 * A trail system's pairs (its segments and particles' own quads) are the
 * group's too: its own gather (draw_group_trail_gather.comp) writes a
 * segment's record (its curve's points, its ends' looks), from which the
 * draw, 6 x PLUME_TRAIL_SUBDIVISIONS vertices an instance in a group with a
 * trail, or the tiled projection makes the strip as the trail draw does.
 *
 * The group's creation, GL objects and end are in draw_group_resources.c. */
#include <string.h>

#include "render/draw_group_internal.h"
#include "sort/sort_in_scope.h"

static void announce_stage(const group_state *g, const char *stage) {
    if (g->stage_hook) g->stage_hook(g->stage_hook_user, stage);
}

/* ---- The draw -------------------------------------------------------------------- */

_Static_assert(GATHER_LIGHT_DIRECTION - GATHER_VIEW == 5 && TRAIL_GATHER_LIGHT_DIRECTION - TRAIL_GATHER_VIEW == 5 &&
                   GATHER_EYE - GATHER_VIEW == TRAIL_GATHER_EYE - TRAIL_GATHER_VIEW,
               "both gathers' camera uniforms in one order");
void group_set_gather_camera(const group_state *g, GLuint p, const GLint *at, const vec4 *view,
                             const mat4 inverse_view, const frame_light *light) {
    glProgramUniformMatrix4fv(p, at[0], 1, GL_FALSE, &view[0][0]);
    glProgramUniform3f(p, at[1], view[0][0], view[1][0], view[2][0]);
    glProgramUniform3f(p, at[2], view[0][1], view[1][1], view[2][1]);
    glProgramUniform3f(p, at[3], inverse_view[3][0], inverse_view[3][1], inverse_view[3][2]);
    glProgramUniform1i(p, at[4], g->by_distance);
    glProgramUniform3fv(p, at[5], 1, light->direction);
}

/* A trail system's gather (render/draw_group_trail_gather.comp): a record
 * and a pair for each of its sorted segment pairs, with its appearance and
 * its trail's uniforms, its history bound where the gather reads it. */
static void gather_trail(group_state *g, const particle_view *s, uint32_t i, const draw_frame *frame,
                         const mat4 inverse_view, const frame_light *light) {
    GLuint t = g->trail_gather_program;
    const GLint *at = g->at.trail_gather;
    glUseProgram(t);
    group_set_gather_camera(g, t, &at[TRAIL_GATHER_VIEW], frame->view, inverse_view, light);
    glProgramUniform1ui(t, at[TRAIL_GATHER_SYSTEM], i);
    glProgramUniform1i(t, at[TRAIL_GATHER_LAST_SYSTEM], i + 1 == g->system_count);
    glProgramUniform1ui(t, at[TRAIL_GATHER_FIRST_RECORD], g->first_record[i]);
    particle_set_appearance_uniforms(s, &g->at.trail_gather_appearance);
    trail_set_uniforms(s, &g->at.trail_gather_trail, frame);
    particle_bind_storage(PLUME_BINDING_MOTION, s->motion);
    particle_bind_storage(PLUME_BINDING_TRAITS, s->traits);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_DRAW_LIST, s->trail.pair_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_GROUP_TRAIL_HEADERS, s->trail.header_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_GROUP_TRAIL_POINTS, s->trail.point_buffer);
    GLintptr args = 4 * (PLUME_GROUP_STATE_SYSTEMS + PLUME_GROUP_STATE_SYSTEM_WORDS * (GLintptr)i);
    glDispatchComputeIndirect(args);
}

/* Each system's records and pairs: its drawn count (a trail system's
 * pairs) copied, one prepare pass for all, then its gather; the systems of
 * the group's table a dispatch a pool page for each (draw_group_table.c). */
static void gather(group_state *g, const particle_view *systems, const draw_frame *frame, const frame_light *light) {
    const vec4 *view = frame->view;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    g->gathered = (group_gather_counts){0};
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_GROUP_STATE, g->state_buffer);
    group_table_copy_counts(g);
    glBindBuffer(GL_COPY_WRITE_BUFFER, g->state_buffer);
    for (uint32_t i = 0; i < g->system_count; ++i) {
        if (group_table_gathers(g, i)) continue;
        /* A trail system's pairs: its sorted segment pairs' count. */
        const particle_trail_view *trail = &systems[i].trail;
        glBindBuffer(GL_COPY_READ_BUFFER, trail->entries ? trail->control_buffer : systems[i].state.buffer);
        GLintptr at = 4 * (PLUME_GROUP_STATE_SYSTEMS + PLUME_GROUP_STATE_SYSTEM_WORDS * (GLintptr)i);
        GLintptr from = trail->entries ? 4 * PLUME_TRAIL_SORT_COUNT : systems[i].state.offset + STATE_DRAWN_COUNT_OFFSET;
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, from, at, 4);
    }
    if (g->gathered.dispatches) glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT); /* the tables' counts */
    glUseProgram(g->prepare_program);
    glProgramUniform1ui(g->prepare_program, g->at.prepare[PREPARE_SYSTEM_COUNT], g->system_count);
    glProgramUniform1ui(g->prepare_program, g->at.prepare[PREPARE_VERTICES],
                        g->has_trails ? 6 * PLUME_TRAIL_SUBDIVISIONS : 6);
    glDispatchCompute(1, 1, 1);
    ++g->gathered.dispatches;
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    mat4 inverse_view;
    glm_mat4_inv((vec4 *)view, inverse_view);
    GLuint p = g->gather_program;
    const GLint *at = g->at.gather;
    group_set_gather_camera(g, p, &at[GATHER_VIEW], view, inverse_view, light);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_GROUP_PAIRS, g->pairs_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_GROUP_RECORDS, g->records_buffer);
    group_table_gather(g, view, inverse_view, light);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, g->state_buffer);
    glUseProgram(p);
    for (uint32_t i = 0; i < g->system_count; ++i) {
        const particle_view *s = &systems[i];
        if (group_table_gathers(g, i)) continue;
        ++g->gathered.own_systems;
        ++g->gathered.dispatches;
        if (s->trail.entries) {
            gather_trail(g, s, i, frame, inverse_view, light);
            glUseProgram(p);
            continue;
        }
        particle_bind_storage(PLUME_BINDING_STATE, s->state);
        particle_bind_storage(PLUME_BINDING_MOTION, s->motion);
        particle_bind_storage(PLUME_BINDING_TRAITS, s->traits);
        particle_view_bind_draw_list(s, PLUME_BINDING_DRAW_LIST);
        particle_set_appearance_uniforms(s, &g->at.gather_appearance);
        glProgramUniform1ui(p, at[GATHER_SYSTEM], i);
        glProgramUniform1ui(p, at[GATHER_FIRST_RECORD], g->first_record[i]);
        GLintptr args = 4 * (PLUME_GROUP_STATE_SYSTEMS + PLUME_GROUP_STATE_SYSTEM_WORDS * (GLintptr)i);
        glDispatchComputeIndirect(args);
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
}

/* One draw of the group: what its draw passes read. */
typedef struct group_draw {
    group_state *g;
    const particle_view *systems;
    draw_frame frame;
    frame_light light;
    uint32_t bound; /* the list's items this draw may have (the sort's bound) */
} group_draw;

/* The instanced draw of the sorted list into the bound framebuffer (the
 * host's, or the low-resolution target), its soft fade against the target's
 * depth texture (0: none): the instances `count` names (NULL: every drawn
 * one, the group's state). */
static void draw_sorted(const group_draw *w, const draw_target *target, const draw_count *count) {
    group_state *g = w->g;
    const vec4 *projection = w->frame.projection;
    GLuint d = g->draw_program, scene_depth = target->depth_texture;
    const GLint *at = g->at.draw;
    glUseProgram(d);
    glProgramUniformMatrix4fv(d, at[DRAW_VIEW], 1, GL_FALSE, &w->frame.view[0][0]);
    glProgramUniformMatrix4fv(d, at[DRAW_PROJECTION], 1, GL_FALSE, &projection[0][0]);
    glProgramUniform1i(d, at[DRAW_SOFT_FADE], scene_depth != 0);
    if (scene_depth != 0) {
        mat4 inverse;
        glm_mat4_inv((vec4 *)projection, inverse);
        glProgramUniformMatrix4fv(d, at[DRAW_INVERSE_PROJECTION], 1, GL_FALSE, &inverse[0][0]);
        glProgramUniform2f(d, at[DRAW_VIEWPORT_SIZE], target->depth_size[0], target->depth_size[1]);
        glProgramUniform1ui(d, at[DRAW_DEPTH_CONVENTION], w->frame.depth_convention);
    }
    if (g->has_trails) {
        const vec4 *view = w->frame.view;
        float eye[4];
        trail_eye(&w->frame, eye);
        glProgramUniform4fv(d, at[DRAW_EYE], 1, eye);
        glProgramUniform3f(d, at[DRAW_CAMERA_RIGHT], view[0][0], view[1][0], view[2][0]);
        glProgramUniform3f(d, at[DRAW_CAMERA_UP], view[0][1], view[1][1], view[2][1]);
        glProgramUniform3fv(d, at[DRAW_LIGHT_DIRECTION], 1, w->light.direction);
        trail_set_target(d, at[DRAW_TRAIL_TARGET], target->width, target->height);
    }
    glProgramUniform3fv(d, at[DRAW_LIGHT_COLOR], 1, w->light.color);
    glProgramUniform3fv(d, at[DRAW_AMBIENT_COLOR], 1, w->light.ambient);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, scene_depth);
    glBindSampler(1, g->depth_sampler);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D_ARRAY, g->sprite_array);
    glBindSampler(0, g->sprite_sampler);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_DRAW_LIST, g->pairs_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_GROUP_RECORDS, g->records_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_GROUP_SYSTEMS, g->systems_buffer);
    glBindVertexArray(g->vertex_array);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, count ? count->buffer : g->state_buffer);
    draw_blend_particles_over_depth(&w->g->env);
    glDrawArraysIndirect(GL_TRIANGLES, (const void *)(uintptr_t)(count ? count->offset : STATE_DRAW_ARGS_OFFSET));
}

/* The tiled path's fallback for a frame over its entry budget. */
static void draw_sorted_share(void *user, const draw_target *target, const draw_count *count) {
    draw_sorted(user, target, count);
}

/* The sorted list composited by the tiled path (render/tiled.c) onto
 * `target`; where that path cannot be made, the instanced draw. */
static plume_result draw_tiled(const group_draw *w, const draw_target *target, plume_gl_scope *scope) {
    group_state *g = w->g;
    float additive = 0.0f;
    for (uint32_t i = 0; i < g->system_count; ++i) {
        float k = particles_largest_additive(w->systems[i].desc);
        additive = k > additive ? k : additive;
    }
    const tiled_group group = {.capacity = g->total_capacity, .look = g->look, .list_buffer = g->pairs_buffer,
                               .records_buffer = g->records_buffer, .systems_buffer = g->systems_buffer,
                               .sprite_array = g->sprite_array,
                               .largest_soft_fade = target->depth_texture ? g->largest_soft_fade : 0.0f,
                               .largest_additive = additive, .trails = g->has_trails, .drawn_bound = w->bound,
                               .draw_fallback = draw_sorted_share, .user = (void *)w};
    particle_view own = group_view(g);
    own.light = w->light;
    plume_result r = tiled_draw_group(&own, &g->tiled, &group, &w->frame, target, scope);
    if (r != PLUME_ERROR_GL_UNSUPPORTED) return r;
    draw_sorted(w, target, NULL);
    draw_profile_choice(g->profiler, false, target->factor);
    return PLUME_OK;
}

/* The sorted list onto `target` by the frame's path. */
static plume_result draw_onto(const group_draw *w, const draw_target *target, bool tiled, plume_gl_scope *scope) {
    draw_profile_choice(w->g->profiler, tiled, target->factor);
    if (tiled) return draw_tiled(w, target, scope);
    draw_sorted(w, target, NULL);
    return PLUME_OK;
}

/* The group, its live systems and the frame's matrices, every check logged. */
static plume_result find_group_and_systems(plume_context *context, plume_draw_group handle, const char *caller,
                                           const plume_frame_desc *frame, group_state **out_group, mat4 view,
                                           mat4 projection) {
    group_state *g = plume_context_lookup(context, handle.id, &draw_group_class, caller);
    *out_group = g;
    if (!g) return PLUME_ERROR_INVALID_ARGUMENT;
    if (plume_check_gl_context(&g->env, caller) != PLUME_OK) return PLUME_ERROR_GL_UNSUPPORTED;
    if (!frame) return group_refuse(&g->env, caller, "frame must not be NULL");
    particle_view *systems = g->views;
    for (uint32_t i = 0; i < g->system_count; ++i) {
        plume_result r = particles_find_frame_view(context, g->systems[i], caller, frame, &systems[i], view,
                                                   projection);
        if (!systems[i].env)
            plume_log(&g->env, PLUME_LOG_ERROR, "%s: the group's system %u was destroyed; destroy the group too",
                      caller, i);
        if (r != PLUME_OK) return r;
    }
    plume_result r = draw_check_host_inputs(&g->env, caller, frame);
    return r != PLUME_OK ? r : plume_check_host_state(&g->env, caller);
}

plume_result plume_draw_group_draw(plume_context *context, plume_draw_group handle, const plume_frame_desc *frame) {
    static const char *CALLER = "plume_draw_group_draw";
    group_state *g;
    mat4 view, projection;
    plume_result r = find_group_and_systems(context, handle, CALLER, frame, &g, view, projection);
    if (r != PLUME_OK) return r;
    return group_draw_frame(g, frame, view, projection, CALLER);
}

plume_result group_draw_frame(group_state *g, const plume_frame_desc *frame, mat4 view, mat4 projection,
                              const char *caller) {
    const particle_view *systems = g->views;
    plume_result r = PLUME_OK;
    /* A minimised window: nothing to draw, nothing bound. */
    if (draw_viewport_is_empty()) return PLUME_OK;
    bool lit = false;
    for (uint32_t i = 0; i < g->system_count; ++i) lit = lit || systems[i].desc->lit;
    if (lit && !g->warned_lit_without_light && draw_frame_is_dark(frame)) {
        plume_log(&g->env, PLUME_LOG_WARNING,
                  "%s: a system of the group is lit but the frame has no light: its particles are black", caller);
        g->warned_lit_without_light = true;
    }
    group_draw w = {.g = g, .systems = systems, .frame = {.desc = frame}, .light = draw_frame_light(frame)};
    glm_mat4_copy(view, w.frame.view);
    glm_mat4_copy(projection, w.frame.projection);
    uint32_t depth_convention = plume_depth_convention(&g->env, &projection[0][0]);
    w.frame.depth_convention = depth_convention;
    uint64_t bound = 0;
    for (uint32_t i = 0; i < g->system_count; ++i) bound += (uint64_t)systems[i].sort_bound * g->entries[i];
    if (bound > g->total_capacity) bound = g->total_capacity;
    w.bound = (uint32_t)bound;

    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &g->env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_TEXTURES | PLUME_SCOPE_COPY_BUFFERS);
    plume_gl_scope_neutral_raster(&scope);
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw group");
    profiler_frame_begin(g->profiler, ++g->draws, &scope);
    profiler_stage_begin(g->profiler, PLUME_STAGE_SORT);
    announce_stage(g, "gather");
    gather(g, systems, &w.frame, &w.light);
    announce_stage(g, "sort");
    r = sort_indirect_in_scope(g->context, g->sorter, g->pairs_buffer, g->state_buffer, STATE_DRAWN_COUNT_OFFSET,
                               (GLsizeiptr)group_state_bytes(g->system_count), (uint32_t)bound, true);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    profiler_stage_end(g->profiler, PLUME_STAGE_SORT);
    profiler_set_u32(g->profiler, PROFILER_VALUE_SORT_BOUND, (uint32_t)bound);
    profiler_capture_u32(g->profiler, PROFILER_VALUE_DRAWN_COUNT, g->state_buffer, STATE_DRAWN_COUNT_OFFSET, &scope);
    profiler_stage_begin(g->profiler, PLUME_STAGE_DRAW);
    announce_stage(g, "draw");
    /* As for a trail system's own draw: a quad an item drawn at least. */
    draw_decision decision = draw_decide(frame, (uint32_t)bound,
                                         fill_probe_fill_for(&g->fill, frame, (uint32_t)bound, &scope),
                                         g->has_trails ? bound * 2 : 0, &g->kept);
    int factor = decision.factor;
    bool tiled = decision.tiled;
    if (frame->draw_resolution != PLUME_DRAW_FULL && frame->depth_texture == 0) {
        if (!g->warned_lowres_without_depth)
            plume_log(&g->env, PLUME_LOG_WARNING,
                      "%s: a low draw_resolution needs the frame's depth_texture; drawing at full resolution", caller);
        g->warned_lowres_without_depth = true;
    }
    if (frame->draw_path == PLUME_DRAW_PATH_TILED && frame->depth_texture == 0) {
        if (!g->warned_tiled_without_depth)
            plume_log(&g->env, PLUME_LOG_WARNING,
                      "%s: the tiled draw path needs the frame's depth_texture; drawing with the raster path", caller);
        g->warned_tiled_without_depth = true;
    }
    if (r == PLUME_OK && factor == 1) {
        draw_target target = draw_host_target(frame);
        /* The automatic path measures the raster draw's fill now and then. */
        bool probing = !tiled && fill_probe_counts(frame) &&
                       fill_probe_begin(&g->fill, target.viewport[2] * target.viewport[3], (uint32_t)bound);
        r = draw_onto(&w, &target, tiled, &scope);
        if (probing) fill_probe_end();
    } else if (r == PLUME_OK) {
        lowres_pass pass;
        particle_view own = group_view(g);
        r = lowres_begin(&g->lowres, &own, frame, depth_convention, factor, &pass);
        if (r == PLUME_OK) {
            draw_target target = lowres_target(&pass);
            r = draw_onto(&w, &target, tiled, &scope);
            screen_cover cover;
            bool covered = tiled && tiled_take_cover(&g->tiled, &cover);
            g->tiled.blended_onto_host =
                lowres_end(&g->lowres, &own, frame, projection, &pass, covered ? &cover : NULL);
        }
    }
    announce_stage(g, NULL);
    profiler_stage_end(g->profiler, PLUME_STAGE_DRAW);
    profiler_frame_end(g->profiler);
    glPopDebugGroup();
    plume_gl_scope_end(&scope);
    plume_result gl = plume_drain_gl_errors(&g->env, caller);
    return r != PLUME_OK ? r : gl;
}

/* ---- Profiling ------------------------------------------------------------------- */

plume_result plume_draw_group_set_profiling(plume_context *context, plume_draw_group handle, bool enabled) {
    group_state *g = plume_context_lookup(context, handle.id, &draw_group_class, "plume_draw_group_set_profiling");
    if (!g) return PLUME_ERROR_INVALID_ARGUMENT;
    if (plume_check_gl_context(&g->env, "plume_draw_group_set_profiling") != PLUME_OK)
        return PLUME_ERROR_GL_UNSUPPORTED;
    return profile_switch(g->profiler, &g->env, enabled);
}

plume_result plume_draw_group_get_profile(const plume_context *context, plume_draw_group handle, plume_profile *out) {
    static const char *CALLER = "plume_draw_group_get_profile";
    if (out) memset(out, 0, sizeof *out);
    const group_state *g = plume_context_lookup(context, handle.id, &draw_group_class, CALLER);
    if (!g) return PLUME_ERROR_INVALID_ARGUMENT;
    if (!out) return group_refuse(&g->env, CALLER, "out must not be NULL");
    profiler_get_profile(g->profiler, out);
    out->path = PLUME_PATH_COMPUTE;
    return PLUME_OK;
}

/* ---- Read back ------------------------------------------------------------------- */

plume_result plume_draw_group_read_back(plume_context *context, plume_draw_group handle,
                                        plume_draw_group_entry *entries, uint32_t capacity, uint32_t *out_count) {
    static const char *CALLER = "plume_draw_group_read_back";
    group_state *g = plume_context_lookup(context, handle.id, &draw_group_class, CALLER);
    if (!g) return PLUME_ERROR_INVALID_ARGUMENT;
    if (plume_check_gl_context(&g->env, CALLER) != PLUME_OK) return PLUME_ERROR_GL_UNSUPPORTED;
    if (!out_count) return group_refuse(&g->env, CALLER, "out_count must not be NULL");
    *out_count = 0;
    if (!entries && capacity > 0) return group_refuse(&g->env, CALLER, "entries must not be NULL with a capacity");
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &g->env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    uint32_t count = 0;
    glBindBuffer(GL_COPY_READ_BUFFER, g->state_buffer);
    glGetBufferSubData(GL_COPY_READ_BUFFER, STATE_DRAWN_COUNT_OFFSET, sizeof count, &count);
    if (count > g->total_capacity) count = g->total_capacity;
    uint32_t wanted = count < capacity ? count : capacity;
    plume_result r = PLUME_OK;
    if (wanted > 0) {
        uint32_t *pairs = plume_alloc(&g->env, (size_t)wanted * PLUME_PAIR_BYTES);
        if (!pairs) {
            r = PLUME_ERROR_OUT_OF_MEMORY;
        } else {
            glBindBuffer(GL_COPY_READ_BUFFER, g->pairs_buffer);
            glGetBufferSubData(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)wanted * PLUME_PAIR_BYTES, pairs);
            for (uint32_t i = 0; i < wanted; ++i) {
                uint32_t record = pairs[2 * i + 1], system = 0;
                while (system + 1 < g->system_count && g->first_record[system + 1] <= record) ++system;
                entries[i] = (plume_draw_group_entry){.system_index = system,
                                                      .slot = (record - g->first_record[system]) / g->entries[system],
                                                      .key = pairs[2 * i]};
            }
            plume_free(&g->env, pairs);
        }
    }
    plume_gl_scope_end(&scope);
    *out_count = count;
    plume_result gl = plume_drain_gl_errors(&g->env, CALLER);
    return r != PLUME_OK ? r : gl;
}
