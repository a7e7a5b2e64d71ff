/*
 * plume_profile.h — what a particle system's frame costs on the GPU, measured
 * with GL timer queries kept in a ring several frames deep and read only when
 * GL_QUERY_RESULT_AVAILABLE says so: the CPU never waits on the GPU, and the
 * figures lag the current frame by a few frames.
 *
 * Threading: as the system's (the thread where its GL context is current).
 */
#ifndef PLUME_PROFILE_H
#define PLUME_PROFILE_H

#include <stdbool.h>

#include "plume_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum plume_stage {
    PLUME_STAGE_SIMULATE = 0,  /* emit, integrate, key: simulate.comp */
    PLUME_STAGE_SORT = 1,      /* the bitonic sort, sized on the GPU */
    PLUME_STAGE_DRAW = 2,      /* the instanced draw */
    PLUME_STAGE_UPDATE = 3,    /* the whole update call: simulate + sort */
    PLUME_STAGE_COUNT = 4
} plume_stage;

/* Milliseconds of GPU time. */
typedef struct plume_stage_timing {
    double last_ms;      /* the last completed frame */
    double mean_ms;      /* over the window (the last `samples` frames) */
    double min_ms;
    double max_ms;
    double p95_ms;
    uint32_t samples;    /* frames in the window so far (0: no figure yet) */
} plume_stage_timing;

typedef struct plume_profile {
    bool enabled;            /* profiling switched on */
    bool timer_available;    /* false: GL_QUERY_COUNTER_BITS is 0, no times are reported */
    uint64_t frame;          /* update index of the last completed frame */
    plume_stage_timing stages[PLUME_STAGE_COUNT];
    uint32_t live_count;         /* live particles in that frame */
    uint32_t sort_padded_count;  /* the power of two the sort network covered */
    uint32_t sort_passes;        /* dispatches with work in that frame's sort */
    /* since 1.1: of live_count, those not culled: sorted and drawn (see
     * plume_frame_desc.disable_culling) */
    uint32_t drawn_count;
    /* since 1.2: the tiled draw path (plume_draw_path) in the last completed
     * frame: the (tile, particle) entries it needed and the budget it had
     * (both 0: that frame did not draw tiled); and of the frames in the
     * window, those whose entries overflowed the budget and drew with the
     * raster path instead */
    uint32_t tiled_entries;
    uint32_t tiled_entry_budget;
    uint32_t tiled_overflow_frames;
    /* since 1.2: GPU events consumed by that frame's update (plume_world):
     * children requested of this system since its previous update, and of
     * those, children dropped (its event buffer or its particles full) */
    uint32_t event_children;
    uint32_t event_children_dropped;
    /* since 1.2: the plume_gpu_path the system runs (compute or fragment) */
    uint32_t path;
} plume_profile;

/* One completed frame, for per-frame logs (CSV) and graphs. */
typedef struct plume_frame_profile {
    uint64_t frame;              /* update index */
    uint32_t stage_mask;         /* bit (1u << stage) set: stage_ms[stage] was measured */
    double stage_ms[PLUME_STAGE_COUNT];
    uint32_t live_count;
    uint32_t sort_padded_count;  /* 0: nothing sorted that frame */
    uint32_t sort_passes;
    uint32_t drawn_count;        /* since 1.1: of live_count, those sorted and drawn (not culled) */
    /* since 1.2: the tiled draw path's entries and budget (plume_profile);
     * entries over the budget: the frame drew with the raster path */
    uint32_t tiled_entries;
    uint32_t tiled_entry_budget;
    uint32_t event_children;     /* since 1.2: as in plume_profile */
    uint32_t event_children_dropped;
} plume_frame_profile;

#ifdef __cplusplus
}
#endif

#endif
