/*
 * plume_mesh.h — mesh particles [since 1.3]: a system whose particles each
 * draw a small mesh (debris, leaves, shards, casings) instead of a sprite,
 * turned by a full 3D orientation that tumbles, spins down and rolls.
 *
 * Part of the particle system's API: include plume_particles.h, which
 * includes this header (plume_system_desc.meshes). docs/meshes.md has the
 * whole story; docs/integration.md says where mesh systems go in a frame.
 *
 * A mesh system (meshes.count > 0) needs the compute path (refused on the
 * fragment path with PLUME_ERROR_GL_UNSUPPORTED and a message). Each update
 * integrates every live particle's orientation (a quaternion) and angular
 * velocity beside its motion, in a buffer that only mesh systems have. Its
 * plume_system_draw is one instanced indexed draw per mesh (instances: the
 * drawn particles, back to front where the system sorts), lit with the
 * frame's light and ambient as lit sprites are (ambient + light *
 * max(0, n . l), n the mesh's normal turned with the particle), coloured by
 * the system's texture (appearance.texture, sampled at the mesh's texture
 * coordinates; its flipbook is not used) times colour and opacity over life.
 * The draw ignores the frame's draw_resolution (a mesh draw is always full
 * resolution) and needs no depth_texture: it tests against the bound
 * framebuffer's depth buffer (lod.cull culls against one where given). An
 * opaque or alpha-tested particle small on screen (its bounding sphere
 * under about 64 pixels across) is rasterized by compute shaders and
 * written into the framebuffer's colour and depth through its depth test:
 * the same picture, at a fraction of the raster back end's cost for
 * triangles of a pixel or two; a frame whose draw_path is
 * PLUME_DRAW_PATH_RASTER keeps every mesh on the raster back end
 * (docs/meshes.md, "The compute raster").
 *
 * Where a mesh system goes in a frame: an opaque or alpha-tested one
 * (surface) writes depth and blends nothing: draw it in the host's opaque
 * pass, before the depth is copied for the transparent particles, so that
 * soft particles fade against the debris and collide with it; the depth it
 * leaves is the meshes' own (the host's depth function, depth writes on).
 * A transparent one tests depth without writing it and blends
 * premultiplied, drawn with the other transparent particles.
 */
#ifndef PLUME_MESH_H
#define PLUME_MESH_H

#include <stdbool.h>

#include "plume_common.h"
#include "plume_emitter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most meshes one system draws. */
enum { PLUME_MAX_MESHES = 4 };

/* One vertex attribute or the indices in a host's GL buffer. */
typedef struct plume_mesh_buffer {
    uint32_t buffer;            /* a GL buffer name of the context's share group; 0: none */
    uint32_t offset;            /* bytes to the first element */
    uint32_t stride;            /* bytes between elements; 0: tightly packed */
} plume_mesh_buffer;

/* A mesh: triangles, with per-vertex positions (3 floats), normals (3
 * floats) and texture coordinates (2 floats, v down from the texture's top
 * row), either in the host's GL buffers or as arrays plume uploads once at
 * creation (`position_data` not NULL: the arrays; then every *_buffer must
 * be 0). Positions are in the particle's own units: the drawn mesh is
 * scaled by the particle's size (size over life included) times
 * mesh_scale_*; a mesh of radius 0.5 about its origin is as big as a sprite
 * of the same size.
 *
 * Host buffers: plume never writes, deletes or keeps them bound; the host
 * keeps them alive and unchanged in size while the system lives. Checked at
 * creation: each named buffer is a buffer (glIsBuffer) and its layout stays
 * within its GL_BUFFER_SIZE (offset + stride x (count - 1) + element bytes);
 * the index buffer's indices are read back once and checked below
 * vertex_count. Changing the buffers' contents afterwards is the host's
 * affair: indices it writes later are not checked again. */
typedef struct plume_mesh_desc {
    uint32_t vertex_count;          /* required, 3 .. 2^24 */
    uint32_t index_count;           /* a multiple of 3; 0: not indexed, vertex_count / 3 triangles
                                       (vertex_count then a multiple of 3) */
    uint32_t index_type;            /* GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT or GL_UNSIGNED_INT
                                       (host indices); 0: GL_UNSIGNED_INT */
    plume_mesh_buffer positions;    /* required without position_data */
    plume_mesh_buffer normals;      /* 0: every normal is +z of the mesh */
    plume_mesh_buffer texcoords;    /* 0: every coordinate is (0.5, 0.5) */
    plume_mesh_buffer indices;      /* required with index_count (stride unused) */
    /* Data plume uploads at creation (read then only): vertex_count x 3,
     * x 3, x 2 floats and index_count uint32_t; normal_data, texcoord_data
     * and index_data may be NULL (as their buffers' 0 above). */
    const float *position_data;
    const float *normal_data;
    const float *texcoord_data;
    const uint32_t *index_data;
} plume_mesh_desc;

/* Which mesh a particle draws (plume_mesh_particles.pick). */
typedef enum plume_mesh_pick {
    PLUME_MESH_PICK_RANDOM = 0,     /* at random per particle (its emission number and the seed) */
    PLUME_MESH_PICK_BY_EMITTER = 1  /* emitter e draws mesh e % count */
} plume_mesh_pick;

/* How a mesh system's pixels cover (plume_mesh_particles.surface). */
typedef enum plume_mesh_surface {
    PLUME_MESH_OPAQUE = 0,       /* depth written, no blend, no sort needed */
    PLUME_MESH_ALPHA_TESTED = 1, /* as opaque, pixels of alpha below alpha_cutoff discarded */
    PLUME_MESH_TRANSPARENT = 2   /* blended premultiplied, depth tested not written, back to front
                                    by centre depth (within each mesh); faces turned away from the
                                    eye (by the normals) are not drawn */
} plume_mesh_surface;

/* A particle's orientation at birth (plume_mesh_particles.start_orientation). */
typedef enum plume_mesh_start {
    PLUME_MESH_START_RANDOM = 0,        /* uniform over all orientations */
    PLUME_MESH_START_ALONG_VELOCITY = 1 /* the mesh's +y along its velocity at birth */
} plume_mesh_start;

/* Level of detail and culling of a mesh system's draw
 * (plume_mesh_particles.lod) [since 1.3], worked out per particle on the GPU
 * in the draw's instance pass (nothing read back), from the draw's camera
 * and viewport: a particle's size on screen is the projected diameter in
 * pixels of its bounding sphere (its size x mesh scale x its mesh's farthest
 * vertex). Levels, from the smallest: below impostor_below_pixels a lit
 * round impostor (a point sprite facing the camera, shaded as a sphere with
 * the particle's colour and the texture's centre, at the particle's centre
 * depth); below coarse_below_pixels a coarse mesh that plume derives from
 * each mesh at creation (vertex clustering on a grid: the same vertices,
 * fewer triangles, about a third; a mesh too small to simplify keeps its
 * own); otherwise the full mesh. Between the impostors' size and the
 * compute raster's (above) the full mesh is rasterized in compute instead
 * of the coarse one, where the frame lets it. Culling drops, before anything is drawn,
 * the particles whose sphere is outside the draw's view frustum and, where
 * the frame gives a depth_texture, those whose sphere is wholly behind the
 * scene depth over the pixels it covers (a conservative test: a sphere over
 * more than 16 x 16 depth texels is kept). The culled change no pixel.
 * Opaque and alpha-tested surfaces only: a transparent one draws back to
 * front, which the lists would lose (refused: PLUME_ERROR_INVALID_ARGUMENT
 * naming meshes.lod). Errors: a negative or non-finite threshold. */
typedef struct plume_mesh_lod {
    float coarse_below_pixels;   /* >= 0; 0 (default): never the coarse mesh */
    float impostor_below_pixels; /* >= 0; 0 (default): never the impostor */
    bool cull;                   /* default false: every drawn particle reaches the raster */
    /* true: the meshes' faces turned away from the eye are not drawn (GL's
     * back faces: wound clockwise on screen, the front counter-clockwise),
     * half the triangles of a closed mesh wound counter-clockwise seen from
     * outside, changing none of its pixels; a leaf seen from behind is then
     * not drawn. Default false: both sides drawn. */
    bool cull_back_faces;
} plume_mesh_lod;

/* plume_system_desc.meshes. All zero: no meshes, the system draws sprites as
 * before. Errors at creation (PLUME_ERROR_INVALID_ARGUMENT, one message
 * naming the field, nothing made): count over PLUME_MAX_MESHES; a mesh
 * field out of its range or both data and buffers; an uploaded index at or
 * past vertex_count; a host buffer that is not a buffer, a layout past its
 * size, a host index out of range (those three at plume_system_create only:
 * plume_system_desc_check has no GL); pick or surface or start_orientation
 * outside their enums; a negative or non-finite number. */
typedef struct plume_mesh_particles {
    uint32_t count;                         /* meshes used, 0 .. PLUME_MAX_MESHES; 0: sprites */
    plume_mesh_desc meshes[PLUME_MAX_MESHES];
    uint32_t pick;                          /* a plume_mesh_pick; default RANDOM */
    uint32_t surface;                       /* a plume_mesh_surface; default OPAQUE */
    float alpha_cutoff;                     /* ALPHA_TESTED: 0 .. 1; default 0: 0.5 */
    uint32_t start_orientation;             /* a plume_mesh_start; default RANDOM */
    /* Angular speed at birth, radians per second, about an axis uniform at
     * random; 0 <= min <= max; default {0, 0}: none. */
    plume_range angular_speed;
    /* Angular velocity lost per second: w' = -angular_drag w; >= 0,
     * default 0. A contact with a collider or the scene's depth
     * (plume_world) pulls the angular velocity towards rolling without
     * slipping (n x v / r: the contact's normal, the velocity after the
     * bounce, the particle's size times its mesh's farthest vertex) by
     * min(1, 2.5 x the collision's friction). */
    float angular_drag;
    /* Scale per mesh axis at birth and at death, linear over life, times
     * the size; each >= 0; all three 0 (default): {1, 1, 1}. */
    float scale_start[3];
    float scale_end[3];
    /* Draw speed for many small meshes (plume_mesh_lod); all zero
     * (default): every particle draws its full mesh, as before. [since 1.3] */
    plume_mesh_lod lod;
} plume_mesh_particles;

#ifdef __cplusplus
}
#endif

#endif
