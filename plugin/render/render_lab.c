/* The lab's render entries (lab/plume_lab.h): thin wrappers over render/'s
 * internal knobs, so that the benchmarks include no plugin/ header. Lab
 * builds only. */
#ifdef PLUME_LAB
#include <string.h>

#include "draw_group_internal.h"
#include "plume_lab.h"
#include "tiled_internal.h"
#include "render/screen_scratch.h"

_Static_assert(PLUME_LAB_TILED_UNCHUNKED == TILED_UNCHUNKED, "the lab's unchunked composite is the tiled path's");

plume_result plume_lab_tiled_configure(plume_context *context, plume_system system, uint32_t tile_size,
                                       uint32_t budget, bool fixed_budget, plume_sort_algorithm entry_sort,
                                       uint32_t chunk_entries) {
    return tiled_configure(context, system, tile_size, budget, fixed_budget, entry_sort, chunk_entries);
}

_Static_assert((int)PLUME_LAB_MESH_DRAW_NO_INSTANCE_PASS == (int)MESH_DRAW_LAB_NO_INSTANCE_PASS &&
                   (int)PLUME_LAB_MESH_DRAW_NO_EARLY_DEPTH == (int)MESH_DRAW_LAB_NO_EARLY_DEPTH,
               "the lab's mesh draw bits are the path's");

/* The view of the live mesh system `system` (PLUME_ERROR_INVALID_ARGUMENT, said under `caller`: none). */
static plume_result find_mesh_view(plume_context *context, plume_system system, const char *caller,
                                   particle_view *view) {
    plume_result result = particles_find_view(context, system, caller, view);
    if (result != PLUME_OK || view->mesh) return result;
    plume_log(view->env, PLUME_LOG_ERROR, "%s: system is not a mesh system", caller);
    return PLUME_ERROR_INVALID_ARGUMENT;
}

plume_result plume_lab_mesh_draw_set_options(plume_context *context, plume_system system, uint32_t left_out) {
    particle_view view;
    plume_result result = find_mesh_view(context, system, "plume_lab_mesh_draw_set_options", &view);
    if (result != PLUME_OK) return result;
    if (left_out & ~(uint32_t)(MESH_DRAW_LAB_NO_INSTANCE_PASS | MESH_DRAW_LAB_NO_EARLY_DEPTH)) {
        plume_log(view.env, PLUME_LOG_ERROR, "plume_lab_mesh_draw_set_options: left_out has unknown bits");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, view.env);
    result = mesh_draw_set_lab_options(&view, left_out);
    plume_gl_scope_end(&scope);
    return result;
}

plume_result plume_lab_mesh_draw_level_counts(plume_context *context, plume_system system, uint32_t counts[3]) {
    particle_view view;
    plume_result result = find_mesh_view(context, system, "plume_lab_mesh_draw_level_counts", &view);
    if (result != PLUME_OK) return result;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, view.env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
    mesh_draw_read_level_counts(&view, counts);
    plume_gl_scope_end(&scope);
    return PLUME_OK;
}

plume_result plume_lab_mesh_draw_set_compute_below(plume_context *context, plume_system system, float pixels) {
    particle_view view;
    plume_result result = find_mesh_view(context, system, "plume_lab_mesh_draw_set_compute_below", &view);
    if (result != PLUME_OK) return result;
    if (pixels != pixels) {
        plume_log(view.env, PLUME_LOG_ERROR, "plume_lab_mesh_draw_set_compute_below: pixels is not a number");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return mesh_draw_set_compute_below(&view, pixels);
}

plume_result plume_lab_mesh_draw_compute_count(plume_context *context, plume_system system, uint32_t *count) {
    particle_view view;
    plume_result result = find_mesh_view(context, system, "plume_lab_mesh_draw_compute_count", &view);
    if (result != PLUME_OK) return result;
    if (!count) {
        plume_log(view.env, PLUME_LOG_ERROR, "plume_lab_mesh_draw_compute_count: count is NULL");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, view.env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
    *count = mesh_draw_read_compute_count(&view);
    plume_gl_scope_end(&scope);
    return PLUME_OK;
}

plume_result plume_lab_tiled_set_knobs(plume_context *context, plume_system system, const plume_lab_tiled_knobs *knobs) {
    tiled_knobs inside = {0};
    if (knobs)
        inside = (tiled_knobs){.min_alpha = knobs->min_alpha,
                               .batch = knobs->batch,
                               .footprint = knobs->footprint,
                               .cover_every_tile = knobs->cover_every_tile,
                               .box_tiles = knobs->box_tiles,
                               .whole_tile_lists = knobs->whole_tile_lists,
                               .hit_lists = knobs->hit_lists,
                               .raster_blend = knobs->raster_blend,
                               .whole_splat_batch = knobs->whole_splat_batch,
                               .whole_quads = knobs->whole_quads};
    return tiled_set_knobs(context, system, &inside);
}

plume_result plume_lab_tiled_blended_onto_host(plume_context *context, plume_system system, bool *out) {
    static const char *CALLER = "plume_lab_tiled_blended_onto_host";
    particle_view view;
    if (particles_find_view(context, system, CALLER, &view) != PLUME_OK) return PLUME_ERROR_INVALID_ARGUMENT;
    const tiled_renderer *r = tiled_of(&view);
    if (!out || !r || !r->programs[TP_COMPOSITE]) {
        plume_log(view.env, PLUME_LOG_ERROR, "%s: %s", CALLER,
                  !out ? "out must not be NULL" : "the system was not drawn tiled");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    *out = r->blended_onto_host;
    return PLUME_OK;
}

/* The scanned counts (inclusive sums of the tiles each rank touched, in
 * the context's scratch: the last tiled draw's) of the trail's pairs, whose
 * ranks are dense (each pair's scanned ranks after them, at item_offset),
 * 2 ranks a quad (a particle's own quad 1): a quad drew where its sum grew. */
static plume_result read_quads_drawn(const particle_view *view, const tiled_renderer *r,
                                     uint32_t pairs[PLUME_TRAIL_SUBDIVISIONS + 1]) {
    uint32_t pair_count = 0;
    glGetNamedBufferSubData(view->trail.control_buffer, 4 * PLUME_TRAIL_SORT_COUNT, 4, &pair_count);
    if (pair_count > r->items) pair_count = r->items;
    uint32_t ranks = 0;
    if (pair_count > 0)
        glGetNamedBufferSubData(r->shared->counts_buffer, 4 * ((GLintptr)r->item_offset + pair_count - 1), 4, &ranks);
    memset(pairs, 0, sizeof *pairs * (PLUME_TRAIL_SUBDIVISIONS + 1));
    if (ranks > r->capacity) return PLUME_OK; /* the frame outgrew the ranks: none projected */
    uint32_t *sums = plume_alloc(view->env, sizeof *sums * ((size_t)ranks + pair_count + 1));
    if (!sums) return PLUME_ERROR_OUT_OF_MEMORY;
    uint32_t *pair_ends = sums + ranks;
    if (ranks > 0) glGetNamedBufferSubData(r->shared->counts_buffer, 0, (GLsizeiptr)ranks * 4, sums);
    if (pair_count > 0)
        glGetNamedBufferSubData(r->shared->counts_buffer, 4 * (GLintptr)r->item_offset, (GLsizeiptr)pair_count * 4,
                                pair_ends);
    for (uint32_t i = 0, first = 0, before = 0; i < pair_count; first = pair_ends[i++]) {
        uint32_t quads = 0;
        for (uint32_t rank = first; rank < pair_ends[i]; rank += 2) {
            uint32_t after = sums[rank + 1 < pair_ends[i] ? rank + 1 : rank];
            quads += after > before;
            before = after;
        }
        ++pairs[quads];
    }
    plume_free(view->env, sums);
    return plume_drain_gl_errors(view->env, "plume_lab_trail_tiled_quads_drawn");
}

/* The trail system's tiled state, NULL (logged under `caller`) where
 * `output` is NULL or the system is not a trail system drawn tiled. */
static const tiled_renderer *trail_tiled(plume_context *context, plume_system system, const char *caller,
                                         const void *output, particle_view *view) {
    if (particles_find_view(context, system, caller, view) != PLUME_OK) return NULL;
    const tiled_renderer *r = view->desc->trail.points ? tiled_of(view) : NULL;
    if (!output || !r || !r->programs[TP_PROJECT] || !r->shared) {
        plume_log(view->env, PLUME_LOG_ERROR, "%s: %s", caller,
                  !output ? "an output must not be NULL" : "system is not a trail system drawn tiled");
        return NULL;
    }
    return r;
}

plume_result plume_lab_trail_tiled_ranks(plume_context *context, plume_system system, uint32_t *needed,
                                         uint32_t *made) {
    particle_view view;
    const tiled_renderer *r =
        trail_tiled(context, system, "plume_lab_trail_tiled_ranks", needed && made ? made : NULL, &view);
    if (!r) return PLUME_ERROR_INVALID_ARGUMENT;
    glGetNamedBufferSubData(r->shared->control_buffer, 4 * PLUME_TILED_RANKS_NEEDED, 4, needed);
    *made = r->capacity;
    return plume_drain_gl_errors(view.env, "plume_lab_trail_tiled_ranks");
}

plume_result plume_lab_trail_tiled_quads_drawn(plume_context *context, plume_system system,
                                              uint32_t pairs[PLUME_TRAIL_SUBDIVISIONS + 1]) {
    particle_view view;
    const tiled_renderer *r = trail_tiled(context, system, "plume_lab_trail_tiled_quads_drawn", pairs, &view);
    if (!r) return PLUME_ERROR_INVALID_ARGUMENT;
    plume_result result;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, view.env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
    result = read_quads_drawn(&view, r, pairs);
    plume_gl_scope_end(&scope);
    return result;
}

plume_result plume_lab_draw_group_set_stage_hook(plume_context *context, plume_draw_group group,
                                                 plume_lab_stage_hook hook, void *user) {
    group_state *g = plume_context_lookup(context, group.id, &draw_group_class, "plume_lab_draw_group_set_stage_hook");
    if (!g) return PLUME_ERROR_INVALID_ARGUMENT;
    g->stage_hook = hook;
    g->stage_hook_user = user;
    return PLUME_OK;
}

/* Bytes of the buffers and textures among `objects` (others hold no
 * memory of their own worth counting). */
static uint64_t gl_object_bytes(const plume_gl_object *objects, uint32_t count) {
    static const GLenum BITS[] = {GL_TEXTURE_RED_SIZE,   GL_TEXTURE_GREEN_SIZE, GL_TEXTURE_BLUE_SIZE,
                                  GL_TEXTURE_ALPHA_SIZE, GL_TEXTURE_DEPTH_SIZE, GL_TEXTURE_STENCIL_SIZE};
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (objects[i].type == GL_BUFFER) {
            GLint64 size = 0;
            glGetNamedBufferParameteri64v(objects[i].name, GL_BUFFER_SIZE, &size);
            bytes += (uint64_t)size;
        } else if (objects[i].type == GL_TEXTURE) {
            for (GLint level = 0; level < 32; ++level) {
                GLint width = 0, height = 0, depth = 0, bits = 0;
                glGetTextureLevelParameteriv(objects[i].name, level, GL_TEXTURE_WIDTH, &width);
                if (width == 0) break;
                glGetTextureLevelParameteriv(objects[i].name, level, GL_TEXTURE_HEIGHT, &height);
                glGetTextureLevelParameteriv(objects[i].name, level, GL_TEXTURE_DEPTH, &depth);
                for (size_t b = 0; b < sizeof BITS / sizeof BITS[0]; ++b) {
                    GLint channel = 0;
                    glGetTextureLevelParameteriv(objects[i].name, level, BITS[b], &channel);
                    bits += channel;
                }
                bytes += (uint64_t)width * (uint64_t)(height ? height : 1) * (uint64_t)(depth ? depth : 1) *
                         (uint64_t)(bits + 7) / 8;
            }
        }
    }
    return bytes;
}

typedef uint32_t (*gl_object_lister)(const plume_context *context, uint64_t id, plume_gl_object *out,
                                     uint32_t capacity);

/* The bytes of what `list` lists; false: out of memory. */
static bool listed_bytes(const plume_context *context, uint64_t id, gl_object_lister list, uint64_t *bytes) {
    uint32_t count = list(context, id, NULL, 0);
    plume_gl_object *objects = plume_alloc(plume_context_env(context), sizeof *objects * (count + 1));
    if (!objects) return false;
    count = list(context, id, objects, count);
    *bytes = gl_object_bytes(objects, count);
    plume_free(plume_context_env(context), objects);
    return true;
}

static uint32_t list_system(const plume_context *context, uint64_t id, plume_gl_object *out, uint32_t capacity) {
    return particles_list_system_gl_objects(context, (plume_system){id}, out, capacity);
}

static uint32_t list_shared(const plume_context *context, uint64_t id, plume_gl_object *out, uint32_t capacity) {
    (void)id;
    return screen_scratch_list_all_gl_objects(context, out, capacity);
}

static uint32_t list_context(const plume_context *context, uint64_t id, plume_gl_object *out, uint32_t capacity) {
    (void)id;
    uint32_t count = 0;
    plume_context_list_gl_objects(context, out, capacity, &count);
    return count;
}

plume_result plume_lab_gpu_memory_of(plume_context *context, plume_system system, plume_lab_gpu_memory *out) {
    static const char *CALLER = "plume_lab_gpu_memory_of";
    particle_view view;
    if (!context || !out || (system.id && particles_find_view(context, system, CALLER, &view) != PLUME_OK)) {
        if (!out) plume_log(plume_context_env(context), PLUME_LOG_ERROR, "%s: out must not be NULL", CALLER);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    *out = (plume_lab_gpu_memory){0};
    bool made = (!system.id || listed_bytes(context, system.id, list_system, &out->system_bytes)) &&
                listed_bytes(context, 0, list_shared, &out->shared_bytes) &&
                listed_bytes(context, 0, list_context, &out->total_bytes);
    if (system.id) out->system_bytes += view.pooled_bytes;
    particle_pool_usage_counts pool;
    particle_pool_usage(context, &pool);
    out->pool_bytes = pool.page_bytes;
    out->pool_used_bytes = pool.used_bytes;
    return made ? PLUME_OK : PLUME_ERROR_OUT_OF_MEMORY;
}
#else
/* ISO C wants something in a translation unit. */
typedef int render_lab_is_lab_only;
#endif
