/* The compute-tiled draw path (render/tiled.c, tiled_draw_path in
 * draw_path.h): its per-system state, an attachment of the system made by
 * its first tiled draw or tiled_configure. Not part of the API. */
#ifndef PLUME_RENDER_TILED_H
#define PLUME_RENDER_TILED_H

#include <cglm/cglm.h>

#include "plume/plume_sort.h"
#include "render/particle_uniforms.h"
#include "render/screen_scratch.h"
#include "render/trail_draw.h"

enum {
    /* Pixels across a tile: 8 was 1.1-1.5x faster than 16 on the H200 for
     * the demo's smoke, stretched streaks and trails, 0.9x only for small
     * puffs at 64 K (notes/wave3-draws-h200.md: the measurement). */
    TILED_DEFAULT_TILE_SIZE = 8,
    TILED_READBACK_SLOTS = 4,     /* entry counts in flight to the CPU, read without waiting */
    /* Entries a composite workgroup walks at most: a tile's run is cut into
     * chunks of this many, but for a trail system that can stop early
     * (tiled.c: default_chunk_entries). Smaller chunks spread a hot tile
     * over more workgroups and cost more partials to resolve: 128 was the
     * best of 32 to 512 for the demo's 1 M smoke, within 4 % of 64 (the
     * best) at 64 K (notes/wave3-draws-h200.md: the measurements). */
    TILED_DEFAULT_CHUNK_ENTRIES = 128,
    /* A trail system's pairs, or a draw group's items with a trail system,
     * the path takes at most: past them its draw is the raster draw. */
    TILED_MOST_TRAIL_RANKS = 1 << 28,
    /* A trail system's ranks are dense (tiled_common.glsl): made for this
     * many at least, a scan block (a frame's need read back grows them). */
    TILED_LEAST_DENSE_RANKS = 1024
};
/* tiled_configure's chunk_entries for one workgroup per tile walking its
 * whole run (the composite before chunks: the benchmarks' baseline), as
 * plume_system_set_tiled_options's. */
#define TILED_UNCHUNKED PLUME_TILED_UNCHUNKED

typedef enum tiled_program {
    TP_PREPARE, TP_PROJECT, TP_SCAN, TP_CONTROL, TP_ENTRIES, TP_RANGES, TP_COMPOSITE, TP_RESOLVE,
    TP_BLEND, TILED_PROGRAMS
} tiled_program;

/* The uniforms of the tiled programs, one table for all (a program lacking
 * a name has -1 there; tiled_resources.c holds the names). */
typedef enum tiled_uniform {
    TU_CAPACITY, TU_SCAN_LEVELS, TU_VIEW, TU_PROJECTION, TU_CAMERA_RIGHT, TU_CAMERA_UP, TU_TARGET_SIZE, TU_COUNT,
    TU_ADD, TU_BUDGET, TU_TILES, TU_TILE_COUNT, TU_CHUNK_ENTRIES, TU_INVERSE_PROJECTION, TU_SOFT_FADE_DISTANCE,
    TU_DEPTH_ORIGIN, TU_DEPTH_SIZE, TU_THRESHOLD, TU_PARTICLES, TU_VIEWPORT_ORIGIN,
    TU_DEPTH_CONVENTION, TU_LAB_KNOBS, TU_ITEMS, TU_COVER_MODE, TU_LOW_RESOLUTION, TU_HIT_LISTS,
    TU_SIDE_PLANES, TU_OVER_HOST, TU_HOST_CLIP,
    TU_TILES_ACROSS, TU_TILE_PIXELS, TU_VIEWPORT_SIZE, TILED_UNIFORMS
} tiled_uniform;
_Static_assert(TU_TILE_PIXELS == TU_TILES_ACROSS + SCREEN_COVER_TILE_PIXELS &&
                   TU_VIEWPORT_SIZE == TU_TILES_ACROSS + SCREEN_COVER_VIEWPORT_SIZE,
               "the blend's cover uniforms in screen_cover_bind's order");

/* An inclusive scan's levels above its values: each the block totals of the
 * one below, at an aligned offset of the scan sums. */
typedef struct tiled_scan_plan {
    uint32_t levels;
    uint32_t size[PLUME_TILED_SCAN_MAX_LEVELS];
    uint32_t offset[PLUME_TILED_SCAN_MAX_LEVELS]; /* bytes */
    GLsizeiptr bytes;
} tiled_scan_plan;

/* The compositor's lab knobs (plume_lab_tiled_set_knobs; all zero in the
 * product, which is today's compositor). */
typedef struct tiled_knobs {
    float min_alpha;       /* the peak alpha under which a splat touches no tile */
    uint32_t batch;        /* the splats a composite batch loads; 0: the default */
    float footprint;       /* half the side of the sprite's alpha footprint; 0: the quad's, 0.5 */
    bool cover_every_tile; /* the blend and upsample cover every tile, not those with particles */
    bool box_tiles;        /* a splat listed in every tile of its box, not those it may show in */
    bool whole_tile_lists; /* every pixel walks the tile's whole batch, not its region's list */
    int hit_lists;         /* 1: the composite shades each pixel's hits, -1: each splat as tested; 0: draw's choice */
    bool raster_blend;     /* the blend pass even where the composite could blend onto the host's colour */
    bool whole_splat_batch; /* the composite's batch holds whole splats, not their maps and ranks */
    bool whole_quads;      /* a splat's tiles are its quad's, not where its sprite's frames show */
} tiled_knobs;

/* Host depth functions, GL_NEVER .. GL_ALWAYS. */
enum { TILED_DEPTH_FUNCTIONS = 8 };

typedef struct tiled_renderer {
    GLuint programs[TILED_PROGRAMS]; /* built on the first tiled draw; the composite one of `composites` */
    GLint at[TILED_PROGRAMS][TILED_UNIFORMS];
    /* The composite is built for the host's depth function (a define: a
     * switch on a uniform cost it 3 % at the demo's 64 K, H200): one
     * program for each function drawn with, made at the first such draw;
     * `depth_function` the one in programs[TP_COMPOSITE]. The look and
     * input they are built for. */
    GLuint composites[TILED_DEPTH_FUNCTIONS];
    GLint depth_function;
    uint32_t look;
    uint32_t input; /* a tiled_input (tiled_internal.h) */
    /* The appearance and light of the programs that draw particles. */
    particle_uniforms project_uniforms, entries_uniforms, composite_uniforms;
    trail_uniforms trail;       /* a trail system's projection (render/trail_geometry.glsl) */
    GLuint sprite_sampler, depth_sampler;
    GLuint vertex_array;        /* the blend's full-screen pass: no vertices */
    uint32_t tile_size;         /* 0: TILED_DEFAULT_TILE_SIZE */
    bool unavailable;           /* the path could not be made: raster, said once */
    bool fixed_budget;          /* tests: the budget never grows */
    /* Its ranks (the capacity: particles, a group's records, a trail's
     * triangles); the per-rank buffers, the scan's sums and the control
     * words are the context's (screen_scratch.h), of at least its sizes. */
    uint32_t capacity;
    uint32_t splat_vec4s;       /* the splat's size for the look the programs are built for */
    tiled_scan_plan scan;       /* of the ranks' counts */
    /* Dense ranks (a trail system's or a draw group's with one,
     * tiled_common.glsl): its pairs or records (the items), their scanned
     * ranks at item_offset words of the counts and their scan; the capacity
     * grows from the ranks frames needed (read back as the entry counts)
     * and those expected (2 an item the draw may have, set by each draw);
     * first_ranks: tests, the first capacity (0: the expected), grown from
     * the needs read back only. */
    bool dense;
    uint32_t items, item_offset, first_ranks;
    uint64_t expected_ranks;
    tiled_scan_plan item_scan;
    /* The entries this system's frames may have: its own budget, grown
     * from its own counts; the entries buffer and its sorter are the
     * context's (screen_scratch.h), at least this large. */
    uint32_t budget;
    plume_sort_algorithm entry_sort; /* tiled_configure's; automatic by default */
    /* The chunked composite: chunk_entries is tiled_configure's (0: the
     * default, TILED_UNCHUNKED: none); chunk_entries_in_use the K of this
     * frame (0: unchunked), raised where the partials would not fit one
     * shader storage block. */
    uint32_t chunk_entries, chunk_entries_in_use;
    tiled_knobs knobs;
    bool blended_onto_host;     /* the last draw's composite blended onto the host's colour (no blend pass) */
    /* The last draw's tiles for the upsample, set where its passes ran at
     * low resolution (tiled_take_cover). */
    screen_cover cover;
    bool cover_ready;
    /* The context's screen-sized scratch (target, ranges, chunk table and
     * partials, entries and sorter), joined on the first draw; `shared` and
     * `sorter` are this draw's (set by tiled_ensure_scratch). */
    bool joined_scratch;
    screen_scratch *shared;
    plume_sorter sorter;
    /* Entry counts copied for the CPU into the context's readback ring
     * (their serials there), each behind a fence, read once the fence has
     * passed (never waited on): what the budget grows to. */
    uint64_t readback[TILED_READBACK_SLOTS];
    uint64_t ranks_readback[TILED_READBACK_SLOTS]; /* dense: the ranks needed */
    GLsync fences[TILED_READBACK_SLOTS];
    uint32_t readback_first, readback_count;
} tiled_renderer;

/* For tests (through this internal header), before the system's first
 * tiled draw: the tile size (8, 16 or 32 pixels; 0: the default), the entry
 * budget (0: the default) and whether it may grow, the entry sort's backend
 * (PLUME_SORT_AUTOMATIC: picked by the count), and the entries a composite
 * workgroup walks at most (0: the default; TILED_UNCHUNKED: a tile's whole
 * run). A host sets the tile size and chunk entries with
 * plume_system_set_tiled_options (plume_particles.h), this call's public
 * part. */
plume_result tiled_configure(plume_context *context, plume_system system, uint32_t tile_size, uint32_t budget,
                             bool fixed_budget, plume_sort_algorithm entry_sort, uint32_t chunk_entries);

/* A draw group's sorted particles as the tiled passes read them (the
 * group's gather and sort made them, draw_group.c): the list in draw order
 * ({key, record index}), the records, and the systems' table (sprite layer,
 * flipbook, lit, soft fade: render/draw_group_systems.glsl); an overflowing
 * frame's fallback is the group's own instanced draw. */
/* Lab builds: the compositor's knobs before the system's first tiled draw;
 * checked as tiled_configure's. */
plume_result tiled_set_knobs(plume_context *context, plume_system system, const tiled_knobs *knobs);
/* Tests, before a trail system's first tiled draw: the ranks made first
 * (dense ranks; 0: for a quad a pair of the particles drawn), so that a
 * frame can outgrow them. */
plume_result tiled_set_first_ranks(plume_context *context, plume_system system, uint32_t ranks);

typedef struct tiled_group {
    uint32_t capacity, look;   /* the list's capacity (items); the union of the systems' looks */
    GLuint list_buffer, records_buffer, systems_buffer, sprite_array;
    float largest_soft_fade;   /* of every system; 0 where the target has no depth texture */
    float largest_additive;    /* of every system (particles_largest_additive) */
    bool trails;               /* a trail system is grouped: its segments' records, 2
                                  ranks a quad of each (dense, as a trail system's) */
    uint32_t drawn_bound;      /* the items this draw may have (the sort's bound) */
    /* Draws the instances `count` names onto `target`, into the bound draw framebuffer. */
    void (*draw_fallback)(void *user, const draw_target *target, const draw_count *count);
    void *user;
} tiled_group;

/* The tiled path's draw of a group onto `target`, with `r` the group's own
 * tiled state (zero before its first draw) and `own` the group's view
 * (group_view, with the frame's light). PLUME_ERROR_GL_UNSUPPORTED, having
 * drawn nothing, where the path cannot be made (said once). */
plume_result tiled_draw_group(const particle_view *own, tiled_renderer *r, const tiled_group *group,
                              const draw_frame *frame, const draw_target *target, plume_gl_scope *scope);
/* The system's tiled state (made, zero, where none was; NULL, logged: out of
 * memory). */
tiled_renderer *tiled_of(const particle_view *v);
/* What the last draw of `r` (a system's: tiled_of) left for
 * the low-resolution upsample that follows it (lowres_end), taken once;
 * false where it drew nothing at low resolution (the upsample covers the
 * viewport). */
bool tiled_take_cover(tiled_renderer *r, screen_cover *out);
/* Deletes `r`'s GL objects and leaves the context's scratch. */
void tiled_release(tiled_renderer *r, plume_context *context);
uint32_t tiled_list_gl_objects(const tiled_renderer *r, plume_gl_object *out, uint32_t capacity);

#endif
