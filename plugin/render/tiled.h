/* The compute-tiled draw path (render/tiled.c, plume_draw_path TILED): the GL
 * objects it owns and its calls. A system holds one, made on its first tiled
 * draw. Not part of the API. */
#ifndef PLUME_RENDER_TILED_H
#define PLUME_RENDER_TILED_H

#include <cglm/cglm.h>

#include "core/plume_internal.h"
#include "plume/plume_particles.h"
#include "plume/plume_sort.h"
#include "shared/plume_gpu_layout.h"

enum {
    TILED_DEFAULT_TILE_SIZE = 16, /* pixels across a tile (notes/draw-at-scale.md: the measurement) */
    TILED_READBACK_SLOTS = 4,     /* entry counts in flight to the CPU, read without waiting */
    /* Entries a composite workgroup walks at most: a tile's run is cut into
     * chunks of this many (notes/draw-at-scale.md: the measurement). */
    TILED_DEFAULT_CHUNK_ENTRIES = 512
};
/* tiled_configure's chunk_entries for one workgroup per tile walking its
 * whole run (the composite before chunks: the benchmarks' baseline). */
#define TILED_UNCHUNKED UINT32_MAX

typedef struct tiled_programs {
    GLuint prepare, project, scan, control, entries, ranges, chunk_plan, composite, resolve, blend;
} tiled_programs;

typedef struct tiled_renderer {
    tiled_programs programs;    /* built on the first tiled draw */
    uint32_t tile_size;         /* 0: TILED_DEFAULT_TILE_SIZE */
    bool unavailable;           /* the path could not be made: raster, said once */
    bool warned_without_depth;
    bool fixed_budget;          /* tests: the budget never grows */
    /* Per rank: tiles touched (then their scan), the splat. Capacity-sized. */
    GLuint counts_buffer, splats_buffer;
    uint32_t splat_vec4s;       /* the splat's size for the look the programs are built for */
    GLuint scan_sums_buffer;    /* the scan's upper levels, each at an aligned offset */
    uint32_t scan_levels;       /* levels above the counts */
    uint32_t scan_level_size[PLUME_TILED_SCAN_MAX_LEVELS];
    GLintptr scan_level_offset[PLUME_TILED_SCAN_MAX_LEVELS];
    GLuint control_buffer;      /* PLUME_TILED_CONTROL_WORDS */
    /* The entries: `budget` {tile, rank} pairs, and their sorter. */
    GLuint entries_buffer;
    uint32_t budget;
    plume_sorter sorter;
    uint32_t sorter_key_bits;   /* the key bits it was made with */
    plume_sort_algorithm entry_sort; /* tiled_configure's; automatic by default */
    GLuint ranges_buffer;       /* per tile: uvec2 */
    uint32_t range_capacity;    /* tiles it holds */
    /* The chunked composite: chunk_entries is tiled_configure's (0: the
     * default, TILED_UNCHUNKED: none); chunk_entries_in_use the K of this
     * frame (0: unchunked), raised where the partials would not fit one
     * shader storage block. */
    uint32_t chunk_entries, chunk_entries_in_use;
    GLuint chunk_table_buffer;  /* per tile {first slot, chunks}, then per slot its tile */
    GLuint partials_buffer;     /* per slot, per pixel of a tile: vec4 */
    uint32_t slot_capacity, chunk_table_words;
    GLuint target;              /* full resolution: RGBA16F, premultiplied colour and coverage */
    int target_width, target_height;
    /* Entry counts copied for the CPU, each behind a fence, read once the
     * fence has passed (never waited on): what the budget grows to. */
    GLuint readback[TILED_READBACK_SLOTS];
    GLsync fences[TILED_READBACK_SLOTS];
    uint32_t readback_first, readback_count;
} tiled_renderer;

struct system_state;

/* The tiled draw of the system's sorted particles at 1/`factor` (1, 2 or 4)
 * of the viewport, onto the host's framebuffer; needs frame->depth_texture.
 * The caller's scope has PLUME_SCOPE_TEXTURES saved and the raster state
 * neutral; this saves what else it binds (the image unit, the copy
 * buffers). Returns PLUME_ERROR_GL_UNSUPPORTED, having drawn nothing, where
 * the path cannot be made (logged once: the caller draws raster). */
plume_result tiled_draw(struct system_state *s, const plume_frame_desc *frame, const mat4 view,
                        const mat4 projection, int factor, plume_gl_scope *scope);
uint32_t tiled_list_gl_objects(const tiled_renderer *r, plume_gl_object *out, uint32_t capacity);
/* Deletes the path's GL objects and its sorter (the GL context current). */
void tiled_release(struct system_state *s);

/* For tests, benchmarks and the demo (through this internal header: the
 * module reads no environment, and a host has no need of these knobs, so
 * they are not in the frame descriptor), before the system's first tiled
 * draw: the tile size (8, 16 or 32 pixels; 0: the default), the entry
 * budget (0: the default) and whether it may grow, the entry sort's backend
 * (PLUME_SORT_AUTOMATIC: picked by the count), and the entries a composite
 * workgroup walks at most (0: the default; TILED_UNCHUNKED: a tile's whole
 * run). plume_frame_bench and plume_demo pass --tile and --chunk here. */
plume_result tiled_configure(plume_context *context, plume_system system, uint32_t tile_size, uint32_t budget,
                             bool fixed_budget, plume_sort_algorithm entry_sort, uint32_t chunk_entries);

#endif
