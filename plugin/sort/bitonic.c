/* The bitonic backend of the sorter (sorter.c, plume_sort.h).
 *
 * The network is seed 001's: for each merge level h = 2, 4, ..., P (P the
 * count's power of two) one flip(h) then disperses of heights h/2 ... 2. Each
 * stage compares positions that differ in one bit (a flip: in one bit and all
 * below it). A local sort runs every level up to the block; every later pass
 * holds a block's worth of pairs whose positions differ only in log2(block)
 * chosen bits, and runs the stages on those bits that come in a row (the end
 * of one level, the start of the next). Both are sort_local.comp: stages on
 * the lowest held bits in registers and between the lanes of a subgroup
 * (shuffles where the GL has GL_KHR_shader_subgroup, else the same trade
 * through shared memory), the rest in shared memory. The pass plan is fixed
 * by the capacity at creation; a count only decides how many workgroups each
 * pass gets (zero for levels above its power of two), on the CPU for
 * plume_sort and on the GPU for plume_sort_indirect. */
#include <stdio.h>
#include <string.h>

#include "shared/plume_gpu_layout.h"
#include "sort_backend.h"

enum {
    MIN_BLOCK_PAIRS = 64,
    MAX_LANES = 32,          /* sort_local.comp: lane group; 32 is NVIDIA's subgroup */
    MAX_LOG_ELEMENTS = 2,    /* sort_local.comp supports 2 or 4 pairs per invocation */
    /* A merge pass always holds runs of at least 2^MIN_LOW_BITS consecutive
     * pairs (32 bytes, one memory sector), so that its loads are not scattered
     * pair by pair. */
    MIN_LOW_BITS = 2,
    STATE_HEADER_BYTES = 4 * PLUME_SORT_STATE_HEADER_WORDS, /* the count, then DISPATCH_ARGS_BYTES per pass */
    DISPATCH_ARGS_BYTES = 4 * PLUME_SORT_DISPATCH_ARGS_WORDS,
    MIN_THREADS = 256,       /* GL 4.3 guarantees 1024 invocations; the default block needs 512 (4 pairs each) */
    MERGE_UNIFORM_COUNT = 6,
    LOCAL_SORT_UNIFORM_COUNT = 5
};

/* The local sort: blocks of consecutive pairs, every level up to the block.
 * A merge pass: a block of pairs whose positions agree outside the position
 * bits [0, low_bits) and [high_base, high_base + log2(block) - low_bits); it
 * runs the stages of the merge network on those bits that come in a row: the
 * end of one level (tail) and the start of the next (head). See
 * shaders/sort/sort_local.comp. */
typedef struct sort_pass {
    bool local_sort;
    uint32_t low_bits, high_base;
    bool flip;                  /* the head starts with a flip */
    uint32_t tail_top;          /* tail: disperses of block heights 2^tail_top .. 2; 0: none */
    uint32_t head_bottom;       /* head: block heights 2^log2(block) .. 2^head_bottom; above log2(block): none */
    uint32_t head_after;        /* the head's level needs counts above this */
    /* What sort_pass_groups() needs; uploaded as a uvec2 for the GPU twin. */
    uint32_t group_bits;        /* position bits that number the workgroups */
    uint32_t level_height;      /* the pass is needed for counts above level_height / 2 */
} sort_pass;

/* The sort's programs come in two sets that differ in pairs per invocation:
 * 2 (twice the invocations) measured faster up to 2^18 pairs on the H100, 4
 * from 2^19 up (notes/sort-performance.md). A sort takes the set that its
 * count, or the bound on it, calls for. A sorter whose capacity is under
 * LARGE_COUNT_SET_FROM, or whose block is too small for 4 pairs per
 * invocation across a full lane group, has the small set only (both
 * numbers: sort_tuning.c). */
enum { SMALL_COUNT_SET, LARGE_COUNT_SET, PROGRAM_SETS };
static const uint32_t SET_LOG_ELEMENTS[PROGRAM_SETS] = {1, 2};

typedef struct program_set {
    uint32_t log_elements;      /* sort_local.comp: pairs per invocation, log2 */
    uint32_t local_threads;
    GLuint local_sort_program;  /* 0: the set is not built */
    GLuint merge_program;
    GLint merge_locations[MERGE_UNIFORM_COUNT]; /* MERGE_UNIFORMS, in order */
    GLint local_sort_locations[LOCAL_SORT_UNIFORM_COUNT]; /* LOCAL_SORT_UNIFORMS, in order */
} program_set;

typedef struct bitonic_sort {
    const plume_env *env;       /* the sorter's */
    uint32_t capacity, block_pairs;
    uint32_t most_default_block; /* the largest block picked by default */
    uint32_t large_set_from;     /* counts (or bounds) from this one take LARGE_COUNT_SET */
    uint32_t log_lanes;         /* sort_local.comp: invocations trading pairs, log2 */
    bool subgroup_shuffle;      /* lanes trade through subgroup shuffles, not shared memory */
    program_set sets[PROGRAM_SETS];
    GLuint state_buffer;        /* count, padding, dispatch args: written by the local sort */
    GLuint pass_table_buffer;
    sort_pass *passes;
    uint32_t pass_count;
} bitonic_sort;

static const char *const MERGE_UNIFORMS[MERGE_UNIFORM_COUNT + 1] = {
    "u_low_bits", "u_high_base", "u_flip", "u_tail_top", "u_head_bottom", "u_head_after", NULL};
/* Where the local sort finds the count (sort_local.comp, pass_pair_count). */
static const char *const LOCAL_SORT_UNIFORMS[LOCAL_SORT_UNIFORM_COUNT + 1] = {
    "u_indirect", "u_direct_count", "u_count_index", "u_max_count", "u_pass_count", NULL};

static uint32_t count_set_bits(uint32_t v) {
    uint32_t n = 0;
    for (; v; v &= v - 1) ++n;
    return n;
}

/* How many numbers below `count` have no bit outside `bits`: the workgroups
 * whose lowest position is below the count, when workgroup numbers are spread
 * over `bits` in order. */
static uint32_t numbers_below(uint32_t count, uint32_t bits) {
    uint32_t found = 0;
    for (int p = 31; p >= 0; --p) {
        uint32_t bit = 1u << p;
        if (!(count & bit)) continue;
        /* Numbers equal to count above p with 0 at p: every choice below. */
        found += 1u << count_set_bits(bits & (bit - 1));
        if (!(bits & bit)) break; /* none can have 1 at p */
    }
    return found;
}

/* The C twin of sort_pass_groups() in shaders/sort/sort_groups.glsl. */
static uint32_t sort_pass_groups(const sort_pass *pass, uint32_t count) {
    if (count <= pass->level_height / 2) return 0;
    return numbers_below(count, pass->group_bits);
}

/* ---- Pass plan ------------------------------------------------------------ */

/* Appends a pass (when `out` is not NULL) and returns the new count. */
static uint32_t add_pass(sort_pass *out, uint32_t n, sort_pass pass) {
    if (out) out[n] = pass;
    return n + 1;
}

static uint32_t held_bits_mask(const sort_pass *pass, uint32_t log_block) {
    uint32_t high = ((1u << (log_block - pass->low_bits)) - 1) << pass->high_base;
    return ((1u << pass->low_bits) - 1) | high;
}

/* The merge levels above the block, log_block + 1 .. log_top, cut into passes
 * of at most log_block stages: each takes what is left of the current level
 * (or as much as fits when that is more than a block's bits) and, with the
 * bits left over, the start of the next level. */
static uint32_t plan_passes(const bitonic_sort *s, sort_pass *out) {
    uint32_t log_block = plume_log2(s->block_pairs);
    uint32_t log_top = plume_log2(plume_next_pow2(s->capacity < 2 ? 2 : s->capacity));
    sort_pass local = {.local_sort = true, .low_bits = log_block, .high_base = log_block, .level_height = 2};
    local.group_bits = ~held_bits_mask(&local, log_block);
    uint32_t n = add_pass(out, 0, local);
    /* Level `level` has its stages on bits next_bit .. 0 still to run; its
     * flip is still to run when next_bit == level - 1. */
    uint32_t level = log_block + 1, next_bit = log_block;
    while (level <= log_top) {
        uint32_t left = next_bit + 1;
        sort_pass pass = {.level_height = 1u << level, .head_bottom = log_block + 1};
        if (left > log_block) {
            /* No tail: a run of the current level's high bits. */
            pass.low_bits = MIN_LOW_BITS;
            pass.high_base = left - (log_block - MIN_LOW_BITS);
            pass.flip = next_bit == level - 1;
            pass.head_bottom = pass.low_bits + 1;
            pass.head_after = pass.level_height / 2;
            next_bit = pass.high_base - 1;
        } else if (level == log_top || left == log_block) {
            /* The tail alone: the last level, or nothing left for a head. */
            pass.low_bits = pass.high_base = log_block;
            pass.tail_top = left;
            ++level;
            next_bit = level - 1;
        } else {
            /* Tail on bits next_bit .. 0, head on the next level's top bits. */
            pass.low_bits = left > MIN_LOW_BITS ? left : MIN_LOW_BITS;
            pass.tail_top = left;
            pass.high_base = level + 1 - (log_block - pass.low_bits);
            pass.flip = true;
            pass.head_bottom = pass.low_bits + 1;
            pass.head_after = 1u << level;
            ++level;
            next_bit = pass.high_base - 1;
        }
        pass.group_bits = ~held_bits_mask(&pass, log_block);
        n = add_pass(out, n, pass);
    }
    return n;
}

/* ---- Creation ------------------------------------------------------------- */

static plume_result build_local_program(bitonic_sort *s, const program_set *set, bool full_sort, GLuint *out) {
    char defines[512];
    snprintf(defines, sizeof defines,
             "%s#define BLOCK_PAIRS %uu\n#define LOG_BLOCK %uu\n#define LOCAL_THREADS %uu\n#define LOG_ELEMENTS %u\n"
             "#define LOG_LANES %uu\n#define LOCAL_SORT %d\n#define SUBGROUP_SHUFFLE %d\n",
             s->subgroup_shuffle ? "#extension GL_KHR_shader_subgroup_basic : require\n"
                                   "#extension GL_KHR_shader_subgroup_shuffle : require\n"
                                 : "",
             s->block_pairs, plume_log2(s->block_pairs), set->local_threads, set->log_elements, s->log_lanes,
             full_sort ? 1 : 0, s->subgroup_shuffle ? 1 : 0);
    plume_shader_stage stage = {GL_COMPUTE_SHADER, "sort/sort_local.comp"};
    return plume_build_program(s->env, full_sort ? "plume sort: local sort" : "plume sort: merge", &stage, 1,
                               defines, out);
}

/* Lanes of a subgroup shuffle in compute shaders (a power of two), 0 where the
 * GL has none. */
static uint32_t subgroup_shuffle_lanes(void) {
    if (!epoxy_has_gl_extension("GL_KHR_shader_subgroup")) return 0;
    GLint size = 0, stages = 0, features = 0;
    glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &size);
    glGetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
    glGetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
    GLint needed = GL_SUBGROUP_FEATURE_BASIC_BIT_KHR | GL_SUBGROUP_FEATURE_SHUFFLE_BIT_KHR;
    if (size < 4 || (size & (size - 1)) != 0 || !(stages & GL_COMPUTE_SHADER_BIT) || (features & needed) != needed)
        return 0;
    return (uint32_t)size;
}

/* Checks the GL's compute limits, chooses (block_pairs 0) or checks the block
 * and sizes the program sets' workgroups. */
static plume_result resolve_block(bitonic_sort *s, uint32_t block_pairs) {
    GLint shared_bytes = 0, invocations = 0, size_x = 0;
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &shared_bytes);
    glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &invocations);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &size_x);
    uint32_t fitting = MIN_BLOCK_PAIRS;
    while (fitting * 2 * PLUME_PAIR_BYTES <= (uint32_t)shared_bytes && fitting * 2 <= s->most_default_block)
        fitting *= 2;
    if ((uint32_t)shared_bytes < MIN_BLOCK_PAIRS * PLUME_PAIR_BYTES || invocations < MIN_THREADS ||
        size_x < MIN_THREADS) {
        plume_log(s->env, PLUME_LOG_ERROR,
                  "plume_sorter_create: GL compute limits too small (shared memory %d bytes, %d invocations, "
                  "work group width %d; need %d, %d, %d)",
                  shared_bytes, invocations, size_x, MIN_BLOCK_PAIRS * PLUME_PAIR_BYTES, MIN_THREADS, MIN_THREADS);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    if (block_pairs == 0) {
        /* No block larger than the capacity's power of two: a small sorter
         * should not pay for a 4096-pair shared-memory network. */
        uint32_t needed = plume_next_pow2(s->capacity);
        s->block_pairs = needed < fitting ? (needed < MIN_BLOCK_PAIRS ? MIN_BLOCK_PAIRS : needed) : fitting;
    } else {
        uint32_t b = block_pairs;
        if (b < MIN_BLOCK_PAIRS || (b & (b - 1)) != 0 || (uint64_t)b * PLUME_PAIR_BYTES > (uint64_t)shared_bytes) {
            plume_log(s->env, PLUME_LOG_ERROR,
                      "plume_sorter_create: block_pairs %u must be a power of two >= %d whose pairs fit %d bytes of "
                      "shared memory",
                      b, MIN_BLOCK_PAIRS, shared_bytes);
            return PLUME_ERROR_INVALID_ARGUMENT;
        }
        s->block_pairs = b;
    }
    uint32_t thread_limit = (uint32_t)(invocations < size_x ? invocations : size_x);
    uint32_t lanes = subgroup_shuffle_lanes();
    s->subgroup_shuffle = lanes != 0;
    s->log_lanes = lanes == 0 || lanes > MAX_LANES ? plume_log2(MAX_LANES) : plume_log2(lanes);
    /* A lane group must be whole: at most block / lanes pairs per invocation. */
    uint32_t log_block = plume_log2(s->block_pairs), log_most = log_block - s->log_lanes;
    if (log_most > MAX_LOG_ELEMENTS) log_most = MAX_LOG_ELEMENTS;
    for (int i = 0; i < PROGRAM_SETS; ++i) {
        uint32_t log_elements = SET_LOG_ELEMENTS[i] < log_most ? SET_LOG_ELEMENTS[i] : log_most;
        while (log_elements < log_most && (s->block_pairs >> log_elements) > thread_limit) ++log_elements;
        s->sets[i].log_elements = log_elements;
        s->sets[i].local_threads = s->block_pairs >> log_elements;
    }
    if (s->sets[LARGE_COUNT_SET].local_threads > thread_limit) {
        plume_log(s->env, PLUME_LOG_ERROR,
                  "plume_sorter_create: block_pairs %u needs workgroups of %u invocations; this GL allows %u",
                  s->block_pairs, s->sets[LARGE_COUNT_SET].local_threads, thread_limit);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return PLUME_OK;
}

static plume_result check_group_limits(const bitonic_sort *s) {
    GLint count_x = 0;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &count_x);
    for (uint32_t i = 0; i < s->pass_count; ++i) {
        uint32_t groups = sort_pass_groups(&s->passes[i], s->capacity);
        if (groups > (uint32_t)count_x) {
            plume_log(s->env, PLUME_LOG_ERROR,
                      "plume_sorter_create: capacity %u needs %u workgroups in one pass; this GL allows %d",
                      s->capacity, groups, count_x);
            return PLUME_ERROR_GL_UNSUPPORTED;
        }
    }
    return PLUME_OK;
}

/* Binds GL_COPY_WRITE_BUFFER: the caller's scope restores it. */
static plume_result create_buffers(bitonic_sort *s) {
    s->state_buffer = plume_make_buffer(s->env, STATE_HEADER_BYTES + DISPATCH_ARGS_BYTES * (GLsizeiptr)s->pass_count,
                                        NULL, GL_DYNAMIC_DRAW, "plume sort: state and dispatch args");
    uint32_t *table = plume_alloc(s->env, sizeof(uint32_t) * PLUME_SORT_PASS_TABLE_WORDS * s->pass_count);
    if (!table) return PLUME_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < s->pass_count; ++i) {
        table[PLUME_SORT_PASS_TABLE_WORDS * i + 0] = s->passes[i].group_bits;
        table[PLUME_SORT_PASS_TABLE_WORDS * i + 1] = s->passes[i].level_height;
    }
    s->pass_table_buffer =
        plume_make_buffer(s->env, sizeof(uint32_t) * PLUME_SORT_PASS_TABLE_WORDS * (GLsizeiptr)s->pass_count, table,
                          GL_STATIC_DRAW, "plume sort: pass table");
    plume_free(s->env, table);
    return plume_drain_gl_errors(s->env, "plume_sorter_create (buffers)");
}

static plume_result create_gl_objects(bitonic_sort *s, uint32_t block_pairs) {
    plume_result result = resolve_block(s, block_pairs);
    if (result != PLUME_OK) return result;
    s->pass_count = plan_passes(s, NULL);
    s->passes = plume_alloc(s->env, sizeof(sort_pass) * s->pass_count);
    if (!s->passes) return PLUME_ERROR_OUT_OF_MEMORY;
    plan_passes(s, s->passes);
    result = check_group_limits(s);
    for (int i = 0; i < PROGRAM_SETS && result == PLUME_OK; ++i) {
        program_set *set = &s->sets[i];
        if (i == LARGE_COUNT_SET &&
            (set->log_elements == s->sets[SMALL_COUNT_SET].log_elements || s->capacity < s->large_set_from))
            continue;
        result = build_local_program(s, set, true, &set->local_sort_program);
        if (result == PLUME_OK) result = build_local_program(s, set, false, &set->merge_program);
        if (result != PLUME_OK) continue;
        plume_find_uniform_locations(set->merge_program, MERGE_UNIFORMS, set->merge_locations);
        plume_find_uniform_locations(set->local_sort_program, LOCAL_SORT_UNIFORMS, set->local_sort_locations);
    }
    if (result == PLUME_OK) result = create_buffers(s);
    return result;
}

static plume_result bitonic_create(const plume_env *env, const sort_backend_desc *desc, void **out) {
    bitonic_sort *s = plume_alloc(env, sizeof *s);
    *out = s;
    if (!s) return PLUME_ERROR_OUT_OF_MEMORY;
    s->env = env;
    s->capacity = desc->capacity;
    s->most_default_block = desc->tuning->bitonic_block_pairs;
    s->large_set_from = desc->tuning->bitonic_large_set_from;
    return create_gl_objects(s, desc->block_pairs);
}

static uint32_t bitonic_block_pairs(const void *backend) {
    const bitonic_sort *s = backend;
    return s->block_pairs;
}

enum { BITONIC_GL_OBJECTS = 2 + 2 * PROGRAM_SETS };

static uint32_t bitonic_list_gl_objects(const void *backend, plume_gl_object *out, uint32_t capacity) {
    const bitonic_sort *s = backend;
    plume_gl_object all[BITONIC_GL_OBJECTS];
    uint32_t count = 0;
    for (int i = 0; i < PROGRAM_SETS; ++i) {
        all[count++] = (plume_gl_object){GL_PROGRAM, s->sets[i].local_sort_program};
        all[count++] = (plume_gl_object){GL_PROGRAM, s->sets[i].merge_program};
    }
    all[count++] = (plume_gl_object){GL_BUFFER, s->state_buffer};
    all[count++] = (plume_gl_object){GL_BUFFER, s->pass_table_buffer};
    return plume_list_named_gl_objects(all, count, out, capacity);
}

static void bitonic_destroy(void *backend) {
    bitonic_sort *s = backend;
    plume_gl_object owned[BITONIC_GL_OBJECTS];
    plume_delete_gl_objects(s->env, owned, bitonic_list_gl_objects(s, owned, BITONIC_GL_OBJECTS));
    plume_free(s->env, s->passes);
    plume_free(s->env, s);
}

static uint32_t bitonic_dispatch_count(const void *backend, uint32_t count) {
    const bitonic_sort *s = backend;
    uint32_t dispatches = 0;
    for (uint32_t i = 0; i < s->pass_count; ++i) dispatches += sort_pass_groups(&s->passes[i], count) > 0;
    return dispatches;
}

/* ---- Sorting -------------------------------------------------------------- */

static void announce_pass(const sort_pass_hook *hook, const sort_pass *pass) {
    sort_call_hook(hook, pass->local_sort ? "local sort" : "merge");
}

/* The program set for sorts of at most `bound` pairs. */
static const program_set *set_for(const bitonic_sort *s, uint32_t bound) {
    const program_set *large = &s->sets[LARGE_COUNT_SET];
    return bound >= s->large_set_from && large->local_sort_program ? large : &s->sets[SMALL_COUNT_SET];
}

/* Where the local sort finds the count: LOCAL_SORT_UNIFORMS' values. */
typedef struct count_source {
    uint32_t indirect, direct_count, count_index, max_count, pass_count;
} count_source;

static void use_pass_program(const program_set *set, const sort_pass *pass, const count_source *source) {
    if (pass->local_sort) {
        glUseProgram(set->local_sort_program);
        const uint32_t values[LOCAL_SORT_UNIFORM_COUNT] = {source->indirect, source->direct_count,
                                                           source->count_index, source->max_count,
                                                           source->pass_count};
        for (int i = 0; i < LOCAL_SORT_UNIFORM_COUNT; ++i) glUniform1ui(set->local_sort_locations[i], values[i]);
        return;
    }
    glUseProgram(set->merge_program);
    const uint32_t values[MERGE_UNIFORM_COUNT] = {pass->low_bits,   pass->high_base,   pass->flip ? 1u : 0u,
                                                  pass->tail_top,   pass->head_bottom, pass->head_after};
    for (int i = 0; i < MERGE_UNIFORM_COUNT; ++i) glUniform1ui(set->merge_locations[i], values[i]);
}

static void bitonic_sort_direct(void *backend, GLuint pairs_buffer, uint32_t count, const sort_pass_hook *hook) {
    const bitonic_sort *s = backend;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_PAIRS, pairs_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_STATE, s->state_buffer);
    const program_set *set = set_for(s, count);
    const count_source source = {.indirect = 0, .direct_count = count};
    bool first = true;
    for (uint32_t i = 0; i < s->pass_count; ++i) {
        uint32_t groups = sort_pass_groups(&s->passes[i], count);
        if (groups == 0) continue;
        if (!first) glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        first = false;
        use_pass_program(set, &s->passes[i], &source);
        announce_pass(hook, &s->passes[i]);
        glDispatchCompute(groups, 1, 1);
    }
}

static void bitonic_sort_indirect(void *backend, GLuint pairs_buffer, GLuint count_buffer, uint32_t count_index,
                                  uint32_t max_count, const sort_pass_hook *hook) {
    (void)count_buffer; /* bound by the sorter */
    const bitonic_sort *s = backend;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_STATE, s->state_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_PASS_TABLE, s->pass_table_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_PAIRS, pairs_buffer);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, s->state_buffer);
    const count_source source = {
        .indirect = 1, .count_index = count_index, .max_count = max_count, .pass_count = s->pass_count};
    /* The local sort is dispatched for max_count (its workgroups past the
     * GPU's count leave at once) and writes the later passes' dispatch sizes.
     * Passes that even max_count does not need are not issued: each empty
     * dispatch still costs the GPU a wait between passes. */
    const program_set *set = set_for(s, max_count);
    GLbitfield barrier = GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT;
    for (uint32_t i = 0; i < s->pass_count; ++i) {
        const sort_pass *pass = &s->passes[i];
        uint32_t most_groups = sort_pass_groups(pass, max_count);
        if (most_groups == 0) continue;
        if (!pass->local_sort) {
            glMemoryBarrier(barrier);
            barrier = GL_SHADER_STORAGE_BARRIER_BIT;
        }
        use_pass_program(set, pass, &source);
        announce_pass(hook, pass);
        if (pass->local_sort) glDispatchCompute(most_groups, 1, 1);
        else glDispatchComputeIndirect(STATE_HEADER_BYTES + DISPATCH_ARGS_BYTES * (GLintptr)i);
    }
}

const sort_backend SORT_BITONIC_BACKEND = {
    .name = "bitonic",
    .compute = true,
    .order = PLUME_SORT_BITONIC,
    .create = bitonic_create,
    .destroy = bitonic_destroy,
    .list_gl_objects = bitonic_list_gl_objects,
    .pass_count = bitonic_dispatch_count,
    .block_pairs = bitonic_block_pairs,
    .sort_direct = bitonic_sort_direct,
    .sort_indirect = bitonic_sort_indirect,
};
