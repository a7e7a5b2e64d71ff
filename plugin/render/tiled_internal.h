/* What the tiled path's two files share (tiled.c: the passes of a draw;
 * tiled_resources.c: its programs, buffers, entry budget and sorter). Not
 * part of the API. */
#ifndef PLUME_RENDER_TILED_INTERNAL_H
#define PLUME_RENDER_TILED_INTERNAL_H

#include "render/tiled.h"

static inline uint32_t tile_size_of(const tiled_renderer *r) { return r->tile_size ? r->tile_size : TILED_DEFAULT_TILE_SIZE; }

static inline uint32_t divide_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/* What the ranks are: a system's particles, a draw group's records, or a
 * trail system's segment quads (and its particles' own quads). */
/* TILED_INPUT_GROUP_TRAILS: a group with a trail system (its segments'
 * records as a trail's ranks, render/tiled_project.comp). */
typedef enum tiled_input {
    TILED_INPUT_PARTICLES, TILED_INPUT_GROUP, TILED_INPUT_TRAIL, TILED_INPUT_GROUP_TRAILS
} tiled_input;
/* The splat's size in vec4s for a look (particles_look_features): the
 * tiled programs are built for the system's look, so the default look's
 * splat is 4 vec4s, an oriented, lit one's 7, a trail's one more
 * (tiled_common.glsl). */
uint32_t tiled_splat_vec4s(uint32_t look, tiled_input input);
/* Builds the programs and buffers on the first tiled draw, for `capacity`
 * ranks of `look` (particles_look_features) read from `input`: a draw
 * group's (TILED_GROUP: the projection reads its records, the composite
 * shades each system's way) or a trail's (TILED_TRAIL: the projection makes
 * the segments' quads, the composite shades them along the strip). */
plume_result tiled_create(const particle_view *v, tiled_renderer *r, uint32_t capacity, uint32_t look,
                          tiled_input input);
/* The composite built for the host's `depth_function` in
 * programs[TP_COMPOSITE] (built at the first draw with it), its uniforms
 * found. */
plume_result tiled_use_depth_function(const plume_env *env, tiled_renderer *r, GLint depth_function);
/* tiled_release (tiled.h) keeps what tiled_configure chose. */
/* The entry budget: this frame's count copied behind a fence, and grown from
 * the counts whose fences have passed (never waited on). */
void tiled_record_entry_count(const particle_view *v, tiled_renderer *r);
plume_result tiled_grow_budget(const particle_view *v, tiled_renderer *r);
/* The context's screen-sized scratch for this draw (r->shared: NULL, out of
 * memory, PLUME_ERROR_OUT_OF_MEMORY), then what of it this draw needs: the
 * full-resolution target, the tiles' ranges, the chunk table and partials,
 * the entries for the system's budget and their sorter (r->sorter). */
plume_result tiled_join_scratch(const particle_view *v, tiled_renderer *r);
plume_result tiled_ensure_ranks(const particle_view *v, tiled_renderer *r);
plume_result tiled_ensure_full_target(const particle_view *v, tiled_renderer *r, int width, int height);
void tiled_ensure_ranges(const particle_view *s, tiled_renderer *r, uint32_t tiles);
/* `default_entries`: the chunk size where the host set none (tiled.c picks
 * it for the draw). */
plume_result tiled_ensure_chunks(const particle_view *v, tiled_renderer *r, uint32_t tiles, uint32_t default_entries);
plume_result tiled_ensure_entries(const particle_view *v, tiled_renderer *r, uint32_t tiles);

#endif
