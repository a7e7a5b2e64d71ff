/* The radix backend of the sorter (sorter.c, plume_sort.h): an LSD radix sort
 * of the pairs by their low key_bits, in one of two ways: reduce-then-scan
 * (no pass waits for another workgroup, so it needs no forward-progress
 * guarantee the GL does not give) or Onesweep (one pass per digit, tiles
 * placed by decoupled look-back with a bounded wait).
 *
 * The key bits are cut into as few digits of at most 8 bits as they need
 * (at least two). The passes go from the host's pairs to the sorter's
 * scratch copy and back, ending in the host's buffer; an odd number of them
 * (17 to 24 key bits: three) goes through a second scratch copy in between
 * (pass_destination). A tile is PLUME_RADIX_THREADS x
 * (8, 16 or 32) consecutive pairs; the passes that rank a tile run it with 512
 * invocations where the GL has 32-wide subgroup operations (tile_set.threads,
 * fewer pairs an invocation: sort_tuning.c), the passes that count or
 * scan with one invocation per digit.
 *
 * Reduce-then-scan: three dispatches per digit:
 *   upsweep    each tile's count of each digit; the first one also finds the
 *              count (read on the GPU and clamped, for indirect sorts) and
 *              writes the later tile passes' indirect arguments;
 *   scan       per digit, the counts' exclusive sum over the tiles, and the
 *              digit's total;
 *   downsweep  each tile ranks its pairs stably by digit (radix_rank.glsl:
 *              ballots across a 32-wide subgroup where the GL has them, else
 *              the same match through shared memory), lays them out by digit
 *              in shared memory (in parts, where the workgroup's counts leave
 *              no room for the whole tile) and writes them to their places.
 * Onesweep: one dispatch for all digits, then one per digit:
 *   histogram  every digit pass's count of each digit over the whole count
 *              (finds the count as the first upsweep does, and zeroes the
 *              look-back words);
 *   onesweep   the downsweep's ranking and scatter, each tile's place among
 *              the digit's pairs found by decoupled look-back over the tiles
 *              before it (radix_downsweep.comp says how, and why it is
 *              correct on any GL).
 * A count that fits one tile (bound up to the largest tile,
 * 4096 pairs on NVIDIA) gets neither: one workgroup runs every digit pass in
 * one dispatch (radix_single.comp), with the smallest of three tiles that
 * holds it (a quarter, a half or all of the largest), since its ranking
 * rounds cost by the tile, not by the count. That workgroup has as many
 * invocations as the GL's shared memory allows up to the tuning's (fewer
 * pairs an invocation, so fewer ranking rounds a pass), and ranks as the
 * tile passes do.
 * Which one runs (radix_chooses_onesweep): Onesweep where the GL is NVIDIA's
 * with the 32-wide subgroup operations, the configuration it was measured on:
 * there
 * every workgroup that has started keeps running beside the others, so the
 * look-back's waits are short. Elsewhere reduce-then-scan, whose cost does not
 * depend on how the driver schedules workgroups (on llvmpipe a waiting
 * workgroup may hold one of few threads). The tests run both on every driver.
 * Workgroup sums use subgroup arithmetic where the GL has it.
 * Every pass is stable, so pairs of equal keys (within key_bits) keep their
 * input order. The tile passes' workgroups come from the count (on the GPU for
 * indirect sorts), so the cost follows the count; the scan's workgroups loop
 * over the tiles of the count. */
#include "radix_internal.h"

_Static_assert(PLUME_BINDING_RADIX_TILE_COUNTS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_RADIX_DESTINATION < PLUME_SCOPE_SSBO_SLOTS,
               "the GL state scope restores every binding the radix sort uses");

/* The pass kinds the pass hook is told (sort_internal.h). */
static const char *const PASS_KINDS[PROGRAMS] = {"radix upsweep",   "radix scan",     "radix downsweep",
                                                 "radix histogram", "radix onesweep", "radix single"};

/* The single-tile set that sorts `count` pairs (or at most `count`) in one
 * dispatch, or NULL. */
static const tile_set *single_for(const radix_sort *s, uint32_t count) {
    for (int k = 0; k < SINGLE_SIZES; ++k)
        if (s->singles[k].items && count <= s->singles[k].tile) return &s->singles[k];
    return NULL;
}

static uint32_t radix_single_tile_limit(const void *backend) {
    const radix_sort *s = backend;
    uint32_t limit = 0;
    for (int k = 0; k < SINGLE_SIZES; ++k) limit = s->singles[k].items ? s->singles[k].tile : limit;
    return limit;
}

static uint32_t radix_dispatch_count(const void *backend, uint32_t count) {
    const radix_sort *s = backend;
    if (count < 2) return 0;
    if (single_for(s, count)) return 1;
    return s->onesweep ? 1 + s->pass_count : 3 * s->pass_count;
}

/* ---- Sorting -------------------------------------------------------------- */

static void set_uniform(const tile_set *set, int program, int uniform, uint32_t value) {
    if (set->locations[program][uniform] >= 0) glUniform1ui(set->locations[program][uniform], value);
}

/* The digit passes' shifts and bits, for the programs that run them all
 * (the program in use; set each time: sorters of other key widths share it). */
static void set_pass_uniforms(const radix_sort *s, const tile_set *set, int program) {
    GLuint shifts[MAX_PASSES] = {0}, bits[MAX_PASSES] = {0};
    for (uint32_t p = 0; p < s->pass_count; ++p) {
        shifts[p] = s->passes[p].shift;
        bits[p] = s->passes[p].bits;
    }
    glUniform4ui(set->locations[program][U_PASS_SHIFTS], shifts[0], shifts[1], shifts[2], shifts[3]);
    glUniform4ui(set->locations[program][U_PASS_BITS], bits[0], bits[1], bits[2], bits[3]);
    set_uniform(set, program, U_PASS_COUNT, s->pass_count);
}

static void use_program(const tile_set *set, int program, const sort_pass_hook *hook) {
    glUseProgram(set->programs[program]);
    set_uniform(set, program, U_TILE_STRIDE, set->tile_stride);
    sort_call_hook(hook, PASS_KINDS[program]);
}

/* Where digit pass `pass` writes: the scratch copy and the host's buffer in
 * turn, ending in the host's; with an odd pass count the scratch copies in
 * turn, and the last pass the host's buffer. */
static GLuint pass_destination(const radix_sort *s, uint32_t pass, GLuint pairs_buffer) {
    if (pass + 1 == s->pass_count) return pairs_buffer;
    if (pass % 2 == 0) return s->scratch_buffer;
    return s->pass_count % 2 ? s->second_scratch_buffer : pairs_buffer;
}

/* Binds digit pass `pass`'s source (the host's pairs for the first, else the
 * pass before's destination) and destination. */
static void bind_pass_buffers(const radix_sort *s, uint32_t pass, GLuint pairs_buffer) {
    GLuint from = pass == 0 ? pairs_buffer : pass_destination(s, pass - 1, pairs_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_PAIRS, from);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_RADIX_DESTINATION, pass_destination(s, pass, pairs_buffer));
}

/* The digit passes of reduce-then-scan. The first upsweep gets `first_tiles`
 * workgroups (those of the count, or of its bound) and finds the count; the
 * later tile passes get `tiles` (direct) or, when it is 0, the first
 * upsweep's indirect arguments. */
static void run_reduce_then_scan(const radix_sort *s, const tile_set *set, GLuint pairs_buffer,
                                 const uint32_t count_uniforms[4], uint32_t first_tiles, uint32_t tiles,
                                 const sort_pass_hook *hook) {
    for (uint32_t p = 0; p < s->pass_count; ++p) {
        bind_pass_buffers(s, p, pairs_buffer);
        for (int program = UPSWEEP_PROGRAM; program <= DOWNSWEEP_PROGRAM; ++program) {
            bool first = p == 0 && program == UPSWEEP_PROGRAM;
            if (!first)
                glMemoryBarrier(p == 0 && program == SCAN_PROGRAM && !tiles
                                    ? GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT
                                    : GL_SHADER_STORAGE_BARRIER_BIT);
            use_program(set, program, hook);
            set_uniform(set, program, U_SHIFT, s->passes[p].shift);
            set_uniform(set, program, U_DIGIT_BITS, s->passes[p].bits);
            if (program == UPSWEEP_PROGRAM) {
                set_uniform(set, program, U_FIRST_PASS, first ? 1u : 0u);
                for (int u = 0; first && u < 4; ++u) set_uniform(set, program, U_INDIRECT + u, count_uniforms[u]);
            }
            if (first) glDispatchCompute(first_tiles, 1, 1);
            else if (program == SCAN_PROGRAM) glDispatchCompute(1u << s->passes[p].bits, 1, 1);
            else if (tiles) glDispatchCompute(tiles, 1, 1);
            else glDispatchComputeIndirect(4 * PLUME_RADIX_STATE_DISPATCH);
        }
    }
}

/* The Onesweep passes: the histogram over the workgroups of `bound` (the
 * count or its bound) finds the count, then one pass per digit over `tiles`
 * (or the histogram's indirect arguments when 0). */
static void run_onesweep(radix_sort *s, const tile_set *set, GLuint pairs_buffer, const uint32_t count_uniforms[4],
                         uint32_t bound, uint32_t tiles, const sort_pass_hook *hook) {
    /* The digit counts the histogram adds to, zeroed here rather than by the
     * sort before (which the host's conditional rendering may have
     * discarded while this one runs). */
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, s->state_buffer);
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, 4 * PLUME_RADIX_STATE_PASS_DIGITS,
                         4 * PLUME_RADIX_MAX_PASSES * PLUME_RADIX_DIGITS, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_PAIRS, pairs_buffer);
    use_program(set, HISTOGRAM_PROGRAM, hook);
    for (int u = 0; u < 4; ++u) set_uniform(set, HISTOGRAM_PROGRAM, U_INDIRECT + u, count_uniforms[u]);
    set_pass_uniforms(s, set, HISTOGRAM_PROGRAM);
    uint32_t histogram_tile = set->histogram_items * PLUME_RADIX_THREADS;
    glDispatchCompute((bound + histogram_tile - 1) / histogram_tile, 1, 1);
    for (uint32_t p = 0; p < s->pass_count; ++p) {
        bind_pass_buffers(s, p, pairs_buffer);
        glMemoryBarrier(p == 0 && !tiles ? GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT
                                         : GL_SHADER_STORAGE_BARRIER_BIT);
        use_program(set, ONESWEEP_PROGRAM, hook);
        set_uniform(set, ONESWEEP_PROGRAM, U_SHIFT, s->passes[p].shift);
        set_uniform(set, ONESWEEP_PROGRAM, U_DIGIT_BITS, s->passes[p].bits);
        set_uniform(set, ONESWEEP_PROGRAM, U_PASS, p);
        set_uniform(set, ONESWEEP_PROGRAM, U_WAIT_LIMIT, s->wait_limit);
        if (tiles) glDispatchCompute(tiles, 1, 1);
        else glDispatchComputeIndirect(4 * PLUME_RADIX_STATE_DISPATCH);
    }
}

/* Every digit pass in one workgroup (radix_single.comp), in place; the
 * passes' uniforms were set when the program was built. */
static void run_single(const radix_sort *s, const tile_set *set, GLuint pairs_buffer, const uint32_t count_uniforms[4],
                       const sort_pass_hook *hook) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_PAIRS, pairs_buffer);
    glUseProgram(set->programs[SINGLE_PROGRAM]);
    sort_call_hook(hook, PASS_KINDS[SINGLE_PROGRAM]);
    for (int u = 0; u < 4; ++u) set_uniform(set, SINGLE_PROGRAM, U_INDIRECT + u, count_uniforms[u]);
    set_pass_uniforms(s, set, SINGLE_PROGRAM);
    glDispatchCompute(1, 1, 1);
}

/* The tile set for sorting `count` pairs, or at most `count`. */
static const tile_set *set_for(const radix_sort *s, uint32_t count) {
    if (s->sets[HUGE_TILES].items && count >= s->tuning.huge_tiles_from) return &s->sets[HUGE_TILES];
    bool small =
        !s->sets[LARGE_TILES].items || (s->sets[SMALL_TILES].items && count < s->tuning.large_tiles_from);
    return &s->sets[small ? SMALL_TILES : LARGE_TILES];
}

/* `count_uniforms`: u_indirect, u_direct_count, u_count_index, u_max_count;
 * `bound`: the count or its bound; `direct`: the later passes get the
 * bound's tiles from the CPU, else the first pass's indirect arguments. */
static void run_passes(radix_sort *s, GLuint pairs_buffer, const uint32_t count_uniforms[4], uint32_t bound,
                       bool direct, const sort_pass_hook *hook) {
    const tile_set *single = single_for(s, bound);
    if (single) {
        run_single(s, single, pairs_buffer, count_uniforms, hook);
        return;
    }
    const tile_set *set = set_for(s, bound);
    uint32_t first_tiles = (bound + set->tile - 1) / set->tile, tiles = direct ? first_tiles : 0;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_STATE, s->state_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_RADIX_TILE_COUNTS, s->tile_counts_buffer);
    if (!tiles) glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, s->state_buffer);
    if (s->onesweep) run_onesweep(s, set, pairs_buffer, count_uniforms, bound, tiles, hook);
    else run_reduce_then_scan(s, set, pairs_buffer, count_uniforms, first_tiles, tiles, hook);
}

static void radix_sort_direct(void *backend, GLuint pairs_buffer, uint32_t count, const sort_pass_hook *hook) {
    const uint32_t count_uniforms[4] = {0, count, 0, 0};
    run_passes(backend, pairs_buffer, count_uniforms, count, true, hook);
}

static void radix_sort_indirect(void *backend, GLuint pairs_buffer, GLuint count_buffer, uint32_t count_index,
                                uint32_t max_count, const sort_pass_hook *hook) {
    (void)count_buffer; /* bound by the sorter */
    const uint32_t count_uniforms[4] = {1, 0, count_index, max_count};
    run_passes(backend, pairs_buffer, count_uniforms, max_count, false, hook);
}

const sort_backend SORT_RADIX_BACKEND = {
    .name = "radix",
    .compute = true,
    .order = PLUME_SORT_RADIX,
    .create = radix_create,
    .destroy = radix_destroy,
    .list_gl_objects = radix_list_gl_objects,
    .pass_count = radix_dispatch_count,
    .one_workgroup_limit = radix_single_tile_limit,
    .sort_direct = radix_sort_direct,
    .sort_indirect = radix_sort_indirect,
};
