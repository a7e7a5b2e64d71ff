/* What the compute raster's tests (tests/render/test_mesh_compute.c, the
 * pictures; test_mesh_compute_host.c, the host's side) share: the lab's
 * threshold forced and its count read (plume_lab.h: plume_tests only, not
 * plume_plugin_host), a still system updated once, its draw by the render
 * fixture, the pixels a mesh covers, and the bound a compute picture keeps
 * to the raster draw's. On the plume fixture's context. */
#ifndef PLUME_MESH_COMPUTE_FIXTURE_H
#define PLUME_MESH_COMPUTE_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "mesh_reference.h"
#include "plume/plume_particles.h"
#include "render_fixture.h"

/* The lab's thresholds: every mesh in compute, none. */
#define EVERY_MESH 1e9f
#define NO_MESH 0.0f

/* A still mesh particle: `mesh` at `at`, its +y turned onto `axis`, `size` wide. */
typedef struct mesh_placed {
    const mesh_arrays *mesh;
    const float *at, *axis;
    float size;
} mesh_placed;
/* A still system of the two (emitter k draws mesh k, pair[k]'s), and the
 * CPU's instances of them. */
plume_system_desc mesh_pair_desc(const mesh_placed pair[2]);
void mesh_pair_instances(const mesh_placed pair[2], mesh_instance instances[2]);

/* The turned cube (1.2 wide) and the sphere (1.0, upright) that pass
 * through each other, the depth deciding along the curve where they meet:
 * where each stands, and which way. */
extern const float CROSSING_CUBE_AT[3], CROSSING_SPHERE_AT[3], CROSSING_CUBE_AXIS[3], CROSSING_UP[3];
/* mesh_pair_desc and mesh_pair_instances of the crossing, the cube first. */
plume_system_desc mesh_crossing_desc(const mesh_arrays *cube, const mesh_arrays *sphere);
void mesh_crossing_instances(const mesh_arrays *cube, const mesh_arrays *sphere, mesh_instance instances[2]);

/* Forces the system's compute threshold to `pixels` (asserts it took). */
void mesh_compute_below(plume_system system, float pixels);
/* The particles the system's last draw rasterized in compute. */
uint32_t mesh_computed(plume_system system);
/* The particles the system's last update left to draw. */
uint32_t mesh_drawn_count(plume_system system);

/* The system of `desc`, updated once for camera `c` (dt 0.001: the still
 * particles born, nothing drawn yet). */
plume_system mesh_create_updated(const plume_system_desc *desc, const render_camera *c);
/* render_draw of the system's particles with the compute threshold at
 * `pixels`; returns how many the compute raster took. */
uint32_t mesh_draw_below(plume_system system, float pixels, const render_camera *c, plume_frame_desc frame,
                         bool with_depth, int occluder_width, float occluder_depth, float *rgba);

/* Whether some colour channel of pixel i differs from the background's by
 * more than 0.01 (a face in the ambient light only is 0.05 darker). */
bool mesh_covers(const float *rgba, int i);
/* Whether pixel i is the render fixture's background exactly. */
bool mesh_is_background(const float *rgba, int i);
/* How many of the picture's pixels mesh_covers. */
int mesh_pixels(const float *rgba);

/* The compute raster's picture against the raster draw's of the same
 * particles: at most `most` pixels differ by over 0.02 in a channel (a
 * pixel centre on a shared edge, two surfaces meeting within rounding: the
 * two raster them apart, nothing more), and the raster covered at least
 * `covered` pixels. Prints what it compared. */
void assert_compute_matches_raster(const float *compute, const float *raster, int covered, int most,
                                   const char *what);

#endif
