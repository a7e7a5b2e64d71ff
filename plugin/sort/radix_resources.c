/* The radix sort's resources (radix.c says how it sorts): the digit plan, the
 * way (Onesweep or reduce-then-scan) and the tile sets the GL's limits allow,
 * the programs of each set, the state, tile-count and scratch buffers; their
 * creation, listing and end; the numbers picked by device come from
 * sort_tuning.c, the lab's from sort_settings. */
#include <stdio.h>
#include <string.h>

#include "radix_internal.h"

_Static_assert(PLUME_RADIX_THREADS == PLUME_RADIX_DIGITS,
               "the counting and scanning passes use one invocation per digit, the ranking ones at least that");
_Static_assert(PLUME_RADIX_DIGITS == 1 << PLUME_RADIX_MAX_DIGIT_BITS, "digits of at most 8 bits");
_Static_assert(PLUME_RADIX_THREADS % PLUME_RADIX_LANES == 0, "whole lane groups");

enum {
    MIN_ITEMS = 4,
    MAX_ITEMS = 64, /* the downsweep's 16-bit counts hold a tile of under 2^16 pairs */
    /* The one-workgroup sort's fewest invocations (its digit scan gives each
     * invocation one of 128 digit pairs). */
    SINGLE_MIN_THREADS = 128,
    /* Onesweep's look-back words hold counts in 30 bits. */
    ONESWEEP_MAX_CAPACITY = PLUME_RADIX_LOOKBACK_COUNT_MASK,
    STATE_BYTES = 4 * PLUME_RADIX_STATE_WORDS,
    /* The widest workgroup of the tile passes. */
    MAX_TILE_THREADS = 1024
};

/* The extensions the lab's phase clocks need. */
bool radix_has_phase_clocks(void) {
    return epoxy_has_gl_extension("GL_ARB_shader_clock") && epoxy_has_gl_extension("GL_NV_shader_thread_group");
}

static const char *const PROGRAM_FILES[PROGRAMS] = {"sort/radix_upsweep.comp",   "sort/radix_scan.comp",
                                                    "sort/radix_downsweep.comp", "sort/radix_histogram.comp",
                                                    "sort/radix_downsweep.comp", "sort/radix_single.comp"};
static const char *const PROGRAM_LABELS[PROGRAMS] = {
    "plume sort: radix upsweep",   "plume sort: radix scan",     "plume sort: radix downsweep",
    "plume sort: radix histogram", "plume sort: radix onesweep", "plume sort: radix single tile"};

static const char *const UNIFORM_NAMES[UNIFORMS + 1] = {
    "u_shift",       "u_digit_bits", "u_tile_stride", "u_first_pass",  "u_indirect",    "u_direct_count",
    "u_count_index", "u_max_count",  "u_pass",        "u_wait_limit",  "u_pass_shifts",
    "u_pass_bits",   "u_pass_count", NULL};

/* ---- Plan ----------------------------------------------------------------- */

/* As few passes as 8-bit digits allow, the bits spread evenly: 32 bits are
 * 4 x 8, 24 are 3 x 8, 20 are 7, 7 and 6, 16 are 2 x 8, 12 are 2 x 6;
 * but at least two (a pass cannot scatter in place), so 8 bits are 2 x 4.
 * An odd count goes through two scratch copies so that the last pass still
 * writes the host's buffer (pass_destination in radix.c). */
uint32_t radix_digit_passes(uint32_t key_bits) {
    uint32_t count = (key_bits + PLUME_RADIX_MAX_DIGIT_BITS - 1) / PLUME_RADIX_MAX_DIGIT_BITS;
    return count < 2 ? 2 : count;
}

static void plan_passes(radix_sort *s, uint32_t key_bits) {
    uint32_t count = radix_digit_passes(key_bits);
    uint32_t shift = 0;
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t bits = key_bits / count + (i < key_bits % count ? 1 : 0);
        s->passes[i] = (digit_pass){shift, bits};
        shift += bits;
    }
    s->pass_count = count;
}

/* The tuning's way (radix.c's top says where Onesweep runs), unless the lab
 * forces one; never for a capacity whose counts would not fit the look-back
 * words. */
bool radix_chooses_onesweep(uint32_t capacity, const sort_tuning *tuning, const sort_settings *settings) {
    if (capacity > ONESWEEP_MAX_CAPACITY) return false;
    if (settings->radix_scan != SORT_RADIX_SCAN_DEFAULT) return settings->radix_scan == SORT_RADIX_SCAN_ONESWEEP;
    return tuning->onesweep;
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

/* The pairs of a tile's first part: at most the tuning's, or the lab's
 * parts. */
static uint32_t first_part(const radix_sort *s, uint32_t tile) {
    uint32_t most = s->settings.shared_pairs ? s->settings.shared_pairs : s->tuning.shared_pairs;
    return tile < most ? tile : most;
}

/* Pairs the downsweep lays out in shared memory at once, for a tile and the
 * workgroup's width: the first part, halved where a wide workgroup's counts
 * leave less room. */
static uint32_t shared_pairs(const radix_sort *s, uint32_t tile, uint32_t threads, GLint shared_bytes) {
    uint32_t pairs = first_part(s, tile);
    while (!s->settings.shared_pairs && pairs > PLUME_RADIX_THREADS &&
           downsweep_fixed_bytes(s, threads) + pairs * PLUME_PAIR_BYTES > (uint32_t)shared_bytes)
        pairs /= 2;
    return pairs;
}

/* Keys per invocation of a tile set's Onesweep histogram pass (its workgroups
 * have PLUME_RADIX_THREADS invocations). */
static uint32_t histogram_items(const radix_sort *s, const tile_set *set) {
    uint32_t most = s->settings.histogram_items ? s->settings.histogram_items : s->tuning.histogram_items;
    uint32_t items = set->tile / PLUME_RADIX_THREADS;
    return items < most ? items : most;
}

/* Whether a tile's first part fits the GL's shared memory beside
 * PLUME_RADIX_THREADS invocations' counts: what sets the tiles' sizes. */
static bool fits_one_part(const radix_sort *s, uint32_t tile, GLint shared_bytes) {
    return downsweep_fixed_bytes(s, PLUME_RADIX_THREADS) + first_part(s, tile) * PLUME_PAIR_BYTES <= (uint32_t)shared_bytes;
}

/* Shared memory of the downsweep with the tile's part. */
static uint32_t downsweep_shared_bytes(const radix_sort *s, uint32_t tile, uint32_t threads, GLint shared_bytes) {
    return downsweep_fixed_bytes(s, threads) + shared_pairs(s, tile, threads, shared_bytes) * PLUME_PAIR_BYTES;
}

/* The tile passes' width for a set's tile: the tuning's or the lab's
 * (rounded down to a power of two), halved to what the GL allows, at least
 * PLUME_RADIX_THREADS (which check_limits made sure of): one invocation per
 * digit, whole pairs per invocation. */
static uint32_t tile_threads(const radix_sort *s, int set, uint32_t tile, GLint invocations, GLint size_x,
                             GLint shared_bytes) {
    uint32_t asked = s->settings.tile_threads ? s->settings.tile_threads : s->tuning.tile_threads[set];
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
    uint32_t items_override = s->settings.radix_items;
    uint32_t items = items_override ? items_override : s->tuning.radix_items;
    if (items > MAX_ITEMS) items = MAX_ITEMS;
    while (items > MIN_ITEMS && !fits_one_part(s, items * PLUME_RADIX_THREADS, shared_bytes)) items /= 2;
    bool small_set = !items_override && items / 2 >= MIN_ITEMS;
    uint32_t large_from = s->tuning.large_tiles_from, huge_from = s->tuning.huge_tiles_from;
    bool large_set = !small_set || s->capacity >= large_from;
    bool huge_set = !items_override && items == s->tuning.radix_items && s->capacity >= huge_from &&
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
        set->histogram_items = histogram_items(s, set);
        uint32_t most = t == SMALL_TILES && large_set   ? large_from - 1
                        : t == LARGE_TILES && huge_set ? huge_from - 1
                                                       : s->capacity;
        set->tile_stride = (uint32_t)(((uint64_t)most + set->tile - 1) / set->tile);
    }
    uint32_t previous_tile = 0;
    for (int k = 0; k < SINGLE_SIZES && one_workgroup && !s->settings.no_single_tile; ++k) {
        uint32_t tile_items = items >> (SINGLE_SIZES - 1 - k);
        if (tile_items < MIN_ITEMS || (items_override && tile_items != items) || s->capacity <= previous_tile)
            continue;
        uint32_t tile = tile_items * PLUME_RADIX_THREADS;
        uint32_t threads = s->settings.single_threads ? s->settings.single_threads : s->tuning.single_threads;
        while (threads > SINGLE_MIN_THREADS &&
               (threads > tile || threads > (uint32_t)invocations || threads > (uint32_t)size_x ||
                single_shared_bytes(threads, tile, s->subgroup_ops) > (uint32_t)shared_bytes))
            threads /= 2;
        if (single_shared_bytes(threads, tile, s->subgroup_ops) > (uint32_t)shared_bytes) continue;
        s->singles[k] = (tile_set){.items = tile / threads, .tile = tile, .tile_stride = 1, .threads = threads};
        s->singles[k].histogram_items = histogram_items(s, &s->singles[k]);
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
        bool clocked = s->settings.phase_clocks && onesweep_program;
        char defines[768];
        snprintf(defines, sizeof defines,
                 "%s%s#define RADIX_THREADS %uu\n#define RADIX_ITEMS %uu\n#define RADIX_TILE %uu\n"
                 "#define SUBGROUP_OPS %d\n#define ONESWEEP %d\n"
                 "#define RADIX_SHARED_PAIRS %uu\n#define HISTOGRAM_ITEMS %uu\n#define HISTOGRAM_TILE %uu\n",
                 s->subgroup_ops ? "#extension GL_KHR_shader_subgroup_basic : require\n"
                                   "#extension GL_KHR_shader_subgroup_ballot : require\n"
                                   "#extension GL_KHR_shader_subgroup_shuffle : require\n"
                                   "#extension GL_KHR_shader_subgroup_arithmetic : require\n"
                                 : "",
                 clocked ? "#extension GL_ARB_shader_clock : require\n"
                           "#extension GL_NV_shader_thread_group : require\n#define PHASE_CLOCKS 1\n"
                         : "#define PHASE_CLOCKS 0\n",
                 threads, set->tile / threads, set->tile, s->subgroup_ops ? 1 : 0,
                 p == ONESWEEP_PROGRAM ? 1 : 0, set->shared_pairs, set->histogram_items,
                 set->histogram_items * PLUME_RADIX_THREADS);
        plume_shader_stage stage = {GL_COMPUTE_SHADER, PROGRAM_FILES[p]};
        plume_result result = plume_build_program(s->env, PROGRAM_LABELS[p], &stage, 1, defines, &set->programs[p]);
        if (result != PLUME_OK) return result;
        plume_find_uniform_locations(set->programs[p], UNIFORM_NAMES, set->locations[p]);
    }
    return PLUME_OK;
}

plume_result radix_create(const plume_env *env, const sort_backend_desc *desc, void **out) {
    radix_sort *s = plume_alloc(env, sizeof *s);
    *out = s;
    if (!s) return PLUME_ERROR_OUT_OF_MEMORY;
    s->env = env;
    uint32_t capacity = s->capacity = desc->capacity;
    s->tuning = *desc->tuning;
    s->settings = *desc->settings;
    plan_passes(s, desc->key_bits);
    s->subgroup_ops = s->tuning.subgroup_ops;
    s->onesweep = radix_chooses_onesweep(capacity, &s->tuning, &s->settings);
    s->wait_limit = s->settings.wait_limit ? s->settings.wait_limit : s->tuning.wait_limit;
    plume_result result = check_limits(s, desc->one_workgroup);
    for (int t = 0; t < TILE_SETS && result == PLUME_OK; ++t)
        if (s->sets[t].items) result = build_programs(s, &s->sets[t], false);
    for (int k = 0; k < SINGLE_SIZES && result == PLUME_OK; ++k)
        if (s->singles[k].items) result = build_programs(s, &s->singles[k], true);
    if (result != PLUME_OK) return result;
    /* A capacity that one workgroup sorts in place needs none of the
     * multi-tile passes' buffers (a small system's sort holds no memory). */
    uint32_t single_limit = 0;
    for (int k = 0; k < SINGLE_SIZES; ++k) single_limit = s->singles[k].items ? s->singles[k].tile : single_limit;
    if (capacity <= single_limit) return PLUME_OK;
    /* Zeroed, so that no word of it is undefined before a sort writes it. */
    s->state_buffer = plume_make_gpu_buffer(s->env, STATE_BYTES, "plume sort: radix state");
    glClearBufferData(GL_COPY_WRITE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
    /* Reduce-then-scan: a count per digit per tile; Onesweep: a look-back word
     * per digit per tile per digit pass. */
    uint32_t most_tiles = 0;
    for (int t = 0; t < TILE_SETS; ++t)
        most_tiles = s->sets[t].tile_stride > most_tiles ? s->sets[t].tile_stride : most_tiles;
    GLsizeiptr tile_words = (GLsizeiptr)PLUME_RADIX_DIGITS * most_tiles * (s->onesweep ? s->pass_count : 1);
    s->tile_counts_buffer = plume_make_gpu_buffer(s->env, 4 * tile_words, "plume sort: radix tile counts");
    s->scratch_buffer = plume_make_gpu_buffer(s->env, (GLsizeiptr)PLUME_PAIR_BYTES * capacity, "plume sort: radix scratch pairs");
    if (s->pass_count % 2)
        s->second_scratch_buffer =
            plume_make_gpu_buffer(s->env, (GLsizeiptr)PLUME_PAIR_BYTES * capacity, "plume sort: radix second scratch pairs");
    return plume_drain_gl_errors(env, "plume_sorter_create (radix buffers)");
}

enum { RADIX_GL_OBJECTS = (TILE_SETS + SINGLE_SIZES) * PROGRAMS + 4 };

uint32_t radix_list_gl_objects(const void *backend, plume_gl_object *out, uint32_t capacity) {
    const radix_sort *s = backend;
    plume_gl_object all[RADIX_GL_OBJECTS];
    uint32_t count = 0;
    for (int p = 0; p < PROGRAMS; ++p) {
        for (int t = 0; t < TILE_SETS; ++t) all[count++] = (plume_gl_object){GL_PROGRAM, s->sets[t].programs[p]};
        for (int k = 0; k < SINGLE_SIZES; ++k) all[count++] = (plume_gl_object){GL_PROGRAM, s->singles[k].programs[p]};
    }
    all[count++] = (plume_gl_object){GL_BUFFER, s->state_buffer};
    all[count++] = (plume_gl_object){GL_BUFFER, s->tile_counts_buffer};
    all[count++] = (plume_gl_object){GL_BUFFER, s->scratch_buffer};
    all[count++] = (plume_gl_object){GL_BUFFER, s->second_scratch_buffer};
    return plume_list_named_gl_objects(all, count, out, capacity);
}

void radix_destroy(void *backend) {
    radix_sort *s = backend;
    plume_gl_object owned[RADIX_GL_OBJECTS];
    plume_delete_gl_objects(s->env, owned, radix_list_gl_objects(s, owned, RADIX_GL_OBJECTS));
    plume_free(s->env, s);
}
