/*
 * plume_sort.h — GPU key-value sort of (uint key, uint value) pairs, usable on
 * its own without the particle system.
 *
 * Usage:
 *
 *     plume_sorter_desc desc = { .capacity = 1u << 20 };
 *     plume_sorter *sorter;
 *     if (plume_sorter_create(&desc, &sorter) != PLUME_OK) { ... }
 *     // pairs: an SSBO of uvec2 {key, value}, at least count * 8 bytes
 *     plume_sort(sorter, pairs_buffer, count);
 *     // or, with the count in a GPU buffer (no readback):
 *     plume_sort_indirect(sorter, pairs_buffer, count_buffer, count_offset);
 *     plume_sorter_destroy(sorter);
 *
 * Order: ascending by key, equal keys ascending by value (a total order, so the
 * result depends only on the multiset of pairs: equal-depth particles never
 * swap from frame to frame). Algorithm: the bitonic network of steps3d's
 * compute-shader sort (flip / disperse), with every stage whose distance fits
 * a workgroup run in shared memory and several global stages fused per pass.
 * Counts need not be powers of two: positions past the count act as +infinity
 * and are never read or written.
 *
 * Threading: a sorter belongs to the GL context current at its creation; call
 * its functions only on a thread where that context is current.
 *
 * GL state: the sort functions set the current program, the indexed
 * GL_SHADER_STORAGE_BUFFER bindings 0 and 1, the generic
 * GL_SHADER_STORAGE_BUFFER binding and GL_DISPATCH_INDIRECT_BUFFER binding, and
 * restore all of them before returning. They issue glMemoryBarrier
 * (GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT) between passes and
 * one GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT |
 * GL_BUFFER_UPDATE_BARRIER_BIT at the end, so results are visible to the
 * host's next shader, draw or buffer read.
 */
#ifndef PLUME_SORT_H
#define PLUME_SORT_H

#include "plume_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct plume_sorter plume_sorter;

typedef struct plume_sorter_desc {
    /* Most pairs one call may sort. Required: 1 .. 2^30. */
    uint32_t capacity;
    /* Pairs sorted in one workgroup's shared memory (a power of two, >= 64).
     * 0 (default): the largest power of two whose pairs fit
     * GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, at most 2048. */
    uint32_t block_pairs;
    /* Most global compare stages fused into one pass (1..5). 0 (default): 3. */
    uint32_t max_fused_stages;
    plume_logger logger;        /* default: stderr */
    plume_allocator allocator;  /* default: malloc / realloc / free */
} plume_sorter_desc;

/* Creates a sorter in the current GL context (4.3 core or newer with compute
 * shaders). Errors: PLUME_ERROR_INVALID_ARGUMENT (null pointers, capacity 0 or
 * over 2^30, block_pairs not a power of two or over the GL limits, a partial
 * allocator), PLUME_ERROR_GL_UNSUPPORTED (no GL 4.3 / compute shaders, shared
 * memory under 512 bytes), PLUME_ERROR_SHADER, PLUME_ERROR_OUT_OF_MEMORY.
 * On failure *out_sorter is NULL and no GL object is left behind. */
PLUME_API plume_result plume_sorter_create(const plume_sorter_desc *desc, plume_sorter **out_sorter);

/* Frees the sorter and every GL object it created. NULL is a no-op. */
PLUME_API void plume_sorter_destroy(plume_sorter *sorter);

/* The descriptor with defaults filled in (block_pairs, max_fused_stages). */
PLUME_API plume_sorter_desc plume_sorter_get_desc(const plume_sorter *sorter);

/* Sorts the first `count` pairs of `pairs_buffer` (a GL buffer name holding
 * uvec2 {key, value} from offset 0) in place. 0 and 1 are valid no-op counts.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (null sorter, buffer 0 or not a buffer,
 * buffer smaller than count * 8 bytes), PLUME_ERROR_CAPACITY (count over the
 * capacity); on an error nothing is dispatched and the buffer is unchanged. */
PLUME_API plume_result plume_sort(plume_sorter *sorter, uint32_t pairs_buffer, uint32_t count);

/* As plume_sort, with the count read on the GPU from the uint at byte
 * `count_offset` (a multiple of 4) of `count_buffer`: no readback. A count over
 * the capacity is clamped to it on the GPU. Passes a smaller count does not
 * need are dispatched with zero workgroups, so the GPU cost follows the count.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a buffer 0 or not a buffer, the offset
 * misaligned or past the end of count_buffer, pairs_buffer smaller than
 * capacity * 8 bytes). */
PLUME_API plume_result plume_sort_indirect(plume_sorter *sorter, uint32_t pairs_buffer,
                                           uint32_t count_buffer, uint32_t count_offset);

/* As plume_sort_indirect, for a caller that knows an upper bound of the GPU
 * count (a particle system: the last count it read back plus what it emitted
 * since). Passes above max_count's merge levels are not issued at all, so an
 * indirect sort of 10 K pairs in a 1 M sorter costs about what 10 K costs. The
 * GPU count is clamped to max_count. pairs_buffer needs max_count * 8 bytes.
 * Errors: as plume_sort_indirect, and PLUME_ERROR_CAPACITY when max_count is
 * over the capacity. */
PLUME_API plume_result plume_sort_indirect_bounded(plume_sorter *sorter, uint32_t pairs_buffer,
                                                   uint32_t count_buffer, uint32_t count_offset, uint32_t max_count);

/* Number of dispatches plume_sort issues for `count` (0 for 0 or 1). */
PLUME_API uint32_t plume_sorter_pass_count(const plume_sorter *sorter, uint32_t count);

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
 * function is in shaders/depth_key.glsl; both are tested to agree. */
#define PLUME_KEY_NAN 0xFFFFFFFEu
#define PLUME_KEY_LAST 0xFFFFFFFFu

typedef enum plume_sort_order {
    PLUME_ORDER_ASCENDING = 0,  /* near to far */
    PLUME_ORDER_DESCENDING = 1  /* far to near: back-to-front */
} plume_sort_order;

PLUME_API uint32_t plume_depth_key(float depth, plume_sort_order order);

#ifdef __cplusplus
}
#endif

#endif
