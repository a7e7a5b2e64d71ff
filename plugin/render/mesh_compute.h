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
 * after. Part of the mesh draw path (mesh_draw.c), whose attachment holds a
 * mesh_compute. Not part of the API. */
#ifndef PLUME_RENDER_MESH_COMPUTE_H
#define PLUME_RENDER_MESH_COMPUTE_H

#include "render/particle_uniforms.h"

enum { MESH_RASTER_UNIFORM_COUNT = 17, MESH_RESOLVE_UNIFORM_COUNT = 5, MESH_COMPUTE_GL_OBJECTS = 4 };

typedef struct mesh_compute {
    GLuint raster_program, resolve_program, vertex_array;
    particle_uniforms raster_uniforms;
    GLint raster_at[MESH_RASTER_UNIFORM_COUNT], resolve_at[MESH_RESOLVE_UNIFORM_COUNT];
    uint32_t triangles[PLUME_GPU_MAX_MESHES];
    /* mesh_compute_takes, worked out at creation. */
    bool takes[PLUME_GPU_MAX_MESHES];
    /* Uploaded by plume (the host cannot rewrite it), closed and wound
     * counter-clockwise seen from outside: opaque, its faces turned away
     * from the eye are hidden, and skipped. */
    bool closed[PLUME_GPU_MAX_MESHES];
    /* Per pixel of the viewport the nearest depth key, then two words of
     * its colour each, for `pixels` pixels. */
    GLuint pixel_buffer;
    uint64_t pixels;
} mesh_compute;

/* The programs, which meshes it takes and which are closed (reads the
 * uploaded meshes back: binds GL_COPY_READ_BUFFER). */
plume_result mesh_compute_create(const particle_view *view, mesh_compute *compute);
uint32_t mesh_compute_gl_objects(const mesh_compute *compute, plume_gl_object *out);
/* Whether mesh `mesh`'s particles may be rasterized in compute: its
 * triangles times the system's capacity (the jobs of a list) fit 31 bits,
 * and its indices end within their buffer's last whole word (the raster
 * reads byte and short indices a word at a time). */
bool mesh_compute_takes(const mesh_compute *compute, uint32_t mesh);
/* Whether the per-pixel buffer of `target`'s viewport fits one storage
 * block of this GL. */
bool mesh_compute_fits(const particle_view *view, const draw_target *target);
/* The compute lists' meshes drawn onto the host's framebuffer (the instance
 * pass filled the lists; the depth test on, with depth writes and no blend,
 * and the sprite on unit 0 as the raster draw has them). `buffers`: the
 * mesh draw's indirect commands, lists and instance records. */
typedef struct mesh_compute_buffers {
    GLuint args, lists, instances;
    uint32_t first_list; /* the first mesh's compute list */
} mesh_compute_buffers;
plume_result mesh_compute_draw(const particle_view *view, mesh_compute *compute, const draw_frame *frame,
                               const draw_target *target, const mesh_compute_buffers *buffers, const float eye[3]);

#endif
