/* The demo's timings: the clock, the module's frame profiles collected each
 * frame (for the HUD, the CSV and the statistics), the medians from the
 * effect's steady state on, and the run's summary. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app_internal.h"
#include "demo.h"
#include "draw_stage_names.h"
#include "smoke_system.h"

double demo_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

void sample_list_push(sample_list *list, double value) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? 2 * list->capacity : 1024;
        double *values = realloc(list->values, capacity * sizeof *values);
        if (!values) return; /* a lost sample only thins the statistics */
        list->values = values;
        list->capacity = capacity;
    }
    list->values[list->count++] = value;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts the list in place. */
static double sample_median(sample_list *list) {
    if (list->count == 0) return 0;
    qsort(list->values, list->count, sizeof *list->values, compare_doubles);
    size_t mid = list->count / 2;
    return list->count % 2 ? list->values[mid] : 0.5 * (list->values[mid - 1] + list->values[mid]);
}

void demo_app_open_csv(demo_app *app) {
    if (!app->options.profile_csv) return;
    app->csv = fopen(app->options.profile_csv, "w");
    if (!app->csv) {
        fprintf(stderr, "plume_demo: cannot write %s\n", app->options.profile_csv);
        return;
    }
    fprintf(app->csv, "frame,live_count,simulate_gpu_ms,sort_gpu_ms,draw_gpu_ms,cpu_ms,update_gpu_ms,capacity,"
                      "sorting\n");
}

/* The GPU medians wait for the current system's steady state: at least
 * its longest lifetime, and half an offscreen run at most (so that a short
 * run still measures, said as not steady), a minute in a window. */
void demo_app_start_steady_state(demo_app *app) {
    double dt = app->options.dt > 0.0f ? app->options.dt : 1.0 / 60.0;
    uint32_t longest = app->options.frames ? app->options.frames / 2 : 3600;
    steady_state_init(&app->steady, steady_state_lifetime_frames(smoke_system_longest_lifetime(app->smoke), dt), longest);
    for (int s = 0; s < PLUME_STAGE_COUNT; ++s) app->gpu_ms[s].count = 0;
    for (int d = 0; d < PLUME_DRAW_STAGE_COUNT; ++d) app->draw_stage_ms[d].count = 0;
}

static void write_csv_number(FILE *csv, bool known, const char *format, double value) {
    if (known) fprintf(csv, format, value);
    else fputs("nan", csv);
}

/* One CSV row: `gpu` NULL when the module gave no profile for the frame, `cpu`
 * NULL when the frame is too old for its CPU figures to be kept. */
static void write_csv_row(demo_app *app, uint64_t frame, const plume_frame_profile *gpu, const pending_frame *cpu) {
    FILE *csv = app->csv;
    if (!csv) return;
    static const plume_stage COLUMNS[4] = {PLUME_STAGE_SIMULATE, PLUME_STAGE_SORT, PLUME_STAGE_DRAW,
                                           PLUME_STAGE_UPDATE};
    bool measured[4];
    for (int c = 0; c < 4; ++c) measured[c] = gpu && (gpu->stage_mask & (1u << COLUMNS[c]));
    fprintf(csv, "%llu,", (unsigned long long)frame);
    write_csv_number(csv, gpu != NULL, "%.0f", gpu ? gpu->live_count : 0);
    for (int c = 0; c < 3; ++c) {
        fputc(',', csv);
        write_csv_number(csv, measured[c], "%.4f", gpu ? gpu->stage_ms[COLUMNS[c]] : 0);
    }
    fputc(',', csv);
    write_csv_number(csv, cpu != NULL, "%.4f", cpu ? cpu->cpu_ms : 0);
    fputc(',', csv);
    write_csv_number(csv, measured[3], "%.4f", gpu ? gpu->stage_ms[PLUME_STAGE_UPDATE] : 0);
    fputc(',', csv);
    write_csv_number(csv, cpu != NULL, "%.0f", cpu ? cpu->capacity : 0);
    fputc(',', csv);
    write_csv_number(csv, cpu != NULL, "%.0f", cpu ? cpu->sorting : 0);
    fputc('\n', csv);
}

/* Reads the module's profile for the HUD, and every frame it completed since
 * the last call for the CSV and the statistics (each matched with the CPU
 * figures recorded when it was issued, a few frames ago). */
void demo_app_collect_profile(demo_app *app) {
    app->profile_available = smoke_system_get_profile(app->smoke, &app->profile);
    /* Drawn by a group, the smoke's draw is the group's: the HUD shows that. */
    plume_profile group = {0};
    if (app->profile_available && smoke_system_get_group_profile(app->smoke, &group)) {
        app->profile.stages[PLUME_STAGE_DRAW] = group.stages[PLUME_STAGE_DRAW];
        memcpy(app->profile.draw_stages, group.draw_stages, sizeof group.draw_stages);
    }
    /* Without a profile from the module, or on the fragment path (whose
     * profile counts no particles: its counts are in textures), count the
     * live particles now and then (a synchronous read): the first a few
     * frames in, once the column has begun. */
    bool sample = !app->profile_available || app->options.gl33;
    uint64_t age = app->frame - app->system_first_frame;
    if (sample && (age + LIVE_SAMPLE_PERIOD - LIVE_SAMPLE_FIRST) % LIVE_SAMPLE_PERIOD == 0)
        app->live_count = smoke_system_count_live(app->smoke);
    if (!app->profile_available) {
        /* Log the CPU time alone. */
        if (app->frame > 0) write_csv_row(app, app->frame - 1, NULL, &app->pending[(app->frame - 1) % PENDING_FRAMES]);
        return;
    }
    plume_frame_profile completed[16];
    uint32_t count;
    /* A draw group draws the systems (--fire): their frames hold no draw of
     * their own, so the draw column takes the group's latest measured draw. */
    bool grouped = smoke_system_get_group_profile(app->smoke, &group) && group.stages[PLUME_STAGE_DRAW].samples > 0;
    while ((count = smoke_system_frame_profiles(app->smoke, app->next_profile_frame, completed, 16)) > 0) {
        for (uint32_t k = 0; k < count; ++k) {
            plume_frame_profile *f = &completed[k];
            if (grouped) {
                f->stage_ms[PLUME_STAGE_DRAW] = group.stages[PLUME_STAGE_DRAW].last_ms;
                f->stage_mask |= 1u << PLUME_STAGE_DRAW;
            }
            uint64_t demo_frame = app->system_first_frame + f->frame;
            bool recent = app->frame - demo_frame < PENDING_FRAMES;
            write_csv_row(app, demo_frame, f, recent ? &app->pending[demo_frame % PENDING_FRAMES] : NULL);
            bool measured = app->steady.reached;
            steady_state_push(&app->steady, f->live_count, f->tiled_entries ? f->tiled_entries : f->drawn_count);
            for (int s = 0; measured && s < PLUME_STAGE_COUNT; ++s)
                if (f->stage_mask & (1u << s)) sample_list_push(&app->gpu_ms[s], f->stage_ms[s]);
            for (int d = 0; measured && !grouped && d < PLUME_DRAW_STAGE_COUNT; ++d)
                if (f->draw_stage_mask & (1u << d)) sample_list_push(&app->draw_stage_ms[d], f->draw_stage_ms[d]);
            if (!sample) app->live_count = f->live_count;
            app->next_profile_frame = f->frame + 1;
        }
    }
}

void demo_app_record_graph(demo_app *app, double frame_ms) {
    graph_sample *g = &app->graph[app->graph_next];
    g->frame_ms = frame_ms;
    static const plume_stage STAGES[3] = {PLUME_STAGE_SIMULATE, PLUME_STAGE_SORT, PLUME_STAGE_DRAW};
    for (int k = 0; k < 3; ++k)
        g->stage_ms[k] = app->profile_available ? app->profile.stages[STAGES[k]].last_ms : 0;
    app->graph_next = (app->graph_next + 1) % GRAPH_FRAMES;
    if (app->graph_count < GRAPH_FRAMES) ++app->graph_count;
}

void demo_app_summary(demo_app *app, demo_summary *out) {
    memset(out, 0, sizeof *out);
    out->frames = (uint32_t)app->frame;
    out->median_cpu_ms = sample_median(&app->cpu_ms);
    out->median_frame_ms = sample_median(&app->frame_ms);
    out->gpu_samples = (uint32_t)app->gpu_ms[PLUME_STAGE_SORT].count;
    out->gpu_times = app->gpu_ms[PLUME_STAGE_UPDATE].count > 0;
    for (int s = 0; s < PLUME_STAGE_COUNT; ++s) out->median_gpu_ms[s] = sample_median(&app->gpu_ms[s]);
    for (int d = 0; d < PLUME_DRAW_STAGE_COUNT; ++d)
        if (app->draw_stage_ms[d].count) {
            out->median_draw_stage_ms[d] = sample_median(&app->draw_stage_ms[d]);
            out->draw_stage_mask |= 1u << d;
        }
    steady_state_describe(&app->steady, out->steady, sizeof out->steady);
    out->live_count = smoke_system_count_live(app->smoke);
    out->capacity = smoke_system_capacity(app->smoke);
    out->sort = smoke_system_sort_name(app->smoke);
    plume_profile group;
    if (smoke_system_get_group_profile(app->smoke, &group)) {
        out->group_samples = group.stages[PLUME_STAGE_DRAW].samples;
        out->group_sort_ms = group.stages[PLUME_STAGE_SORT].mean_ms;
        out->group_draw_ms = group.stages[PLUME_STAGE_DRAW].mean_ms;
    }
    out->companion_count = smoke_system_companion_gpu_ms(app->smoke, out->companion_ms);
    if (app->profile_available) {
        out->drawn_count = app->profile.drawn_count;
        out->drew_path = app->profile.draw_path;
        out->drew_resolution = app->profile.draw_resolution;
        out->tiled_entries = app->profile.tiled_entries;
        out->tiled_entry_budget = app->profile.tiled_entry_budget;
        out->tiled_overflow_frames = app->profile.tiled_overflow_frames;
    }
    if (app->csv) fflush(app->csv);
}

void demo_summary_print(const demo_summary *s) {
    printf("frames: %u, particles: %u live of %u capacity (%u drawn in the last profiled frame), sort: %s\n",
           s->frames, s->live_count, s->capacity, s->drawn_count, s->sort);
    if (s->drew_path != 0)
        printf("the last profiled frame drew %s at %s resolution\n", demo_path_name(s->drew_path),
               demo_resolution_name(s->drew_resolution));
    printf("CPU per frame (median): %.2f ms issuing, %.2f ms between frames\n", s->median_cpu_ms,
           s->median_frame_ms);
    if (s->gpu_times)
        printf("GPU per frame (median of %u frames, %s): simulate %.3f ms, sort %.3f ms, draw %.3f ms, update %.3f "
               "ms\n",
               s->gpu_samples, s->steady, s->median_gpu_ms[PLUME_STAGE_SIMULATE], s->median_gpu_ms[PLUME_STAGE_SORT],
               s->median_gpu_ms[PLUME_STAGE_DRAW], s->median_gpu_ms[PLUME_STAGE_UPDATE]);
    else
        printf("GPU per frame: no stage times (no profiler in the module, or no GL timer)\n");
    if (s->draw_stage_mask) {
        printf("the draw by stage (medians over the same frames, each of those that ran it):");
        const char *separator = " ";
        for (int d = 0; d < PLUME_DRAW_STAGE_COUNT; ++d)
            if (s->draw_stage_mask & (1u << d)) {
                printf("%s%s %.3f ms", separator, HOST_DRAW_STAGE_NAMES[d], s->median_draw_stage_ms[d]);
                separator = ", ";
            }
        printf("\n");
    }
    if (s->group_samples > 0)
        printf("draw group (fire and smoke in one order; the systems' draw above is 0): gather and sort %.3f ms, "
               "draw %.3f ms (mean of its last %u draws)\n",
               s->group_sort_ms, s->group_draw_ms, s->group_samples);
    if (s->companion_count > 0)
        printf("GPU per frame, the effect's other %u systems (means of their profiles): simulate %.3f ms, sort %.3f "
               "ms, draw %.3f ms, update %.3f ms\n",
               s->companion_count, s->companion_ms[PLUME_STAGE_SIMULATE], s->companion_ms[PLUME_STAGE_SORT],
               s->companion_ms[PLUME_STAGE_DRAW], s->companion_ms[PLUME_STAGE_UPDATE]);
    if (s->tiled_entry_budget > 0)
        printf("tiled path: %u entries of a budget of %u in the last frame; %u frames of the profile's window "
               "overflowed it\n",
               s->tiled_entries, s->tiled_entry_budget, s->tiled_overflow_frames);
}
