/* What a draw reads of a particle system: a narrow, read-only view that the
 * particle part publishes per system, and the slots in which the draw part
 * keeps its own per-system state. render/ reads systems through this header
 * only (never particles_internal.h), so the particle part knows nothing of
 * the draw paths: render depends on particles, never back. Not part of the
 * API.
 *
 * A view is a value filled by a lookup (particles_find_view), valid during
 * the call that made it; its GL names, descriptor and profiler belong to the
 * system. A draw group makes a view of its own for the low-resolution
 * wrapper (env, context, state buffer and profiler; the rest zero). */
#ifndef PLUME_PARTICLES_PARTICLE_VIEW_H
#define PLUME_PARTICLES_PARTICLE_VIEW_H

#include <cglm/cglm.h>

#include "core/plume_internal.h"
#include "particles/particle_look.h"
#include "plume/plume_particles.h"
#include "profile/profiler.h"
#include "shared/plume_gpu_layout.h"
#include "sort/sort_fragment_path.h"

/* Byte offsets into a system's state buffer that a draw reads (the shared
 * layout's words): the draw's indirect arguments {6, drawn count, 0, 0} and
 * the drawn count on its own. A draw group's state buffer has both at the
 * same offsets. */
enum {
    STATE_DRAW_ARGS_OFFSET = 4 * PLUME_STATE_DRAW_VERTEX_COUNT,
    STATE_DRAWN_COUNT_OFFSET = 4 * PLUME_STATE_DRAWN_COUNT
};

/* The state groups every fragment-path call saves (textures, draw state,
 * pixel transfers, texture buffers, transform feedback). */
#define FRAGMENT_PARTICLES_SCOPE_GROUPS SORT_FRAGMENT_PATH_SCOPE_GROUPS

/* The frame's light as the draw uses it (plume_frame_desc, since 1.2): the
 * direction normalised (zero: none). */
typedef struct frame_light {
    float direction[3], color[3], ambient[3];
} frame_light;

/* The fragment path's particles as its draw reads them (GL 3.3: textures,
 * the sorted list through a buffer texture). */
typedef struct particle_fragment_view {
    uint32_t particle_width;     /* slot s is the texel (s % width, s / width) */
    uint32_t list_count;         /* pairs in the last update's list (0: nothing to draw) */
    GLuint list_texture;         /* a buffer texture over the list (0 when list_count is 0); on
                                  * OpenGL ES an RG32UI 2D texture particle_width wide */
    GLuint position_age, velocity, traits; /* the last update's particle textures */
    GLuint sampler;              /* nearest, base level */
    GLuint vertex_array;         /* empty: the passes pull from textures */
} particle_fragment_view;

/* A mesh system's mesh as its draw reads it (particles/mesh.c made or
 * checked it at creation): GL buffers (the host's or the system's own
 * uploads) and their layout, in bytes. */
typedef struct particle_mesh {
    GLuint positions, normals, texcoords, indices; /* 0: none (normals, texcoords, indices) */
    GLuint position_offset, normal_offset, texcoord_offset, index_offset;
    GLsizei position_stride, normal_stride, texcoord_stride; /* never 0 here */
    uint32_t vertex_count, index_count;     /* index_count 0: not indexed */
    GLenum index_type;
    float radius;                           /* the farthest vertex from the mesh's origin */
    bool uploaded;                          /* plume's buffers, from the descriptor's data: the host cannot
                                               rewrite them */
} particle_mesh;

/* The meshes of a mesh system (plume_system_desc.meshes.count > 0). */
typedef struct particle_mesh_view {
    uint32_t count;
    particle_mesh meshes[PLUME_GPU_MAX_MESHES];
    GLuint spin_buffer;  /* capacity ParticleSpins (PLUME_BINDING_SPIN) */
} particle_mesh_view;

/* A range of a GL buffer: a system's particle storage is a range of a page
 * of the context's pool (particle_pool.c), bound with glBindBufferRange;
 * size 0 stands for the whole buffer (a draw group's own state buffer). */
typedef struct particle_range {
    GLuint buffer;
    GLintptr offset;
    GLsizeiptr size;
} particle_range;

/* Binds `range` to the storage buffer binding `binding`. */
static inline void particle_bind_storage(GLuint binding, particle_range range) {
    if (range.size) glBindBufferRange(GL_SHADER_STORAGE_BUFFER, binding, range.buffer, range.offset, range.size);
    else glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, range.buffer);
}

/* What the context's particle pool holds (the lab's memory figures). */
typedef struct particle_pool_usage_counts {
    /* Its buffers' sizes (pages, the empty event buffer); the blocks of live systems in them. */
    uint64_t page_bytes, used_bytes;
    uint64_t pages, pages_made, blocks, alignment;
    uint64_t table_dispatches, table_systems; /* a batch's simulate over tables (update_table.c), so far */
    uint64_t table_pass_dispatches[5], table_pass_systems[5]; /* each table pass's (update_table.c's table_pass) */
} particle_pool_usage_counts;
/* All zero where the context has no pool (no compute-path system). */
void particle_pool_usage(const plume_context *context, particle_pool_usage_counts *out);

struct particle_attachments;

/* A system's trails as its draw reads them (plume_trail_desc; all zero
 * without a trail): the history (trail_history.glsl's buffers), the last
 * update's sorted segment pairs {key, slot x entries + entry} and their
 * draw's indirect arguments (control_buffer at 4 x PLUME_TRAIL_DRAW_ARGS). */
typedef struct particle_trail_view {
    GLuint header_buffer, point_buffer, pair_buffer, control_buffer;
    uint32_t entries;    /* pairs a particle: K - 1 segments, + 1 where its quad is drawn */
} particle_trail_view;

/* Where the sprite's frames can show (particles/sprite_cover.h). */
typedef struct particle_sprite_cover {
    GLuint buffer;       /* the octagons, frame by frame, `levels` a frame; 0: no table (the whole quad) */
    uint32_t levels;
    float motion_reach;  /* the flipbook motion's largest component (0..1; 0: no motion) */
} particle_sprite_cover;

typedef struct particle_view {
    const plume_env *env;
    plume_context *context;
    plume_system handle;
    /* Resolved (defaults filled in): the look, the capacity, the soft fade;
     * appearance.texture's columns and rows lay out the flipbook, its width
     * and height the sprite's. NULL in a draw group's view. */
    const plume_system_desc *desc;
    /* The compute path's particles (zero on the fragment path). */
    particle_range motion, traits;
    /* {key, slot} pairs, in draw order, drawn count of them: bound with
     * particle_view_bind_draw_list (a batch's list may still wait in its
     * table's scratch). */
    GLuint draw_list_buffer;
    struct system_state *source; /* the particle part's own; NULL in a draw group's view */
    particle_range state;    /* see STATE_DRAW_ARGS_OFFSET, from its offset */
    uint64_t pooled_bytes;   /* the system's block of the context's particle pool */
    uint32_t sort_bound;     /* the last update's bound on the drawn count */
    GLuint sprite_texture;   /* 0: none; plume's own or the host's (host_texture) */
    bool sprite_is_array;    /* the host's GL_TEXTURE_2D_ARRAY: a frame per layer */
    GLuint motion_texture;   /* the flipbook's motion (desc->flipbook_motion), 0: none */
    particle_sprite_cover sprite_cover;
    particle_fragment_view fragment; /* desc->path PLUME_PATH_FRAGMENT only */
    /* The current draw's light: the draw sets it from the frame
     * (particles_find_view leaves it zero). */
    frame_light light;
    /* Times the draw's sub-stages (profiler_draw_stage_begin) and takes its
     * values; off, it makes no GL call. */
    plume_profiler *profiler;
    struct particle_attachments *attachments; /* the draw's per-system state */
    particle_trail_view trail; /* desc->trail.points > 0 only */
    const particle_mesh_view *mesh; /* a mesh system's meshes (since 1.3); NULL: sprites */
    uint64_t update_count;   /* updates so far: what tells one frame's draws from the next's */
    /* The last update's outcome per slot, {depth key, PLUME_SLOT_* bits}: a
     * slot is drawn where its key is not PLUME_GPU_KEY_LAST (the
     * compaction's rule; a draw group's table gathers by it). */
    particle_range slot_keys;
} particle_view;

/* Binds the view's draw list at the storage `binding`, copied first from a
 * batch's scratch where it still waits there. */
void particle_view_bind_draw_list(const particle_view *view, GLuint binding);

/* The live system `handle` names, as a view (logged under `caller` and
 * PLUME_ERROR_INVALID_ARGUMENT where none). */
plume_result particles_find_view(const plume_context *context, plume_system handle, const char *caller,
                                 particle_view *out);
/* The context's live systems' handles, in the order of their slots (as
 * plume_context_list_ids): a batch's list when the host gives none. */
uint32_t particles_list_live_systems(const plume_context *context, uint64_t *out, uint32_t capacity);
/* A batch call's arguments (plume_batch_update's, plume_batch_draw's): a
 * context, a current GL context, a frame, and a list or NULL with a count
 * of 0 (every live system); errors logged under `caller`. */
plume_result particles_check_batch_call(const plume_context *context, const char *caller, const plume_system *systems,
                                        uint32_t system_count, const plume_frame_desc *frame);
/* The first step of a draw: the view and the checked frame's matrices (a
 * zero matrix stands for the identity); errors logged under `caller`.
 * `out->env` is NULL where the handle names no live system. */
plume_result particles_find_frame_view(const plume_context *context, plume_system handle, const char *caller,
                                       const plume_frame_desc *frame, particle_view *out, mat4 view,
                                       mat4 projection);

/* The frame's depth_texture as the host must give it: 0 (none), or a
 * GL_TEXTURE_2D whose level 0 has a depth format; otherwise logged under
 * `caller` and PLUME_ERROR_INVALID_ARGUMENT. Changes no state the host sees. */
plume_result particles_check_depth_texture(const plume_env *env, const char *caller, GLuint texture);

/* The GL objects the live system `handle` holds: its own (attachments
 * included, as plume_context_list_gl_objects lists them) and those of the
 * sorter it made (filed in the context as an object of its own); 0 where
 * the handle names no live system. Logs nothing. */
uint32_t particles_list_system_gl_objects(const plume_context *context, plume_system handle, plume_gl_object *out,
                                          uint32_t capacity);

/* ---- Attachments: state another part keeps per system ------------------------
 * A part that draws keeps its per-system state (programs, targets, options)
 * in an attachment of the system: made when that part first needs it,
 * listed with the system's GL objects (plume_context_list_gl_objects) and
 * released with the system. The class is the key: one attachment
 * per class and system. */
typedef struct particle_attachment_class {
    const char *name;
    /* Deletes what `state` holds (GL objects, sorters filed in `context`);
     * the system frees the memory after. The GL context is current. */
    void (*release)(void *state, plume_context *context);
    /* Its GL objects with a name, as plume_list_named_gl_objects. */
    uint32_t (*list_gl_objects)(const void *state, plume_gl_object *out, uint32_t capacity);
} particle_attachment_class;

/* The attachments live inside the system's own allocation, so a draw never
 * allocates: a host allocator failing at draw time fails nothing that
 * creation did not. An attachment's state is at most its share of these
 * bytes (each part checks its size against them at compile time). */
enum { PARTICLE_MAX_ATTACHMENTS = 8, PARTICLE_ATTACHMENT_BYTES = 5120 };

/* The view frustum as six world-space planes pointing inwards (the
 * update's culling, simulate.c; the mesh draw's, per particle). */
void particles_frustum_planes(const mat4 view, const mat4 projection, float planes[PLUME_CULL_PLANES][4]);

/* The system's attachment of `kind`, or NULL where none was made. */
void *particle_view_attachment(const particle_view *view, const particle_attachment_class *kind);
/* The same, made (`size` bytes, zeroed) where none was: NULL (logged) when
 * the system's slots or bytes are used up. */
void *particle_view_attach(const particle_view *view, const particle_attachment_class *kind, size_t size);

#endif
