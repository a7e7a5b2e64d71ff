/* The compute-tiled draw path: the particles composited per screen tile in
 * compute shaders, with no blending per particle fragment.
 *
 * After the update's sort (back to front: rank 0 is the farthest):
 *   0. prepare  one invocation: the workgroups of 1-3 from the GPU's drawn
 *               count (none when nothing is drawn);
 *   1. project  per rank: the particle's quad on the target (a splat) and the
 *               number of tiles its pixels' box touches;
 *   2. scan     an inclusive prefix sum of those counts: each rank's run of
 *               entries; then one invocation compares the total with the
 *               budget and writes the indirect arguments of both paths
 *               (control buffer);
 *   3. entries  per rank, {tile, rank} for each of its tiles, in rank order;
 *   4. sort     the entries by tile: each tile's run contiguous, in rank
 *               order within it (the bitonic sorter orders equal keys by
 *               value, the rank; the radix sort, stable, keeps the rank
 *               order it is given; 16 key bits: two radix passes);
 *   5. ranges   per tile, its run (binary searches);
 *   6. composite its pixels front to back with early termination
 *               (tiled_composite.comp), into an RGBA16F target: each tile's
 *               run cut into chunks of at most K entries (chunk plan: one
 *               workgroup scans the tiles' chunk counts and writes the
 *               indirect arguments), one workgroup per chunk, and a resolve
 *               per tile of several chunks combining their partials front to
 *               back; so the busiest tile's run is no longer one workgroup's
 *               serial walk (unchunked, TILED_UNCHUNKED: one workgroup per
 *               tile walks its whole run);
 *   7. blend    the target onto the host's framebuffer once per pixel (at
 *               full resolution a full-screen pass; at 1/2 and 1/4 the
 *               low-resolution path's depth-aware upsample, lowres_end).
 * A frame whose entries exceed the budget skips 3-7's work (their indirect
 * arguments are zero) and draws with the raster path instead, whose
 * instance count the control pass set: decided on the GPU, nothing dropped.
 * A frame without entries (nothing drawn: a camera looking away) skips 5-7
 * the same way, and 1-3 run no workgroup: what it costs is the empty
 * dispatches (notes/draw-at-scale.md: the measurement). Each step is a draw
 * sub-stage of the profile (draw_stage_begin).
 * The entry count also goes to the CPU behind a fence, read frames later
 * without waiting, and the budget grows to what frames need. */
#include <stdio.h>
#include <string.h>

#include "tiled_internal.h"

_Static_assert(PLUME_TILED_SCAN_BLOCK == PLUME_TILED_SCAN_GROUP_SIZE * PLUME_TILED_SCAN_PER_INVOCATION,
               "a scan workgroup covers one block");
_Static_assert(PLUME_TILED_CONTROL_WORDS == PLUME_TILED_SCAN_ARGS + 3 * PLUME_TILED_SCAN_MAX_LEVELS,
               "the control buffer ends with the scan levels' arguments");
_Static_assert(PLUME_BINDING_TILED_COUNTS < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_TILED_SPLATS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_CONTROL < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_SCAN_SUMS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_ENTRIES < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_RANGES < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_CHUNK_TABLE < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_PARTIALS < PLUME_SCOPE_SSBO_SLOTS,
               "the GL state scope restores every binding the tiled passes use");
/* ---- The draw ----------------------------------------------------------------- */

/* The target the composite writes and what it reads the depth from. */
typedef struct tiled_target {
    GLuint texture;
    int width, height;
    GLuint depth_texture;
    int depth_origin[2];
    float depth_size[2];
} tiled_target;

static void bind_texture(GLuint unit, GLuint texture, GLuint sampler) {
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(GL_TEXTURE_2D, texture);
    glBindSampler(unit, sampler);
}

static void bind_tiled_buffers(const system_state *s) {
    const tiled_renderer *r = &s->tiled;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COUNTS, r->counts_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_SPLATS, r->splats_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_CONTROL, r->control_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_STATE, s->state_buffer);
}

/* 0-3: prepare, project, scan, control, entries. */

static void dispatch_indirect(const tiled_renderer *r, uint32_t word) {
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, r->control_buffer);
    glDispatchComputeIndirect((GLintptr)(4 * word));
}

/* One level of the scan over `capacity` counts (level 0: the counts, level
 * k: the block totals of level k - 1): up, each block scanned and its total
 * written to the next level; down (`add`), each block offset by the scanned
 * totals before it. Only the blocks holding drawn ranks run (the prepare
 * pass's arguments): the scan is inclusive, so the ranks past the drawn
 * count, which nothing reads, never reach a drawn one's sum. The scan
 * program is in use. */
static void run_scan_level(const tiled_renderer *r, uint32_t capacity, uint32_t level, bool add, GLint count_at,
                           GLint add_at) {
    uint32_t n = level == 0 ? capacity : r->scan_level_size[level - 1];
    if (level == 0) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COUNTS, r->counts_buffer);
    else
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COUNTS, r->scan_sums_buffer,
                          r->scan_level_offset[level - 1], (GLsizeiptr)n * 4);
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_SCAN_SUMS, r->scan_sums_buffer,
                      r->scan_level_offset[level], (GLsizeiptr)r->scan_level_size[level] * 4);
    glProgramUniform1ui(r->programs.scan, count_at, n);
    glProgramUniform1i(r->programs.scan, add_at, add);
    dispatch_indirect(r, PLUME_TILED_SCAN_ARGS + 3 * level);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

static void build_entries(system_state *s, const mat4 view, const mat4 projection, const tiled_target *t,
                          const uint32_t tiles[2]) {
    tiled_renderer *r = &s->tiled;
    uint32_t capacity = s->desc.capacity;
    bind_tiled_buffers(s);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MOTION, s->motion_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_DRAW_LIST, s->live_list_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TRAITS, s->traits_buffer);

    draw_stage_begin(s, PLUME_DRAW_STAGE_PROJECT);
    GLuint prepare = r->programs.prepare;
    glUseProgram(prepare);
    glProgramUniform1ui(prepare, uniform(prepare, "u_capacity"), capacity);
    glProgramUniform1ui(prepare, uniform(prepare, "u_scan_levels"), r->scan_levels);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    GLuint p = r->programs.project;
    glUseProgram(p);
    glProgramUniformMatrix4fv(p, uniform(p, "u_view"), 1, GL_FALSE, &view[0][0]);
    glProgramUniformMatrix4fv(p, uniform(p, "u_projection"), 1, GL_FALSE, &projection[0][0]);
    glProgramUniform3f(p, uniform(p, "u_camera_right"), view[0][0], view[1][0], view[2][0]);
    glProgramUniform3f(p, uniform(p, "u_camera_up"), view[0][1], view[1][1], view[2][1]);
    glProgramUniform2f(p, uniform(p, "u_target_size"), (float)t->width, (float)t->height);
    glProgramUniform1ui(p, uniform(p, "u_capacity"), capacity);
    raster_set_light_uniforms(s, p);
    dispatch_indirect(r, PLUME_TILED_PROJECT_ARGS);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    draw_stage_end(s, PLUME_DRAW_STAGE_PROJECT);

    draw_stage_begin(s, PLUME_DRAW_STAGE_SCAN);
    GLuint scan = r->programs.scan;
    glUseProgram(scan);
    GLint count_at = uniform(scan, "u_count"), add_at = uniform(scan, "u_add");
    /* Up: each level scanned in blocks, its block totals into the next. */
    for (uint32_t level = 0; level < r->scan_levels; ++level) run_scan_level(r, capacity, level, false, count_at, add_at);
    /* Down: each level's blocks offset by the scanned totals before them. */
    for (uint32_t level = r->scan_levels - 1; level-- > 0;) run_scan_level(r, capacity, level, true, count_at, add_at);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COUNTS, r->counts_buffer);
    GLuint control = r->programs.control;
    glUseProgram(control);
    glProgramUniform1ui(control, uniform(control, "u_capacity"), capacity);
    glProgramUniform1ui(control, uniform(control, "u_budget"), r->budget);
    glProgramUniform2ui(control, uniform(control, "u_tiles"), tiles[0], tiles[1]);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    draw_stage_end(s, PLUME_DRAW_STAGE_SCAN);

    draw_stage_begin(s, PLUME_DRAW_STAGE_ENTRIES);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_ENTRIES, r->entries_buffer);
    GLuint e = r->programs.entries;
    glUseProgram(e);
    glProgramUniform1ui(e, uniform(e, "u_capacity"), capacity);
    glProgramUniform2ui(e, uniform(e, "u_tiles"), tiles[0], tiles[1]);
    dispatch_indirect(r, PLUME_TILED_PROJECT_ARGS);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    draw_stage_end(s, PLUME_DRAW_STAGE_ENTRIES);
}

/* 5-6: ranges and composite, after the sort; none of their workgroups run
 * on a frame without entries or over the budget (the control pass's
 * arguments). */
static void composite(system_state *s, const plume_frame_desc *frame, const mat4 projection, const tiled_target *t,
                      const uint32_t tiles[2], GLint depth_function) {
    tiled_renderer *r = &s->tiled;
    uint32_t tile_count = tiles[0] * tiles[1];
    bind_tiled_buffers(s);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_ENTRIES, r->entries_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_RANGES, r->ranges_buffer);

    draw_stage_begin(s, PLUME_DRAW_STAGE_RANGES);
    GLuint ranges = r->programs.ranges;
    glUseProgram(ranges);
    glProgramUniform1ui(ranges, uniform(ranges, "u_tile_count"), tile_count);
    dispatch_indirect(r, PLUME_TILED_RANGES_ARGS);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);

    uint32_t chunk_entries = r->chunk_entries_in_use;
    if (chunk_entries) {
        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled chunk plan");
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_CHUNK_TABLE, r->chunk_table_buffer);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_PARTIALS, r->partials_buffer);
        GLuint plan = r->programs.chunk_plan;
        glUseProgram(plan);
        glProgramUniform1ui(plan, uniform(plan, "u_tile_count"), tile_count);
        glProgramUniform1ui(plan, uniform(plan, "u_chunk_entries"), chunk_entries);
        dispatch_indirect(r, PLUME_TILED_PLAN_ARGS);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
        glPopDebugGroup();
    }
    draw_stage_end(s, PLUME_DRAW_STAGE_RANGES);

    draw_stage_begin(s, PLUME_DRAW_STAGE_COMPOSITE);
    GLuint c = r->programs.composite;
    glUseProgram(c);
    mat4 inverse;
    glm_mat4_inv((vec4 *)projection, inverse);
    glProgramUniformMatrix4fv(c, uniform(c, "u_inverse_projection"), 1, GL_FALSE, &inverse[0][0]);
    glProgramUniform1f(c, uniform(c, "u_soft_fade_distance"), s->desc.appearance.soft_fade_distance);
    glProgramUniform2i(c, uniform(c, "u_target_size"), t->width, t->height);
    glProgramUniform2i(c, uniform(c, "u_depth_origin"), t->depth_origin[0], t->depth_origin[1]);
    glProgramUniform2f(c, uniform(c, "u_depth_size"), t->depth_size[0], t->depth_size[1]);
    glProgramUniform1ui(c, uniform(c, "u_depth_function"), (GLuint)depth_function);
    float threshold = frame->disable_early_termination ? 0.0f
                      : frame->transmittance_threshold > 0.0f ? frame->transmittance_threshold
                                                              : 1.0f / 255.0f;
    /* Additive light behind a pixel that stopped still adds: stopping at
     * threshold * (1 - K), K the largest additive part, keeps what is
     * skipped under the threshold (tiled_composite.comp). */
    threshold *= 1.0f - particles_largest_additive(&s->desc);
    glProgramUniform1f(c, uniform(c, "u_threshold"), threshold);
    glProgramUniform2ui(c, uniform(c, "u_tiles"), tiles[0], tiles[1]);
    glProgramUniform1ui(c, uniform(c, "u_chunk_entries"), chunk_entries);
    raster_set_light_uniforms(s, c);
    if (s->sprite_texture) bind_texture(0, s->sprite_texture, s->raster.sprite_sampler);
    bind_texture(1, t->depth_texture, raster_depth_sampler(&s->raster));
    glBindImageTexture(0, t->texture, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA16F);
    dispatch_indirect(r, chunk_entries ? PLUME_TILED_CHUNK_ARGS : PLUME_TILED_COMPOSITE_ARGS);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                    GL_SHADER_STORAGE_BARRIER_BIT);
    draw_stage_end(s, PLUME_DRAW_STAGE_COMPOSITE);
    if (chunk_entries) {
        draw_stage_begin(s, PLUME_DRAW_STAGE_RESOLVE);
        GLuint resolve = r->programs.resolve;
        glUseProgram(resolve);
        glProgramUniform2i(resolve, uniform(resolve, "u_target_size"), t->width, t->height);
        glProgramUniform1f(resolve, uniform(resolve, "u_threshold"), threshold);
        glProgramUniform2ui(resolve, uniform(resolve, "u_tiles"), tiles[0], tiles[1]);
        dispatch_indirect(r, PLUME_TILED_RESOLVE_ARGS);
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
        draw_stage_end(s, PLUME_DRAW_STAGE_RESOLVE);
    }
}

/* The raster path's draw of an overflowing frame (no instance otherwise:
 * the control pass's arguments), into the draw framebuffer bound. */
static void raster_fallback(system_state *s, const mat4 view, const mat4 projection, GLuint depth_texture,
                            const float depth_size[2]) {
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled raster fallback");
    raster_draw(s, view, projection, depth_texture, depth_size, s->tiled.control_buffer, 4 * PLUME_TILED_RASTER_ARGS);
    glPopDebugGroup();
}

/* 7 at full resolution: the raster fallback (no instance unless the frame
 * overflowed), then the target blended onto the host's framebuffer. */
static void blend_full(system_state *s, const mat4 view, const mat4 projection, const tiled_target *t,
                       const GLint viewport[4]) {
    tiled_renderer *r = &s->tiled;
    draw_stage_begin(s, PLUME_DRAW_STAGE_BLEND);
    raster_fallback(s, view, projection, t->depth_texture, t->depth_size);
    GLuint b = r->programs.blend;
    glUseProgram(b);
    glProgramUniform2i(b, uniform(b, "u_viewport_origin"), viewport[0], viewport[1]);
    bind_texture(0, t->texture, raster_depth_sampler(&s->raster));
    glDisable(GL_DEPTH_TEST);
    /* raster_draw left the premultiplied blend on and the vertex array bound */
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, r->control_buffer);
    glDrawArraysIndirect(GL_TRIANGLES, (const void *)(uintptr_t)(4 * PLUME_TILED_BLEND_ARGS));
    draw_stage_end(s, PLUME_DRAW_STAGE_BLEND);
}

plume_result tiled_draw(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection,
                        int factor, plume_gl_scope *scope) {
    tiled_renderer *r = &s->tiled;
    if (r->unavailable) return PLUME_ERROR_GL_UNSUPPORTED;
    plume_gl_scope_save(scope, PLUME_SCOPE_IMAGE_UNIT | PLUME_SCOPE_COPY_BUFFERS);
    plume_result result = PLUME_OK;
    if (!r->programs.composite) {
        result = tiled_create(s);
        if (result != PLUME_OK) {
            plume_log(&s->env, PLUME_LOG_WARNING,
                      "plume_system_draw: the tiled draw path cannot be made on this GL (%s); drawing with the "
                      "raster path",
                      plume_result_string(result));
            tiled_release(s);
            r->unavailable = true;
            return PLUME_ERROR_GL_UNSUPPORTED;
        }
    }
    if ((result = tiled_grow_budget(s)) != PLUME_OK) return result;

    GLint viewport[4] = {0, 0, 1, 1}, depth_function = GL_LESS;
    glGetIntegerv(GL_VIEWPORT, viewport);
    glGetIntegerv(GL_DEPTH_FUNC, &depth_function);
    tiled_target t = {0};
    lowres_pass pass;
    if (factor == 1) {
        if ((result = tiled_ensure_full_target(s, viewport[2], viewport[3])) != PLUME_OK) return result;
        t = (tiled_target){.texture = r->target, .width = viewport[2], .height = viewport[3],
                           .depth_texture = frame->depth_texture, .depth_origin = {viewport[0], viewport[1]}};
        bool sized = frame->viewport_size[0] > 0 && frame->viewport_size[1] > 0;
        t.depth_size[0] = (float)(sized ? frame->viewport_size[0] : viewport[2]);
        t.depth_size[1] = (float)(sized ? frame->viewport_size[1] : viewport[3]);
    } else {
        if ((result = lowres_begin(s, frame, factor, &pass)) != PLUME_OK) return result;
        t = (tiled_target){.texture = s->lowres.particles, .width = s->lowres.width, .height = s->lowres.height,
                           .depth_texture = s->lowres.depth_copy,
                           .depth_size = {(float)s->lowres.width, (float)s->lowres.height}};
    }
    uint32_t tile = tile_size_of(r);
    uint32_t tiles[2] = {divide_up((uint32_t)t.width, tile), divide_up((uint32_t)t.height, tile)};
    tiled_ensure_ranges(r, tiles[0] * tiles[1]);
    if ((result = tiled_ensure_chunks(s, tiles[0] * tiles[1])) != PLUME_OK) return result;
    if ((result = tiled_ensure_entry_sorter(s, tiles[0] * tiles[1])) != PLUME_OK) return result;

    build_entries(s, view, projection, &t, tiles);
    profiler_capture_u32(s->profiler, PROFILER_VALUE_TILED_ENTRIES, r->control_buffer, 4 * PLUME_TILED_ENTRY_COUNT,
                         scope);
    profiler_set_u32(s->profiler, PROFILER_VALUE_TILED_BUDGET, r->budget);
    tiled_record_entry_count(r);
    draw_stage_begin(s, PLUME_DRAW_STAGE_TILE_SORT);
    result = plume_sort_indirect_bounded(s->context, r->sorter, r->entries_buffer, r->control_buffer,
                                         4 * PLUME_TILED_SORT_COUNT, r->budget);
    draw_stage_end(s, PLUME_DRAW_STAGE_TILE_SORT);
    composite(s, frame, projection, &t, tiles, depth_function);
    if (factor == 1) {
        blend_full(s, view, projection, &t, viewport);
    } else {
        /* The fallback into the low-resolution target (cleared by
         * lowres_begin), then the upsample. */
        draw_stage_begin(s, PLUME_DRAW_STAGE_BLEND);
        raster_fallback(s, view, projection, s->lowres.depth_copy, t.depth_size);
        draw_stage_end(s, PLUME_DRAW_STAGE_BLEND);
        lowres_end(s, frame, projection, &pass);
    }
    return result;
}
