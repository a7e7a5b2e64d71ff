/* Sort benchmark: GPU time of plume's sorts (the bitonic and radix backends
 * and the automatic choice between them; direct and indirect count) beside
 * seed 001's algorithm as written (bench/shaders/seed001_sort.comp), measured
 * in the same run with GL timer queries (GL_TIME_ELAPSED), median of many runs
 * after warm-up, as ratios to seed 001 and to the first variant. Every size is
 * also checked against qsort on the device the benchmark runs on.
 *
 * Methods: direct (count from the CPU), indirect (count from a GPU buffer,
 * bound = the capacity), bounded (GPU count with the CPU's upper bound = the
 * count), seed001.
 *
 * Usage: plume_bench [--min-log K] [--max-log K] [--runs N] [--warmup N]
 *                    [--csv FILE] [--variant SPEC]... [--methods LIST]
 *                    [--powers-only] [--no-copy] [--pass-times] [--phase-clocks FILE]
 *                    [--keys random|depth|octave]
 *                    [--dump-programs DIR] [--cold-cache MB] [--fragment K]...
 *                    [--feedback M]...
 * --variant ALGORITHM[:KEY_BITS[:SIZE]]: a sorter to time, ALGORITHM one of
 * bitonic, radix, automatic, or a radix sort forced one way: rts
 * (reduce-then-scan), onesweep, tiled (the driver's way without the
 * one-workgroup sort of counts that fit a tile), single (the driver's way with
 * SIZE invocations in the one-workgroup sort's workgroup), histogram (the
 * driver's way with at
 * most SIZE keys per invocation in Onesweep's histogram pass); threads (the
 * driver's way with tile passes of at most SIZE invocations a workgroup,
 * every tile set); KEY_BITS its key_bits (default 32: the keys are
 * random in that many bits); SIZE the bitonic block_pairs or the radix sort's
 * pairs per invocation (default: the sorter's own). A bare number is a bitonic
 * block. Default: bitonic, radix, automatic.
 * --methods: a comma list of direct, indirect, bounded (default all three).
 * --powers-only: sizes 2^k only (default also 2^k + 1).
 * --no-copy: the timed sorts sort the pairs the sort before left (already
 * sorted), with no input copy ahead of each: what the copy before the timer's
 * start adds to its reading (the check still sorts a fresh copy).
 * --keys depth: the keys of particles' view depths uniform in [5, 15)
 * (plume_depth_key, ascending: the high digits nearly all alike), masked to
 * the variant's key bits; --keys octave: depths in [8, 16), whose top digit
 * is the same for every key; default random.
 * --fragment K: also the fragment path's render-pass sort as a texture sort
 * (plume_sort_texture of an RG32UI texture 2048 pairs a row) with K stages a
 * pass, 1 .. 4 (1: the seeds' one stage a pass): variant fragment:K, method
 * texture. Repeatable.
 * --feedback M: also the fragment path's transform-feedback sort with groups
 * of 2^M pairs, 1 .. 6 (6 where the GL records 128 components a vertex;
 * elsewhere the sorter keeps its last), as a buffer sort (plume_sort: method direct) and a
 * texture sort (method texture): variant feedback:M. Repeatable. Both
 * fragment-path sorters live in this process beside the compute ones; "x
 * first" on their rows is their time over the first variant's direct sort.
 * "cpu ms" on every row: the median CPU time of the sort call, issue only.
 * --pass-times: instead of the table, the median time of every pass of a sort
 * of 2^min-log .. 2^max-log pairs (GL timestamps between the dispatches).
 * --phase-clocks FILE: after each radix row, one more sort whose Onesweep
 * workgroups record their SM and clocks (the lab's phase_clocks setting;
 * NVIDIA's GL), appended to FILE as CSV: count, variant, method, pass (the
 * histogram is pass 4), workgroup (tile), SM, start clock, then the clock at
 * the end of each phase (radix_downsweep.comp, radix_histogram.comp; 0
 * where a program has fewer). Clocks are the SM's own, 32 bits: compare
 * them within one SM.
 * Each run sorts fresh copies of the same random pairs (copied outside the
 * timed region); the copy leaves the pairs in L2 where they fit.
 * --cold-cache MB: after the copy, also read and write MB megabytes (1..255,
 * one dispatch) of scratch (still outside the timed region), so the sort starts with the pairs pushed out of
 * L2 and the cache full of dirty lines, as after a frame's simulate pass that
 * writes every particle (48 MB at 1 M particles). */
#define _POSIX_C_SOURCE 200809L
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_shaders.h"
#include "headless_gl.h"
#include "plume/plume_sort.h"
#include "plume_lab.h"
#include "shared/plume_gpu_layout.h"

typedef struct pair {
    uint32_t key, value;
} pair;

static uint32_t log2_of(uint32_t v) {
    uint32_t log = 0;
    while (v >>= 1) ++log;
    return log;
}

static uint32_t next_pow2(uint32_t v) {
    uint32_t p = 1;
    while (p < v) p <<= 1;
    return p;
}

enum { MAX_VARIANTS = 16 };

/* A sorter to time. */
typedef struct variant {
    char name[24];
    plume_sort_algorithm algorithm;
    uint32_t key_bits;   /* 1 .. 32 */
    uint32_t size;       /* bitonic block_pairs or radix pairs per invocation; 0: default */
    plume_lab_radix_scan scan; /* radix: the way forced (rts, onesweep) */
    bool tiled;            /* radix: no one-workgroup sort for counts that fit a tile */
    uint32_t single_threads; /* radix: the one-workgroup sort's invocations; 0: the sorter's own */
    uint32_t histogram_items; /* radix: keys per invocation of Onesweep's histogram at most; 0: the default */
    uint32_t tile_threads;    /* radix: the tile passes' invocations a workgroup at most; 0: the default */
} variant;

typedef struct options {
    uint32_t min_log, max_log, runs, warmup;
    const char *csv_path;
    uint32_t variant_count;
    variant variants[MAX_VARIANTS];
    bool methods[3];       /* by method: direct, indirect, bounded */
    bool powers_only;
    bool no_copy; /* --no-copy */
    bool pass_times;
    const char *phase_clocks_path; /* --phase-clocks */
    const char *dump_dir; /* --dump-programs */
    uint32_t cold_cache_mb; /* --cold-cache */
    uint32_t fragment_bits_count;
    uint32_t fragment_bits[4]; /* --fragment K: the render-pass sort with K stages a pass (1 .. 4) */
    uint32_t feedback_bits_count;
    uint32_t feedback_bits[6]; /* --feedback M: the transform-feedback sort, groups of 2^M (1 .. 6) */
    bool depth_keys;           /* --keys depth or octave */
    bool octave_keys;          /* --keys octave */
} options;

static uint64_t random_state;
static uint32_t random_u32(void) {
    uint64_t z = (random_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* --keys depth: the keys of particles in a ball seen from outside
 * (plume_depth_key of view depths uniform in [5, 15), ascending: their high
 * digits nearly all alike); --keys octave: depths uniform in [8, 16), one
 * exponent, so that the top digit is the same for every key; else random. */
static bool depth_keys, octave_keys;
static uint32_t random_key(void) {
    if (!depth_keys) return random_u32();
    float unit = (float)(random_u32() >> 8) / 16777216.0f;
    return plume_depth_key(octave_keys ? 8.0f + 8.0f * unit : 5.0f + 10.0f * unit, PLUME_ORDER_ASCENDING);
}

static int compare_pairs(const void *a, const void *b) {
    const pair *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->value > y->value) - (x->value < y->value);
}

static GLuint make_buffer(size_t bytes, const void *data) {
    GLuint buffer;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
    glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, data, GL_DYNAMIC_COPY);
    return buffer;
}

static void copy_buffer(GLuint from, GLuint to, size_t bytes) {
    glBindBuffer(GL_COPY_READ_BUFFER, from);
    glBindBuffer(GL_COPY_WRITE_BUFFER, to);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)bytes);
}

static void read_buffer(GLuint buffer, size_t bytes, void *out) {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    glGetBufferSubData(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)bytes, out);
}

/* ---- Seed 001 as written: one dispatch per stage, 1024-pair blocks -------- */

typedef struct baseline {
    GLuint program;
    GLint height_location, algorithm_location;
} baseline;

enum { BASELINE_LOCAL_SORT, BASELINE_LOCAL_DISPERSE, BASELINE_BIG_FLIP, BASELINE_BIG_DISPERSE, BASELINE_BLOCK = 1024 };

static void baseline_dispatch(const baseline *b, uint32_t n, uint32_t height, int algorithm) {
    glUniform1ui(b->height_location, height);
    glUniform1i(b->algorithm_location, algorithm);
    glDispatchCompute(n / BASELINE_BLOCK, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

/* Sorts n (a power of two >= 1024) pairs held in separate key/value buffers,
 * stage by stage as seed 001's SortWindow::sort does. */
static void baseline_sort(const baseline *b, GLuint keys, GLuint values, uint32_t n) {
    glUseProgram(b->program);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, values);
    baseline_dispatch(b, n, BASELINE_BLOCK, BASELINE_LOCAL_SORT);
    for (uint32_t h = 2 * BASELINE_BLOCK; h <= n; h *= 2) {
        baseline_dispatch(b, n, h, BASELINE_BIG_FLIP);
        for (uint32_t hh = h / 2; hh > 1; hh /= 2) {
            if (hh <= BASELINE_BLOCK) {
                baseline_dispatch(b, n, hh, BASELINE_LOCAL_DISPERSE);
                break;
            }
            baseline_dispatch(b, n, hh, BASELINE_BIG_DISPERSE);
        }
    }
}

/* Dispatches baseline_sort issues: the local sort, then per level h a flip,
 * the big disperses above the block and one local disperse. */
static uint32_t baseline_dispatch_count(uint32_t n) {
    uint32_t dispatches = 1;
    for (uint32_t h = 2 * BASELINE_BLOCK; h <= n; h *= 2) dispatches += 1 + log2_of(h / BASELINE_BLOCK);
    return dispatches;
}

/* ---- Timing ---------------------------------------------------------------- */

typedef enum method {
    METHOD_DIRECT,
    METHOD_INDIRECT,
    METHOD_INDIRECT_BOUNDED,
    METHOD_SEED001,
    METHOD_FRAGMENT /* the fragment path's texture sort (plume_sort_texture), group_bits stages a pass */
} method;

/* The fragment sort's textures in the benchmark: 2048 pairs a row. */
enum { FRAGMENT_TEXTURE_WIDTH = 2048 };

/* --cold-cache: a scratch buffer and the pass that reads and writes it. */
typedef struct cold_cache {
    GLuint buffer, program;
    size_t bytes;
} cold_cache;

typedef struct subject {
    method kind;
    plume_context *context;
    plume_sorter sorter;
    const baseline *seed;
    GLuint pairs, pristine;            /* plume: interleaved pairs */
    GLuint keys, values, pristine_keys, pristine_values; /* seed 001: split arrays, padded */
    GLuint count_buffer;
    uint32_t count, padded;
    const struct cold_cache *cold_cache; /* --cold-cache: run after every input copy; NULL: none */
    GLuint texture, pristine_texture;  /* the fragment sort: RG32UI, FRAGMENT_TEXTURE_WIDTH a row */
    uint32_t group_bits;
    bool no_copy; /* time without the input copy before each sort (--no-copy) */
} subject;

static void run_once(const subject *s) {
    switch (s->kind) {
    case METHOD_DIRECT: plume_sort(s->context, s->sorter, s->pairs, s->count); break;
    case METHOD_INDIRECT: plume_sort_indirect(s->context, s->sorter, s->pairs, s->count_buffer, 0); break;
    case METHOD_INDIRECT_BOUNDED:
        plume_sort_indirect_bounded(s->context, s->sorter, s->pairs, s->count_buffer, 0, s->count);
        break;
    case METHOD_SEED001: baseline_sort(s->seed, s->keys, s->values, s->padded); break;
    case METHOD_FRAGMENT:
        plume_lab_sorter_set_group_bits(s->context, s->sorter, s->group_bits);
        plume_sort_texture(s->context, s->sorter, s->texture, s->count);
        break;
    }
}

static uint32_t texture_rows(uint32_t count) {
    return (count + FRAGMENT_TEXTURE_WIDTH - 1) / FRAGMENT_TEXTURE_WIDTH;
}

static GLuint make_pair_texture(uint32_t count, const pair *data) {
    GLuint texture = 0;
    uint32_t rows = texture_rows(count);
    pair *texels = calloc((size_t)rows * FRAGMENT_TEXTURE_WIDTH, sizeof(pair));
    if (data) memcpy(texels, data, sizeof(pair) * count);
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST); /* complete: glCopyImageSubData needs it */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32UI, FRAGMENT_TEXTURE_WIDTH, (GLsizei)rows, 0, GL_RG_INTEGER, GL_UNSIGNED_INT,
                 texels);
    glBindTexture(GL_TEXTURE_2D, 0);
    free(texels);
    return texture;
}

/* Invocations of the cold-cache pass, each moving 16 bytes: 255 MB is 65280
 * workgroups, under the 65535 that GL guarantees in one dimension. */
enum { COLD_CACHE_GROUP_SIZE = 256, MAX_COLD_CACHE_MB = 255 };

static void restore_input(const subject *s) {
    if (s->kind == METHOD_SEED001) {
        copy_buffer(s->pristine_keys, s->keys, sizeof(uint32_t) * s->padded);
        copy_buffer(s->pristine_values, s->values, sizeof(uint32_t) * s->padded);
    } else if (s->kind == METHOD_FRAGMENT) {
        glCopyImageSubData(s->pristine_texture, GL_TEXTURE_2D, 0, 0, 0, 0, s->texture, GL_TEXTURE_2D, 0, 0, 0, 0,
                           FRAGMENT_TEXTURE_WIDTH, (GLsizei)texture_rows(s->count), 1);
    } else {
        copy_buffer(s->pristine, s->pairs, sizeof(pair) * s->count);
    }
    if (s->cold_cache) {
        /* Read and write every 16 bytes with a compute pass, as simulate does
         * (a buffer clear might go around the cache). */
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        glUseProgram(s->cold_cache->program);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, s->cold_cache->buffer);
        glDispatchCompute((GLuint)(s->cold_cache->bytes / 16 / COLD_CACHE_GROUP_SIZE), 1, 1);
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Median GPU milliseconds over `runs` timed sorts after at least `warmup`
 * untimed ones and at least WARMUP_SECONDS of back-to-back sorting: an idle
 * GPU runs at a low clock (375 MHz seen on the H100) and needs a busy spell to
 * reach the clock it has inside a game's frame. *cpu_ms: the median CPU
 * milliseconds the sort call took to issue (no wait for the GPU): where it
 * is as long as the GPU time, the GPU waited for the commands, and the GPU
 * time is the driver's, not the passes'. */
enum { WARMUP_BATCH = 20 };
static const double WARMUP_SECONDS = 0.2;

static double time_sort(const subject *s, uint32_t runs, uint32_t warmup, double *cpu_ms) {
    double start = seconds_now();
    for (uint32_t i = 0; i < warmup || seconds_now() - start < WARMUP_SECONDS; i += WARMUP_BATCH) {
        for (int b = 0; b < WARMUP_BATCH; ++b) restore_input(s), run_once(s);
        glFinish(); /* keep the CPU from queueing far ahead of the warm-up */
    }
    GLuint *queries = malloc(sizeof(GLuint) * runs);
    double *ms = malloc(sizeof(double) * runs), *cpu = malloc(sizeof(double) * runs);
    glGenQueries((GLsizei)runs, queries);
    for (uint32_t i = 0; i < runs; ++i) {
        if (!s->no_copy) restore_input(s);
        glBeginQuery(GL_TIME_ELAPSED, queries[i]);
        double issued = seconds_now();
        run_once(s);
        cpu[i] = (seconds_now() - issued) * 1e3;
        glEndQuery(GL_TIME_ELAPSED);
    }
    for (uint32_t i = 0; i < runs; ++i) {
        GLuint64 ns = 0;
        glGetQueryObjectui64v(queries[i], GL_QUERY_RESULT, &ns); /* after all runs: no stall between them */
        ms[i] = (double)ns / 1e6;
    }
    glDeleteQueries((GLsizei)runs, queries);
    double median = plume_lab_median(ms, runs);
    *cpu_ms = plume_lab_median(cpu, runs);
    free(queries);
    free(ms);
    free(cpu);
    return median;
}

/* ---- Correctness on this device -------------------------------------------- */

static int check_result(const subject *s, const pair *expected) {
    pair *got = malloc(sizeof(pair) * s->padded);
    restore_input(s);
    run_once(s);
    if (s->kind == METHOD_SEED001) {
        uint32_t *k = malloc(sizeof(uint32_t) * s->padded), *v = malloc(sizeof(uint32_t) * s->padded);
        read_buffer(s->keys, sizeof(uint32_t) * s->padded, k);
        read_buffer(s->values, sizeof(uint32_t) * s->padded, v);
        for (uint32_t i = 0; i < s->count; ++i) got[i] = (pair){k[i], v[i]};
        free(k);
        free(v);
    } else if (s->kind == METHOD_FRAGMENT) {
        free(got);
        got = malloc(sizeof(pair) * texture_rows(s->count) * FRAGMENT_TEXTURE_WIDTH);
        glBindTexture(GL_TEXTURE_2D, s->texture);
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RG_INTEGER, GL_UNSIGNED_INT, got);
        glBindTexture(GL_TEXTURE_2D, 0);
    } else {
        read_buffer(s->pairs, sizeof(pair) * s->count, got);
    }
    int wrong = memcmp(got, expected, sizeof(pair) * s->count) != 0;
    free(got);
    return wrong;
}

static const char *method_name(method m) {
    switch (m) {
    case METHOD_DIRECT: return "direct";
    case METHOD_INDIRECT: return "indirect";
    case METHOD_INDIRECT_BOUNDED: return "bounded";
    case METHOD_FRAGMENT: return "texture";
    case METHOD_SEED001: break;
    }
    return "seed001";
}

/* ---- Phase clocks (--phase-clocks) ------------------------------------------ */

/* One more sort of `s` with the phase-clock buffer bound; its records
 * appended to `path`. */
static void append_phase_clocks(const subject *s, const char *path, const char *variant_name, method m) {
    enum { RECORDS = (PLUME_RADIX_MAX_PASSES + 1) * PLUME_RADIX_PHASE_MAX_TILES };
    size_t bytes = sizeof(uint32_t) * RECORDS * PLUME_RADIX_PHASE_WORDS;
    GLuint buffer = make_buffer(bytes, NULL);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_RADIX_PHASE_CLOCKS, buffer);
    restore_input(s);
    run_once(s);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    uint32_t *words = malloc(bytes);
    FILE *out = fopen(path, "a");
    if (words && out) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, words);
        for (uint32_t r = 0; r < RECORDS; ++r) {
            const uint32_t *w = words + (size_t)r * PLUME_RADIX_PHASE_WORDS;
            if (!w[0]) continue;
            fprintf(out, "%u,%s,%s,%u,%u,%u", s->count, variant_name, method_name(m), r / PLUME_RADIX_PHASE_MAX_TILES,
                    r % PLUME_RADIX_PHASE_MAX_TILES, w[0] - 1);
            for (int k = 1; k < PLUME_RADIX_PHASE_WORDS - 1; ++k) fprintf(out, ",%u", w[k]);
            fputc('\n', out);
        }
    } else {
        fprintf(stderr, "--phase-clocks: cannot write %s\n", path);
    }
    if (out) fclose(out);
    free(words);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_RADIX_PHASE_CLOCKS, 0);
    glDeleteBuffers(1, &buffer);
}

/* ---- Time per pass (--pass-times) ----------------------------------------- */

enum { MAX_TIMED_PASSES = 64 };

typedef struct pass_stamps {
    GLuint queries[MAX_TIMED_PASSES + 1];
    const char *kinds[MAX_TIMED_PASSES + 1];
    uint32_t count;
} pass_stamps;

/* The sort's pass hook: a GL timestamp before every dispatch and after the last. */
static void stamp_pass(void *user, const char *kind) {
    pass_stamps *stamps = user;
    if (stamps->count > MAX_TIMED_PASSES) return;
    glQueryCounter(stamps->queries[stamps->count], GL_TIMESTAMP);
    stamps->kinds[stamps->count++] = kind;
}

/* Median microseconds of every pass of `runs` sorts of `count` random pairs,
 * and their sums per pass kind. A pass's time runs from its own timestamp
 * to the next one: it includes the barrier and launch gap before the next. */
static void report_pass_times(plume_context *context, plume_sorter sorter, uint32_t count, uint32_t runs) {
    pair *input = malloc(sizeof(pair) * count);
    for (uint32_t i = 0; i < count; ++i) input[i] = (pair){random_key(), i};
    GLuint pristine = make_buffer(sizeof(pair) * count, input), pairs = make_buffer(sizeof(pair) * count, NULL);
    pass_stamps stamps;
    glGenQueries(MAX_TIMED_PASSES + 1, stamps.queries);
    double *us = calloc((size_t)runs * MAX_TIMED_PASSES, sizeof(double));
    uint32_t passes = 0;
    plume_lab_sorter_set_pass_hook(context, sorter, stamp_pass, &stamps);
    for (uint32_t run = 0; run < runs + 5; ++run) { /* the first 5: warm-up */
        copy_buffer(pristine, pairs, sizeof(pair) * count);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        stamps.count = 0;
        plume_sort(context, sorter, pairs, count);
        passes = stamps.count - 1;
        for (uint32_t i = 0; run >= 5 && i < passes; ++i) {
            GLuint64 t0 = 0, t1 = 0;
            glGetQueryObjectui64v(stamps.queries[i], GL_QUERY_RESULT, &t0);
            glGetQueryObjectui64v(stamps.queries[i + 1], GL_QUERY_RESULT, &t1);
            us[(size_t)i * runs + (run - 5)] = (double)(t1 - t0) / 1e3;
        }
    }
    plume_lab_sorter_set_pass_hook(context, sorter, NULL, NULL);
    printf("\n%u pairs: %u passes (median µs over %u sorts)\n", count, passes, runs);
    const char *kinds[MAX_TIMED_PASSES];
    double per_kind[MAX_TIMED_PASSES] = {0}, total = 0;
    uint32_t kind_count = 0;
    for (uint32_t i = 0; i < passes; ++i) {
        double median = plume_lab_median(us + (size_t)i * runs, runs);
        printf("  %2u %-15s %8.2f\n", i, stamps.kinds[i], median);
        uint32_t k = 0;
        while (k < kind_count && strcmp(kinds[k], stamps.kinds[i]) != 0) ++k;
        if (k == kind_count) kinds[kind_count++] = stamps.kinds[i];
        per_kind[k] += median;
        total += median;
    }
    for (uint32_t k = 0; k < kind_count; ++k) printf("  sum %-14s %8.2f\n", kinds[k], per_kind[k]);
    printf("  sum of medians  %8.2f\n", total);
    glDeleteQueries(MAX_TIMED_PASSES + 1, stamps.queries);
    GLuint buffers[] = {pristine, pairs};
    glDeleteBuffers(2, buffers);
    free(us);
    free(input);
}

/* Writes the driver's binary of every program whose label starts with
 * "plume sort" to DIR/<name>-<label>.bin. NVIDIA's binaries carry the
 * compiled NV assembly as text (`strings`: TEMP registers, lmem arrays in
 * local memory; notes/sort-performance.md). */
static void dump_sort_programs(const char *dir) {
    for (GLuint name = 1; name < 4096; ++name) {
        if (!glIsProgram(name)) continue;
        char label[128] = "";
        glGetObjectLabel(GL_PROGRAM, name, sizeof label, NULL, label);
        if (strncmp(label, "plume sort", 10) != 0) continue;
        GLint length = 0;
        glGetProgramiv(name, GL_PROGRAM_BINARY_LENGTH, &length);
        if (length <= 0) continue;
        void *binary = malloc((size_t)length);
        if (!binary) {
            fprintf(stderr, "--dump-programs: no memory for %d bytes of program %u\n", length, name);
            continue;
        }
        GLenum format = 0;
        glGetProgramBinary(name, length, NULL, &format, binary);
        char path[512];
        for (char *c = label; *c; ++c)
            if (*c == ' ' || *c == ':' || *c == ',') *c = '_';
        snprintf(path, sizeof path, "%s/%u-%s.bin", dir, name, label);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(binary, 1, (size_t)length, f) != (size_t)length)
            fprintf(stderr, "--dump-programs: cannot write %s\n", path);
        if (f) fclose(f);
        free(binary);
    }
}

static void log_to_stderr(plume_log_level level, const char *message, void *user) {
    (void)user;
    if (level <= PLUME_LOG_WARNING) fprintf(stderr, "plume: %s\n", message);
}

/* The API's algorithms, then radix sorts forced one way (parse_variant). */
static const char *const ALGORITHM_NAMES[] = {"automatic", "bitonic", "radix",     "rts",
                                              "onesweep",  "tiled",   "single",    "histogram", "threads"};
enum { API_ALGORITHMS = 3, ALGORITHM_NAME_COUNT = 9 };

/* ALGORITHM[:KEY_BITS[:SIZE]], or a bare bitonic block size. */
static int parse_variant(const char *spec, variant *out) {
    *out = (variant){.algorithm = PLUME_SORT_BITONIC, .key_bits = 32};
    char algorithm[16] = "";
    unsigned key_bits = 32, size = 0;
    if (sscanf(spec, "%u", &size) == 1) {
        out->size = size;
    } else {
        int fields = sscanf(spec, "%15[a-z]:%u:%u", algorithm, &key_bits, &size);
        if (fields < 1 || key_bits < 1 || key_bits > 32) return -1;
        int found = -1;
        for (int a = 0; a < ALGORITHM_NAME_COUNT; ++a)
            if (!strcmp(algorithm, ALGORITHM_NAMES[a])) found = a;
        if (found < 0) return -1;
        static const plume_lab_radix_scan scans[] = {PLUME_LAB_RADIX_SCAN_REDUCE_THEN_SCAN,
                                                     PLUME_LAB_RADIX_SCAN_ONESWEEP};
        bool one_workgroup = !strcmp(algorithm, "single"), histogram = !strcmp(algorithm, "histogram"),
             threads = !strcmp(algorithm, "threads");
        *out = (variant){.algorithm = found < API_ALGORITHMS ? (plume_sort_algorithm)found : PLUME_SORT_RADIX,
                         .key_bits = key_bits,
                         .size = one_workgroup || histogram || threads ? 0 : size,
                         .histogram_items = histogram ? size : 0,
                         .tile_threads = threads ? size : 0,
                         .scan = found >= API_ALGORITHMS && found < API_ALGORITHMS + 2 ? scans[found - API_ALGORITHMS]
                                                                                       : PLUME_LAB_RADIX_SCAN_DEFAULT,
                         .tiled = !strcmp(algorithm, "tiled"),
                         .single_threads = one_workgroup ? size : 0};
    }
    snprintf(out->name, sizeof out->name, "%s", algorithm[0] ? algorithm : ALGORITHM_NAMES[out->algorithm]);
    uint32_t named_size = out->size | out->single_threads | out->histogram_items | out->tile_threads;
    if (out->key_bits != 32 || named_size) {
        size_t used = strlen(out->name);
        snprintf(out->name + used, sizeof out->name - used, ":%u", out->key_bits);
    }
    if (named_size) {
        size_t used = strlen(out->name);
        snprintf(out->name + used, sizeof out->name - used, ":%u", named_size);
    }
    return 0;
}

static int parse_methods(const char *list, bool methods[3]) {
    methods[0] = methods[1] = methods[2] = false;
    static const char *const names[] = {"direct", "indirect", "bounded"};
    char copy[64];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *token = strtok(copy, ","); token; token = strtok(NULL, ",")) {
        int found = -1;
        for (int m = 0; m < 3; ++m)
            if (!strcmp(token, names[m])) found = m;
        if (found < 0) return -1;
        methods[found] = true;
    }
    return 0;
}

static int parse_options(int argc, char **argv, options *o) {
    *o = (options){.min_log = 10, .max_log = 22, .runs = 51, .warmup = 5, .methods = {true, true, true}};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--min-log") && next) o->min_log = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(a, "--max-log") && next) o->max_log = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(a, "--runs") && next) o->runs = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(a, "--warmup") && next) o->warmup = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(a, "--csv") && next) o->csv_path = argv[++i];
        else if (!strcmp(a, "--pass-times")) o->pass_times = true;
        else if (!strcmp(a, "--phase-clocks") && next) o->phase_clocks_path = argv[++i];
        else if (!strcmp(a, "--keys") && next) {
            const char *keys = argv[++i];
            if (strcmp(keys, "depth") != 0 && strcmp(keys, "octave") != 0 && strcmp(keys, "random") != 0) return -1;
            o->depth_keys = strcmp(keys, "random") != 0;
            o->octave_keys = !strcmp(keys, "octave");
        }
        else if (!strcmp(a, "--powers-only")) o->powers_only = true;
        else if (!strcmp(a, "--no-copy")) o->no_copy = true;
        else if (!strcmp(a, "--cold-cache") && next) o->cold_cache_mb = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(a, "--dump-programs") && next) o->dump_dir = argv[++i];
        else if (!strcmp(a, "--methods") && next) {
            if (parse_methods(argv[++i], o->methods) != 0) return -1;
        } else if (!strcmp(a, "--variant") && next && o->variant_count < MAX_VARIANTS) {
            if (parse_variant(argv[++i], &o->variants[o->variant_count++]) != 0) return -1;
        } else if (!strcmp(a, "--fragment") && next && o->fragment_bits_count < 4) {
            unsigned bits = 0;
            if (sscanf(argv[++i], "%u", &bits) != 1 || bits < 1 || bits > 4) return -1;
            o->fragment_bits[o->fragment_bits_count++] = bits;
        } else if (!strcmp(a, "--feedback") && next && o->feedback_bits_count < 6) {
            unsigned bits = 0;
            if (sscanf(argv[++i], "%u", &bits) != 1 || bits < 1 || bits > 6) return -1;
            o->feedback_bits[o->feedback_bits_count++] = bits;
        } else return -1;
    }
    if (o->min_log < 10 || o->max_log > 26 || o->min_log > o->max_log || o->runs < 1) return -1;
    if (o->cold_cache_mb > MAX_COLD_CACHE_MB) return -1;
    if (o->variant_count == 0) {
        static const char *const defaults[] = {"bitonic", "radix", "automatic"};
        for (int v = 0; v < 3; ++v) parse_variant(defaults[v], &o->variants[o->variant_count++]);
    }
    return 0;
}

/* The table: every size 2^k and 2^k+1 from min-log to max-log, seed 001 and
 * each variant's methods, times and correctness, also as CSV. Returns the
 * number of wrong results, or -1 where it could not run. */
/* One row of a sort without compute shaders (the fragment path): `sorter`
 * with `group_bits`, as a texture sort (METHOD_FRAGMENT) or a buffer sort
 * (METHOD_DIRECT); its time against seed 001's and the first variant's direct
 * sort. Returns whether it was wrong. */
static int report_fragment_row(const options *opt, plume_context *context, plume_sorter sorter, uint32_t group_bits,
                               const char *family, method kind, const pair *input, const pair *expected,
                               uint32_t count, double base_ms, double first_direct_ms, FILE *csv) {
    plume_lab_sorter_set_group_bits(context, sorter, group_bits);
    if (plume_lab_sorter_group_bits(context, sorter) != group_bits) {
        printf("%10u %s:%u: not on this GL (its output limits)\n", count, family, group_bits);
        return 0;
    }
    subject s = {.kind = kind, .context = context, .sorter = sorter, .count = count, .padded = count,
                 .group_bits = group_bits};
    if (kind == METHOD_FRAGMENT) {
        s.pristine_texture = make_pair_texture(count, input);
        s.texture = make_pair_texture(count, NULL);
    } else {
        s.pristine = make_buffer(sizeof(pair) * count, input);
        s.pairs = make_buffer(sizeof(pair) * count, NULL);
    }
    int wrong = check_result(&s, expected);
    double cpu_ms = 0.0, ms = time_sort(&s, opt->runs, opt->warmup, &cpu_ms);
    uint32_t passes = plume_sorter_pass_count(context, sorter, count);
    double ratio = ms > 0.0 ? base_ms / ms : 0.0, rate = ms > 0.0 ? count / (ms * 1000.0) : 0.0;
    double ratio_first = first_direct_ms > 0.0 ? ms / first_direct_ms : 0.0;
    char name[32];
    snprintf(name, sizeof name, "%s:%u", family, group_bits);
    printf("%10u %-20s %-9s %-8s %7u %10.4f %9.2f %9.2f %8s %9.4f\n", count, name, method_name(kind), "bitonic", passes,
           ms, ratio, ratio_first, wrong ? "WRONG" : "yes", cpu_ms);
    if (csv)
        fprintf(csv, "%u,%s,%s,32,bitonic,%u,%.5f,%.3f,%.3f,%.1f,%d,%.5f\n", count, name, method_name(kind), passes, ms,
                ratio, ratio_first, rate, !wrong, cpu_ms);
    if (kind == METHOD_FRAGMENT) {
        GLuint textures[] = {s.pristine_texture, s.texture};
        glDeleteTextures(2, textures);
    } else {
        GLuint buffers[] = {s.pristine, s.pairs};
        glDeleteBuffers(2, buffers);
    }
    return wrong;
}

static int report_table(const options *opt, plume_context *context, const plume_sorter *sorters,
                        plume_sorter fragment_sorter, plume_sorter feedback_sorter, uint32_t capacity,
                        baseline *seed001) {
    FILE *csv = opt->csv_path ? fopen(opt->csv_path, "w") : NULL;
    if (opt->csv_path && !csv) {
        fprintf(stderr, "cannot write %s\n", opt->csv_path);
        return -1;
    }
    if (csv)
        fprintf(csv, "count,variant,method,key_bits,backend,passes,median_ms,ratio_vs_seed001,ratio_vs_first,"
                     "pairs_per_us,correct,cpu_issue_ms\n");
    printf("\n%10s %-20s %-9s %-8s %7s %10s %9s %9s %8s %9s\n", "count", "variant", "method", "ran", "passes",
           "median ms", "x seed001", "x first", "correct", "cpu ms");

    cold_cache cold = {.bytes = (size_t)opt->cold_cache_mb << 20};
    if (cold.bytes) {
        static const char *source =
            "layout(local_size_x = COLD_CACHE_GROUP_SIZE) in;\n"
            "layout(std430, binding = 0) buffer Scratch { uvec4 words[]; };\n"
            "void main() { words[gl_GlobalInvocationID.x] = words[gl_GlobalInvocationID.x] * 3u + 1u; }\n";
        char defines[64];
        snprintf(defines, sizeof defines, "#define COLD_CACHE_GROUP_SIZE %d\n", COLD_CACHE_GROUP_SIZE);
        if (plume_lab_build_compute_program(context, "cold-cache scratch", source, defines, &cold.program) !=
            PLUME_OK) {
            if (csv) fclose(csv);
            return -1;
        }
        cold.buffer = make_buffer(cold.bytes, NULL);
        printf("cold cache: %u MB read and written after every input copy\n", opt->cold_cache_mb);
    }
    const cold_cache *cold_or_null = cold.bytes ? &cold : NULL;
    int failures = 0;
    for (uint32_t log = opt->min_log; log <= opt->max_log; ++log) {
        for (int plus_one = 0; plus_one < (opt->powers_only ? 1 : 2); ++plus_one) {
            uint32_t count = (1u << log) + (uint32_t)plus_one;
            uint32_t padded = next_pow2(count);
            pair *input = malloc(sizeof(pair) * padded), *expected = malloc(sizeof(pair) * count);
            uint32_t *keys = malloc(sizeof(uint32_t) * padded), *values = malloc(sizeof(uint32_t) * padded);
            for (uint32_t i = 0; i < count; ++i) input[i] = (pair){random_key(), i};
            for (uint32_t i = 0; i < padded; ++i) {
                keys[i] = i < count ? input[i].key : 0xFFFFFFFFu; /* seed 001 needs a power of two: pad with max */
                values[i] = i < count ? input[i].value : 0xFFFFFFFFu;
            }
            memcpy(expected, input, sizeof(pair) * count);
            qsort(expected, count, sizeof(pair), compare_pairs);

            subject base = {.kind = METHOD_SEED001, .seed = seed001, .count = count, .padded = padded,
                            .cold_cache = cold_or_null};
            base.pristine_keys = make_buffer(sizeof(uint32_t) * padded, keys);
            base.pristine_values = make_buffer(sizeof(uint32_t) * padded, values);
            base.keys = make_buffer(sizeof(uint32_t) * padded, NULL);
            base.values = make_buffer(sizeof(uint32_t) * padded, NULL);
            int base_wrong = check_result(&base, expected);
            double base_cpu_ms = 0.0, base_ms = time_sort(&base, opt->runs, opt->warmup, &base_cpu_ms);
            uint32_t base_dispatches = baseline_dispatch_count(padded);
            printf("%10u %-20s %-9s %-8s %7u %10.4f %9.2f %9s %8s %9.4f\n", count, "seed001", "direct", "bitonic",
                   base_dispatches, base_ms, 1.0, "", base_wrong ? "WRONG" : "yes", base_cpu_ms);
            if (csv)
                fprintf(csv, "%u,seed001,direct,32,bitonic,%u,%.5f,1.000,,%.1f,%d,%.5f\n", count, base_dispatches,
                        base_ms, base_ms > 0.0 ? count / (base_ms * 1000.0) : 0.0, !base_wrong, base_cpu_ms);
            failures += base_wrong;

            double first_ms[3] = {0};
            pair *variant_input = malloc(sizeof(pair) * count), *variant_expected = malloc(sizeof(pair) * count);
            for (uint32_t v = 0; v < opt->variant_count; ++v) {
                /* Keys in the variant's key_bits; values are indices, so
                 * ascending value is input order: one expected order for
                 * both backends. */
                uint32_t bits = opt->variants[v].key_bits;
                uint32_t mask = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
                for (uint32_t i = 0; i < count; ++i) variant_input[i] = (pair){input[i].key & mask, input[i].value};
                memcpy(variant_expected, variant_input, sizeof(pair) * count);
                qsort(variant_expected, count, sizeof(pair), compare_pairs);
                for (method m = METHOD_DIRECT; m <= METHOD_INDIRECT_BOUNDED; ++m) {
                    if (!opt->methods[m]) continue;
                    subject s = {.kind = m, .context = context, .sorter = sorters[v], .count = count, .padded = count,
                                 .cold_cache = cold_or_null, .no_copy = opt->no_copy};
                    s.pristine = make_buffer(sizeof(pair) * count, variant_input);
                    s.pairs = make_buffer(sizeof(pair) * capacity, NULL);
                    s.count_buffer = make_buffer(sizeof count, &count);
                    int wrong = check_result(&s, variant_expected);
                    double cpu_ms = 0.0, ms = time_sort(&s, opt->runs, opt->warmup, &cpu_ms);
                    uint32_t bound = m == METHOD_INDIRECT ? capacity : count;
                    uint32_t passes = plume_sorter_pass_count(context, sorters[v], bound);
                    plume_sort_algorithm ran = plume_sorter_algorithm_for(context, sorters[v], bound);
                    if (opt->phase_clocks_path && ran == PLUME_SORT_RADIX)
                        append_phase_clocks(&s, opt->phase_clocks_path, opt->variants[v].name, m);
                    if (v == 0) first_ms[m] = ms;
                    /* llvmpipe's timer reports 0 for compute work: no ratio then. */
                    double ratio = ms > 0.0 ? base_ms / ms : 0.0, rate = ms > 0.0 ? count / (ms * 1000.0) : 0.0;
                    double ratio_first = first_ms[m] > 0.0 ? ms / first_ms[m] : 0.0;
                    printf("%10u %-20s %-9s %-8s %7u %10.4f %9.2f %9.2f %8s %9.4f\n", count, opt->variants[v].name,
                           method_name(m), ALGORITHM_NAMES[ran], passes, ms, ratio, ratio_first,
                           wrong ? "WRONG" : "yes", cpu_ms);
                    if (csv)
                        fprintf(csv, "%u,%s,%s,%u,%s,%u,%.5f,%.3f,%.3f,%.1f,%d,%.5f\n", count, opt->variants[v].name,
                                method_name(m), bits, ALGORITHM_NAMES[ran], passes, ms, ratio, ratio_first, rate,
                                !wrong, cpu_ms);
                    failures += wrong;
                    GLuint buffers[] = {s.pristine, s.pairs, s.count_buffer};
                    glDeleteBuffers(3, buffers);
                }
            }
            free(variant_input);
            free(variant_expected);
            /* The sorts without compute shaders (the fragment path): render
             * passes of k stages (k = 1: the seeds' one stage a pass) as
             * texture sorts; transform feedback with groups of 2^m as texture
             * and buffer sorts. "x first": time over the first variant's
             * direct sort. Values are indices: one order for all. */
            for (uint32_t k = 0; k < opt->fragment_bits_count && fragment_sorter.id; ++k)
                failures += report_fragment_row(opt, context, fragment_sorter, opt->fragment_bits[k], "fragment",
                                                METHOD_FRAGMENT, input, expected, count, base_ms,
                                                first_ms[METHOD_DIRECT], csv);
            static const method FEEDBACK_METHODS[2] = {METHOD_DIRECT, METHOD_FRAGMENT};
            for (uint32_t k = 0; k < opt->feedback_bits_count && feedback_sorter.id; ++k)
                for (int m = 0; m < 2; ++m)
                    failures += report_fragment_row(opt, context, feedback_sorter, opt->feedback_bits[k], "feedback",
                                                    FEEDBACK_METHODS[m], input, expected, count, base_ms,
                                                    first_ms[METHOD_DIRECT], csv);
            GLuint buffers[] = {base.pristine_keys, base.pristine_values, base.keys, base.values};
            glDeleteBuffers(4, buffers);
            free(input);
            free(expected);
            free(keys);
            free(values);
        }
    }
    if (csv) fclose(csv);
    if (cold_or_null) glDeleteBuffers(1, &cold.buffer), glDeleteProgram(cold.program);
    return failures;
}

int main(int argc, char **argv) {
    options opt;
    if (parse_options(argc, argv, &opt) != 0) {
        fprintf(stderr, "usage: %s [--min-log K>=10] [--max-log K<=26] [--runs N] [--warmup N] [--csv FILE] "
                        "[--variant bitonic|radix|automatic|rts|onesweep|tiled|single|histogram|threads[:KEY_BITS[:SIZE]]]... "
                        "[--methods direct,indirect,bounded] "
                        "[--powers-only] [--no-copy] [--pass-times] [--phase-clocks FILE] [--keys random|depth|octave] "
                        "[--dump-programs DIR] "
                        "[--cold-cache MB<=255] [--fragment K<=4]... [--feedback M<=6]...\n", argv[0]);
        return 2;
    }
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "no GL context: %s\n", error);
        return 1;
    }
    GLint timer_bits = 0;
    glGetQueryiv(GL_TIME_ELAPSED, GL_QUERY_COUNTER_BITS, &timer_bits);
    uint64_t seed = ((uint64_t)time(NULL) << 16) ^ (uint64_t)clock();
    random_state = seed;
    depth_keys = opt.depth_keys;
    octave_keys = opt.octave_keys;
    printf("GL: %s\nrandom seed: %llu\nruns per figure: %u (median), warm-up %u; timer bits %d; keys %s\n",
           headless_gl_describe(), (unsigned long long)seed, opt.runs, opt.warmup, timer_bits,
           opt.octave_keys ? "octave" : opt.depth_keys ? "depth" : "random");

    plume_logger logger = {log_to_stderr, NULL};
    uint32_t capacity = (1u << opt.max_log) + 1;
    plume_context *context = NULL;
    plume_context_desc context_desc = {.logger = logger};
    if (plume_context_create(&context_desc, &context) != PLUME_OK) return 1;
    baseline seed001 = {0};
    if (plume_lab_build_compute_program(context, "seed001 baseline", plume_embedded_shaders[0].source, NULL,
                                        &seed001.program) != PLUME_OK)
        return 1;
    seed001.height_location = glGetUniformLocation(seed001.program, "u_height");
    seed001.algorithm_location = glGetUniformLocation(seed001.program, "u_algorithm");

    plume_sorter sorters[MAX_VARIANTS] = {{0}};
    for (uint32_t v = 0; v < opt.variant_count; ++v) {
        const variant *w = &opt.variants[v];
        bool radix = w->algorithm == PLUME_SORT_RADIX;
        plume_sorter_desc desc = {.capacity = capacity,
                                  .block_pairs = radix ? 0 : w->size,
                                  .algorithm = w->algorithm,
                                  .key_bits = w->key_bits};
        const plume_lab_sort_settings settings = {.radix_items = radix ? w->size : 0,
                                                  .radix_scan = w->scan,
                                                  .no_single_tile = w->tiled,
                                                  .single_threads = w->single_threads,
                                                  .histogram_items = w->histogram_items,
                                                  .tile_threads = w->tile_threads,
                                                  .phase_clocks = opt.phase_clocks_path != NULL};
        if (plume_lab_set_sort_settings(context, &settings) != PLUME_OK) {
            if (settings.phase_clocks)
                fprintf(stderr, "--phase-clocks: this GL lacks GL_ARB_shader_clock or GL_NV_shader_thread_group\n");
            return 1;
        }
        if (plume_sorter_create(context, &desc, &sorters[v]) != PLUME_OK) return 1;
    }
    plume_sorter fragment_sorter = {0}, feedback_sorter = {0};
    if (opt.fragment_bits_count) {
        plume_sorter_desc desc = {.capacity = capacity, .path = PLUME_PATH_FRAGMENT};
        const plume_lab_sort_settings render_passes = {.render_pass_sort = true};
        plume_lab_set_sort_settings(context, &render_passes);
        if (plume_sorter_create(context, &desc, &fragment_sorter) != PLUME_OK) return 1;
    }
    plume_lab_set_sort_settings(context, NULL);
    if (opt.feedback_bits_count) {
        plume_sorter_desc desc = {.capacity = capacity, .path = PLUME_PATH_FRAGMENT};
        if (plume_sorter_create(context, &desc, &feedback_sorter) != PLUME_OK) return 1;
        const char *backend = plume_lab_sorter_backend(context, feedback_sorter, capacity);
        if (!backend || strcmp(backend, "transform feedback") != 0) {
            fprintf(stderr, "this GL's buffer textures cannot hold %u pairs: no transform-feedback sort\n", capacity);
            return 1;
        }
    }
    if (opt.dump_dir) dump_sort_programs(opt.dump_dir);
    int failures = 0;
    if (opt.pass_times) {
        for (uint32_t v = 0; v < opt.variant_count; ++v) {
            printf("\n%s\n", opt.variants[v].name);
            for (uint32_t log = opt.min_log; log <= opt.max_log; ++log)
                report_pass_times(context, sorters[v], 1u << log, opt.runs);
        }
    } else {
        failures = report_table(&opt, context, sorters, fragment_sorter, feedback_sorter, capacity, &seed001);
    }
    for (uint32_t v = 0; v < opt.variant_count; ++v) plume_sorter_destroy(context, sorters[v]);
    plume_sorter_destroy(context, fragment_sorter);
    plume_sorter_destroy(context, feedback_sorter);
    glDeleteProgram(seed001.program);
    plume_context_destroy(context);
    headless_gl_destroy(&gl);
    if (opt.pass_times) return 0;
    if (failures < 0) return 1;
    if (!timer_bits) printf("\nthis GL has no timer (GL_QUERY_COUNTER_BITS 0): times above are not measured\n");
    printf("\n%s\n", failures ? "SOME RESULTS WERE WRONG" : "all results correct");
    return failures ? 1 : 0;
}
