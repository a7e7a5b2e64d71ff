/*
 * plume_sort.h — GPU key-value sort of (uint key, uint value) pairs, usable on
 * its own without the particle system.
 *
 * Usage (a plume_context first, see plume_context.h):
 *
 *     plume_sorter_desc desc = { .capacity = 1u << 20 };
 *     plume_sorter sorter;
 *     if (plume_sorter_create(context, &desc, &sorter) != PLUME_OK) { ... }
 *     // pairs: an SSBO of uvec2 {key, value}, at least count * 8 bytes
 *     plume_sort(context, sorter, pairs_buffer, count);
 *     // or, with the count in a GPU buffer (no readback):
 *     plume_sort_indirect(context, sorter, pairs_buffer, count_buffer, count_offset);
 *     plume_sorter_destroy(context, sorter);
 *
 * Two backends sort, both in place and in the same calls (direct, indirect,
 * indirect bounded); plume_sorter_desc.algorithm picks one, or, by default,
 * each call picks by its count (see PLUME_SORT_AUTOMATIC).
 *
 * Order. Both give ascending keys. Pairs whose keys are equal (within
 * key_bits, below) come out:
 *   - bitonic: ascending by value. A total order: the result depends only on
 *     the multiset of pairs, never on their input order.
 *   - radix: in their input order (the sort is stable). The result depends
 *     on the input order of equal keys, so a caller that wants the bitonic
 *     order from either backend writes pairs of equal keys in ascending value
 *     order (the particle system writes its pairs in slot order: either
 *     backend then gives it ascending depth key, ties by slot).
 * key_bits promises that keys fit in their low key_bits: a key with a bit
 * above them is ordered by its low key_bits by the radix sort and by all its
 * bits by the bitonic one, so the two backends disagree on it.
 *
 * Bitonic: the network of steps3d's compute-shader sort (flip / disperse). A
 * local sort orders blocks of block_pairs; each later pass runs up to
 * log2(block_pairs) stages of the merge levels on the pairs one workgroup
 * holds (the end of one level and the start of the next), the stages on the
 * lowest position bits in registers and subgroup shuffles where the GL has
 * GL_KHR_shader_subgroup, the others in shared memory. Work n log^2 n, few
 * dispatches: the faster one for small counts.
 * Radix: least-significant digit first, as few digits of at most 8 key bits
 * as key_bits needs, at least two (32 bits: 4, 24: 3 of 8, 20: 3 of 6 or 7,
 * 16: 2 of 8, 12: 2 of 6, 8: 2 of 4), each a stable
 * scatter of tiles of 2048 pairs (counts under 2^19), 4096, or 8192 from 2^20
 * where shared memory holds them (ranked with 32-wide subgroup ballots where
 * the GL has them). Work n x digits: the
 * faster one for large counts; fewer key_bits, fewer digits. Two ways, chosen
 * at creation: on NVIDIA's GL (with 32-wide subgroup operations) Onesweep,
 * 1 + digits dispatches (a histogram of every digit, then one pass per digit
 * that finds each tile's place by decoupled look-back, waiting a bounded
 * time for earlier tiles and then counting them itself: correct on any
 * driver, never a hang); elsewhere reduce-then-scan, 3 x digits dispatches
 * (a tile histogram, a scan over tiles and the scatter per digit; no
 * workgroup waits for another). It keeps a scratch copy of capacity pairs
 * (8 bytes a pair; two copies for 17 to 24 key bits, whose three digits
 * pass through both) and a count per digit per tile (Onesweep: per digit pass
 * too, at most about 1 byte a pair for 32 key bits).
 * Counts need not be powers of two: positions past the count are never read
 * or written.
 *
 * Handles: every function taking a plume_sorter checks it against the
 * context; a destroyed sorter, a handle of another context or a garbage value
 * gives PLUME_ERROR_INVALID_ARGUMENT and a message through the context's
 * logger, never a crash. {0} is never a valid sorter.
 *
 * Threading: a sorter belongs to the GL context current at its creation; call
 * its functions only on a thread where that context is current, one thread at
 * a time per plume_context.
 *
 * GL state: the sort functions set the current program, the indexed
 * GL_SHADER_STORAGE_BUFFER bindings 0 to 4 (the radix sort uses 4), the generic
 * GL_SHADER_STORAGE_BUFFER binding and GL_DISPATCH_INDIRECT_BUFFER binding, and
 * restore all of them before returning (the host's program pipeline becomes
 * active again when its current program was 0). Any other state the host left
 * does not change what they do (compute work only), except transform feedback
 * active and not paused: they refuse it with PLUME_ERROR_HOST_STATE (since
 * 1.1) and do nothing. They issue glMemoryBarrier
 * (GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT) between passes and
 * one GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT |
 * GL_BUFFER_UPDATE_BARRIER_BIT at the end, so results are visible to the
 * host's next shader, draw or buffer read.
 */
#ifndef PLUME_SORT_H
#define PLUME_SORT_H

#include "plume_common.h"
#include "plume_context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* plume_sorter_desc.algorithm (since 1.2). */
typedef enum plume_sort_algorithm {
    /* Per call, from the count (plume_sort) or its bound (max_count for
     * plume_sort_indirect_bounded, the capacity for plume_sort_indirect):
     * bitonic under the crossover measured on an H100
     * (notes/sort-performance.md), radix from it on, and on NVIDIA radix also
     * for the smallest counts (its one-workgroup sort: up to 4096 pairs).
     * The crossovers depend on key_bits;
     * plume_sorter_algorithm_for tells which backend a count gets. */
    PLUME_SORT_AUTOMATIC = 0,
    PLUME_SORT_BITONIC = 1,
    PLUME_SORT_RADIX = 2
} plume_sort_algorithm;

/* A sorter, named by a checked handle (plume_context.h). */
typedef struct plume_sorter {
    uint64_t id;
} plume_sorter;

typedef struct plume_sorter_desc {
    /* Most pairs one call may sort. Required: 1 .. 2^30. */
    uint32_t capacity;
    /* Pairs sorted in one workgroup's shared memory (a power of two, >= 64).
     * 0 (default): the largest power of two whose pairs fit
     * GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, at most 2048. */
    uint32_t block_pairs;
    /* DEPRECATED, removed in ABI 2.0 (the next major): nothing reads it
     * (every pass runs up to log2(block_pairs) stages). Kept so that the
     * layout and the descriptors valid before stay valid: still checked
     * (0..5; 0 reads back as 3). Leave it 0. */
    uint32_t max_fused_stages;
    plume_logger logger;        /* default ({0}): the context's */
    plume_allocator allocator;  /* default ({0}): the context's; all three functions or none */

    /* ---- since 1.2 ---- */
    /* plume_sort_algorithm: AUTOMATIC (0, default), BITONIC or RADIX. With
     * RADIX alone no bitonic backend is made: block_pairs is not used and
     * reads back 0. */
    uint32_t algorithm;
    /* Key bits that matter, the low ones: 1 .. 32; 0 (default) reads back as
     * 32. Keys must fit in them (see "Order" above). The radix sort skips the
     * digits above them (16 bits: half the passes of 32). */
    uint32_t key_bits;
    /* A plume_gpu_path. PLUME_PATH_AUTO (default): compute where the context
     * has GL 4.3, else fragment. PLUME_PATH_FRAGMENT forces the fragment
     * path's sort (GL 3.3 core) on any context: a merge sort giving the
     * bitonic order above (a total order: the same result) as vertex
     * passes, the first sorting each group of 32 pairs, each later one
     * merging the runs two by two (1 + log2(count / 32) passes), recorded
     * by transform feedback into two buffers of the capacity's power of
     * two, read back as buffer textures (nothing reaches
     * the rasterizer: GL_RASTERIZER_DISCARD); where GL_MAX_TEXTURE_BUFFER_SIZE
     * is under that power of two, seeds 000 and 002's render passes over
     * RG32UI textures (2 stages a pass). GL state on this path: the calls
     * also set and restore the texture units 0-4 (2D and buffer textures,
     * samplers), the draw and read framebuffers, the viewport, scissor and
     * raster state, the pixel pack and unpack buffers and parameters, the
     * copy buffers, and transform feedback: on a GL with transform feedback
     * objects (4.0) the sorter binds its own (the host's, even paused, and
     * its buffers stay untouched), on 3.3 the default object's binding 0 is
     * saved and restored. A GL 3.3 context cannot say whether the host's
     * capture is active: a call under one fails with the GL's error
     * (logged). Draws on this path are subject to the host's conditional
     * rendering, which GL cannot suspend: call outside it.
     * PLUME_PATH_COMPUTE on a context without it is PLUME_ERROR_GL_UNSUPPORTED.
     * plume_sorter_get_desc reports the path taken. block_pairs is the compute
     * path's: the fragment path ignores it (it reads back as 0). */
    uint32_t path;
} plume_sorter_desc;

/* Creates a sorter in `context` and the current GL context (4.3 core or newer
 * with compute shaders for the compute path, 3.3 core for the fragment path:
 * see plume_sorter_desc.path). Errors: PLUME_ERROR_INVALID_ARGUMENT (null pointers,
 * capacity 0 or over 2^30, block_pairs not a power of two or over the GL
 * limits, a partial allocator, algorithm not a plume_sort_algorithm, key_bits
 * over 32), PLUME_ERROR_GL_UNSUPPORTED (no GL 4.3 / compute
 * shaders, shared memory under 512 bytes), PLUME_ERROR_SHADER,
 * PLUME_ERROR_OUT_OF_MEMORY. On failure *out_sorter is {0} and no GL object is
 * left behind.
 * Threading: where the GL context is current; one thread at a time per
 * context. */
PLUME_API plume_result plume_sorter_create(plume_context *context, const plume_sorter_desc *desc,
                                           plume_sorter *out_sorter);

/* Frees the sorter and every GL object it created; its handle is invalid
 * afterwards. {0} is a no-op (PLUME_OK). Errors: PLUME_ERROR_INVALID_ARGUMENT
 * (context NULL, a handle that names no live sorter of the context).
 * Threading: where the sorter's GL context is current. */
PLUME_API plume_result plume_sorter_destroy(plume_context *context, plume_sorter sorter);

/* The descriptor with defaults filled in (block_pairs, max_fused_stages,
 * key_bits; algorithm stays as given).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad handle, out_desc NULL; *out_desc
 * is then zeroed when not NULL).
 * Threading: any thread using the context; issues no GL call. */
PLUME_API plume_result plume_sorter_get_desc(const plume_context *context, plume_sorter sorter,
                                             plume_sorter_desc *out_desc);

/* Sorts the first `count` pairs of `pairs_buffer` (a GL buffer name holding
 * uvec2 {key, value} from offset 0) in place. 0 and 1 are valid no-op counts.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or sorter handle, buffer
 * 0 or not a buffer, buffer smaller than count * 8 bytes),
 * PLUME_ERROR_CAPACITY (count over the capacity); on an error nothing is
 * dispatched and the buffer is unchanged.
 * Threading: where the sorter's GL context is current. */
PLUME_API plume_result plume_sort(plume_context *context, plume_sorter sorter, uint32_t pairs_buffer,
                                  uint32_t count);

/* As plume_sort, with the count read on the GPU from the uint at byte
 * `count_offset` (a multiple of 4) of `count_buffer`: no readback. A count over
 * the capacity is clamped to it on the GPU. The backend is picked for the
 * capacity (the bound). The first pass is dispatched for the capacity, its
 * workgroups past the count leaving at once; the later passes get the
 * workgroups the count needs (bitonic: zero for merge levels above it).
 * Bitonic: every pass of the capacity is still issued, and an empty one still
 * costs a wait between passes (~1-2 us on an H100): 1024 pairs in a sorter of
 * 2^22+1 take 0.08 ms this way against 0.017 ms with a bound
 * (plume_sort_indirect_bounded; notes/sort-performance.md). Radix: the
 * passes depend on key_bits only; each empty one costs that wait, and the
 * tile size is the capacity's.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or sorter handle, a
 * buffer 0 or not a buffer, the offset misaligned or past the end of
 * count_buffer, pairs_buffer smaller than capacity * 8 bytes).
 * Threading: where the sorter's GL context is current. */
PLUME_API plume_result plume_sort_indirect(plume_context *context, plume_sorter sorter, uint32_t pairs_buffer,
                                           uint32_t count_buffer, uint32_t count_offset);

/* As plume_sort_indirect, for a caller that knows an upper bound of the GPU
 * count (a particle system: the last count it read back plus what it emitted
 * since). The backend is picked for max_count. Passes above max_count's merge
 * levels are not issued at all, so an indirect sort of 10 K pairs in a 1 M
 * sorter costs about what 10 K costs. The GPU count is clamped to max_count.
 * pairs_buffer needs max_count * 8 bytes.
 * Errors: as plume_sort_indirect, and PLUME_ERROR_CAPACITY when max_count is
 * over the capacity.
 * Threading: where the sorter's GL context is current. */
PLUME_API plume_result plume_sort_indirect_bounded(plume_context *context, plume_sorter sorter,
                                                   uint32_t pairs_buffer, uint32_t count_buffer,
                                                   uint32_t count_offset, uint32_t max_count);

/* since 1.2: sorts the first `count` pairs held in `texture`, a GL_TEXTURE_2D
 * whose level 0 is GL_RG32UI, in place. Layout: pair i is the texel at
 * column i % width, row i / width (width = the texture's width, any size);
 * red is the key, green the value; the texture needs ceil(count / width)
 * rows. Texels past the count are neither read nor written. The order is
 * plume_sort's. Fragment-path sorters only (PLUME_ERROR_INVALID_ARGUMENT on a
 * compute-path sorter, whose pairs live in buffers). The pairs are read into
 * the sorter's buffer with glReadPixels (a pixel pack buffer), sorted there,
 * and written back with glTexSubImage2D (a pixel unpack buffer); with the
 * render-pass sort (see path) the first pass reads `texture` and the last
 * writes it. The host's state is restored (path, above).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad handle, not a 2D texture, not
 * GL_RG32UI, too few texels for `count`), PLUME_ERROR_CAPACITY (count over
 * the capacity).
 * Threading: where the sorter's GL context is current. */
PLUME_API plume_result plume_sort_texture(plume_context *context, plume_sorter sorter, uint32_t texture,
                                          uint32_t count);

/* Number of dispatches (compute path) or passes (fragment path: the
 * network's vertex passes, or the render passes with their two copies)
 * plume_sort issues for `count`, with the backend it picks for it (0 for 0
 * or 1, and 0 with a message for a bad handle).
 * Threading: any thread using the context; issues no GL call. */
PLUME_API uint32_t plume_sorter_pass_count(const plume_context *context, plume_sorter sorter, uint32_t count);

/* The backend (PLUME_SORT_BITONIC or PLUME_SORT_RADIX) that sorting `count`
 * pairs runs: plume_sort's count, or the bound of an indirect sort (since
 * 1.2). PLUME_SORT_AUTOMATIC, with a message, for a bad handle.
 * Threading: any thread using the context; issues no GL call. */
PLUME_API plume_sort_algorithm plume_sorter_algorithm_for(const plume_context *context, plume_sorter sorter,
                                                          uint32_t count);

/* ---- Float depth keys (seed 004's sign flip) -------------------------------
 * A float becomes a uint whose unsigned order is the float's order:
 * -Inf < negative < -0.0 == +0.0 < positive < +Inf.
 *   - -0.0 is made +0.0, so the two zeros are one key (ties then go by value);
 *   - every NaN (either sign, any payload) gets PLUME_KEY_NAN, after +Inf in
 *     ascending and after -Inf in descending order: NaN depths sort behind all
 *     numbers and never disturb their order;
 *   - PLUME_KEY_LAST is never produced: use it for dead/padding slots so they
 *     sort behind everything, NaNs included.
 * PLUME_ORDER_DESCENDING turns larger depths into smaller keys: an ascending
 * sort of such keys is back-to-front for view depth. The GLSL twin of this
 * function is in shaders/sort/depth_key.glsl; both are tested to agree. */
#define PLUME_KEY_NAN 0xFFFFFFFEu
#define PLUME_KEY_LAST 0xFFFFFFFFu

typedef enum plume_sort_order {
    PLUME_ORDER_ASCENDING = 0,  /* near to far */
    PLUME_ORDER_DESCENDING = 1  /* far to near: back-to-front */
} plume_sort_order;

/* Pure: no context, no GL, any thread. */
PLUME_API uint32_t plume_depth_key(float depth, plume_sort_order order);

#ifdef __cplusplus
}
#endif

#endif
