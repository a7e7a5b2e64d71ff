/* The compute-tiled draw path: the particles composited per screen tile in
 * compute shaders, with no blending per particle fragment.
 *
 * After the update's sort (back to front: rank 0 is the farthest):
 *   0. prepare  one invocation: the workgroups of 1-3 from the GPU's drawn
 *               count (none when nothing is drawn);
 *   1. project  per rank: the particle's quad on the target (a splat) and the
 *               number of tiles of its pixels' box it may show in (the
 *               quad's edges tested against each tile: a rotated or
 *               stretched quad's box corners and a quad across the eye's
 *               plane, whose box is the screen, list no entry);
 *   2. scan     an inclusive prefix sum of those counts: each rank's run of
 *               entries; then one invocation compares the total with the
 *               budget and writes the indirect arguments of both paths
 *               (control buffer);
 *   3. entries  per rank, {tile, rank} for each of those tiles, in rank order;
 *   4. sort     the entries by tile: each tile's run contiguous, in rank
 *               order within it (the bitonic sorter orders equal keys by
 *               value, the rank; the radix sort, stable, keeps the rank
 *               order it is given; 16 key bits: two radix passes);
 *   5. ranges   per tile, its run (binary searches), and its run cut
 *               into chunks of at most K entries given slots (a workgroup
 *               scans its tiles' chunk counts; the last workgroup done
 *               writes the composite's indirect arguments);
 *   6. composite its pixels front to back with early termination
 *               (tiled_composite.comp), into an RGBA16F target: one
 *               workgroup per chunk, and a resolve
 *               per tile of several chunks combining their partials front to
 *               back; so the busiest tile's run is no longer one workgroup's
 *               serial walk (unchunked, TILED_UNCHUNKED: one workgroup per
 *               tile walks its whole run); a tile keeps a list of each
 *               batch per 8 x 4 region, a subgroup's pixels (the splats
 *               whose pixels' box overlaps it), and a pixel walks its
 *               region's (at tiles of 8, where the composite tests 32
 *               splats before it shades: shades_hit_lists);
 *   7. blend    the target onto the host's framebuffer once per pixel, a
 *               quad for each tile the ranges pass found particles in (the
 *               rest of the target is clear: blending it changes nothing,
 *               yet on a raster back end those pixels cost as much); where
 *               the host's draw buffer is an RGBA16F texture, the composite
 *               (and the resolve) blend onto it themselves instead
 *               (draw_find_host_colour, tiled_target.glsl), and no pass runs;
 *               at 1/2 and 1/4 the path composites into the low-resolution
 *               target, and the wrapper's depth-aware upsample blends it
 *               over those tiles and their neighbours, whose texels it reads
 *               (lowres_end, tiled_take_cover), in compute too onto such a
 *               texture.
 * A frame whose entries exceed the budget skips 3-7's work (their indirect
 * arguments are zero) and draws with its fallback path instead (the raster
 * path, through the path interface), whose instance count the control pass
 * set: decided on the GPU, nothing dropped.
 * A frame without entries (nothing drawn: a camera looking away) skips 5-7
 * the same way, and 1-3 run no workgroup: what it costs is the empty
 * dispatches (notes/draw-at-scale.md: the measurement). Each step is a draw
 * sub-stage of the profile (draw_stage_begin).
 * The entry count also goes to the CPU behind a fence, read frames later
 * without waiting, and the budget grows to what frames need.
 * A trail system's ranks are its sorted segment pairs' triangles (two for
 * each of the quads a pair's curve needs; a particle's own quad one),
 * dense: before the projection, each drawn pair's ranks counted (the
 * projection's stage 0) and scanned, and the prepare pass's stage 1 sets
 * the projection's workgroups for their total, so that memory follows what
 * is drawn, not PLUME_TRAIL_SUBDIVISIONS for every pair; the total goes to
 * the CPU as the entry count does and the ranks made grow to it, and a
 * frame that needs more than were made draws with the fallback (decided on
 * the GPU, as for entries). The projection makes each quad as the trail
 * draw does
 * (render/trail_geometry.glsl), the composite shades it along the strip,
 * and the fallback is the trail draw (trail_draw.c). */
#include <stdio.h>
#include <string.h>

#include "sort/sort_in_scope.h"
#include "tiled_internal.h"

_Static_assert(PLUME_TILED_SCAN_BLOCK == PLUME_TILED_SCAN_GROUP_SIZE * PLUME_TILED_SCAN_PER_INVOCATION,
               "a scan workgroup covers one block");
_Static_assert(PLUME_TILED_CONTROL_WORDS == PLUME_TILED_ITEM_SCAN_ARGS + 3 * PLUME_TILED_SCAN_MAX_LEVELS &&
                   PLUME_TILED_DRAWN_RANKS >= PLUME_TILED_SCAN_ARGS + 3 * PLUME_TILED_SCAN_MAX_LEVELS,
               "the control buffer ends with the pairs' scan levels' arguments");
_Static_assert(PLUME_BINDING_TILED_COUNTS < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_TILED_SPLATS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_CONTROL < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_SCAN_SUMS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_ENTRIES < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_RANGES < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_CHUNK_TABLE < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_COVER < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_PARTIALS < PLUME_SCOPE_SSBO_SLOTS,
               "the GL state scope restores every binding the tiled passes use");
/* ---- The draw ----------------------------------------------------------------- */

/* The path an overflowing frame draws with. */
#define FALLBACK_PATH raster_draw_path

/* The composite writes draw_target.texture and reads draw_target.depth_texture. */
typedef draw_target tiled_target;

/* What a draw reads: a system's sorted particles (group NULL) or its trail's
 * sorted segment pairs (`trail`), or a draw group's sorted records (`s`
 * then the group's own view). */
typedef struct tiled_source {
    const particle_view *s;
    const tiled_group *group;
    bool trail;
    uint32_t capacity; /* ranks (dense: the items, a trail's pairs); 0: more than the path takes */
    /* Dense: the ranks the frames are expected to need: a quad (two
     * triangles) an item the draw may have (known on the CPU, no wait), so
     * that a burst's trails, which lengthen over the next frames, do not
     * outgrow the ranks frame after frame. */
    uint64_t expected_ranks;
} tiled_source;

/* The chunk size where the host set none. A chunk's workgroup composites
 * its entries whole, whatever the chunks in front of it covered: where a
 * tile's nearest entries cover it, the chunks behind them are work that a
 * tile walked whole would have skipped. Trails' thin strips pile up where
 * sparks cross, and cover what is behind them unless they add light: the
 * trail benchmark's 64 K x 16 trails draw in 1.37 ms walked whole against
 * 1.54 in chunks of 512 (H200, notes/wave3-draws-h200.md). Sprites' faint
 * puffs rarely cover a tile, and additive light never stops a pixel: chunks
 * split their busy tiles. */
static uint32_t default_chunk_entries(const tiled_source *src) {
    if (!src->trail || src->group) return TILED_DEFAULT_CHUNK_ENTRIES; /* a group's view has no descriptor */
    return particles_largest_additive(src->s->desc) < 1.0f ? TILED_UNCHUNKED : TILED_DEFAULT_CHUNK_ENTRIES;
}

/* Where the passes read the drawn count: the system's state, or its
 * trail's control words (tiled_common.glsl: TILED_DRAWN_WORD). */
static particle_range drawn_count_buffer(const tiled_source *src) {
    return src->trail ? (particle_range){src->s->trail.control_buffer, 0, 0} : src->s->state;
}

/* 1: the projection's inputs, the system's particles, its trail's segments
 * or the group's records. */
static void bind_projected(const tiled_source *src, const tiled_renderer *r, const draw_frame *frame) {
    const tiled_group *g = src->group;
    if (g) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_DRAW_LIST, g->list_buffer);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_GROUP_RECORDS, g->records_buffer);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_GROUP_SYSTEMS, g->systems_buffer);
        if (g->trails) {
            float eye[4];
            trail_eye(frame, eye);
            glProgramUniform4fv(r->programs[TP_PROJECT], r->trail.eye, 1, eye);
        }
        return;
    }
    const particle_view *s = src->s;
    particle_bind_storage(PLUME_BINDING_MOTION, s->motion);
    particle_view_bind_draw_list(s, PLUME_BINDING_DRAW_LIST);
    particle_bind_storage(PLUME_BINDING_TRAITS, s->traits);
    particle_set_appearance_uniforms(s, &r->project_uniforms);
    if (!src->trail) return;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_DRAW_LIST, s->trail.pair_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_TRAIL_HEADERS, s->trail.header_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_TRAIL_POINTS, s->trail.point_buffer);
    trail_set_uniforms(s, &r->trail, frame);
}

/* 6: what the composite shades with: the system's appearance and sprite,
 * or each grouped system's sprite layer, flipbook and soft fade. Returns
 * the soft fade distance that gates the scene depth's read (the largest). */
static float bind_shading(const tiled_source *src, const tiled_renderer *r) {
    const tiled_group *g = src->group;
    if (!g) {
        particle_set_appearance_uniforms(src->s, &r->composite_uniforms);
        draw_bind_sprite(src->s, r->sprite_sampler);
        return src->s->desc->appearance.soft_fade_distance;
    }
    GLuint c = r->programs[TP_COMPOSITE];
    const GLint *shared = r->composite_uniforms.at;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_GROUP_SYSTEMS, g->systems_buffer);
    glProgramUniform1i(c, shared[PU_SPRITE], 0);
    glProgramUniform1i(c, shared[PU_SCENE_DEPTH], 1);
    glProgramUniform1i(c, shared[PU_SPRITE_ARRAY], PLUME_TEXTURE_UNIT_SPRITE_ARRAY);
    glActiveTexture(GL_TEXTURE0 + PLUME_TEXTURE_UNIT_SPRITE_ARRAY);
    glBindTexture(GL_TEXTURE_2D_ARRAY, g->sprite_array);
    glBindSampler(PLUME_TEXTURE_UNIT_SPRITE_ARRAY, r->sprite_sampler);
    return g->largest_soft_fade;
}

static void bind_tiled_buffers(const tiled_source *src, const tiled_renderer *r) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COUNTS, r->shared->counts_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_SPLATS, r->shared->splats_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_CONTROL, r->shared->control_buffer);
    particle_bind_storage(PLUME_BINDING_STATE, drawn_count_buffer(src));
}

/* 0-3: prepare, project, scan, control, entries. */

static void dispatch_indirect(const tiled_renderer *r, uint32_t word) {
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, r->shared->control_buffer);
    glDispatchComputeIndirect((GLintptr)(4 * word));
}

/* One level of a scan over `capacity` counts at word `first` of the counts
 * buffer (level 0: the counts, level k: the block totals of level k - 1):
 * up, each block scanned and its total written to the next level; down
 * (`add`), each block offset by the scanned totals before it. Only the
 * blocks holding drawn counts run (the prepare pass's arguments at word
 * `args`): the scan is inclusive, so the counts past the drawn ones, which
 * nothing reads, never reach a drawn one's sum. The scan program is in
 * use. */
static void run_scan_level(const tiled_renderer *r, const tiled_scan_plan *plan, uint32_t first, uint32_t capacity,
                           uint32_t args, uint32_t level, bool add) {
    const GLint *at = r->at[TP_SCAN];
    uint32_t n = level == 0 ? capacity : plan->size[level - 1];
    if (level == 0)
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COUNTS, r->shared->counts_buffer,
                          (GLintptr)first * 4, (GLsizeiptr)n * 4);
    else
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COUNTS, r->shared->scan_sums_buffer,
                          plan->offset[level - 1], (GLsizeiptr)n * 4);
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_SCAN_SUMS, r->shared->scan_sums_buffer,
                      plan->offset[level], (GLsizeiptr)plan->size[level] * 4);
    glProgramUniform1ui(r->programs[TP_SCAN], at[TU_COUNT], n);
    glProgramUniform1i(r->programs[TP_SCAN], at[TU_ADD], add);
    dispatch_indirect(r, args + 3 * level);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

/* A whole scan: up its levels, then down. */
static void run_scan(const tiled_renderer *r, const tiled_scan_plan *plan, uint32_t first, uint32_t capacity,
                     uint32_t args) {
    glUseProgram(r->programs[TP_SCAN]);
    /* Up: each level scanned in blocks, its block totals into the next. */
    for (uint32_t level = 0; level < plan->levels; ++level) run_scan_level(r, plan, first, capacity, args, level, false);
    /* Down: each level's blocks offset by the scanned totals before them. */
    for (uint32_t level = plan->levels - 1; level-- > 0;) run_scan_level(r, plan, first, capacity, args, level, true);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COUNTS, r->shared->counts_buffer);
}

/* The prepare pass (stage 0, or a dense draw's stage 1 after its pairs'
 * scan). */
static void run_prepare(const tiled_renderer *r, uint32_t stage) {
    GLuint prepare = r->programs[TP_PREPARE];
    const GLint *at = r->at[TP_PREPARE];
    glUseProgram(prepare);
    glProgramUniform1ui(prepare, at[TU_CAPACITY], r->capacity);
    glProgramUniform1ui(prepare, at[TU_SCAN_LEVELS], r->scan.levels);
    glProgramUniform4ui(prepare, at[TU_ITEMS], r->items, r->item_scan.levels, r->item_offset, stage);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
}

/* Dense ranks: each drawn pair's ranks (the projection's stage 0, its
 * uniforms and inputs set), their scan, then the prepare pass's stage 1
 * (the ranks' arguments); the projection's inputs bound again for its
 * stage 1. */
static void count_dense_ranks(const tiled_source *src, tiled_renderer *r, const draw_frame *frame) {
    GLuint p = r->programs[TP_PROJECT];
    /* A trail's segments past a side of the view need no ranks: its left,
     * right, bottom and top planes (the group's program has no such test). */
    float planes[PLUME_CULL_PLANES][4];
    particles_frustum_planes(frame->view, frame->projection, planes);
    glProgramUniform4fv(p, r->at[TP_PROJECT][TU_SIDE_PLANES], 4, &planes[0][0]);
    glProgramUniform4ui(p, r->at[TP_PROJECT][TU_ITEMS], r->items, r->item_scan.levels, r->item_offset, 0);
    dispatch_indirect(r, PLUME_TILED_ITEM_ARGS);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    run_scan(r, &r->item_scan, r->item_offset, r->items, PLUME_TILED_ITEM_SCAN_ARGS);
    particle_bind_storage(PLUME_BINDING_STATE, drawn_count_buffer(src));
    run_prepare(r, 1);
    glUseProgram(p);
    glProgramUniform4ui(p, r->at[TP_PROJECT][TU_ITEMS], r->items, r->item_scan.levels, r->item_offset, 1);
    bind_projected(src, r, frame);
}

/* The lab's knobs (tiled_common.glsl: u_lab_knobs) on program `p`; their
 * zero values are the product's. */
static void set_lab_knobs(const tiled_renderer *r, GLuint p, const GLint *at) {
    glProgramUniform3f(p, at[TU_LAB_KNOBS], r->knobs.min_alpha, r->knobs.footprint > 0.0f ? r->knobs.footprint : 0.5f,
                       r->knobs.box_tiles ? 1.0f : 0.0f);
}

/* Whether the composite shades each pixel's own hits, having tested 32
 * splats (tiled_composite.comp): where splats cover a few pixels of a
 * tile, a trail's triangles, a system's oriented quads (streaks, sparks)
 * and any splat at a lowered resolution; camera-facing puffs at full
 * resolution cover most of a tile, and pay for the test loop. On an H100,
 * steady state, 1280x720 (notes/wave3-draws-h200.md, tenth session):
 * trails of 64 K x 16 drew in 2.31 ms against 2.68, the demo's 1 M smoke at
 * 1/2 in 3.76 against 4.12, velocity-stretched streaks up to 2.5% faster.
 * A draw group keeps the old loop at full resolution unless it has trails. */
static bool shades_hit_lists(const tiled_source *src, const tiled_renderer *r, const tiled_target *t) {
    if (r->knobs.hit_lists) return r->knobs.hit_lists > 0;
    if (src->group) return src->group->trails || t->factor > 1;
    return src->trail || t->factor > 1 || (particles_look_features(src->s->desc) & LOOK_ORIENTED);
}

/* Where the sprite's frames can show (splat_cover.glsl), at the state's
 * binding (which the projection and the entries pass do not read): a
 * system's camera-facing splats read it where the uniforms say there is a
 * table (the program in use's, `u`; none under the lab's whole_quads). */
static void bind_sprite_cover(const tiled_source *src, const tiled_renderer *r, const particle_uniforms *u) {
    if (src->group || src->trail) return;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_SPRITE_COVER, src->s->sprite_cover.buffer);
    if (r->knobs.whole_quads) glUniform1ui(u->at[PU_SPRITE_COVER_LEVELS], 0);
}

static void build_entries(const tiled_source *src, tiled_renderer *r, const draw_frame *frame, const tiled_target *t,
                          const uint32_t tiles[2]) {
    const particle_view *s = src->s;
    const float(*view)[4] = frame->view, (*projection)[4] = frame->projection;
    uint32_t capacity = r->capacity, depth_convention = frame->depth_convention;
    bind_tiled_buffers(src, r);

    draw_stage_begin(s, PLUME_DRAW_STAGE_PROJECT);
    /* The control words, counts and splats are the context's (screen
     * scratch): the draw before this one, another system's, may still read
     * them; its last barrier named only the blend's accesses. */
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    run_prepare(r, 0);
    GLuint p = r->programs[TP_PROJECT];
    const GLint *at = r->at[TP_PROJECT];
    glUseProgram(p);
    glProgramUniformMatrix4fv(p, at[TU_VIEW], 1, GL_FALSE, &view[0][0]);
    glProgramUniformMatrix4fv(p, at[TU_PROJECTION], 1, GL_FALSE, &projection[0][0]);
    glProgramUniform1ui(p, at[TU_DEPTH_CONVENTION], depth_convention);
    glProgramUniform3f(p, at[TU_CAMERA_RIGHT], view[0][0], view[1][0], view[2][0]);
    glProgramUniform3f(p, at[TU_CAMERA_UP], view[0][1], view[1][1], view[2][1]);
    glProgramUniform2f(p, at[TU_TARGET_SIZE], (float)t->width, (float)t->height);
    glProgramUniform1ui(p, at[TU_CAPACITY], capacity);
    set_lab_knobs(r, p, at);
    bind_projected(src, r, frame);
    bind_sprite_cover(src, r, &r->project_uniforms);
    if (src->trail || (src->group && src->group->trails)) trail_set_target(p, r->trail.target, t->width, t->height);
    particle_set_light_uniforms(s, &r->project_uniforms);
    if (r->dense) count_dense_ranks(src, r, frame);
    /* Dense ranks are projected an item an invocation (tiled_project.comp). */
    dispatch_indirect(r, r->dense ? PLUME_TILED_ITEM_ARGS : PLUME_TILED_PROJECT_ARGS);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    /* A trail's history took the state's binding. */
    particle_bind_storage(PLUME_BINDING_STATE, drawn_count_buffer(src));
    draw_stage_end(s, PLUME_DRAW_STAGE_PROJECT);

    draw_stage_begin(s, PLUME_DRAW_STAGE_SCAN);
    run_scan(r, &r->scan, 0, capacity, PLUME_TILED_SCAN_ARGS);
    GLuint control = r->programs[TP_CONTROL];
    glUseProgram(control);
    glProgramUniform1ui(control, r->at[TP_CONTROL][TU_BUDGET], r->budget);
    glProgramUniform2ui(control, r->at[TP_CONTROL][TU_TILES], tiles[0], tiles[1]);
    glProgramUniform1i(control, r->at[TP_CONTROL][TU_LOW_RESOLUTION], t->factor > 1);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    draw_stage_end(s, PLUME_DRAW_STAGE_SCAN);

    draw_stage_begin(s, PLUME_DRAW_STAGE_ENTRIES);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_ENTRIES, r->shared->entries_buffer);
    GLuint e = r->programs[TP_ENTRIES];
    glUseProgram(e);
    glProgramUniform1ui(e, r->at[TP_ENTRIES][TU_CAPACITY], capacity);
    glProgramUniform2ui(e, r->at[TP_ENTRIES][TU_TILES], tiles[0], tiles[1]);
    /* The frames' cover, as the projection read it. */
    if (!src->group) particle_set_frame_uniforms(s, &r->entries_uniforms);
    bind_sprite_cover(src, r, &r->entries_uniforms);
    dispatch_indirect(r, PLUME_TILED_PROJECT_ARGS);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    particle_bind_storage(PLUME_BINDING_STATE, drawn_count_buffer(src));
    draw_stage_end(s, PLUME_DRAW_STAGE_ENTRIES);
}

/* Where the composite and the resolve write (tiled_target.glsl): the
 * target bound to image unit 0, or the host's colour there. */
static void set_target_uniforms(GLuint program, const GLint *at, const host_colour *host) {
    glProgramUniform1i(program, at[TU_OVER_HOST], host != NULL);
    if (!host) return;
    glProgramUniform2i(program, at[TU_VIEWPORT_ORIGIN], host->origin[0], host->origin[1]);
    glProgramUniform4iv(program, at[TU_HOST_CLIP], 1, host->clip);
}

/* 5-6: ranges and composite, after the sort; none of their workgroups run
 * on a frame without entries or over the budget (the control pass's
 * arguments). */
static void composite(const tiled_source *src, tiled_renderer *r, const plume_frame_desc *frame,
                      const mat4 projection, uint32_t depth_convention, const tiled_target *t,
                      const uint32_t tiles[2], const host_colour *host) {
    const particle_view *s = src->s;
    uint32_t tile_count = tiles[0] * tiles[1];
    bind_tiled_buffers(src, r);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_ENTRIES, r->shared->entries_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_RANGES, r->shared->ranges_buffer);

    draw_stage_begin(s, PLUME_DRAW_STAGE_RANGES);
    GLuint ranges = r->programs[TP_RANGES];
    glUseProgram(ranges);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COVER, r->shared->cover_buffer);
    /* The chunked composite's plan is the ranges pass's too; the composite
     * and the resolve read the table and the partials bound here. */
    uint32_t chunk_entries = r->chunk_entries_in_use;
    if (chunk_entries) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_CHUNK_TABLE, r->shared->chunk_table_buffer);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_PARTIALS, r->shared->partials_buffer);
    }
    glProgramUniform1ui(ranges, r->at[TP_RANGES][TU_TILE_COUNT], tile_count);
    glProgramUniform2ui(ranges, r->at[TP_RANGES][TU_TILES], tiles[0], tiles[1]);
    glProgramUniform1ui(ranges, r->at[TP_RANGES][TU_CHUNK_ENTRIES], chunk_entries);
    uint32_t cover = r->knobs.cover_every_tile ? PLUME_TILED_COVER_EVERY
                     : t->factor > 1     ? PLUME_TILED_COVER_NEIGHBOURS
                                         : PLUME_TILED_COVER_OWN;
    glProgramUniform1ui(ranges, r->at[TP_RANGES][TU_COVER_MODE], cover);
    dispatch_indirect(r, PLUME_TILED_RANGES_ARGS);
    /* The ranges pass counted the blend's instances and the chunks. */
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    draw_stage_end(s, PLUME_DRAW_STAGE_RANGES);

    draw_stage_begin(s, PLUME_DRAW_STAGE_COMPOSITE);
    GLuint c = r->programs[TP_COMPOSITE];
    const GLint *at = r->at[TP_COMPOSITE];
    glUseProgram(c);
    mat4 inverse;
    glm_mat4_inv((vec4 *)projection, inverse);
    glProgramUniformMatrix4fv(c, at[TU_INVERSE_PROJECTION], 1, GL_FALSE, &inverse[0][0]);
    glProgramUniform1f(c, at[TU_SOFT_FADE_DISTANCE], bind_shading(src, r));
    glProgramUniform2i(c, at[TU_TARGET_SIZE], t->width, t->height);
    glProgramUniform2i(c, at[TU_DEPTH_ORIGIN], t->depth_origin[0], t->depth_origin[1]);
    glProgramUniform2f(c, at[TU_DEPTH_SIZE], t->depth_size[0], t->depth_size[1]);
    glProgramUniform1ui(c, at[TU_DEPTH_CONVENTION], depth_convention);
    float threshold = frame->disable_early_termination ? 0.0f
                      : frame->transmittance_threshold > 0.0f ? frame->transmittance_threshold
                                                              : 1.0f / 255.0f;
    /* Additive light behind a pixel that stopped still adds: stopping at
     * threshold * (1 - K), K the largest additive part, keeps what is
     * skipped under the threshold (tiled_composite.comp). */
    threshold *= 1.0f - (src->group ? src->group->largest_additive : particles_largest_additive(s->desc));
    glProgramUniform1f(c, at[TU_THRESHOLD], threshold);
    glProgramUniform2ui(c, at[TU_TILES], tiles[0], tiles[1]);
    glProgramUniform1ui(c, at[TU_CHUNK_ENTRIES], chunk_entries);
    glProgramUniform1i(c, at[TU_HIT_LISTS], shades_hit_lists(src, r, t));
    set_lab_knobs(r, c, at);
    particle_set_light_uniforms(s, &r->composite_uniforms);
    draw_bind_texture(1, t->depth_texture, r->depth_sampler);
    set_target_uniforms(c, at, host);
    if (host) draw_bind_host_colour(host);
    else glBindImageTexture(0, t->texture, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA16F);
    dispatch_indirect(r, chunk_entries ? PLUME_TILED_CHUNK_ARGS : PLUME_TILED_COMPOSITE_ARGS);
    /* With the host's colour written, whatever the host does with it next. */
    glMemoryBarrier(host ? GL_ALL_BARRIER_BITS
                         : GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT |
                               GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    draw_stage_end(s, PLUME_DRAW_STAGE_COMPOSITE);
    if (chunk_entries) {
        draw_stage_begin(s, PLUME_DRAW_STAGE_RESOLVE);
        GLuint resolve = r->programs[TP_RESOLVE];
        glUseProgram(resolve);
        glProgramUniform2i(resolve, r->at[TP_RESOLVE][TU_TARGET_SIZE], t->width, t->height);
        glProgramUniform1f(resolve, r->at[TP_RESOLVE][TU_THRESHOLD], threshold);
        glProgramUniform2ui(resolve, r->at[TP_RESOLVE][TU_TILES], tiles[0], tiles[1]);
        set_target_uniforms(resolve, r->at[TP_RESOLVE], host);
        dispatch_indirect(r, PLUME_TILED_RESOLVE_ARGS);
        glMemoryBarrier(host ? GL_ALL_BARRIER_BITS
                             : GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT |
                                   GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
        draw_stage_end(s, PLUME_DRAW_STAGE_RESOLVE);
    }
}

/* The fallback path's draw of an overflowing frame (no instance otherwise:
 * the control pass's arguments), into the draw framebuffer bound. */
static plume_result draw_fallback(const tiled_source *src, const tiled_renderer *r, const draw_frame *frame,
                                  const tiled_target *t, plume_gl_scope *scope) {
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled raster fallback");
    const draw_count overflow = {r->shared->control_buffer, 4 * PLUME_TILED_RASTER_ARGS};
    plume_result result = PLUME_OK;
    if (src->group) src->group->draw_fallback(src->group->user, t, &overflow);
    else result = (src->trail ? trail_draw_path : FALLBACK_PATH).draw(src->s, frame, t, &overflow, scope);
    glPopDebugGroup();
    return result;
}

/* 7: the fallback (no instance unless the frame overflowed), then, at full
 * resolution, the target blended onto the host's framebuffer, a quad for
 * each tile with particles (at 1/2 and 1/4 the wrapper's upsample blends
 * it, over the tiles tiled_take_cover names). */
static plume_result blend(const tiled_source *src, const tiled_renderer *r, const draw_frame *frame,
                          const tiled_target *t, plume_gl_scope *scope) {
    const particle_view *s = src->s;
    draw_stage_begin(s, PLUME_DRAW_STAGE_BLEND);
    plume_result result = draw_fallback(src, r, frame, t, scope);
    if (t->factor == 1 && !r->blended_onto_host) {
        GLuint b = r->programs[TP_BLEND];
        glUseProgram(b);
        glProgramUniform2i(b, r->at[TP_BLEND][TU_VIEWPORT_ORIGIN], t->viewport[0], t->viewport[1]);
        screen_cover_bind(&r->cover, b, &r->at[TP_BLEND][TU_TILES_ACROSS], 1, t->viewport);
        draw_bind_texture(0, r->shared->tiled_target, r->depth_sampler);
        glDisable(GL_DEPTH_TEST);
        draw_blend_premultiplied(src->s->env);
        glBindVertexArray(r->vertex_array);
        screen_cover_draw();
    }
    draw_stage_end(s, PLUME_DRAW_STAGE_BLEND);
    return result;
}

/* The state the path needs, made on its first draw; false where it cannot
 * be (said once: PLUME_ERROR_GL_UNSUPPORTED from then on). */
static bool ready_state(const tiled_source *src, tiled_renderer *r, plume_result *result) {
    *result = PLUME_OK;
    if (r->unavailable) {
        *result = PLUME_ERROR_GL_UNSUPPORTED;
        return false;
    }
    if (r->programs[TP_COMPOSITE]) return true;
    const particle_view *s = src->s;
    uint32_t look = src->group ? src->group->look | LOOK_ORIENTED
                    : src->trail ? particles_look_features(s->desc) | LOOK_ORIENTED
                                 : particles_look_features(s->desc);
    tiled_input input = src->group  ? (src->group->trails ? TILED_INPUT_GROUP_TRAILS : TILED_INPUT_GROUP)
                         : src->trail ? TILED_INPUT_TRAIL
                                      : TILED_INPUT_PARTICLES;
    *result = src->capacity == 0 ? PLUME_ERROR_OUT_OF_MEMORY : tiled_create(s, r, src->capacity, look, input);
    if (*result == PLUME_OK) return true;
    plume_log(s->env, PLUME_LOG_WARNING, "%s: the tiled draw path cannot be made on this GL (%s); drawing with the raster path",
              src->group ? "plume_draw_group_draw" : "plume_system_draw", plume_result_string(*result));
    tiled_release(r, s->context);
    r->unavailable = true;
    *result = PLUME_ERROR_GL_UNSUPPORTED;
    return false;
}

static plume_result draw_source(const tiled_source *src, tiled_renderer *r, const draw_frame *frame,
                                const draw_target *target, plume_gl_scope *scope) {
    const particle_view *s = src->s;
    plume_gl_scope_save(scope, PLUME_SCOPE_IMAGE_UNIT | PLUME_SCOPE_COPY_BUFFERS);
    r->cover_ready = false;
    plume_result result;
    r->expected_ranks = src->expected_ranks;
    if (!ready_state(src, r, &result)) return result;
    if ((result = tiled_join_scratch(s, r)) != PLUME_OK) return result;
    if ((result = tiled_grow_budget(s, r)) != PLUME_OK) return result;
    if ((result = tiled_ensure_ranks(s, r)) != PLUME_OK) return result;
    if ((result = tiled_use_depth_function(s->env, r, target->depth_function)) != PLUME_OK) return result;
    tiled_target t = *target;
    host_colour host;
    r->blended_onto_host = t.factor == 1 && !r->knobs.raster_blend && draw_find_host_colour(s->env, t.viewport, &host);
    if (!r->blended_onto_host && t.factor == 1) {
        if ((result = tiled_ensure_full_target(s, r, t.width, t.height)) != PLUME_OK) return result;
        t.texture = r->shared->tiled_target;
    }
    uint32_t tile = tile_size_of(r);
    uint32_t tiles[2] = {divide_up((uint32_t)t.width, tile), divide_up((uint32_t)t.height, tile)};
    tiled_ensure_ranges(s, r, tiles[0] * tiles[1]);
    if ((result = tiled_ensure_chunks(s, r, tiles[0] * tiles[1], default_chunk_entries(src))) != PLUME_OK)
        return result;
    if ((result = tiled_ensure_entries(s, r, tiles[0] * tiles[1])) != PLUME_OK) return result;

    r->cover = (screen_cover){r->shared->control_buffer, r->shared->cover_buffer, tiles[0], tiles[1], tile,
                              r->knobs.raster_blend};
    build_entries(src, r, frame, &t, tiles);
    profiler_capture_u32(s->profiler, PROFILER_VALUE_TILED_ENTRIES, r->shared->control_buffer, 4 * PLUME_TILED_ENTRY_COUNT,
                         scope);
    profiler_capture_u32(s->profiler, PROFILER_VALUE_TILED_OVERFLOW, r->shared->control_buffer, 4 * PLUME_TILED_OVERFLOW,
                         scope);
    profiler_set_u32(s->profiler, PROFILER_VALUE_TILED_BUDGET, r->budget);
    tiled_record_entry_count(s, r);
    draw_stage_begin(s, PLUME_DRAW_STAGE_TILE_SORT);
    result = sort_indirect_in_scope(s->context, r->sorter, r->shared->entries_buffer, r->shared->control_buffer,
                                    4 * PLUME_TILED_SORT_COUNT, 4 * PLUME_TILED_CONTROL_WORDS, r->budget, true);
    draw_stage_end(s, PLUME_DRAW_STAGE_TILE_SORT);
    composite(src, r, frame->desc, frame->projection, frame->depth_convention, &t, tiles,
              r->blended_onto_host ? &host : NULL);
    plume_result blended = blend(src, r, frame, &t, scope);
    r->cover_ready = t.factor > 1;
    return result != PLUME_OK ? result : blended;
}

bool tiled_take_cover(tiled_renderer *r, screen_cover *out) {
    if (!r || !r->cover_ready) return false;
    *out = r->cover;
    r->cover_ready = false;
    return true;
}

static plume_result tiled_draw(const particle_view *s, const draw_frame *frame, const draw_target *target,
                               const draw_count *count, plume_gl_scope *scope) {
    (void)count; /* the tiled path draws the drawn count; only its fallback is instanced */
    tiled_renderer *r = tiled_of(s);
    if (!r) return PLUME_ERROR_OUT_OF_MEMORY;
    tiled_source src = {.s = s, .capacity = s->desc->capacity};
    if (s->trail.pair_buffer) {
        /* The capacity is the pairs: the ranks are dense (made for what
         * frames draw, tiled_create). */
        uint64_t pairs = (uint64_t)s->desc->capacity * s->trail.entries;
        uint32_t particles = s->sort_bound < s->desc->capacity ? s->sort_bound : s->desc->capacity;
        src.trail = true;
        src.capacity = pairs <= TILED_MOST_TRAIL_RANKS ? (uint32_t)pairs : 0;
        src.expected_ranks = 2 * (uint64_t)particles * s->trail.entries;
    }
    return draw_source(&src, r, frame, target, scope);
}

plume_result tiled_draw_group(const particle_view *own, tiled_renderer *r, const tiled_group *group,
                              const draw_frame *frame, const draw_target *target, plume_gl_scope *scope) {
    tiled_source src = {.s = own, .group = group, .capacity = group->capacity};
    /* With a trail system, the items' ranks are dense (a segment's
     * triangles, a sprite's quad), as a trail system's. */
    if (group->trails) src.expected_ranks = 2 * (uint64_t)group->drawn_bound;
    return draw_source(&src, r, frame, target, scope);
}

const draw_path tiled_draw_path = {"tiled", tiled_draw};
