/* The smoke demo: options, the application (scene + smoke + HUD, driven one
 * frame at a time by a window or by the offscreen loop), and the offscreen
 * run. The module itself is reached only through smoke_system.h. */
#ifndef DEMO_DEMO_H
#define DEMO_DEMO_H

#include <epoxy/gl.h>
#include <stdbool.h>
#include <stdint.h>

#include "plume/plume_profile.h"

/* The particle counts the +/- keys step through. */
enum { DEMO_COUNT_LEVEL_COUNT = 4 };
extern const uint32_t DEMO_COUNT_LEVELS[DEMO_COUNT_LEVEL_COUNT];

/* The effect the demo shows (--effect). */
typedef enum demo_effect {
    DEMO_EFFECT_SMOKE = 0,  /* the smoke column */
    DEMO_EFFECT_SPARKS = 1, /* sparks from a grinder bouncing off the scene (plume_world) */
    DEMO_EFFECT_DEBRIS = 2, /* rock debris from a blast: lit tumbling meshes (plume_mesh.h) */
    DEMO_EFFECT_LEAVES = 3  /* autumn leaves tumbling from the pillar: lit meshes drifting down */
} demo_effect;

typedef struct demo_options {
    bool offscreen;           /* --offscreen: even with a display */
    int width, height;        /* --size WxH */
    uint32_t frames;          /* --frames N: stop after N frames (0: until the window closes) */
    const char *out_png;      /* --out FILE: PNG of the last frame */
    const char *profile_csv;  /* --profile FILE: one CSV row per measured frame */
    const char *dump_programs; /* --dump-programs DIR: offscreen, the GL programs' binaries at the end */
    uint32_t particles;       /* --particles N (16K, 1M, ... accepted) */
    bool sort;                /* --no-sort clears it */
    bool hud;                 /* --hud, --no-hud; offscreen default off (demo_options_finish) */
    const char *texture_path; /* --texture FILE; NULL: demo/assets/smoke_puff.png found from the binary */
    float dt;                 /* --dt S: fixed time step (offscreen); 0: measured (window) */
    uint32_t resolution;      /* --resolution full|half|quarter: the draw's plume_draw_resolution */
    uint32_t path;            /* --path automatic|raster|tiled: the draw's plume_draw_path (0: automatic) */
    uint32_t quality;         /* --quality full|may-lower: the draw's plume_draw_quality */
    uint32_t effect;          /* --effect smoke|sparks: a demo_effect */
    const char *effect_path;  /* --effect FILE: an effect file instead of the built-in column, reloaded when saved */
    const char *save_effect;  /* --save-effect FILE: the effect on show at the end, as an effect file */
    bool look_away;           /* --look-away: the camera turned away from the smoke (what it costs out of view) */
    bool unlit;               /* --unlit: the smoke column unlit, the default look (what the light costs) */
    bool no_self_shadow;      /* --no-self-shadow: the smoke lit but not shadowed by itself */
    bool gameplay;            /* --gameplay: impacts, a moving emitter, events, a campfire, torches (gameplay.h) */
    bool many_effects;        /* --many-effects: a few hundred small effects, one batch (many_effects.h) */
    bool fire;                /* --fire: a fire at the chimney, drawn with the smoke in one draw group */
    bool night;               /* --night: a moonlit scene, so that what particles emit lights it */
    bool separate;            /* --separate: with --fire, start drawing the two systems one after the other */
    uint32_t tile_size;       /* --tile 8|16|32: the tiled path's tile size (0: the module's default) */
    uint32_t chunk_entries;   /* --chunk K|unchunked: entries a tiled composite workgroup walks (0: default) */
    bool gl33;                /* --gl 3.3: a GL 3.3 core context and the module's fragment path */
    bool camera_given;        /* --camera X,Y,Z,YAW,PITCH,DISTANCE: the orbit camera's start */
    float camera[6];          /* its target (metres), yaw and pitch (degrees), distance (metres) */
    bool size_given, particles_given;
    bool hud_given;           /* --hud or --no-hud: otherwise off offscreen, on in a window */
} demo_options;

/* Windowed defaults; demo_options_finish fills what the chosen mode needs. */
void demo_options_default(demo_options *options);
/* Returns 0 (run), 1 (--help printed: exit 0), 2 (a bad argument, message printed). */
int demo_options_parse(int argc, char **argv, demo_options *options);
/* Offscreen: frames 300 unless given, dt 1/60 unless given, out_png
 * build/smoke.png unless given. On a software renderer (Mesa llvmpipe,
 * about a hundred times slower than a GPU here) the size and the particle
 * count not given drop to 640x360 and 16K, so the run takes seconds rather
 * than minutes; returns true when it lowered them. */
bool demo_options_finish(demo_options *options, bool offscreen, const char *renderer);

typedef enum demo_action {
    DEMO_TOGGLE_PAUSE,
    DEMO_MORE_PARTICLES,
    DEMO_FEWER_PARTICLES,
    DEMO_TOGGLE_SORT,
    DEMO_RESET,
    DEMO_TOGGLE_HUD,
    DEMO_NEXT_RESOLUTION,  /* full -> half -> quarter -> full */
    DEMO_NEXT_PATH,        /* automatic -> raster -> tiled -> automatic */
    DEMO_NEXT_EFFECT,      /* the gallery's next effect file (demo/effects/) */
    DEMO_TOGGLE_JOINT,     /* with --fire: one draw group for fire and smoke, or one draw each */
    DEMO_TOGGLE_MANY       /* the many-effects scene on or off (many_effects.h) */
} demo_action;


/* "full", "half", "quarter" for a plume_draw_resolution. */
const char *demo_resolution_name(uint32_t resolution);
/* "automatic", "raster", "tiled" for a plume_draw_path (zero: automatic). */
const char *demo_path_name(uint32_t path);
/* The paths --path and T choose from, in T's order. */
enum { DEMO_PATH_COUNT = 3 };
extern const uint32_t DEMO_PATHS[DEMO_PATH_COUNT];

typedef struct demo_summary {
    uint32_t frames;
    double median_cpu_ms;              /* the CPU's time to issue a frame */
    double median_frame_ms;            /* between frame starts */
    bool gpu_times;                    /* the module's profiler gave stage times */
    uint32_t gpu_samples;
    double median_gpu_ms[PLUME_STAGE_COUNT]; /* over the frames from the steady state on */
    /* The draw's sub-stages (plume_draw_stage): bit (1u << stage) set where
     * a frame of those above ran it, and its median over them. */
    uint32_t draw_stage_mask;
    double median_draw_stage_ms[PLUME_DRAW_STAGE_COUNT];
    char steady[160];                  /* when it began (steady_state_describe) */
    uint32_t live_count;               /* at the end (read back) */
    uint32_t drawn_count;              /* of those, not culled, in the last profiled frame */
    uint32_t capacity;
    const char *sort;                  /* the last update's sort: "bitonic", "radix", "none" */
    /* The plume_draw_path and plume_draw_resolution the last profiled frame
     * drew with (what the automatic path chose); 0: not known. */
    uint32_t drew_path, drew_resolution;
    /* The tiled path in the last profiled frame: entries, budget, and the
     * frames of the profile's window that overflowed it (drew raster). */
    uint32_t tiled_entries, tiled_entry_budget, tiled_overflow_frames;
    /* The fire and the smoke drawn by one draw group (--fire): its profile's
     * sort (gather and sort) and draw, mean ms over its window of draws. */
    uint32_t group_samples;
    double group_sort_ms, group_draw_ms;
    /* The effect file's other systems (a group file): how many, and their
     * GPU means summed, by plume_stage (the line above is the first's). */
    uint32_t companion_count;
    double companion_ms[PLUME_STAGE_COUNT];
} demo_summary;

typedef struct demo_app demo_app;

/* The folder of the running binary (the demo finds its sprite and effects
 * from it); false where it cannot be known. */
bool demo_binary_folder(char *out, size_t size);
/* Makes the folder `path` (its parent must exist); an existing one is left
 * as it is. */
void demo_make_folder(const char *path);

/* A monotonic clock in milliseconds. */
double demo_now_ms(void);

/* Needs a current GL 4.3 core context; `renderer` names it in the HUD. */
bool demo_app_create(const demo_options *options, int width, int height, demo_app **out);
void demo_app_destroy(demo_app *app);
void demo_app_resize(demo_app *app, int width, int height);
void demo_app_act(demo_app *app, demo_action action);
typedef struct demo_status {
    uint32_t capacity;
    bool sorting, paused, hud;
    uint64_t frames;      /* drawn so far */
} demo_status;
demo_status demo_app_status(const demo_app *app);
/* Selects DEMO_COUNT_LEVELS[level] (keys 1 to 4). */
void demo_app_set_level(demo_app *app, int level);
void demo_app_orbit(demo_app *app, double dx_pixels, double dy_pixels);
void demo_app_zoom(demo_app *app, double steps);
/* --gameplay: an impact where the ray through pixel (x, y) of the window
 * (from its top left) meets the scene; nothing when it meets nothing. */
void demo_app_fire_at(demo_app *app, double x_pixels, double y_pixels);

/* One frame: advances the smoke by `dt` seconds (unless paused), draws the
 * scene, the smoke and the HUD into `framebuffer` (0: the window's), and
 * records timings. `frame_ms` is the measured time since the previous frame
 * started (0 for the first). False on a module error. */
bool demo_app_frame(demo_app *app, float dt, double frame_ms, GLuint framebuffer);

/* The HUD's text lines (counts, sort, draw path, frame and GPU times, the
 * effect on show, the keys), joined by newlines into `out` (cut to fit);
 * returns the characters written. For a host that shows them itself (the
 * web page's text). */
size_t demo_app_describe(const demo_app *app, char *out, size_t size);

/* Writes the colour of `framebuffer` (its read buffer) as a PNG. */
bool demo_app_write_png(const demo_app *app, GLuint framebuffer, const char *path);

/* Medians so far (reads the live count back: call at the end). */
void demo_app_summary(demo_app *app, demo_summary *out);
void demo_summary_print(const demo_summary *summary);

/* Runs options->frames frames into an offscreen framebuffer in the current
 * GL context and writes options->out_png (if set). Deterministic: fixed dt,
 * no input. */
bool demo_run_offscreen(const demo_options *options, demo_summary *summary);

#endif
