/* See sort_timing.h. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plume_lab.h"
#include "shared/plume_gpu_layout.h"
#include "sort_timing.h"

static uint32_t log2_of(uint32_t v) {
    uint32_t log = 0;
    while (v >>= 1) ++log;
    return log;
}

uint32_t next_pow2(uint32_t v) {
    uint32_t p = 1;
    while (p < v) p <<= 1;
    return p;
}

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

void configure_keys(uint64_t seed, bool depth, bool octave) {
    random_state = seed;
    depth_keys = depth;
    octave_keys = octave;
}
uint32_t random_key(void) {
    if (!depth_keys) return random_u32();
    float unit = (float)(random_u32() >> 8) / 16777216.0f;
    return plume_depth_key(octave_keys ? 8.0f + 8.0f * unit : 5.0f + 10.0f * unit, PLUME_ORDER_ASCENDING);
}

int compare_pairs(const void *a, const void *b) {
    const pair *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->value > y->value) - (x->value < y->value);
}

GLuint make_buffer(size_t bytes, const void *data) {
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


enum { BASELINE_LOCAL_SORT, BASELINE_LOCAL_DISPERSE, BASELINE_BIG_FLIP, BASELINE_BIG_DISPERSE, BASELINE_BLOCK = 1024 };

static void baseline_dispatch(const baseline *b, uint32_t n, uint32_t height, int algorithm) {
    glUniform1ui(b->height_location, height);
    glUniform1i(b->algorithm_location, algorithm);
    glDispatchCompute(n / BASELINE_BLOCK, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

/* Sorts n (a power of two >= 1024) pairs held in separate key/value buffers,
 * stage by stage as seed 001's SortWindow::sort does. */
void baseline_sort(const baseline *b, GLuint keys, GLuint values, uint32_t n) {
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
uint32_t baseline_dispatch_count(uint32_t n) {
    uint32_t dispatches = 1;
    for (uint32_t h = 2 * BASELINE_BLOCK; h <= n; h *= 2) dispatches += 1 + log2_of(h / BASELINE_BLOCK);
    return dispatches;
}

/* ---- Timing ---------------------------------------------------------------- */


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

GLuint make_pair_texture(uint32_t count, const pair *data) {
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

double time_sort(const subject *s, uint32_t runs, uint32_t warmup, double *cpu_ms) {
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

int check_result(const subject *s, const pair *expected) {
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

const char *method_name(method m) {
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
void append_phase_clocks(const subject *s, const char *path, const char *variant_name, method m) {
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
void report_pass_times(plume_context *context, plume_sorter sorter, uint32_t count, uint32_t runs) {
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
void dump_sort_programs(const char *dir) {
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
