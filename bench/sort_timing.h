/* What plume_bench (bench_sort.c) times with: the pairs and their keys,
 * seed 001's sort as written (the baseline), a sort to time (a subject) and
 * its timing, its check against qsort, and the per-pass and per-phase
 * timings. */
#ifndef PLUME_BENCH_SORT_TIMING_H
#define PLUME_BENCH_SORT_TIMING_H

#include <epoxy/gl.h>
#include <stdbool.h>
#include <stdint.h>

#include "plume/plume_sort.h"

typedef struct pair {
    uint32_t key, value;
} pair;

typedef struct baseline {
    GLuint program;
    GLint height_location, algorithm_location;
} baseline;

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

/* Invocations of the cold-cache pass, each moving 16 bytes: 255 MB is 65280
 * workgroups, under the 65535 that GL guarantees in one dimension. */
enum { COLD_CACHE_GROUP_SIZE = 256, MAX_COLD_CACHE_MB = 255 };

/* The keys random_key gives from now on: random from `seed`, or (`depth`)
 * the keys of particles' view depths, in one octave (`octave`). */
void configure_keys(uint64_t seed, bool depth, bool octave);

/* The least power of two >= v. */
uint32_t next_pow2(uint32_t v);

/* The next key (configure_keys). */
uint32_t random_key(void);

/* By key, then by value (qsort). */
int compare_pairs(const void *a, const void *b);

/* A buffer of `bytes`, filled from `data` (NULL: undefined). */
GLuint make_buffer(size_t bytes, const void *data);

/* Dispatches baseline_sort issues: the local sort, then per level h a flip,
 * the big disperses above the block and one local disperse. */
uint32_t baseline_dispatch_count(uint32_t n);

/* An RG32UI texture FRAGMENT_TEXTURE_WIDTH pairs a row holding `count`
 * pairs of `data` (NULL: zeros). */
GLuint make_pair_texture(uint32_t count, const pair *data);

/* The median GPU milliseconds of `runs` sorts of `s` after warm-up; the
 * median CPU milliseconds of the call to *cpu_ms. */
double time_sort(const subject *s, uint32_t runs, uint32_t warmup, double *cpu_ms);

/* Sorts a fresh copy once: 1 where the result is not `expected`. */
int check_result(const subject *s, const pair *expected);

/* The method's name in the table and CSV. */
const char *method_name(method m);

/* One more sort of `s` with the phase-clock buffer bound; its records
 * appended to `path`. */
void append_phase_clocks(const subject *s, const char *path, const char *variant_name, method m);

/* Median microseconds of every pass of `runs` sorts of `count` random pairs,
 * and their sums per pass kind. A pass's time runs from its own timestamp
 * to the next one: it includes the barrier and launch gap before the next. */
void report_pass_times(plume_context *context, plume_sorter sorter, uint32_t count, uint32_t runs);

/* Writes the driver's binary of every program whose label starts with
 * "plume sort" to DIR/<name>-<label>.bin. NVIDIA's binaries carry the
 * compiled NV assembly as text (`strings`: TEMP registers, lmem arrays in
 * local memory; notes/sort-performance.md). */
void dump_sort_programs(const char *dir);

/* Sorts n (a power of two >= 1024) pairs held in separate key/value buffers,
 * stage by stage as seed 001's SortWindow::sort does. */
void baseline_sort(const baseline *b, GLuint keys, GLuint values, uint32_t n);

#endif
