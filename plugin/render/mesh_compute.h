/* The mesh draw's compute raster (since 1.3): the opaque and alpha-tested
 * meshes small on screen rasterized by compute shaders instead of the GL's
 * raster back end, which triangles of a pixel or two leave mostly idle
 * (100 K 80-triangle meshes took 18 ms on an H200 whatever the vertex work,
 * notes/wave3-draws-h200.md). The instance pass puts each particle under
 * the threshold in its mesh's compute list; here, per mesh, a depth pass
 * keeps each pixel's nearest depth key, a colour pass shades the pixels
 * each triangle kept (mesh_raster.comp), and one resolve over the box of
 * pixels they covered writes their colour and depth into the host's
 * framebuffer through its depth test (mesh_resolve.vert, .frag): the same
 * picture as the raster draw, its depth left the same for what is drawn
 * after. Part of the mesh draw path
 * (mesh_draw.c), whose attachment holds a mesh_compute. Not part of the
 * API. */
#ifndef PLUME_RENDER_MESH_COMPUTE_H
#define PLUME_RENDER_MESH_COMPUTE_H

#include "render/particle_uniforms.h"

enum { MESH_RASTER_UNIFORM_COUNT = 13, MESH_RESOLVE_UNIFORM_COUNT = 3, MESH_COMPUTE_GL_OBJECTS = 7 };

typedef struct mesh_compute {
    GLuint raster_program, resolve_program, vertex_array;
    particle_uniforms raster_uniforms;
    GLint raster_at[MESH_RASTER_UNIFORM_COUNT], resolve_at[MESH_RESOLVE_UNIFORM_COUNT];
    /* The meshes' copies, read back once at creation (PLUME_BINDING_MESH_VERTICES, _INDICES). */
    GLuint vertices, indices;
    uint32_t vertex_first[PLUME_GPU_MAX_MESHES], index_first[PLUME_GPU_MAX_MESHES];
    uint32_t triangles[PLUME_GPU_MAX_MESHES];
    /* Per pixel of the viewport: the nearest depth key and its colour, for `pixels` pixels. */
    GLuint depth_keys, colours;
    uint64_t pixels;
} mesh_compute;

/* The programs and the meshes' copies (reads the meshes back: binds
 * GL_COPY_READ_BUFFER and GL_COPY_WRITE_BUFFER). */
plume_result mesh_compute_create(const particle_view *view, mesh_compute *compute);
uint32_t mesh_compute_gl_objects(const mesh_compute *compute, plume_gl_object *out);
/* Whether mesh `mesh`'s particles may be rasterized in compute: its
 * triangles times the system's capacity (the jobs of a list) fit 31 bits. */
bool mesh_compute_takes(const particle_view *view, const mesh_compute *compute, uint32_t mesh);
/* The compute lists' meshes drawn onto the host's framebuffer (the instance
 * pass filled the lists; the depth test on, with depth writes and no blend,
 * and the sprite on unit 0 as the raster draw has them). `buffers`: the
 * mesh draw's indirect commands, lists and instance records. */
typedef struct mesh_compute_buffers {
    GLuint args, lists, instances;
} mesh_compute_buffers;
plume_result mesh_compute_draw(const particle_view *view, mesh_compute *compute, const draw_frame *frame,
                               const draw_target *target, const mesh_compute_buffers *buffers, const float eye[3]);

#endif
