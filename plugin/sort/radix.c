/* The radix backend of the sorter (sorter.c, plume_sort.h): an LSD radix sort
 * of the pairs by their low key_bits, reduce-then-scan (no pass waits for
 * another workgroup, so it needs no forward-progress guarantee the GL does not
 * give).
 *
 * The key bits are cut into an even number of digits of at most 8 bits, so
 * that the passes, which alternate between the host's pairs and the sorter's
 * scratch copy, end in the host's buffer. A sort is three dispatches per
 * digit over tiles of PLUME_RADIX_THREADS x items consecutive pairs:
 *   upsweep    each tile's count of each digit; the first one also finds the
 *              count (read on the GPU and clamped, for indirect sorts) and
 *              writes the later tile passes' indirect arguments;
 *   scan       per digit, the counts' exclusive sum over the tiles, and the
 *              digit's total;
 *   downsweep  each tile ranks its pairs stably by digit (ballots across a
 *              32-wide subgroup where the GL has them, else the same match
 *              through shared memory), lays them out by digit in shared
 *              memory and writes them to their places.
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
               "the downsweep's per-digit steps use one invocation per digit");
_Static_assert(PLUME_RADIX_DIGITS == 1 << PLUME_RADIX_MAX_DIGIT_BITS, "digits of at most 8 bits");
_Static_assert(PLUME_RADIX_THREADS % PLUME_RADIX_LANES == 0, "whole lane groups");
_Static_assert(PLUME_BINDING_RADIX_TILE_COUNTS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_RADIX_DESTINATION < PLUME_SCOPE_SSBO_SLOTS,
               "the GL state scope restores every binding the radix sort uses");

enum {
    MAX_PASSES = 4,          /* 32 key bits in 8-bit digits */
    DEFAULT_ITEMS = 16,      /* pairs per invocation where shared memory allows (notes/sort-performance.md) */
    MIN_ITEMS = 4,
    STATE_BYTES = 4 * PLUME_RADIX_STATE_WORDS,
    /* Shared memory of the downsweep besides its tile: per-group digit counts,
     * digit starts and targets, the workgroup sum and the lanes' digits. */
    DOWNSWEEP_FIXED_BYTES = 4 * (PLUME_RADIX_THREADS / PLUME_RADIX_LANES * PLUME_RADIX_DIGITS +
                                 3 * PLUME_RADIX_DIGITS + PLUME_RADIX_THREADS)
};

static uint32_t items_override; /* plume_radix_set_items: benchmarks only */

void plume_radix_set_items(uint32_t items) { items_override = items; }

enum { UPSWEEP_PROGRAM, SCAN_PROGRAM, DOWNSWEEP_PROGRAM, PROGRAMS };
static const char *const PROGRAM_FILES[PROGRAMS] = {"sort/radix_upsweep.comp", "sort/radix_scan.comp",
                                                    "sort/radix_downsweep.comp"};
static const char *const PROGRAM_LABELS[PROGRAMS] = {"plume sort: radix upsweep", "plume sort: radix scan",
                                                     "plume sort: radix downsweep"};
/* The pass kinds the pass hook is told (sort_internal.h). */
static const char *const PASS_KINDS[PROGRAMS] = {"radix upsweep", "radix scan", "radix downsweep"};

enum {
    U_SHIFT, U_DIGIT_BITS, U_TILE_STRIDE, U_FIRST_PASS, U_INDIRECT, U_DIRECT_COUNT, U_COUNT_INDEX, U_MAX_COUNT,
    UNIFORMS
};
static const char *const UNIFORM_NAMES[UNIFORMS] = {"u_shift",      "u_digit_bits",   "u_tile_stride",
                                                    "u_first_pass", "u_indirect",     "u_direct_count",
                                                    "u_count_index", "u_max_count"};

typedef struct digit_pass {
    uint32_t shift, bits;
} digit_pass;

struct radix_sort {
    const plume_env *env; /* the sorter's */
    uint32_t capacity, items, tile, tile_stride;
    bool subgroup_ops;
    digit_pass passes[MAX_PASSES];
    uint32_t pass_count;
    GLuint programs[PROGRAMS];
    GLint locations[PROGRAMS][UNIFORMS]; /* -1 where a program lacks the uniform */
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

/* The GL's limits: workgroup size, shared memory for the tile (which sets the
 * pairs per invocation), workgroups for the capacity's tiles. */
static plume_result check_limits(radix_sort *s) {
    GLint shared_bytes = 0, invocations = 0, size_x = 0, count_x = 0;
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &shared_bytes);
    glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &invocations);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &size_x);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &count_x);
    s->items = items_override ? items_override : DEFAULT_ITEMS;
    while (s->items > MIN_ITEMS &&
           DOWNSWEEP_FIXED_BYTES + s->items * PLUME_RADIX_THREADS * PLUME_PAIR_BYTES > (uint32_t)shared_bytes)
        s->items /= 2;
    s->tile = s->items * PLUME_RADIX_THREADS;
    s->tile_stride = (uint32_t)(((uint64_t)s->capacity + s->tile - 1) / s->tile);
    uint32_t shared_needed = DOWNSWEEP_FIXED_BYTES + s->tile * PLUME_PAIR_BYTES;
    if (invocations < PLUME_RADIX_THREADS || size_x < PLUME_RADIX_THREADS || (uint32_t)shared_bytes < shared_needed) {
        plume_log(s->env, PLUME_LOG_ERROR,
                  "plume_sorter_create: GL compute limits too small for the radix sort (shared memory %d bytes, %d "
                  "invocations, work group width %d; need %u, %d, %d)",
                  shared_bytes, invocations, size_x, shared_needed, PLUME_RADIX_THREADS, PLUME_RADIX_THREADS);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    if (s->tile_stride > (uint32_t)count_x) {
        plume_log(s->env, PLUME_LOG_ERROR,
                  "plume_sorter_create: capacity %u needs %u radix tiles in one dispatch; this GL allows %d",
                  s->capacity, s->tile_stride, count_x);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    return PLUME_OK;
}

/* ---- Creation ------------------------------------------------------------- */

static plume_result build_programs(radix_sort *s) {
    char defines[512];
    snprintf(defines, sizeof defines, "%s#define RADIX_ITEMS %uu\n#define RADIX_TILE %uu\n#define SUBGROUP_OPS %d\n",
             s->subgroup_ops ? "#extension GL_KHR_shader_subgroup_basic : require\n"
                                  "#extension GL_KHR_shader_subgroup_ballot : require\n"
                                  "#extension GL_KHR_shader_subgroup_shuffle : require\n"
                                  "#extension GL_KHR_shader_subgroup_arithmetic : require\n"
                                : "",
             s->items, s->tile, s->subgroup_ops ? 1 : 0);
    for (int p = 0; p < PROGRAMS; ++p) {
        plume_shader_stage stage = {GL_COMPUTE_SHADER,
                                    {"sort/radix_common.glsl", "sort/workgroup_sum.glsl", PROGRAM_FILES[p]}};
        plume_result result = plume_build_program(s->env, PROGRAM_LABELS[p], &stage, 1, defines, &s->programs[p]);
        if (result != PLUME_OK) return result;
        for (int u = 0; u < UNIFORMS; ++u) s->locations[p][u] = glGetUniformLocation(s->programs[p], UNIFORM_NAMES[u]);
    }
    return PLUME_OK;
}

plume_result radix_create(const plume_env *env, uint32_t capacity, uint32_t key_bits, radix_sort **out) {
    radix_sort *s = plume_alloc(env, sizeof *s);
    *out = s;
    if (!s) return PLUME_ERROR_OUT_OF_MEMORY;
    memset(s, 0, sizeof *s);
    s->env = env;
    s->capacity = capacity;
    plan_passes(s, key_bits);
    s->subgroup_ops = has_subgroup_ops();
    plume_result result = check_limits(s);
    if (result == PLUME_OK) result = build_programs(s);
    if (result != PLUME_OK) return result;
    s->state_buffer = plume_make_gpu_buffer(STATE_BYTES, "plume sort: radix state");
    s->tile_counts_buffer =
        plume_make_gpu_buffer((GLsizeiptr)4 * PLUME_RADIX_DIGITS * s->tile_stride, "plume sort: radix tile counts");
    s->scratch_buffer = plume_make_gpu_buffer((GLsizeiptr)PLUME_PAIR_BYTES * capacity, "plume sort: radix scratch pairs");
    return plume_drain_gl_errors(env, "plume_sorter_create (radix buffers)");
}

enum { RADIX_GL_OBJECTS = PROGRAMS + 3 };

uint32_t radix_list_gl_objects(const radix_sort *s, plume_gl_object *out, uint32_t capacity) {
    if (!s) return 0;
    plume_gl_object all[RADIX_GL_OBJECTS];
    uint32_t count = 0;
    for (int p = 0; p < PROGRAMS; ++p) all[count++] = (plume_gl_object){GL_PROGRAM, s->programs[p]};
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

uint32_t radix_dispatch_count(const radix_sort *s, uint32_t count) {
    return count < 2 ? 0 : 3 * s->pass_count;
}

/* ---- Sorting -------------------------------------------------------------- */

static void set_uniform(const radix_sort *s, int program, int uniform, uint32_t value) {
    if (s->locations[program][uniform] >= 0) glUniform1ui(s->locations[program][uniform], value);
}

static void use_program(const radix_sort *s, int program, const sort_pass_hook *hook) {
    glUseProgram(s->programs[program]);
    set_uniform(s, program, U_TILE_STRIDE, s->tile_stride);
    if (hook && hook->function) hook->function(hook->user, PASS_KINDS[program]);
}

/* The digit passes. The first upsweep gets `first_tiles` workgroups (those of
 * the count, or of its bound) and finds the count; the later tile passes get
 * `tiles` (direct) or, when it is 0, the first upsweep's indirect arguments. */
static void run_passes(const radix_sort *s, GLuint pairs_buffer, const uint32_t count_uniforms[4],
                       uint32_t first_tiles, uint32_t tiles, const sort_pass_hook *hook) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_STATE, s->state_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_RADIX_TILE_COUNTS, s->tile_counts_buffer);
    if (!tiles) glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, s->state_buffer);
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
            use_program(s, program, hook);
            set_uniform(s, program, U_SHIFT, s->passes[p].shift);
            set_uniform(s, program, U_DIGIT_BITS, s->passes[p].bits);
            if (program == UPSWEEP_PROGRAM) {
                set_uniform(s, program, U_FIRST_PASS, first ? 1u : 0u);
                for (int u = 0; first && u < 4; ++u) set_uniform(s, program, U_INDIRECT + u, count_uniforms[u]);
            }
            if (first) glDispatchCompute(first_tiles, 1, 1);
            else if (program == SCAN_PROGRAM) glDispatchCompute(1u << s->passes[p].bits, 1, 1);
            else if (tiles) glDispatchCompute(tiles, 1, 1);
            else glDispatchComputeIndirect(4 * PLUME_RADIX_STATE_DISPATCH);
        }
    }
}

void radix_sort_direct(const radix_sort *s, GLuint pairs_buffer, uint32_t count, const sort_pass_hook *hook) {
    const uint32_t count_uniforms[4] = {0, count, 0, 0};
    uint32_t tiles = (count + s->tile - 1) / s->tile;
    run_passes(s, pairs_buffer, count_uniforms, tiles, tiles, hook);
}

void radix_sort_indirect(const radix_sort *s, GLuint pairs_buffer, uint32_t count_index, uint32_t max_count,
                         const sort_pass_hook *hook) {
    const uint32_t count_uniforms[4] = {1, 0, count_index, max_count};
    run_passes(s, pairs_buffer, count_uniforms, (max_count + s->tile - 1) / s->tile, 0, hook);
}
