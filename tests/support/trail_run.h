/* What the trail image tests share (tests/render/test_trails.c: the raster
 * path; tests/render/test_trails_tiled.c: the tiled path): a system of
 * trails stepped beside the CPU's trails (trail_reference.h), drawn for
 * particle_fixture's orthographic camera and compared with the CPU's
 * picture. */
#ifndef PLUME_TRAIL_RUN_H
#define PLUME_TRAIL_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "trail_reference.h"

extern const float TRAIL_CLEAR[4];

/* A still template emitter (rate 0: emitted by plume_system_emit) of one
 * particle moving at `velocity`, solid squares of `size`, living long. */
plume_emitter_desc trail_mover(const float velocity[3], float size);
/* Trails of `points` at `spacing`, narrowing along, translucent orange. */
plume_system_desc trail_desc(uint32_t points, float spacing);
void trail_emit_at(plume_system system, uint32_t emitter, float x, float y, float z);
/* The system drawn by `path` (plume_draw_path) at `resolution` over a far
 * depth plane into `image` (IMAGE_SIZE squared RGBA floats). */
void trail_draw_image(plume_system system, uint32_t path, plume_draw_resolution resolution, float *image);
/* The same for a draw group. */
void trail_draw_group_image(plume_draw_group group, uint32_t path, plume_draw_resolution resolution, float *image);

typedef struct trail_pictures {
    float *image, *reference, *unsorted;
    bool *ambiguous, *unsorted_ambiguous;
} trail_pictures;

/* A test's system, the CPU's trails beside it and its pictures. */
typedef struct trail_run {
    plume_system system;
    plume_system_desc desc; /* resolved */
    ref_trail *trails;
    trail_pictures pictures;
} trail_run;

trail_run trail_run_begin(plume_system_desc d);
void trail_run_end(trail_run *r);
/* One update for the orthographic camera, the particles recorded into the
 * CPU's trails. */
void trail_step(trail_run *r);
/* How many pixels of rows [first, last) differ from the background. */
int trail_covered_rows(const float *rgba, int first, int last);
/* The system drawn at full resolution by the tiled path, then the raster
 * path (left in r->pictures.image), each against the CPU's picture (the
 * tiled path's bound: its target's half floats), and where `order_matters`,
 * proof that the unsorted order's picture is another. */
void trail_compare(const char *name, trail_run *r, bool order_matters);
/* A spark's trail (seeded) through a cloud of the system's own squares in
 * front of it and behind, 22 updates on. */
trail_run trail_spark_through_a_cloud(uint32_t seed);

/* A draw group's systems (trails[i] the CPU's trails of systems[i]; NULL
 * for a sprite system): every drawn quad and segment of all of them in the
 * group's one order (by the view depth's full key, ties by the group's
 * value: each system's first record, its capacity times its pairs a
 * particle, plus the quad's own value), composited over TRAIL_CLEAR. */
void composite_trail_group(const plume_system *systems, const ref_trail *const *trails, uint32_t count, float *rgba,
                           bool *ambiguous);
/* The group's picture (poisoned first) by the tiled, then the raster path
 * against that composite at full resolution, and at 1/2 and 1/4 by both
 * against the full resolution's (PSNR); where `apart_differs`, proof that
 * the systems drawn one after the other show another picture. */
void trail_group_compare(const char *name, plume_draw_group group, const plume_system *systems,
                         const ref_trail *const *trails, uint32_t count, trail_pictures *p, bool apart_differs);

#endif
