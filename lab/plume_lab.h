/* plume's laboratory: knobs and hooks for the tests and benchmarks, compiled
 * only into the lab variant of the library (the premake project plume_lab:
 * the same sources built with PLUME_LAB defined, which bench/ and tests/
 * link). The shipped libplume.a / libplume.so have none of it: no benchmark
 * hook, no setting outside the API. This header is not installed. Settings
 * belong to a context and apply to the objects created from it afterwards;
 * an object keeps what it was created with. */
#ifndef PLUME_LAB_H
#define PLUME_LAB_H

#include <stdbool.h>
#include <stdint.h>

#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume/plume_sort.h"

/* ---- Core ------------------------------------------------------------------------- */

/* Builds a compute program from one source string the way plume builds its
 * own (the GL's version line, the layout header, `defines` (NULL: none)
 * after it; compile messages through the context's logger, labelled
 * `label`): the benchmarks' baselines. */
plume_result plume_lab_build_compute_program(const plume_context *context, const char *label, const char *source,
                                             const char *defines, uint32_t *out_program);

/* How many GL programs the context's program cache has compiled and linked
 * since the context was made (a program asked for again is not counted): the
 * second system of a look, or any system after a warm-up, adds none. */
uint64_t plume_lab_program_builds(const plume_context *context);

/* Fills every GL buffer made afterwards by the context's objects without
 * initial data with pseudo-random words from `seed` (0: the driver's new
 * memory, as in the product). Drivers hand out new memory differently (Mesa
 * zeroes it, NVIDIA may not): a module that reads memory no pass wrote gives
 * results that depend on the driver and on history; under this setting such
 * a read changes results on every driver, so the tests see it. */
void plume_lab_poison_new_buffers(plume_context *context, uint32_t seed);

/* A probe for races between the module's GPU passes: after each dispatch
 * whose source file's path contains one of the patterns (and at each named
 * sync point: "update_begin", "update_end", "draw_end"), a glFinish
 * ("f:pattern,...") or a glMemoryBarrier(GL_ALL_BARRIER_BITS) ("b:...");
 * "all" matches every one; NULL or "" turns it off. Process-wide. */
void plume_lab_sync(const char *spec);

/* ---- Sort ------------------------------------------------------------------------- */

/* How a radix sorter places each tile's pairs: the driver decides by default
 * (Onesweep on NVIDIA with 32-wide subgroups, else reduce-then-scan); the
 * tests run both ways on every driver. */
typedef enum plume_lab_radix_scan {
    PLUME_LAB_RADIX_SCAN_DEFAULT = 0,
    PLUME_LAB_RADIX_SCAN_REDUCE_THEN_SCAN = 1,
    PLUME_LAB_RADIX_SCAN_ONESWEEP = 2
} plume_lab_radix_scan;

/* The sorters' settings; zero is the default of each field (and all zero is
 * the product). */
typedef struct plume_lab_sort_settings {
    /* Fragment path: sort with render passes even where transform feedback
     * could (the render-pass sort is the fallback of GLs whose buffer
     * textures are small; this tests and times it anywhere). */
    bool render_pass_sort;
    plume_lab_radix_scan radix_scan;
    /* Onesweep's reads of an unpublished look-back word before a workgroup
     * counts that tile itself. */
    uint32_t wait_limit;
    /* Pairs per invocation of the radix tiles (a power of two, 4 .. 64): one
     * tile set of that size only. */
    uint32_t radix_items;
    /* Every count through the radix tile passes, even where one workgroup
     * could sort it. */
    bool no_single_tile;
    /* Invocations of the one-workgroup radix sort (a power of two, 128 ..
     * 1024), fewer where a tile or the shared memory needs. */
    uint32_t single_threads;
    /* The pairs the radix tile passes lay out in shared memory at once (a
     * power of two, at least 256), larger tiles going through in parts: on
     * llvmpipe the tests run the paths of the H100's 8192-pair tiles. */
    uint32_t shared_pairs;
    /* Keys per invocation of Onesweep's histogram pass at most (a power of
     * two). */
    uint32_t histogram_items;
    /* Invocations a workgroup of the ranking tile passes at most (rounded
     * down to a power of two from 256 to 1024), halved where the GL's limits
     * or the tile call for it. */
    uint32_t tile_threads;
    /* Onesweep's histogram and digit passes write each workgroup's SM and
     * clocks after each phase to the buffer the caller binds at
     * PLUME_BINDING_RADIX_PHASE_CLOCKS (layout: plume_gpu_layout.h), at most
     * PLUME_RADIX_PHASE_MAX_TILES workgroups a pass. Needs
     * GL_ARB_shader_clock and GL_NV_shader_thread_group. */
    bool phase_clocks;
} plume_lab_sort_settings;

/* Settings for the sorters created from `context` from now on (those the
 * particle systems and draws make included); NULL: the defaults again. Needs
 * the context's GL current. PLUME_ERROR_GL_UNSUPPORTED (settings unchanged)
 * where phase clocks are asked for on a GL without them. */
plume_result plume_lab_set_sort_settings(plume_context *context, const plume_lab_sort_settings *settings);

/* Called before every pass of the sorter's sorts with the pass kind
 * ("local sort", "merge", "radix upsweep", "radix scan", "radix downsweep",
 * "radix histogram", "radix onesweep", "radix single", "feedback copy",
 * "feedback local sort", "feedback merge path", "fragment copy",
 * "fragment pass"), and once more with NULL after the last: the benchmark
 * puts a GL timestamp at each call. NULL hook: none. */
typedef void (*plume_lab_pass_hook)(void *user, const char *pass_kind);
plume_result plume_lab_sorter_set_pass_hook(plume_context *context, plume_sorter sorter, plume_lab_pass_hook hook,
                                            void *user);

/* Fragment path: stages a pass holds at most (render passes: 1 .. 4;
 * transform feedback: the position bits a vertex's group spans, 1 .. 6
 * where the GL records that many components). No effect on a compute-path
 * sorter. The getter says what the sorter runs (0 on the compute path). */
void plume_lab_sorter_set_group_bits(plume_context *context, plume_sorter sorter, uint32_t group_bits);
uint32_t plume_lab_sorter_group_bits(const plume_context *context, plume_sorter sorter);

/* The name of the backend a sort of `count` pairs runs ("bitonic", "radix",
 * "transform feedback", "render passes"); NULL for a stale handle. */
const char *plume_lab_sorter_backend(const plume_context *context, plume_sorter sorter, uint32_t count);

/* ---- Particles ---------------------------------------------------------------------- */
/* Whether the system's simulate pass grows the GPU box plume_system_get_bounds
 * reads (default on; off, the box stays empty): the benchmark's baseline for
 * the reduction's cost. */
plume_result plume_lab_system_set_bounds(plume_context *context, plume_system system, bool enabled);
/* The CPU's bound on the live count after the system's last update (what
 * sizes its sort and picks the automatic draw path); 0 for a bad handle. */
uint32_t plume_lab_system_live_bound(plume_context *context, plume_system system);
/* A mesh system's spins, read back (waits for the GPU): per slot 8 floats,
 * the orientation quaternion (x, y, z, w), the angular velocity (x, y, z)
 * and the emission number + 1 it belongs to (its bits, 0: none), for
 * `count` slots from slot 0. PLUME_ERROR_INVALID_ARGUMENT for a sprite
 * system or count over the capacity. */
plume_result plume_lab_read_spins(plume_context *context, plume_system system, float *out, uint32_t count);

/* Where a compute-path system's capacity-sized storage lies in the
 * context's particle pool: its ranges (motion, traits, state and dead list,
 * outcome per slot, counts per workgroup) and what the pool holds. A system
 * {0} (or one on the fragment path, which has textures of its own) fills the
 * pool's part only. PLUME_ERROR_INVALID_ARGUMENT: a handle that names no
 * live system, `out` NULL. */
enum { PLUME_LAB_STORAGE_RANGES = 5 };
typedef struct plume_lab_particle_storage {
    uint32_t buffers[PLUME_LAB_STORAGE_RANGES];
    uint64_t offsets[PLUME_LAB_STORAGE_RANGES], sizes[PLUME_LAB_STORAGE_RANGES];
    uint64_t pool_pages;      /* the pool's GL buffers now */
    uint64_t pool_pages_made; /* pages made since the pool was */
    uint64_t pool_blocks;     /* blocks of live systems */
    uint64_t alignment;       /* of every range's offset */
    /* plume_batch_update's simulate over a table of systems: its dispatches
     * and the systems they ran, since the pool was made. */
    uint64_t table_dispatches, table_systems;
    /* The same for each pass over tables (plume_lab_batch_tables):
     * prepare, emit, simulate, the compaction's scan, its scatter. */
    uint64_t table_pass_dispatches[5], table_pass_systems[5];
    /* Every compute dispatch of the update's passes (prepare, emit,
     * simulate, the compaction's two: tables and each system's own, the
     * updates of single systems included), process-wide, since the start. */
    uint64_t pass_dispatches;
} plume_lab_particle_storage;
plume_result plume_lab_particle_storage_of(plume_context *context, plume_system system,
                                           plume_lab_particle_storage *out);

/* plume_batch_update while on updates each system on its own, one after the
 * other, as it did before its passes went stage-major: the benchmark's and the
 * tests' baseline. Process-wide; default off. */
void plume_lab_batch_system_by_system(bool on);
/* plume_batch_update's simulate over a table of systems (on by default);
 * off, every system runs its own simulate dispatch, as before the table:
 * the benchmark's baseline. Process-wide, as the knob above. */
void plume_lab_batch_simulate_table(bool on);
/* plume_batch_draw's (and a draw group's) gathers over tables of systems,
 * a dispatch a pool page (on by default); off, every system copies its
 * drawn count and runs its own gather, as before the table: the
 * benchmark's baseline. Process-wide, as the knobs above. */
void plume_lab_batch_draw_table(bool on);
/* What the last plume_batch_draw of `context` did before its sort: its
 * compute dispatches (table counts, prepare, gathers), the systems that
 * took their own copy and gather, and the pool pages and systems gathered
 * over tables. All zero before the first. PLUME_ERROR_INVALID_ARGUMENT:
 * `context` or `out` NULL. */
typedef struct plume_lab_batch_draw_counts {
    uint32_t systems, dispatches, own_systems, table_pages, table_systems;
} plume_lab_batch_draw_counts;
plume_result plume_lab_batch_draw_counts_of(const plume_context *context, plume_lab_batch_draw_counts *out);
/* Which passes of plume_batch_update run over tables of systems, a dispatch
 * a pool page (default all; update_table.c); the others run a dispatch a
 * system, as before their table: the benchmark's with and without.
 * Process-wide, as the knobs above. */
enum {
    PLUME_LAB_TABLE_PREPARE = 1u << 0,
    PLUME_LAB_TABLE_SIMULATE = 1u << 1,
    PLUME_LAB_TABLE_COMPACTION = 1u << 2, /* its scan and its scatter (with a copy of each live list) */
    PLUME_LAB_TABLE_EMIT = 1u << 3,       /* the spawn batches and emitters of all in one upload */
    PLUME_LAB_TABLE_ALL = (1u << 4) - 1u
};
void plume_lab_batch_tables(uint32_t passes);

/* ---- Profile ------------------------------------------------------------------------ */

/* Frames a system's profiler keeps in flight: its GPU times of a frame come
 * that many frames later. */
enum { PLUME_LAB_PROFILER_RING_DEPTH = 4 };

/* The median of `values` (sorted in place); 0 for none. */
double plume_lab_median(double *values, uint32_t count);

/* ---- Particles: events to the CPU ---------------------------------------------------- */

/* Systems created while on read their event readbacks with glGetBufferSubData
 * after the fence, as on a GL without buffer storage (4.4), instead of
 * through a persistent mapping. Process-wide; default off. */
void plume_lab_cpu_events_read_by_copy(bool on);

/* ---- Render --------------------------------------------------------------------------
 * Thin wrappers (plugin/render/render_lab.c) over render/'s internal knobs. */

/* plume_lab_tiled_configure's chunk_entries for one workgroup per tile walking
 * its whole run. */
#define PLUME_LAB_TILED_UNCHUNKED UINT32_MAX

/* Before the system's first tiled draw: the tile size (8, 16 or 32 pixels;
 * 0: the default), the entry budget (0: the default) and whether it may
 * grow, the entry sort's backend (PLUME_SORT_AUTOMATIC: picked by the
 * count), and the entries a composite workgroup walks at most (0: the
 * default; PLUME_LAB_TILED_UNCHUNKED: a tile's whole run). */
plume_result plume_lab_tiled_configure(plume_context *context, plume_system system, uint32_t tile_size,
                                       uint32_t budget, bool fixed_budget, plume_sort_algorithm entry_sort,
                                       uint32_t chunk_entries);

/* The compositor's knobs, each a change from the splat rasterizers' playbook
 * that the frame benchmark times alone against the baseline (all zero: the
 * product's compositor; bench/compositor_knobs.sh). */
typedef struct plume_lab_tiled_knobs {
    /* Opacity cull: a particle whose colour's alpha (opacity over life
     * applied: the most its sprite can cover a pixel by) is at most this
     * touches no tile (0: only a transparent one; 1/255: what one 8-bit
     * step cannot show). Below 1. */
    float min_alpha;
    /* Splats a composite workgroup loads into shared memory at once (a
     * multiple of 32 up to 256; 0: the default, min(tile pixels, 256) as
     * shared memory allows): smaller batches check for saturated pixels
     * sooner, larger ones hold fewer barriers. The default where it is
     * smaller. */
    uint32_t batch;
    /* Tight bounds, the sprite's alpha footprint instead of its quad: half
     * the side, in the quad's units (0 .. 0.5 from its centre), of the
     * square outside which every frame of the sprite is transparent as
     * sampled (bilinear: a texel past its last non-transparent one); the
     * projection bounds the tiles a particle touches by it. The host
     * measures it from its sprite (the frame benchmark's --smoke sprite:
     * FRAME_BENCH_SPRITE_FOOTPRINT). Exact where the sprite is sampled at
     * its finer levels; a particle a few pixels across samples coarse mip
     * levels, whose alpha spreads past it. 0: the whole quad (0.5). */
    float footprint;
    /* The blend onto the host's framebuffer and the low-resolution upsample
     * cover every tile of the target (a quad each), as a full-screen pass
     * would, instead of only the tiles with particles (and, at low
     * resolution, their neighbours): the baseline of that change. */
    bool cover_every_tile;
    /* Each splat is listed in every tile of its pixels' bounding box, as
     * before the projection tested which of them it may show in (a slanted
     * quad's box corners, a thin segment's tiles off its diagonal): the
     * baseline of that change. */
    bool box_tiles;
    /* Each pixel of a tile walks every splat of the composite's batch, as
     * before a tile kept a list for each of its 8 x 4 regions (a subgroup
     * of 32 pixels each) of the splats whose pixels' box overlaps it: the
     * baseline of that change (the programs are built without the lists). */
    bool whole_tile_lists;
    /* How the composite shades a batch: 1, each pixel tests 32 splats, then
     * shades those that cover it (what the draw does for trails, a
     * system's oriented quads and at a lowered resolution); -1, each splat
     * is tested as it is shaded (what it does elsewhere); 0, as the draw
     * decides. The baseline of either choice. */
    int hit_lists;
    /* The raster passes onto the host's framebuffer (the blend at full
     * resolution, the upsample at 1/2 and 1/4) even where the composite or
     * the upsample could blend onto the host's colour texture itself in
     * compute (an RGBA16F draw buffer): the baseline of that change. */
    bool raster_blend;
    /* The composite's batch holds whole splats, as before it held each
     * splat's map (what the test of whether it covers a pixel reads) and
     * its rank, the shading reading the other words (colour, frames,
     * light, trail) from the splats buffer at the pixels it covers: the
     * baseline of that change. */
    bool whole_splat_batch;
    /* Each camera-facing splat is listed in the tiles its whole quad may
     * show in, as before the projection bounded it by where its sprite's
     * frames have texels to show (the sprite's cover, made from the levels
     * plume uploads): the baseline of that change. */
    bool whole_quads;
} plume_lab_tiled_knobs;

/* Before the system's first tiled draw (NULL: all zero).
 * PLUME_ERROR_INVALID_ARGUMENT (logged, nothing changed): a bad handle, a
 * field out of range, or after the first tiled draw. */
plume_result plume_lab_tiled_set_knobs(plume_context *context, plume_system system,
                                       const plume_lab_tiled_knobs *knobs);

/* Whether the system's last tiled draw blended onto the host's colour
 * texture in compute (true: the composite, or at 1/2 and 1/4 the upsample)
 * or with a raster pass (false: a draw buffer that is not an RGBA16F
 * texture, the knob raster_blend). PLUME_ERROR_INVALID_ARGUMENT (logged): a bad handle, `out`
 * NULL, or a system not yet drawn tiled. */
plume_result plume_lab_tiled_blended_onto_host(plume_context *context, plume_system system, bool *out);

/* Trails (plume_trail_desc): each segment is drawn as up to
 * PLUME_TRAIL_SUBDIVISIONS quads, as many as its curve on the screen needs.
 * On: every segment as all of them (what trails drew before choosing), for
 * the trail benchmark's baseline row. Process-wide, read at each draw;
 * default off. */
void plume_lab_trail_full_subdivisions(bool on);

/* The segments of a trail system's last tiled draw by the quads of each that
 * drew (touched a tile): pairs[q] of them drew q quads (q 0 ..
 * PLUME_TRAIL_SUBDIVISIONS); a particle's own quad counts as a pair of one.
 * The tiled path's per-rank counts are the context's: call it after the
 * system's tiled draw, before any other. Reads back (waits for the GPU). PLUME_ERROR_INVALID_ARGUMENT (logged): a
 * bad handle, pairs NULL, or a system without trails or not yet drawn tiled. */
plume_result plume_lab_trail_tiled_quads_drawn(plume_context *context, plume_system system,
                                               uint32_t pairs[PLUME_TRAIL_SUBDIVISIONS + 1]);

/* A trail system's tiled ranks (its pairs' triangles, dense): those its
 * last tiled draw needed and those made for it (grown from the needs read
 * back). The tiled path's control words are the context's: call it after
 * the system's tiled draw, before any other. Reads back (waits for the
 * GPU). PLUME_ERROR_INVALID_ARGUMENT (logged): as
 * plume_lab_trail_tiled_quads_drawn, or an output NULL. */
plume_result plume_lab_trail_tiled_ranks(plume_context *context, plume_system system, uint32_t *needed,
                                         uint32_t *made);

/* GPU memory, in bytes of the buffers and textures plume made (sizes read
 * from the GL: GL_BUFFER_SIZE, each texture level's texel sizes; needs GL
 * 4.5), for the tests' and benchmarks' budgets. */
typedef struct plume_lab_gpu_memory {
    uint64_t system_bytes; /* what `system` holds (its sorter's and its block of the pool included); 0 for {0} */
    uint64_t shared_bytes; /* the context's screen-sized draw scratch, shared by every system */
    uint64_t total_bytes;  /* everything the context's objects, its shared scratch and its pool hold */
    /* The context's particle pool: its pages and its empty event buffer,
     * and the blocks live systems hold in the pages (each system's is in
     * its system_bytes), so that total = the systems' + shared + pool -
     * pool_used. */
    uint64_t pool_bytes, pool_used_bytes;
} plume_lab_gpu_memory;
/* PLUME_ERROR_INVALID_ARGUMENT (logged): a system handle that names no live
 * system, `out` NULL; PLUME_ERROR_OUT_OF_MEMORY. */
plume_result plume_lab_gpu_memory_of(plume_context *context, plume_system system, plume_lab_gpu_memory *out);

/* Called in every plume_draw_group_draw of `group` before each of its stages
 * ("gather", "sort", "draw") and once more with NULL after the last. NULL
 * hook: none. */
typedef void (*plume_lab_stage_hook)(void *user, const char *stage);
plume_result plume_lab_draw_group_set_stage_hook(plume_context *context, plume_draw_group group,
                                                 plume_lab_stage_hook hook, void *user);

/* ---- Mesh draw -------------------------------------------------------------- */
/* The mesh draw's speed-ups a mesh system's draws leave out, from its next
 * draw on (the benchmark's baselines; default none: both in):
 * NO_INSTANCE_PASS, each vertex works out its particle's appearance and
 * turn itself (no per-particle pass first); NO_EARLY_DEPTH, the surface a
 * uniform of the fragment shader (whose discard keeps the depth test after
 * shading). PLUME_ERROR_INVALID_ARGUMENT (logged): a handle that names no
 * live mesh system, other bits. */
enum { PLUME_LAB_MESH_DRAW_NO_INSTANCE_PASS = 1u << 0, PLUME_LAB_MESH_DRAW_NO_EARLY_DEPTH = 1u << 1 };
plume_result plume_lab_mesh_draw_set_options(plume_context *context, plume_system system, uint32_t left_out);
/* What a mesh system's last draw drew with levels (plume_mesh_lod), read
 * back from its indirect commands (waits for the GPU): counts[0] the full
 * meshes' instances, [1] the coarse meshes', [2] the impostors, summed over
 * the meshes; the culled, and those rasterized in compute
 * (plume_lab_mesh_draw_compute_count), are in none. A draw without levels:
 * counts[0] the particles the raster back end drew, [1] and [2] 0; before
 * any draw, all 0.
 * PLUME_ERROR_INVALID_ARGUMENT (logged): a handle that names no live mesh
 * system. */
plume_result plume_lab_mesh_draw_level_counts(plume_context *context, plume_system system, uint32_t counts[3]);
/* The size on screen (pixels across a particle's bounding sphere, as
 * plume_mesh_lod measures it) below which a mesh system's draw rasterizes a
 * particle's mesh in compute rather than by the GL's raster back end, where
 * the frame's draw_path lets it (TILED or AUTOMATIC; RASTER never does).
 * Negative: the module's default again (render/draw_tuning.h); 0: never; a
 * large number: every opaque or alpha-tested mesh whose sphere stays in
 * front of the eye. From the next draw on. PLUME_ERROR_INVALID_ARGUMENT
 * (logged): a handle that names no live mesh system, a NaN. */
plume_result plume_lab_mesh_draw_set_compute_below(plume_context *context, plume_system system, float pixels);
/* How many particles a mesh system's last draw rasterized in compute, read
 * back (waits for the GPU); 0 before any draw. PLUME_ERROR_INVALID_ARGUMENT
 * (logged): a handle that names no live mesh system, `count` NULL. */
plume_result plume_lab_mesh_draw_compute_count(plume_context *context, plume_system system, uint32_t *count);

#endif
