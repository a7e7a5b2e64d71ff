/* The soak: minutes to hours of what a host does, at random from a printed
 * seed (replayable), checked as it goes (notes/soak.md):
 *   - every call's result as expected, an error with exactly one logged
 *     message, and no GL error (glGetError, and the KHR_debug callback, which
 *     sees errors the module's own glGetError calls clear);
 *   - every GL object a destroy stops listing is deleted in the GL;
 *   - at each drain (everything destroyed), the context lists no GL object;
 *     then the context is destroyed, which must leave none of the module's
 *     allocations live, and a new one made;
 *   - the process's RSS: its high over the second half of the checkpoints is
 *     at most the first half's times (1 + --rss-growth) plus --rss-slack-mib;
 *   - determinism: two lanes (GL contexts of their own, each with its own
 *     plume_context) get the same operations and must read back the same
 *     particles (checksums) at every readback.
 * Exits 1 at the first failure, with the message and the replay command.
 *
 * Usage: plume_soak [--seed N] [--frames N | --seconds S] [--check-every N]
 *                   [--drain-every N] [--max-capacity N] [--max-size WxH]
 *                   [--lanes 1|2] [--rss-growth F] [--rss-slack-mib M]
 *                   [--effects DIR] [--sprite FILE] [--verbose] [--no-gameplay]
 *                   [--raster-only] [--print-readbacks] [--poison]
 * Two runs of one seed print the same readback lines; --print-readbacks
 * shows the first that differs (which object, which part) when they do not.
 * Run from the repository's root (the default effects and sprite are there). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "soak.h"

uint32_t soak_rand(soak_rng *rng) {
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

uint32_t soak_below(soak_rng *rng, uint32_t n) {
    return n ? (uint32_t)(((uint64_t)soak_rand(rng) * n) >> 32) : 0;
}

float soak_uniform(soak_rng *rng, float lo, float hi) {
    return lo + (hi - lo) * (float)(soak_rand(rng) >> 8) * (1.0f / 16777216.0f);
}

bool soak_chance(soak_rng *rng, float p) {
    return soak_uniform(rng, 0, 1) < p;
}

void soak_fail(soak *s, const char *format, ...) {
    if (s->failed) return;
    s->failed = true;
    va_list args;
    va_start(args, format);
    vsnprintf(s->failure, sizeof s->failure, format, args);
    va_end(args);
}

void soak_series_add(soak_series *series, double value) {
    if (series->count == series->room) {
        series->room = series->room ? 2 * series->room : 64;
        series->values = realloc(series->values, sizeof(double) * series->room);
    }
    series->values[series->count++] = value;
}

void soak_series_free(soak_series *series) {
    free(series->values);
    *series = (soak_series){0};
}

double soak_series_max(const soak_series *series, uint32_t first, uint32_t end) {
    double m = 0;
    for (uint32_t i = first; i < end && i < series->count; ++i) m = i == first ? series->values[i] : fmax(m, series->values[i]);
    return m;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static bool parse_options(int argc, char **argv, soak_options *o) {
    *o = (soak_options){.seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20), .seconds = 30, .check_every = 60,
                        .drain_every = 4, .max_capacity = 40000, .max_width = 320, .max_height = 200, .lanes = 2,
                        .rss_growth = 0.10, .rss_slack_mib = 24, .effects_dir = "demo/effects",
                        .sprite = "demo/assets/smoke_puff.png"};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        bool *flag = strcmp(arg, "--verbose") == 0       ? &o->verbose
                     : strcmp(arg, "--no-gameplay") == 0 ? &o->no_gameplay
                     : strcmp(arg, "--raster-only") == 0 ? &o->raster_only
                     : strcmp(arg, "--print-readbacks") == 0 ? &o->print_readbacks
                     : strcmp(arg, "--poison") == 0 ? &o->poison
                                                         : NULL;
        if (flag) {
            *flag = true;
            continue;
        }
        if (!value) return false;
        ++i;
        if (strcmp(arg, "--seed") == 0) o->seed = strtoull(value, NULL, 10);
        else if (strcmp(arg, "--frames") == 0) o->frames = strtoull(value, NULL, 10);
        else if (strcmp(arg, "--seconds") == 0) o->seconds = atof(value);
        else if (strcmp(arg, "--check-every") == 0) o->check_every = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--drain-every") == 0) o->drain_every = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--max-capacity") == 0) o->max_capacity = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(arg, "--max-size") == 0) {
            if (sscanf(value, "%dx%d", &o->max_width, &o->max_height) != 2) return false;
        } else if (strcmp(arg, "--lanes") == 0) o->lanes = atoi(value);
        else if (strcmp(arg, "--rss-growth") == 0) o->rss_growth = atof(value);
        else if (strcmp(arg, "--rss-slack-mib") == 0) o->rss_slack_mib = atof(value);
        else if (strcmp(arg, "--effects") == 0) o->effects_dir = value;
        else if (strcmp(arg, "--sprite") == 0) o->sprite = strcmp(value, "none") ? value : NULL;
        else return false;
    }
    return o->check_every > 0 && o->drain_every > 0 && o->max_capacity > 0 && o->max_width > 0 &&
           o->max_height > 0 && o->lanes >= 1 && o->lanes <= SOAK_MAX_LANES && (o->frames > 0 || o->seconds > 0);
}

static void find_effects(soak *s) {
    DIR *dir = opendir(s->options.effects_dir);
    if (!dir) return;
    struct dirent *entry;
    while ((entry = readdir(dir)) && s->effect_count < SOAK_MAX_EFFECTS) {
        size_t n = strlen(entry->d_name);
        if (n > 5 && strcmp(entry->d_name + n - 5, ".json") == 0)
            snprintf(s->effects[s->effect_count++], PLUME_EFFECT_PATH_MAX, "%s/%s", s->options.effects_dir,
                     entry->d_name);
    }
    closedir(dir);
    /* readdir's order is the file system's: sorted, so a seed replays anywhere. */
    qsort(s->effects, (size_t)s->effect_count, sizeof s->effects[0], (int (*)(const void *, const void *))strcmp);
}

static void drain(soak *s) {
    for (int g = 0; g < SOAK_MAX_GROUPS && !s->failed; ++g)
        if (s->groups[g].live) soak_destroy_group(s, g);
    for (int i = 0; i < SOAK_MAX_SYSTEMS && !s->failed; ++i)
        if (s->systems[i].live) soak_destroy_system(s, i);
    for (int l = 0; l < s->options.lanes && !s->failed; ++l) {
        soak_lane *lane = &s->lanes[l];
        soak_lane_current(lane);
        uint32_t objects = soak_list_gl_objects(s, lane, NULL);
        size_t bytes = lane->counters.live_bytes;
        if (objects != 0)
            soak_fail(s, "lane %d: with every object destroyed the context still lists %u GL objects", l, objects);
        if (l == 0) {
            soak_series_add(&s->stats.drain_gl_objects, objects);
            soak_series_add(&s->stats.drain_live_bytes, (double)bytes);
        }
        /* A level's end: the context itself goes, and with it every byte the
         * module allocated (its handle table and caches keep their
         * high-water room until then); a new one takes the next level. */
        plume_context_destroy(lane->context);
        lane->context = NULL;
        if (lane->counters.live_bytes != 0)
            soak_fail(s, "lane %d: the context destroyed, %zu bytes of the module's allocations are still live", l,
                      lane->counters.live_bytes);
        else soak_lane_make_context(s, lane);
    }
    s->stats.drains++;
}

static void checkpoint(soak *s, bool last) {
    for (int l = 0; l < s->options.lanes && !s->failed; ++l) {
        soak_lane_current(&s->lanes[l]);
        uint32_t objects = soak_list_gl_objects(s, &s->lanes[l], NULL);
        if (objects > s->stats.peak_gl_objects) s->stats.peak_gl_objects = objects;
        s->stats.final_gl_objects = objects;
        if (s->lanes[l].counters.peak_bytes > s->stats.peak_live_bytes)
            s->stats.peak_live_bytes = s->lanes[l].counters.peak_bytes;
    }
    soak_read_back_all(s);
    s->stats.checkpoints++;
    if (last || s->stats.checkpoints % s->options.drain_every == 0) drain(s);
    soak_series_add(&s->stats.rss_mib, soak_rss_mib());
    if (s->options.verbose && !s->failed)
        printf("frame %llu: %u GL objects, %.1f MiB RSS, %llu operations\n", (unsigned long long)s->frame,
               s->stats.final_gl_objects, soak_rss_mib(), (unsigned long long)s->stats.operations);
}

/* The flatness rule over the whole run (see the top). */
static void check_flat(soak *s) {
    const soak_series *rss = &s->stats.rss_mib;
    uint32_t half = rss->count / 2;
    double first = soak_series_max(rss, 0, half), second = soak_series_max(rss, half, rss->count);
    if (half > 0 && second > first * (1 + s->options.rss_growth) + s->options.rss_slack_mib)
        soak_fail(s, "memory: the RSS reached %.1f MiB in the run's second half, %.1f in its first (allowed: %.0f%% "
                  "+ %.0f MiB)", second, first, 100 * s->options.rss_growth, s->options.rss_slack_mib);
}

static void report(const soak *s, double seconds) {
    const soak_stats *t = &s->stats;
    const soak_series *rss = &t->rss_mib;
    printf("| %-34s | %14s |\n|%s|%s|\n", "soak", "value", "------------------------------------", "----------------");
    printf("| %-34s | %14llu |\n", "frames", (unsigned long long)t->frames);
    printf("| %-34s | %14.1f |\n", "seconds", seconds);
    printf("| %-34s | %14llu |\n", "operations", (unsigned long long)t->operations);
    printf("| %-34s | %14llu |\n", "gameplay calls", (unsigned long long)t->gameplay_calls);
    printf("| %-34s | %14llu |\n", "objects created", (unsigned long long)t->creates);
    printf("| %-34s | %14llu |\n", "objects destroyed", (unsigned long long)t->destroys);
    printf("| %-34s | %14llu |\n", "broken effects refused", (unsigned long long)t->failed_loads);
    printf("| %-34s | %14llu |\n", "readbacks compared across lanes", (unsigned long long)t->readbacks);
    printf("| %-34s | %016llx |\n", "digest of lane 0's readbacks", (unsigned long long)t->digest);
    printf("| %-34s | %14llu |\n", "checkpoints", (unsigned long long)t->checkpoints);
    printf("| %-34s | %14llu |\n", "drains", (unsigned long long)t->drains);
    printf("| %-34s | %14u |\n", "GL objects listed: peak", t->peak_gl_objects);
    printf("| %-34s | %14u |\n", "GL objects listed: last checkpoint", t->final_gl_objects);
    printf("| %-34s | %14.0f |\n", "GL objects listed: last drain",
           t->drain_gl_objects.count ? t->drain_gl_objects.values[t->drain_gl_objects.count - 1] : 0.0);
    printf("| %-34s | %14zu |\n", "allocator bytes: peak", t->peak_live_bytes);
    printf("| %-34s | %14.0f |\n", "allocator bytes: last drain",
           t->drain_live_bytes.count ? t->drain_live_bytes.values[t->drain_live_bytes.count - 1] : 0.0);
    printf("| %-34s | %14.1f |\n", "RSS MiB: first half's high", soak_series_max(rss, 0, rss->count / 2));
    printf("| %-34s | %14.1f |\n", "RSS MiB: second half's high", soak_series_max(rss, rss->count / 2, rss->count));
    printf("| %-34s | %14.1f |\n", "RSS MiB: last", rss->count ? rss->values[rss->count - 1] : 0.0);
}

int main(int argc, char **argv) {
    static soak s;
    if (!parse_options(argc, argv, &s.options)) {
        fprintf(stderr, "usage: plume_soak [--seed N] [--frames N | --seconds S] [--check-every N] [--drain-every N]"
                        " [--max-capacity N] [--max-size WxH] [--lanes 1|2] [--rss-growth F] [--rss-slack-mib M]"
                        " [--effects DIR] [--sprite FILE|none] [--verbose] [--no-gameplay] [--raster-only]"
                        " [--print-readbacks] [--poison]\n");
        return 2;
    }
    s.rng.state = s.options.seed;
    find_effects(&s);
    s.width = s.options.max_width;
    s.height = s.options.max_height;
    for (int l = 0; l < s.options.lanes && !s.failed; ++l) {
        if (!soak_lane_create(&s, &s.lanes[l], l)) break;
        if (l == 0) s.has_clip_control = epoxy_gl_version() >= 45 || epoxy_has_gl_extension("GL_ARB_clip_control");
    }
    printf("soak: seed %llu, %d lanes, GL %s, %d effect files, capacities 1..%u, viewports up to %dx%d\n",
           (unsigned long long)s.options.seed, s.options.lanes, headless_gl_describe(), s.effect_count,
           s.options.max_capacity, s.options.max_width, s.options.max_height);
    fflush(stdout);
    double start = now_seconds();
    while (!s.failed) {
        if (s.options.frames ? s.frame >= s.options.frames : now_seconds() - start >= s.options.seconds) break;
        uint32_t operations = soak_below(&s.rng, 4);
        for (uint32_t i = 0; i < operations && !s.failed; ++i) soak_random_operation(&s);
        if (!s.failed) soak_frame(&s);
        s.frame++;
        if (!s.failed && s.frame % s.options.check_every == 0) checkpoint(&s, false);
    }
    if (!s.failed && s.frame % s.options.check_every != 0) checkpoint(&s, true);
    else if (!s.failed) drain(&s);
    if (!s.failed) check_flat(&s);
    double seconds = now_seconds() - start;
    for (int l = 0; l < s.options.lanes; ++l) {
        soak_lane_destroy(&s.lanes[l]);
        if (!s.failed && s.lanes[l].counters.live_bytes != 0)
            soak_fail(&s, "lane %d: %zu bytes still allocated after plume_context_destroy", l,
                      s.lanes[l].counters.live_bytes);
    }
    report(&s, seconds);
    soak_series_free(&s.stats.drain_gl_objects);
    soak_series_free(&s.stats.drain_live_bytes);
    soak_series_free(&s.stats.rss_mib);
    printf("replay: plume_soak --seed %llu --frames %llu --check-every %u --drain-every %u --max-capacity %u "
           "--max-size %dx%d --lanes %d%s%s%s\n",
           (unsigned long long)s.options.seed, (unsigned long long)s.frame, s.options.check_every,
           s.options.drain_every, s.options.max_capacity, s.options.max_width, s.options.max_height,
           s.options.lanes, s.options.no_gameplay ? " --no-gameplay" : "",
           s.options.raster_only ? " --raster-only" : "", s.options.poison ? " --poison" : "");
    if (s.failed) {
        printf("soak FAILED at frame %llu: %s\n", (unsigned long long)s.frame, s.failure);
        return 1;
    }
    printf("soak passed\n");
    return 0;
}
