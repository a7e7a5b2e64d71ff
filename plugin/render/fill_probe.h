/* The automatic draw path's measure of how much of the screen a system's
 * raster draw blends (render/fill_probe.c): the samples about one draw in
 * eight passes, counted by an occlusion query and read frames later, never
 * waited on, over the viewport's pixels. A few large
 * particles (a dust storm of puffs metres across) cost the raster back end
 * by their pixels, not their count; draw_decide takes this fill with the
 * count. A fill is measured on raster draws only, so the one a tiled draw
 * decides by is the last measure scaled by the drawn bound since (a puff
 * dying out empties the screen while no raster draw measures it). A host
 * may draw a system through several views a frame (reflections, shadows,
 * split screen) in a fixed order: the draws between turns vary, so every
 * view gets turns, and the fill decided by is the largest of the last few
 * reads, so views that see different fills do not flip the path between
 * them. Not part of the API. */
#ifndef PLUME_RENDER_FILL_PROBE_H
#define PLUME_RENDER_FILL_PROBE_H

#include <epoxy/gl.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/plume_internal.h"
#include "plume/plume_particles.h"

enum { FILL_PROBE_QUERIES = 2, FILL_PROBE_READS = 4 };

typedef struct fill_probe {
    GLuint queries[FILL_PROBE_QUERIES]; /* each made by its first probe */
    uint32_t pixels[FILL_PROBE_QUERIES]; /* a pending query's viewport pixels; 0: none pending */
    uint32_t bounds[FILL_PROBE_QUERIES]; /* a pending query's drawn bound */
    uint32_t next;
    uint32_t until_turn, turns; /* raster draws before the next probe's turn; turns taken */
    /* The newest reads (a ring from read_next): samples over the viewport's
     * pixels, and the drawn bound of the draw each measured; 0, 0 where none. */
    float fills[FILL_PROBE_READS];
    uint32_t fill_bounds[FILL_PROBE_READS], read_next;
} fill_probe;

/* What a system's or a draw group's automatic path decides by: the
 * results arrived read (no wait, oldest first; the scope's query buffer
 * binding 0 meanwhile), then the fill of a draw of `drawn_bound`
 * particles, the largest of the last reads, each in proportion to the
 * bounds; 0 where the frame names a path or gives no depth texture
 * (the tiled path could not draw: nothing measured). */
float fill_probe_fill_for(fill_probe *probe, const plume_frame_desc *frame, uint32_t drawn_bound,
                          plume_gl_scope *scope);
/* Whether the frame's draw counts its fill: it leaves the path automatic and
 * gives a depth texture (without one the tiled path could not draw). */
bool fill_probe_counts(const plume_frame_desc *frame);
/* Begins a query around the raster draw to come where it is this draw's
 * turn, a query is free and the host has no occlusion query of its own
 * running, of any kind (asked only then); true where one began: end it
 * after the draw with fill_probe_end. */
bool fill_probe_begin(fill_probe *probe, int viewport_pixels, uint32_t drawn_bound);
void fill_probe_end(void);
void fill_probe_release(fill_probe *probe, const plume_env *env);
uint32_t fill_probe_list(const fill_probe *probe, plume_gl_object *out, uint32_t capacity);

#endif
