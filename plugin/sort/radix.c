/* The radix backend of the sorter (sorter.c, plume_sort.h): an LSD radix sort
 * of the pairs by their low key_bits, in one of two ways: reduce-then-scan
 * (no pass waits for another workgroup, so it needs no forward-progress
 * guarantee the GL does not give) or Onesweep (one pass per digit, tiles
 * placed by decoupled look-back with a bounded wait).
 *
 * The key bits are cut into an even number of digits of at most 8 bits, so
 * that the passes, which alternate between the host's pairs and the sorter's
 * scratch copy, end in the host's buffer. A tile is PLUME_RADIX_THREADS x
 * (8, 16 or 32) consecutive pairs; the passes that rank a tile run it with 512
 * invocations where the GL has 32-wide subgroup operations (tile_set.threads,
 * fewer pairs an invocation: DEFAULT_TILE_THREADS), the passes that count or
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
 * invocations as the GL's shared memory allows up to SINGLE_THREADS (fewer
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
#include <stdio.h>
#include <string.h>

#include "radix.h"
#include "shared/plume_gpu_layout.h"

_Static_assert(PLUME_RADIX_THREADS == PLUME_RADIX_DIGITS,
               "the counting and scanning passes use one invocation per digit, the ranking ones at least that");
_Static_assert(PLUME_RADIX_DIGITS == 1 << PLUME_RADIX_MAX_DIGIT_BITS, "digits of at most 8 bits");
_Static_assert(PLUME_RADIX_THREADS % PLUME_RADIX_LANES == 0, "whole lane groups");
_Static_assert(PLUME_BINDING_RADIX_TILE_COUNTS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_RADIX_DESTINATION < PLUME_SCOPE_SSBO_SLOTS,
               "the GL state scope restores every binding the radix sort uses");

enum {
    MAX_PASSES = PLUME_RADIX_MAX_PASSES, /* 32 key bits in 8-bit digits */
    DEFAULT_ITEMS = 16,      /* pairs per invocation of the large tiles where shared memory allows
                                (notes/sort-performance.md); the huge ones have twice as many */
    MIN_ITEMS = 4,
    MAX_ITEMS = 64, /* the downsweep's 16-bit counts hold a tile of under 2^16 pairs */
    /* The downsweep lays a tile out in shared memory in parts of at most this
     * many pairs (radix_downsweep.comp), so that 8192-pair tiles fit 48 KB. */
    MAX_SHARED_PAIRS = 4096,
    /* Keys per invocation of the Onesweep histogram pass at most: the 8192-pair
     * tiles' histogram took 21.7 us at 2^20 against 14.5 for 4096 pairs a
     * workgroup (notes/sort-performance.md). */
    MAX_HISTOGRAM_ITEMS = 16,
    /* Onesweep's reads of an unpublished look-back word before a workgroup
     * counts that tile itself: a published word comes within microseconds
     * where every started workgroup runs; the count is the rare fallback. */
    DEFAULT_WAIT_LIMIT = 4096,
    /* The one-workgroup sort's invocations where the shared memory allows:
     * 512 measured fastest on the H100 at 2^10 and 2^11 pairs, within 3 % of
     * 1024 at 2^12, ahead of 256 at each (notes/sort-performance.md); and the
     * fewest (its digit scan gives each invocation one of 128 digit pairs). */
    SINGLE_THREADS = 512,
    SINGLE_MIN_THREADS = 128,
    /* Onesweep's look-back words hold counts in 30 bits. */
    ONESWEEP_MAX_CAPACITY = PLUME_RADIX_LOOKBACK_COUNT_MASK,
    STATE_BYTES = 4 * PLUME_RADIX_STATE_WORDS,
    /* The widest workgroup of the tile passes. */
    MAX_TILE_THREADS = 1024
};

/* The tile passes' invocations a workgroup, per tile set (SMALL_TILES,
 * LARGE_TILES, HUGE_TILES below), where the GL has the 32-wide subgroup
 * operations they were measured with: 512 ranked 2-9 % faster than 256 at
 * every count from 2^15 to 2^22 on the H100, 1024 slower than 512 below 2^22
 * (notes/sort-performance.md). Without them, 256. */
static const uint32_t DEFAULT_TILE_THREADS[] = {512, 512, 512};

/* Tests and benchmarks only (sort_internal.h). */
static uint32_t items_override;
static plume_radix_scan scan_override;
static uint32_t wait_limit_override;
static bool single_tile_disabled;
static uint32_t single_threads_override;
static plume_radix_single_timing single_timing;
static uint32_t shared_pairs_override, histogram_items_override;
static uint32_t tile_threads_override;

void plume_radix_set_items(uint32_t items) { items_override = items; }

void plume_radix_set_scan(plume_radix_scan scan, uint32_t wait_limit) {
    scan_override = scan;
    wait_limit_override = wait_limit;
}


void plume_radix_disable_single_tile(bool disabled) { single_tile_disabled = disabled; }

void plume_radix_set_single_threads(uint32_t threads) { single_threads_override = threads; }

void plume_radix_set_single_timing(plume_radix_single_timing timing) { single_timing = timing; }

void plume_radix_set_tile_limits(uint32_t shared_pairs, uint32_t histogram_items) {
    shared_pairs_override = shared_pairs;
    histogram_items_override = histogram_items;
}

void plume_radix_set_tile_threads(uint32_t threads) { tile_threads_override = threads; }

/* The programs of reduce-then-scan (upsweep, scan, downsweep), of Onesweep
 * (histogram, onesweep: the downsweep built with ONESWEEP 1) and of either
 * way for a count that fits one tile (single: every digit pass in one
 * workgroup). */
enum { UPSWEEP_PROGRAM, SCAN_PROGRAM, DOWNSWEEP_PROGRAM, HISTOGRAM_PROGRAM, ONESWEEP_PROGRAM, SINGLE_PROGRAM, PROGRAMS };
static const char *const PROGRAM_FILES[PROGRAMS] = {"sort/radix_upsweep.comp",   "sort/radix_scan.comp",
                                                    "sort/radix_downsweep.comp", "sort/radix_histogram.comp",
                                                    "sort/radix_downsweep.comp", "sort/radix_single.comp"};
static const char *const PROGRAM_LABELS[PROGRAMS] = {
    "plume sort: radix upsweep",   "plume sort: radix scan",     "plume sort: radix downsweep",
    "plume sort: radix histogram", "plume sort: radix onesweep", "plume sort: radix single tile"};
/* The pass kinds the pass hook is told (sort_internal.h). */
static const char *const PASS_KINDS[PROGRAMS] = {"radix upsweep",   "radix scan",     "radix downsweep",
                                                 "radix histogram", "radix onesweep", "radix single"};

enum {
    U_SHIFT, U_DIGIT_BITS, U_TILE_STRIDE, U_FIRST_PASS, U_INDIRECT, U_DIRECT_COUNT, U_COUNT_INDEX, U_MAX_COUNT,
    U_PASS, U_BANK, U_WAIT_LIMIT, U_PASS_SHIFTS, U_PASS_BITS, U_PASS_COUNT, UNIFORMS
};
static const char *const UNIFORM_NAMES[UNIFORMS] = {
    "u_shift",       "u_digit_bits", "u_tile_stride", "u_first_pass",  "u_indirect",    "u_direct_count",
    "u_count_index", "u_max_count",  "u_pass",        "u_bank",        "u_wait_limit",  "u_pass_shifts",
    "u_pass_bits",   "u_pass_count"};

typedef struct digit_pass {
    uint32_t shift, bits;
} digit_pass;

/* Three sizes of tile: 2048 pairs (8 per invocation) measured faster under
 * 2^19 pairs on the H100, 4096 (16) from 2^19, 8192 (32, laid out in shared
 * memory in two halves) from 2^20: fewer tiles, fewer look-back words and
 * shorter walks (notes/sort-performance.md). A sort takes the set its count,
 * or the bound on it, calls for. A sorter has the sets its capacity reaches;
 * one whose tile was chosen (plume_radix_set_items) has that one only. Where
 * the GL's shared memory cuts the large tile down (llvmpipe: 2048), the small
 * one is half of it, so that the tests cross from one set to the other
 * everywhere, and there is no huge one. */
enum { SMALL_TILES, LARGE_TILES, HUGE_TILES, TILE_SETS };
enum { SINGLE_SIZES = 3 };
static const uint32_t LARGE_TILES_FROM = 1u << 19, HUGE_TILES_FROM = 1u << 20;

typedef struct tile_set {
    uint32_t items, tile, tile_stride; /* items: pairs per invocation of the ranking passes (tile / threads);
                                          tile_stride: tiles of the capacity (or of the counts the set sorts) */
    uint32_t threads;                  /* invocations of a workgroup of the passes that rank (items each) */
    uint32_t shared_pairs;             /* the downsweep's part of the tile in shared memory */
    uint32_t histogram_items;          /* keys per invocation of Onesweep's histogram pass, fixed at creation */
    GLuint programs[PROGRAMS];         /* 0: not built (the set, or the other way's programs) */
    GLint locations[PROGRAMS][UNIFORMS]; /* -1 where a program lacks the uniform */
} tile_set;

struct radix_sort {
    const plume_env *env; /* the sorter's */
    uint32_t capacity;
    tile_set sets[TILE_SETS];
    /* One-workgroup sorts: the single-tile program of tiles of a quarter, a
     * half and all of the largest tile, each built where the capacity goes
     * past the one before. */
    tile_set singles[SINGLE_SIZES];
    bool subgroup_ops;
    bool onesweep;       /* else reduce-then-scan */
    uint32_t wait_limit; /* Onesweep's (DEFAULT_WAIT_LIMIT) */
    uint32_t bank;       /* Onesweep: the bank of digit counts the next sort adds to (sorts alternate) */
    digit_pass passes[MAX_PASSES];
    uint32_t pass_count;
    GLuint state_buffer, tile_counts_buffer, scratch_buffer;
};

/* ---- Plan ----------------------------------------------------------------- */

/* An even number of passes (so the last writes the host's buffer), each of at
 * most 8 bits, the bits spread evenly: 32 bits are 4 x 8, 24 are 4 x 6, 16
 * are 2 x 8, 12 are 2 x 6, 8 are 2 x 4. */
static void plan_passes(radix_sort *s, uint32_t key_bits) {
    uint32_t count = (key_bits + PLUME_RADIX_MAX_DIGIT_BITS - 1) / PLUME_RADIX_MAX_DIGIT_BITS;
    count += count & 1;
    uint32_t shift = 0;
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t bits = key_bits / count + (i < key_bits % count ? 1 : 0);
        s->passes[i] = (digit_pass){shift, bits};
        shift += bits;
    }
    s->pass_count = count;
}

/* 32-wide subgroups with ballots, shuffles and arithmetic in compute shaders. */
static bool has_subgroup_ops(void) {
    if (!epoxy_has_gl_extension("GL_KHR_shader_subgroup")) return false;
    GLint size = 0, stages = 0, features = 0;
    glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &size);
    glGetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
    glGetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
    GLint needed = GL_SUBGROUP_FEATURE_BASIC_BIT_KHR | GL_SUBGROUP_FEATURE_BALLOT_BIT_KHR |
                   GL_SUBGROUP_FEATURE_SHUFFLE_BIT_KHR | GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR;
    return size == PLUME_RADIX_LANES && (stages & GL_COMPUTE_SHADER_BIT) && (features & needed) == needed;
}

/* Onesweep where the GL is NVIDIA's with 32-wide subgroup operations (see
 * the top of the file), unless a test or benchmark forces one; never for a
 * capacity whose counts would not fit the look-back words. */
bool radix_chooses_onesweep(uint32_t capacity) {
    if (capacity > ONESWEEP_MAX_CAPACITY) return false;
    if (scan_override != PLUME_RADIX_SCAN_DEFAULT) return scan_override == PLUME_RADIX_SCAN_ONESWEEP;
    const char *vendor = (const char *)glGetString(GL_VENDOR);
    return has_subgroup_ops() && vendor && strstr(vendor, "NVIDIA") != NULL;
}

/* Shared memory of the one-workgroup sort (radix_single.comp): 16-bit
 * counts of each digit per 32 lanes, the tile as keys then values, and
 * without subgroups the lanes' digits. */
static uint32_t single_shared_bytes(uint32_t threads, uint32_t tile, bool subgroup_ops) {
    return 2 * (threads / PLUME_RADIX_LANES) * PLUME_RADIX_DIGITS + PLUME_PAIR_BYTES * tile +
           (subgroup_ops ? 0 : 4 * threads);
}

/* Shared memory of the downsweep besides the tile: 16-bit digit counts per
 * group of lanes, digit starts and targets, the tile taken (Onesweep), and
 * with subgroups the subgroups' sums, without them the lanes' digits and the
 * workgroup sum's space. */
static uint32_t downsweep_fixed_bytes(const radix_sort *s, uint32_t threads) {
    uint32_t per_invocation = s->subgroup_ops ? 4 * threads / PLUME_RADIX_LANES : 2 * 4 * threads;
    return 2 * (threads / PLUME_RADIX_LANES * PLUME_RADIX_DIGITS) + 4 * (2 * PLUME_RADIX_DIGITS + 1) + per_invocation;
}

/* The pairs of a tile's first part: at most MAX_SHARED_PAIRS, or the test's
 * parts. */
static uint32_t first_part(uint32_t tile) {
    uint32_t most = shared_pairs_override ? shared_pairs_override : MAX_SHARED_PAIRS;
    return tile < most ? tile : most;
}

/* Pairs the downsweep lays out in shared memory at once, for a tile and the
 * workgroup's width: the first part, halved where a wide workgroup's counts
 * leave less room. */
static uint32_t shared_pairs(const radix_sort *s, uint32_t tile, uint32_t threads, GLint shared_bytes) {
    uint32_t pairs = first_part(tile);
    while (!shared_pairs_override && pairs > PLUME_RADIX_THREADS &&
           downsweep_fixed_bytes(s, threads) + pairs * PLUME_PAIR_BYTES > (uint32_t)shared_bytes)
        pairs /= 2;
    return pairs;
}

/* Keys per invocation of a tile set's Onesweep histogram pass (its workgroups
 * have PLUME_RADIX_THREADS invocations). */
static uint32_t histogram_items(const tile_set *set) {
    uint32_t most = histogram_items_override ? histogram_items_override : MAX_HISTOGRAM_ITEMS;
    uint32_t items = set->tile / PLUME_RADIX_THREADS;
    return items < most ? items : most;
}

/* Whether a tile's first part fits the GL's shared memory beside
 * PLUME_RADIX_THREADS invocations' counts: what sets the tiles' sizes. */
static bool fits_one_part(const radix_sort *s, uint32_t tile, GLint shared_bytes) {
    return downsweep_fixed_bytes(s, PLUME_RADIX_THREADS) + first_part(tile) * PLUME_PAIR_BYTES <= (uint32_t)shared_bytes;
}

/* Shared memory of the downsweep with the tile's part. */
static uint32_t downsweep_shared_bytes(const radix_sort *s, uint32_t tile, uint32_t threads, GLint shared_bytes) {
    return downsweep_fixed_bytes(s, threads) + shared_pairs(s, tile, threads, shared_bytes) * PLUME_PAIR_BYTES;
}

/* The tile passes' width for a set's tile: the default or the benchmark's
 * (rounded down to a power of two), halved to what the GL allows, at least
 * PLUME_RADIX_THREADS (which check_limits made sure of): one invocation per
 * digit, whole pairs per invocation. */
static uint32_t tile_threads(const radix_sort *s, int set, uint32_t tile, GLint invocations, GLint size_x,
                             GLint shared_bytes) {
    uint32_t asked = tile_threads_override ? tile_threads_override
                     : s->subgroup_ops     ? DEFAULT_TILE_THREADS[set]
                                           : PLUME_RADIX_THREADS;
    uint32_t threads = PLUME_RADIX_THREADS;
    while (threads * 2 <= asked && threads * 2 <= MAX_TILE_THREADS) threads *= 2;
    while (threads > PLUME_RADIX_THREADS &&
           (threads > tile / 2 || threads > (uint32_t)invocations || threads > (uint32_t)size_x ||
            downsweep_shared_bytes(s, tile, threads, shared_bytes) > (uint32_t)shared_bytes))
        threads /= 2;
    return threads;
}

/* The GL's limits: workgroup size, shared memory for the tile (which sets the
 * pairs per invocation, and whether there is a small set), workgroups for the
 * capacity's tiles. */
static plume_result check_limits(radix_sort *s, bool one_workgroup) {
    GLint shared_bytes = 0, invocations = 0, size_x = 0, count_x = 0;
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &shared_bytes);
    glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &invocations);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &size_x);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &count_x);
    uint32_t items = items_override ? items_override : DEFAULT_ITEMS;
    if (items > MAX_ITEMS) items = MAX_ITEMS;
    while (items > MIN_ITEMS && !fits_one_part(s, items * PLUME_RADIX_THREADS, shared_bytes)) items /= 2;
    bool small_set = !items_override && items / 2 >= MIN_ITEMS;
    bool large_set = !small_set || s->capacity >= LARGE_TILES_FROM;
    bool huge_set = !items_override && items == DEFAULT_ITEMS && s->capacity >= HUGE_TILES_FROM &&
                    fits_one_part(s, 2 * items * PLUME_RADIX_THREADS, shared_bytes);
    if (small_set) s->sets[SMALL_TILES].items = items / 2;
    if (large_set) s->sets[LARGE_TILES].items = items;
    if (huge_set) s->sets[HUGE_TILES].items = 2 * items;
    for (int t = 0; t < TILE_SETS; ++t) {
        tile_set *set = &s->sets[t];
        if (!set->items) continue;
        set->tile = set->items * PLUME_RADIX_THREADS;
        set->threads = tile_threads(s, t, set->tile, invocations, size_x, shared_bytes);
        set->items = set->tile / set->threads;
        set->shared_pairs = shared_pairs(s, set->tile, set->threads, shared_bytes);
        set->histogram_items = histogram_items(set);
        uint32_t most = t == SMALL_TILES && large_set   ? LARGE_TILES_FROM - 1
                        : t == LARGE_TILES && huge_set ? HUGE_TILES_FROM - 1
                                                       : s->capacity;
        set->tile_stride = (uint32_t)(((uint64_t)most + set->tile - 1) / set->tile);
    }
    uint32_t previous_tile = 0;
    for (int k = 0; k < SINGLE_SIZES && one_workgroup && !single_tile_disabled; ++k) {
        uint32_t tile_items = items >> (SINGLE_SIZES - 1 - k);
        if (tile_items < MIN_ITEMS || (items_override && tile_items != items) || s->capacity <= previous_tile)
            continue;
        uint32_t tile = tile_items * PLUME_RADIX_THREADS;
        uint32_t threads = single_threads_override ? single_threads_override : SINGLE_THREADS;
        while (threads > SINGLE_MIN_THREADS &&
               (threads > tile || threads > (uint32_t)invocations || threads > (uint32_t)size_x ||
                single_shared_bytes(threads, tile, s->subgroup_ops) > (uint32_t)shared_bytes))
            threads /= 2;
        if (single_shared_bytes(threads, tile, s->subgroup_ops) > (uint32_t)shared_bytes) continue;
        s->singles[k] = (tile_set){.items = tile / threads, .tile = tile, .tile_stride = 1, .threads = threads};
        s->singles[k].histogram_items = histogram_items(&s->singles[k]);
        previous_tile = tile;
    }
    const tile_set *largest = &s->sets[huge_set ? HUGE_TILES : large_set ? LARGE_TILES : SMALL_TILES];
    uint32_t shared_needed = downsweep_shared_bytes(s, largest->tile, largest->threads, shared_bytes);
    if (invocations < PLUME_RADIX_THREADS || size_x < PLUME_RADIX_THREADS || (uint32_t)shared_bytes < shared_needed) {
        plume_log(s->env, PLUME_LOG_ERROR,
                  "plume_sorter_create: GL compute limits too small for the radix sort (shared memory %d bytes, %d "
                  "invocations, work group width %d; need %u, %d, %d)",
                  shared_bytes, invocations, size_x, shared_needed, PLUME_RADIX_THREADS, PLUME_RADIX_THREADS);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    /* The most workgroups of a dispatch: the set of the capacity's tiles, or
     * Onesweep's histogram, whose workgroups may count fewer pairs. */
    uint32_t histogram_tile = largest->histogram_items * PLUME_RADIX_THREADS;
    uint32_t workgroups = (uint32_t)(((uint64_t)s->capacity + histogram_tile - 1) / histogram_tile);
    if (workgroups < largest->tile_stride) workgroups = largest->tile_stride;
    if (workgroups > (uint32_t)count_x) {
        plume_log(s->env, PLUME_LOG_ERROR,
                  "plume_sorter_create: capacity %u needs %u radix workgroups in one dispatch; this GL allows %d",
                  s->capacity, workgroups, count_x);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    return PLUME_OK;
}

/* ---- Creation ------------------------------------------------------------- */

/* The digit passes' shifts and bits, for the programs that run them all. */
static void set_pass_uniforms(const radix_sort *s, const tile_set *set, int program) {
    GLuint shifts[MAX_PASSES] = {0}, bits[MAX_PASSES] = {0};
    for (uint32_t p = 0; p < s->pass_count; ++p) {
        shifts[p] = s->passes[p].shift;
        bits[p] = s->passes[p].bits;
    }
    GLuint id = set->programs[program];
    glProgramUniform4ui(id, set->locations[program][U_PASS_SHIFTS], shifts[0], shifts[1], shifts[2], shifts[3]);
    glProgramUniform4ui(id, set->locations[program][U_PASS_BITS], bits[0], bits[1], bits[2], bits[3]);
    glProgramUniform1ui(id, set->locations[program][U_PASS_COUNT], s->pass_count);
}

/* The programs of the way this sorter sorts for a tile set (single: the
 * single-tile program only); the others stay 0. */
static plume_result build_programs(radix_sort *s, tile_set *set, bool single) {
    for (int p = 0; p < PROGRAMS; ++p) {
        bool onesweep_program = p == HISTOGRAM_PROGRAM || p == ONESWEEP_PROGRAM;
        if (single ? p != SINGLE_PROGRAM : p == SINGLE_PROGRAM || onesweep_program != s->onesweep) continue;
        /* The programs that rank run the set's width; those that count or scan
         * one invocation per digit. */
        bool ranks = p == DOWNSWEEP_PROGRAM || p == ONESWEEP_PROGRAM || p == SINGLE_PROGRAM;
        uint32_t threads = ranks ? set->threads : PLUME_RADIX_THREADS;
        char defines[512];
        snprintf(defines, sizeof defines,
                 "%s#define RADIX_THREADS %uu\n#define RADIX_ITEMS %uu\n#define RADIX_TILE %uu\n"
                 "#define SUBGROUP_OPS %d\n#define ONESWEEP %d\n"
                 "#define RADIX_SHARED_PAIRS %uu\n#define HISTOGRAM_ITEMS %uu\n#define HISTOGRAM_TILE %uu\n",
                 s->subgroup_ops ? "#extension GL_KHR_shader_subgroup_basic : require\n"
                                   "#extension GL_KHR_shader_subgroup_ballot : require\n"
                                   "#extension GL_KHR_shader_subgroup_shuffle : require\n"
                                   "#extension GL_KHR_shader_subgroup_arithmetic : require\n"
                                 : "",
                 threads, set->tile / threads, set->tile, s->subgroup_ops ? 1 : 0,
                 p == ONESWEEP_PROGRAM ? 1 : 0, set->shared_pairs, set->histogram_items,
                 set->histogram_items * PLUME_RADIX_THREADS);
        /* The single-tile program has its own sums. */
        plume_shader_stage stage = {GL_COMPUTE_SHADER, {"sort/radix_common.glsl"}};
        int file = 1;
        if (!single) stage.files[file++] = "sort/workgroup_sum.glsl";
        if (ranks) stage.files[file++] = "sort/radix_rank.glsl";
        stage.files[file] = PROGRAM_FILES[p];
        plume_result result = plume_build_program(s->env, PROGRAM_LABELS[p], &stage, 1, defines, &set->programs[p]);
        if (result != PLUME_OK) return result;
        for (int u = 0; u < UNIFORMS; ++u)
            set->locations[p][u] = glGetUniformLocation(set->programs[p], UNIFORM_NAMES[u]);
        if (p == SINGLE_PROGRAM) set_pass_uniforms(s, set, p);
    }
    return PLUME_OK;
}

plume_result radix_create(const plume_env *env, uint32_t capacity, uint32_t key_bits, bool one_workgroup,
                          radix_sort **out) {
    radix_sort *s = plume_alloc(env, sizeof *s);
    *out = s;
    if (!s) return PLUME_ERROR_OUT_OF_MEMORY;
    memset(s, 0, sizeof *s);
    s->env = env;
    s->capacity = capacity;
    plan_passes(s, key_bits);
    s->subgroup_ops = has_subgroup_ops();
    s->onesweep = radix_chooses_onesweep(capacity);
    s->wait_limit = wait_limit_override ? wait_limit_override : DEFAULT_WAIT_LIMIT;
    plume_result result = check_limits(s, one_workgroup);
    for (int t = 0; t < TILE_SETS && result == PLUME_OK; ++t)
        if (s->sets[t].items) result = build_programs(s, &s->sets[t], false);
    for (int k = 0; k < SINGLE_SIZES && result == PLUME_OK; ++k)
        if (s->singles[k].items) result = build_programs(s, &s->singles[k], true);
    if (result != PLUME_OK) return result;
    /* Zeroed: Onesweep's first sort adds to a bank of counts that it finds
     * zero (each sort zeroes the other one for the next). */
    s->state_buffer = plume_make_gpu_buffer(STATE_BYTES, "plume sort: radix state");
    glClearBufferData(GL_COPY_WRITE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
    /* Reduce-then-scan: a count per digit per tile; Onesweep: a look-back word
     * per digit per tile per digit pass. */
    uint32_t most_tiles = 0;
    for (int t = 0; t < TILE_SETS; ++t)
        most_tiles = s->sets[t].tile_stride > most_tiles ? s->sets[t].tile_stride : most_tiles;
    GLsizeiptr tile_words = (GLsizeiptr)PLUME_RADIX_DIGITS * most_tiles * (s->onesweep ? s->pass_count : 1);
    s->tile_counts_buffer = plume_make_gpu_buffer(4 * tile_words, "plume sort: radix tile counts");
    s->scratch_buffer = plume_make_gpu_buffer((GLsizeiptr)PLUME_PAIR_BYTES * capacity, "plume sort: radix scratch pairs");
    return plume_drain_gl_errors(env, "plume_sorter_create (radix buffers)");
}

enum { RADIX_GL_OBJECTS = (TILE_SETS + SINGLE_SIZES) * PROGRAMS + 3 };

uint32_t radix_list_gl_objects(const radix_sort *s, plume_gl_object *out, uint32_t capacity) {
    if (!s) return 0;
    plume_gl_object all[RADIX_GL_OBJECTS];
    uint32_t count = 0;
    for (int p = 0; p < PROGRAMS; ++p) {
        for (int t = 0; t < TILE_SETS; ++t) all[count++] = (plume_gl_object){GL_PROGRAM, s->sets[t].programs[p]};
        for (int k = 0; k < SINGLE_SIZES; ++k) all[count++] = (plume_gl_object){GL_PROGRAM, s->singles[k].programs[p]};
    }
    all[count++] = (plume_gl_object){GL_BUFFER, s->state_buffer};
    all[count++] = (plume_gl_object){GL_BUFFER, s->tile_counts_buffer};
    all[count++] = (plume_gl_object){GL_BUFFER, s->scratch_buffer};
    return plume_list_named_gl_objects(all, count, out, capacity);
}

void radix_destroy(radix_sort *s) {
    if (!s) return;
    plume_gl_object owned[RADIX_GL_OBJECTS];
    plume_delete_gl_objects(owned, radix_list_gl_objects(s, owned, RADIX_GL_OBJECTS));
    plume_free(s->env, s);
}

/* The single-tile set that sorts `count` pairs (or at most `count`) in one
 * dispatch, or NULL. */
static const tile_set *single_for(const radix_sort *s, uint32_t count) {
    for (int k = 0; k < SINGLE_SIZES; ++k)
        if (s->singles[k].items && count <= s->singles[k].tile) return &s->singles[k];
    return NULL;
}

uint32_t radix_single_tile_limit(const radix_sort *s) {
    uint32_t limit = 0;
    for (int k = 0; k < SINGLE_SIZES; ++k) limit = s->singles[k].items ? s->singles[k].tile : limit;
    return limit;
}

uint32_t radix_dispatch_count(const radix_sort *s, uint32_t count) {
    if (count < 2) return 0;
    if (single_for(s, count)) return 1;
    return s->onesweep ? 1 + s->pass_count : 3 * s->pass_count;
}

/* ---- Sorting -------------------------------------------------------------- */

static void set_uniform(const tile_set *set, int program, int uniform, uint32_t value) {
    if (set->locations[program][uniform] >= 0) glUniform1ui(set->locations[program][uniform], value);
}

static void use_program(const tile_set *set, int program, const sort_pass_hook *hook) {
    glUseProgram(set->programs[program]);
    set_uniform(set, program, U_TILE_STRIDE, set->tile_stride);
    if (hook && hook->function) hook->function(hook->user, PASS_KINDS[program]);
}

/* The digit passes of reduce-then-scan. The first upsweep gets `first_tiles`
 * workgroups (those of the count, or of its bound) and finds the count; the
 * later tile passes get `tiles` (direct) or, when it is 0, the first
 * upsweep's indirect arguments. */
static void run_reduce_then_scan(const radix_sort *s, const tile_set *set, GLuint pairs_buffer,
                                 const uint32_t count_uniforms[4], uint32_t first_tiles, uint32_t tiles,
                                 const sort_pass_hook *hook) {
    for (uint32_t p = 0; p < s->pass_count; ++p) {
        GLuint from = p % 2 == 0 ? pairs_buffer : s->scratch_buffer, to = p % 2 == 0 ? s->scratch_buffer : pairs_buffer;
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_PAIRS, from);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_RADIX_DESTINATION, to);
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
    GLuint shifts[MAX_PASSES] = {0}, bits[MAX_PASSES] = {0};
    for (uint32_t p = 0; p < s->pass_count; ++p) {
        shifts[p] = s->passes[p].shift;
        bits[p] = s->passes[p].bits;
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_PAIRS, pairs_buffer);
    use_program(set, HISTOGRAM_PROGRAM, hook);
    for (int u = 0; u < 4; ++u) set_uniform(set, HISTOGRAM_PROGRAM, U_INDIRECT + u, count_uniforms[u]);
    glUniform4ui(set->locations[HISTOGRAM_PROGRAM][U_PASS_SHIFTS], shifts[0], shifts[1], shifts[2], shifts[3]);
    glUniform4ui(set->locations[HISTOGRAM_PROGRAM][U_PASS_BITS], bits[0], bits[1], bits[2], bits[3]);
    set_uniform(set, HISTOGRAM_PROGRAM, U_PASS_COUNT, s->pass_count);
    set_uniform(set, HISTOGRAM_PROGRAM, U_BANK, s->bank);
    uint32_t histogram_tile = set->histogram_items * PLUME_RADIX_THREADS;
    glDispatchCompute((bound + histogram_tile - 1) / histogram_tile, 1, 1);
    for (uint32_t p = 0; p < s->pass_count; ++p) {
        GLuint from = p % 2 == 0 ? pairs_buffer : s->scratch_buffer, to = p % 2 == 0 ? s->scratch_buffer : pairs_buffer;
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_PAIRS, from);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_RADIX_DESTINATION, to);
        glMemoryBarrier(p == 0 && !tiles ? GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT
                                         : GL_SHADER_STORAGE_BARRIER_BIT);
        use_program(set, ONESWEEP_PROGRAM, hook);
        set_uniform(set, ONESWEEP_PROGRAM, U_SHIFT, s->passes[p].shift);
        set_uniform(set, ONESWEEP_PROGRAM, U_DIGIT_BITS, s->passes[p].bits);
        set_uniform(set, ONESWEEP_PROGRAM, U_PASS, p);
        set_uniform(set, ONESWEEP_PROGRAM, U_BANK, s->bank);
        set_uniform(set, ONESWEEP_PROGRAM, U_WAIT_LIMIT, s->wait_limit);
        if (tiles) glDispatchCompute(tiles, 1, 1);
        else glDispatchComputeIndirect(4 * PLUME_RADIX_STATE_DISPATCH);
    }
    s->bank ^= 1;
}

/* Every digit pass in one workgroup (radix_single.comp), in place; the
 * passes' uniforms were set when the program was built. The benchmark's
 * timings (plume_radix_set_single_timing) dispatch it with no pairs or no
 * digit pass. */
static void run_single(const radix_sort *s, const tile_set *set, GLuint pairs_buffer,
                       const uint32_t count_uniforms[4], const sort_pass_hook *hook) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_PAIRS, pairs_buffer);
    glUseProgram(set->programs[SINGLE_PROGRAM]);
    if (hook && hook->function) hook->function(hook->user, PASS_KINDS[SINGLE_PROGRAM]);
    bool empty = single_timing == PLUME_RADIX_SINGLE_EMPTY;
    for (int u = 0; u < 4; ++u) set_uniform(set, SINGLE_PROGRAM, U_INDIRECT + u, empty ? 0u : count_uniforms[u]);
    bool no_passes = single_timing == PLUME_RADIX_SINGLE_NO_PASSES;
    if (no_passes) set_uniform(set, SINGLE_PROGRAM, U_PASS_COUNT, 0);
    glDispatchCompute(1, 1, 1);
    if (no_passes) set_uniform(set, SINGLE_PROGRAM, U_PASS_COUNT, s->pass_count);
}

/* The tile set for sorting `count` pairs, or at most `count`. */
static const tile_set *set_for(const radix_sort *s, uint32_t count) {
    if (s->sets[HUGE_TILES].items && count >= HUGE_TILES_FROM) return &s->sets[HUGE_TILES];
    bool small = !s->sets[LARGE_TILES].items || (s->sets[SMALL_TILES].items && count < LARGE_TILES_FROM);
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

void radix_sort_direct(radix_sort *s, GLuint pairs_buffer, uint32_t count, const sort_pass_hook *hook) {
    const uint32_t count_uniforms[4] = {0, count, 0, 0};
    run_passes(s, pairs_buffer, count_uniforms, count, true, hook);
}

void radix_sort_indirect(radix_sort *s, GLuint pairs_buffer, uint32_t count_index, uint32_t max_count,
                         const sort_pass_hook *hook) {
    const uint32_t count_uniforms[4] = {1, 0, count_index, max_count};
    run_passes(s, pairs_buffer, count_uniforms, max_count, false, hook);
}
