/* The mesh draw's levels of detail and culling (plume_mesh_lod, since 1.3):
 * the coarse meshes derived at the first draw (vertex clustering over each
 * mesh's own vertices: one more index buffer a mesh), the instance pass's
 * level uniforms, and the coarse and impostor draws. Part of the mesh draw
 * path (mesh_draw.c), whose attachment holds a mesh_levels; the instance
 * pass sorts the particles into the lists whose draws are here. Not part of
 * the API. */
#ifndef PLUME_RENDER_MESH_LOD_H
#define PLUME_RENDER_MESH_LOD_H

#include "render/particle_uniforms.h"

enum { MESH_LEVEL_UNIFORM_COUNT = 15, MESH_IMPOSTOR_UNIFORM_COUNT = 3, MESH_LEVEL_GL_OBJECTS = 1 + 2 * PLUME_GPU_MAX_MESHES };

typedef struct mesh_levels {
    GLuint coarse_indices[PLUME_GPU_MAX_MESHES]; /* GL_UNSIGNED_INT over the mesh's vertices; 0: keeps its own */
    uint32_t coarse_index_count[PLUME_GPU_MAX_MESHES];
    GLuint coarse_arrays[PLUME_GPU_MAX_MESHES];  /* the coarse level's vertex arrays (mesh_draw.c makes them) */
    GLuint impostor_program;
    particle_uniforms impostor_uniforms;
    GLint impostor_at[MESH_IMPOSTOR_UNIFORM_COUNT];
    GLint instance_at[MESH_LEVEL_UNIFORM_COUNT];  /* in the instance pass's program */
} mesh_levels;

/* A mesh read back from its buffers (the coarse level's clustering, the
 * compute raster's test of closure): `vertices` positions and normals of 3
 * floats (normals NULL: the mesh has none), `indices` vertex numbers, 3 a
 * triangle. */
typedef struct mesh_data {
    uint32_t vertices, indices;
    float *positions, *normals;
    uint32_t *triangles;
} mesh_data;
/* The bytes of an index of `type` (GL_UNSIGNED_BYTE, _SHORT, else _INT). */
static inline uint32_t mesh_index_bytes(GLenum type) {
    return type == GL_UNSIGNED_BYTE ? 1u : type == GL_UNSIGNED_SHORT ? 2u : 4u;
}
/* Reads `mesh` back (binds GL_COPY_READ_BUFFER); false: out of memory,
 * nothing kept. */
bool mesh_read_data(const plume_env *env, const particle_mesh *mesh, mesh_data *out);
void mesh_free_data(const plume_env *env, mesh_data *data);

/* Whether the system asks for levels or culling (the lists by level). */
bool mesh_levels_asked(const particle_view *view);
/* The level uniforms' locations in the instance pass's program (made
 * with or without levels: it sets u_levels false without). */
void mesh_levels_find_uniforms(mesh_levels *levels, GLuint instance_program);
/* The coarse meshes' index buffers (coarse_indices, coarse_index_count:
 * the mesh_draw path makes their vertex arrays) and the impostor program.
 * Reads the meshes' buffers back once (binds GL_COPY_READ_BUFFER and
 * GL_COPY_WRITE_BUFFER). */
plume_result mesh_levels_create(const particle_view *view, mesh_levels *levels);
uint32_t mesh_levels_gl_objects(const mesh_levels *levels, plume_gl_object *out);
/* The instance pass's level and culling uniforms, on the program in use;
 * `sizes`: those that measure a particle on screen even without levels
 * (the compute raster's lists). */
void mesh_levels_set_instance_uniforms(const particle_view *view, const mesh_levels *levels, const draw_frame *frame,
                                       const draw_target *target, GLuint depth_sampler, bool sizes);
/* The impostors' draw (the instance records and lists bound, the args
 * buffer on GL_DRAW_INDIRECT_BUFFER), the host's point size state kept. */
void mesh_levels_draw_impostors(const particle_view *view, const mesh_levels *levels, const draw_frame *frame,
                                GLuint sprite_sampler, uint32_t list_room);

#endif
