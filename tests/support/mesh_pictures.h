/* What the mesh tests share beside the CPU rasterizer (mesh_reference.h):
 * the light they draw in, a still particle's emitter and the CPU's instance
 * of it, the CPU's picture in render_frame's host frame, and the bound a
 * GPU picture keeps to it. No plume call: compiled into plume_tests and,
 * as it is, into plume_plugin_host. */
#ifndef PLUME_MESH_PICTURES_H
#define PLUME_MESH_PICTURES_H

#include <stdint.h>

#include "mesh_reference.h"
#include "plume/plume_particles.h"

/* The light the mesh tests draw in, and a frame lit by it (the rest of the
 * frame default). */
extern const mesh_light MESH_LIGHT;
plume_frame_desc mesh_lit_frame(void);

/* One emitter of a still particle `size` wide at `position` whose +y is
 * turned onto `axis` (PLUME_MESH_START_ALONG_VELOCITY with a speed too small
 * to move it). */
plume_emitter_desc mesh_still_emitter(const float position[3], const float axis[3], float size);
/* A lit system of one mesh (meshes.meshes[0] to fill in) whose particles'
 * +y starts along their velocity, room for 7, seeded by test_random_u32. */
plume_system_desc mesh_still_system_desc(void);
/* The CPU's white instance of mesh_still_emitter's particle drawing `mesh`. */
mesh_instance mesh_still_instance(const mesh_arrays *mesh, const float position[3], const float axis[3], float size);

/* The one still mesh the raster and compute raster tests both draw against
 * the CPU: `mesh` 1.4 wide at (0.2, -0.1, -3), its +y turned onto `axis`;
 * its system's descriptor, and the check of the GPU's picture of it
 * against the CPU's (mesh_assert_images_agree, at least 400 pixels). */
plume_system_desc mesh_one_still_desc(const mesh_arrays *mesh, const float axis[3]);
void mesh_assert_one_still_mesh(const float *gpu, const mesh_arrays *mesh, const float axis[3], const char *what);

/* The CPU's picture of `instances` through render_make_camera over the
 * render fixture's background, its depth as render_frame's host frame's (1,
 * `occluder_depth` where x < occluder_width; the GL's default depth mode).
 * Free it. */
float *mesh_cpu_picture(const mesh_instance *instances, uint32_t count, int occluder_width, float occluder_depth);

/* The GPU's picture against the CPU's: pixels differing by more than 0.02
 * in a channel at most 1.5% of the frame (the triangles' edges, where the
 * fill rules differ), and the meshes covered at least `covered` pixels of
 * the CPU's picture. Prints what it compared. */
void mesh_assert_images_agree(const float *gpu, const float *cpu, int covered, const char *what);

#endif
