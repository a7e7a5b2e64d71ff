/* What demo/app.c and demo/app_hud.c share: the application's state (struct
 * demo_app) and the HUD panel's entry. Not part of the demo's interface
 * (demo.h); a file that includes it defines _POSIX_C_SOURCE first (PATH_MAX). */
#ifndef DEMO_APP_INTERNAL_H
#define DEMO_APP_INTERNAL_H

#include <cglm/cglm.h>
#include <limits.h>
#include <stdio.h>

#include "demo.h"
#include "effect_show.h"
#include "gameplay.h"
#include "many_effects.h"
#include "hud.h"
#include "render_targets.h"
#include "scene.h"
#include "steady_state.h"
#include "smoke_system.h"

enum {
    GRAPH_FRAMES = 240,     /* frames the scrolling graph shows */
    PENDING_FRAMES = 64,    /* frames whose CPU figures wait for their lagged GPU figures */
    LIVE_SAMPLE_PERIOD = 30, /* frames between synchronous live counts when the module's profile has none */
    LIVE_SAMPLE_FIRST = 5    /* the frame of the first */
};

/* A growing list of samples, for medians at the end. */
typedef struct sample_list {
    double *values;
    size_t count, capacity;
} sample_list;

typedef struct graph_sample {
    double frame_ms;
    double stage_ms[3];     /* simulate, sort, draw: 0 when unknown */
} graph_sample;

typedef struct pending_frame {
    double cpu_ms;
    uint32_t capacity;
    bool sorting;
} pending_frame;

typedef struct orbit_camera {
    vec3 target;
    float yaw, pitch;       /* radians; yaw 0 looks along -z */
    float distance;
} orbit_camera;

struct demo_app {
    demo_options options;
    char texture_path[PATH_MAX];
    char motion_path[PATH_MAX];     /* the puff's motion vectors ("": none) */
    int width, height;
    scene *scene;
    render_targets targets;
    hud *hud;
    smoke_system *smoke;
    effect_show *effect;
    gameplay *gameplay;             /* --gameplay; NULL otherwise */
    many_effects *many;             /* --many-effects or M; NULL otherwise */
    orbit_camera camera;
    bool paused, sorting, show_hud;

    uint64_t frame;                 /* frames drawn so far */
    uint64_t system_first_frame;    /* the demo frame of the current system's first update */
    pending_frame pending[PENDING_FRAMES];  /* indexed by demo frame */
    uint64_t next_profile_frame;    /* the module's update index of the next frame profile to read */
    plume_profile profile;
    bool profile_available;
    uint32_t live_count;            /* last known; from the profile or sampled */
    double last_frame_ms, last_cpu_ms;

    graph_sample graph[GRAPH_FRAMES];
    uint32_t graph_next, graph_count;
    sample_list cpu_ms, frame_ms, gpu_ms[PLUME_STAGE_COUNT], draw_stage_ms[PLUME_DRAW_STAGE_COUNT];
    /* The GPU medians take the current system's frames from its steady
     * state on (host/steady_state.h): a growing column's first frames
     * understate what a player sees. */
    steady_state steady;
    FILE *csv;
};

/* The HUD panel (text and the frame graph) over the frame in `framebuffer`
 * (demo/app_hud.c). */
void demo_app_draw_hud(demo_app *app, GLuint framebuffer);

/* The timings (demo/app_timings.c). */
void sample_list_push(sample_list *list, double value);
/* The --profile CSV opened and its header written (nothing without it). */
void demo_app_open_csv(demo_app *app);
/* The current system's statistics begun afresh, waiting for its steady state. */
void demo_app_start_steady_state(demo_app *app);
/* The module's profiles of the frames completed since the last call: the
 * HUD's, the CSV's rows and the statistics' samples. */
void demo_app_collect_profile(demo_app *app);
/* The frame's CPU and GPU times into the HUD's scrolling graph. */
void demo_app_record_graph(demo_app *app, double frame_ms);

#endif
