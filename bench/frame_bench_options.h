/* The frame benchmark's command line (bench/frame_bench.c has the usage's
 * meaning). */
#ifndef PLUME_BENCH_FRAME_BENCH_OPTIONS_H
#define PLUME_BENCH_FRAME_BENCH_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "plume/plume_particles.h"
#include "plume_lab.h"

enum { MAX_COUNTS = 16 };
#define FRAME_BENCH_WARMUP_STEADY UINT32_MAX

typedef struct options {
    uint32_t counts[MAX_COUNTS];
    uint32_t count_total;
    uint32_t frames;
    /* Fixed warm-up frames, or FRAME_BENCH_WARMUP_STEADY (the default): until
     * the steady state (host/steady_state.h), at most max_warmup frames. */
    uint32_t warmup, max_warmup;
    int width, height;
    const char *csv_path, *frames_csv_path;
    float turbulence;
    bool look_away, no_cull;
    uint32_t resolution; /* plume_draw_resolution */
    uint32_t path;       /* plume_draw_path */
    uint32_t tile_size;  /* 0: the module's default */
    uint32_t chunk_entries; /* 0: the module's default; PLUME_LAB_TILED_UNCHUNKED */
    plume_sort_algorithm entry_sort; /* the tiled path's entry sort; automatic by default */
    bool no_termination;
    bool smoke; /* --smoke: emitted puffs that fade in and out (see frame_bench.c) */
    plume_lab_tiled_knobs knobs; /* the compositor's lab knobs; zero: the product's */
    uint32_t blend_mode, orientation, sort_mode; /* the look (plume_system_desc) */
    uint32_t sort_key_bits;                      /* plume_system_desc's; 0: the default */
    uint32_t radix_threads;                      /* the lab's tile_threads; 0: the module's */
    bool lit;
    int world_first, world_last; /* 0: off, 1: on */
} options;

void usage(void);
bool parse_options(int argc, char **argv, options *o);

#endif
