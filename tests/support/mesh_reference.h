/* Meshes for the mesh-particle tests and a small CPU rasterizer of them:
 * a unit cube and a lit UV sphere, drawn the way the mesh draw path draws a
 * particle (turned by its quaternion, scaled by its size, lit ambient + light
 * * max(0, n . l) with the normal facing the eye), with a depth buffer. The
 * GPU's picture is compared with it. Compiled into plume_tests and, through
 * the plugin table, into plume_plugin_host. */
#ifndef PLUME_MESH_REFERENCE_H
#define PLUME_MESH_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include <cglm/cglm.h>

#include "plume/plume_particles.h"

/* A mesh's arrays (owned by the caller through mesh_reference_free). */
typedef struct mesh_arrays {
    uint32_t vertex_count, index_count;
    float *positions, *normals, *texcoords; /* 3, 3, 2 floats a vertex */
    uint32_t *indices;
} mesh_arrays;

/* A cube of half-size 0.5 round the origin, flat faces (24 vertices, 12
 * triangles). */
mesh_arrays mesh_reference_cube(void);
/* A sphere of radius 0.5: `rings` x `segments` quads (smooth normals). */
mesh_arrays mesh_reference_sphere(uint32_t rings, uint32_t segments);
void mesh_reference_free(mesh_arrays *m);
/* The arrays as a plume_mesh_desc plume uploads. */
plume_mesh_desc mesh_reference_desc(const mesh_arrays *m);
/* The shaders' orientation_along (PLUME_MESH_START_ALONG_VELOCITY): the
 * shortest turn of +y onto `axis` (any length but 0), a quaternion x, y, z, w. */
void mesh_reference_orientation_along(const float axis[3], float q[4]);

/* One particle drawn as a mesh. */
typedef struct mesh_instance {
    const mesh_arrays *mesh;
    float position[3], orientation[4], scale[3]; /* scale: size x mesh scale */
    float color[3];
} mesh_instance;

/* The light (as plume_frame_desc's: the direction towards the light). */
typedef struct mesh_light {
    float direction[3], color[3], ambient[3];
} mesh_light;

/* Rasterizes `count` instances into `rgba` (width x height, 4 floats a
 * pixel, rows from the bottom, as glReadPixels) and `depth` (window depth,
 * 0 .. 1, GL_LESS), both holding the background already; pixel centres
 * sampled, as GL does. */
void mesh_reference_draw(const mesh_instance *instances, uint32_t count, const mat4 view, const mat4 projection,
                         const mesh_light *light, int width, int height, float *rgba, float *depth);

#endif
