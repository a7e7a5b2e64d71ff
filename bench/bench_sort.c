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
#include "sort_timing.h"


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
    configure_keys(seed, opt.depth_keys, opt.octave_keys);
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
