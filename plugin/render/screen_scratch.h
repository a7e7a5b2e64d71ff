/* What a draw needs in proportion to the screen rather than to a system's
 * capacity, or only while it runs (render/screen_scratch.c): the tiled
 * path's target, tile ranges, chunk table and partials, its entries and
 * their sorters, its per-rank counts and splats, the scan's sums and the
 * control words; the low-resolution wrapper's targets. One set per context
 * (a context attachment, plume_internal.h), used by every system's draw in
 * turn: draws on one GL context run on the GPU in submission order, and each
 * draw writes what it reads of these before it reads it (nothing of one draw
 * is read by a later one: a draw's entry count goes to a word of the
 * readback ring, a word a draw, which its system reads once its fence has
 * passed). So a system holds memory in proportion to its capacity only, and
 * the tiled path adds no buffer to a system.
 * Sizes: each table grows to the largest need of any draw since it was made
 * and never shrinks, except the low-resolution targets, which are the exact
 * size of the last viewport drawn at their factor (their shaders map pixels
 * to the viewport through the texture's size); the whole set is freed when
 * the last system or draw group that used it is released (so a context whose
 * systems are all destroyed holds nothing). Not part of the API. */
#ifndef PLUME_RENDER_SCREEN_SCRATCH_H
#define PLUME_RENDER_SCREEN_SCRATCH_H

#include "particles/particle_view.h"

enum { SCREEN_SCRATCH_LOWRES_FACTORS = 2 }; /* 1/2 and 1/4 */

/* The low-resolution wrapper's targets for one factor. */
typedef struct lowres_targets {
    GLuint depth_framebuffer, particle_framebuffer;
    GLuint particles, depth, depth_copy; /* RGBA16F, DEPTH32F, R32F */
    int width, height;
} lowres_targets;

enum { ENTRY_SORTER_KINDS = 3 * 2 }; /* plume_sort_algorithm by 16 or 32 key bits */

/* What a tiled draw at low resolution leaves for the upsample that follows
 * it: the tiles of its target to cover (render/tile_cover.vert), in the
 * control words' blend arguments and the cover list. */
typedef struct screen_cover {
    GLuint control_buffer, cover_buffer;
    uint32_t tiles_across, tiles_down; /* the target's tiles in a row, in a column */
    uint32_t tile;                     /* a tile's side in the target's pixels */
    bool raster_blend;                 /* the lab's baseline: the upsample a raster pass even onto RGBA16F */
} screen_cover;

/* The uniforms of render/tile_cover.vert, in this order in a program's table. */
enum { SCREEN_COVER_TILES_ACROSS, SCREEN_COVER_TILE_PIXELS, SCREEN_COVER_VIEWPORT_SIZE, SCREEN_COVER_UNIFORMS };
#define SCREEN_COVER_UNIFORM_NAMES "u_tiles_across", "u_tile_pixels", "u_viewport_size"
/* Sets `program`'s tile_cover.vert (its uniforms' locations at `at`) to
 * cover's tiles, `factor` of the host's pixels a pixel of the target, over
 * the viewport, and binds the buffers it and the draw read; then
 * screen_cover_draw draws the quads (the program in use, a vertex array
 * bound). */
void screen_cover_bind(const screen_cover *cover, GLuint program, const GLint at[SCREEN_COVER_UNIFORMS], int factor,
                       const GLint viewport[4]);
void screen_cover_draw(void);

typedef struct screen_scratch {
    uint32_t users; /* the systems' and groups' states that joined (screen_scratch_join) */
    /* The tiled path's full-resolution target (RGBA16F), at least as large as
     * any viewport drawn: a draw uses its corner. */
    GLuint tiled_target;
    int tiled_width, tiled_height;
    GLuint ranges_buffer;  /* per tile: uvec2 */
    GLuint cover_buffer;   /* the tiles the blend covers (PLUME_BINDING_TILED_COVER): a uint each */
    uint32_t range_capacity;
    GLuint chunk_table_buffer, partials_buffer;
    uint32_t slot_capacity, chunk_table_words;
    /* The entries ({tile, rank} pairs) and their sorters, one per algorithm
     * and key width asked for, each of at least the largest budget of any
     * system drawn (a system's budget bounds its sort). */
    GLuint entries_buffer;
    uint32_t entry_capacity;
    plume_sorter entry_sorters[ENTRY_SORTER_KINDS];
    uint32_t entry_sorter_capacity[ENTRY_SORTER_KINDS];
    lowres_targets lowres[SCREEN_SCRATCH_LOWRES_FACTORS];
    GLuint lowres_args_buffer; /* the wrapper's indirect arguments, set by each draw (lowres_args.comp) */
    /* The tiled path's ranks (each of the largest draw's size): per rank the
     * tiles touched and then their scan, the splat; the scan's upper levels;
     * the control words a draw's passes leave their arguments in. */
    GLuint counts_buffer, splats_buffer, scan_sums_buffer, control_buffer;
    GLsizeiptr counts_bytes, splats_bytes, scan_sums_bytes;
    /* The entry counts of the systems' budgets: draw n's at word n modulo
     * SCREEN_SCRATCH_READBACK_WORDS (readbacks: draws so far). */
    GLuint readback_buffer;
    uint64_t readbacks;
} screen_scratch;

enum { SCREEN_SCRATCH_READBACK_WORDS = 256 };

/* The context's scratch, made where none was, counted as used by the state
 * whose `joined` flag this is (set here; NULL, logged: out of memory). A
 * state calls it on each draw; it counts once. */
screen_scratch *screen_scratch_join(plume_context *context, bool *joined);
/* The state whose flag this is no longer uses the scratch (its release):
 * the last one frees it. Nothing where the flag is clear or the context
 * already released the scratch (plume_context_destroy). */
void screen_scratch_leave(plume_context *context, bool *joined);
/* The scratch's GL objects and those of the sorters it made (filed in the
 * context as sorter objects): what it holds on the GPU. */
uint32_t screen_scratch_list_all_gl_objects(const plume_context *context, plume_gl_object *out, uint32_t capacity);

/* The tiled target, grown to hold width x height (a larger one is kept). */
plume_result screen_scratch_ensure_tiled_target(screen_scratch *shared, const plume_env *env, int width, int height);
/* The ranges and the cover list of `tiles` tiles. */
void screen_scratch_ensure_ranges(screen_scratch *shared, const plume_env *env, uint32_t tiles);
/* The chunk table and partials: `slots` slots of `slot_bytes`, `words` words. */
plume_result screen_scratch_ensure_chunks(screen_scratch *shared, const plume_env *env, uint32_t slots,
                                          uint64_t slot_bytes, uint32_t words);
/* The entries for `budget` pairs and the sorter of `algorithm` and
 * `key_bits` (16 or 32) of at least that capacity; the sorter to *out. */
plume_result screen_scratch_ensure_entries(screen_scratch *shared, const particle_view *view, uint32_t budget,
                                           plume_sort_algorithm algorithm, uint32_t key_bits, plume_sorter *out);
/* The tiled path's per-rank buffers of at least these sizes, and its
 * control words. */
plume_result screen_scratch_ensure_ranks(screen_scratch *shared, const plume_env *env, GLsizeiptr counts_bytes,
                                         GLsizeiptr splats_bytes, GLsizeiptr scan_sums_bytes);
/* The next word of the readback ring (its number to *serial) with the
 * buffer bound to GL_COPY_WRITE_BUFFER; UINT32_MAX (logged) where the buffer
 * could not be made. */
uint32_t screen_scratch_next_readback(screen_scratch *shared, const plume_env *env, uint64_t *serial);
/* The word of readback `serial`: false where later draws may have written
 * over it (more than the ring's words since). */
bool screen_scratch_read_readback(const screen_scratch *shared, uint64_t serial, uint32_t *out);
/* The low-resolution targets of `factor_index` (0: 1/2, 1: 1/4) for a w x h
 * target, re-made where their size differs, and the arguments' buffer. Binds GL_DRAW_FRAMEBUFFER and
 * unit 0's texture (the draw's scope restores both). */
plume_result screen_scratch_ensure_lowres(screen_scratch *shared, const plume_env *env, int factor_index, int w,
                                          int h);

#endif
