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
    PLUME_STAGE_SIMULATE = 0,  /* events' children, prepare, emit, simulate, compaction */
    PLUME_STAGE_SORT = 1,      /* the sort of the drawn particles, sized on the GPU */
    PLUME_STAGE_DRAW = 2,      /* plume_system_draw, whatever its path and resolution */
    PLUME_STAGE_UPDATE = 3,    /* the whole update call: simulate + sort */
    PLUME_STAGE_COUNT = 4
} plume_stage;

/* The draw's sub-stages, each timed inside PLUME_STAGE_DRAW (and
 * a KHR_debug group "plume draw: ..." of that name in captures). A frame
 * times those its draw path ran: the tiled path (plume_draw_path) the first
 * eight, a draw at 1/2 or 1/4 (plume_draw_resolution, either path) the last
 * two; the full-resolution raster draw none. A pass with nothing to do (no
 * particle drawn) still runs as an empty indirect dispatch or draw: timed,
 * near zero. [since 1.2] */
typedef enum plume_draw_stage {
    PLUME_DRAW_STAGE_PROJECT = 0,    /* tiled: each drawn particle's quad on the screen and its tiles (the bin) */
    PLUME_DRAW_STAGE_SCAN = 1,       /* tiled: the prefix sum of the tile counts; the entries against the budget */
    PLUME_DRAW_STAGE_ENTRIES = 2,    /* tiled: a (tile, particle) entry per tile of each particle */
    PLUME_DRAW_STAGE_TILE_SORT = 3,  /* tiled: the entries sorted by tile */
    PLUME_DRAW_STAGE_RANGES = 4,     /* tiled: each tile's run of entries, and its runs cut into chunks */
    PLUME_DRAW_STAGE_COMPOSITE = 5,  /* tiled: the tiles' pixels composited front to back */
    PLUME_DRAW_STAGE_RESOLVE = 6,    /* tiled: the chunks of a tile combined */
    PLUME_DRAW_STAGE_BLEND = 7,      /* tiled: the raster fallback of an overflowing frame, and at full resolution
                                        the composited pixels blended onto the host's framebuffer */
    PLUME_DRAW_STAGE_DOWNSAMPLE = 8, /* 1/2, 1/4: the host's depth downsampled */
    PLUME_DRAW_STAGE_UPSAMPLE = 9,   /* 1/2, 1/4: the particles blended onto the host's framebuffer, upsampled */
    PLUME_DRAW_STAGE_COUNT = 10
} plume_draw_stage;

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
    uint32_t sort_padded_count;  /* the count sorted, rounded up to a power of two; 0: none */
    uint32_t sort_passes;        /* dispatches (or passes) with work in that frame's sort */
    /* of live_count, those not culled: sorted and drawn (see
     * plume_frame_desc.disable_culling) [since 1.1] */
    uint32_t drawn_count;
    /* The tiled draw path (plume_draw_path) in the last completed frame: the
     * (tile, particle) entries it needed and the budget it had (both 0: that
     * frame did not draw tiled); and of the frames in the window, those whose
     * entries overflowed the budget (or a trail system's triangles the ranks
     * made: entries 0) and drew with the raster path instead.
     * [since 1.2] */
    uint32_t tiled_entries;
    uint32_t tiled_entry_budget;
    uint32_t tiled_overflow_frames;
    /* the draw's sub-stages (plume_draw_stage) over the window; samples 0: no
     * frame of the window ran that sub-stage [since 1.2] */
    plume_stage_timing draw_stages[PLUME_DRAW_STAGE_COUNT];
    /* GPU events consumed by that frame's update (plume_world): children
     * requested of this system since its previous update, and of those,
     * children dropped (its event buffer or its particles full) [since 1.2] */
    uint32_t event_children;
    uint32_t event_children_dropped;
    /* the plume_gpu_path the system runs (compute or fragment) [since 1.2] */
    uint32_t path;
    /* the last completed frame's draw: the plume_draw_path it drew with
     * (PLUME_DRAW_PATH_RASTER or TILED, whatever the frame asked: what
     * AUTOMATIC chose; a tiled frame over its entry budget is still TILED,
     * counted in tiled_overflow_frames) and its plume_draw_resolution; 0
     * and 0 before a timed draw [since 1.3] */
    uint32_t draw_path;
    uint32_t draw_resolution;
} plume_profile;

/* One completed frame, for per-frame logs (CSV) and graphs. */
typedef struct plume_frame_profile {
    uint64_t frame;              /* update index */
    uint32_t stage_mask;         /* bit (1u << stage) set: stage_ms[stage] was measured */
    double stage_ms[PLUME_STAGE_COUNT];
    uint32_t live_count;
    uint32_t sort_padded_count;  /* 0: nothing sorted that frame */
    uint32_t sort_passes;
    uint32_t drawn_count;        /* of live_count, those sorted and drawn (not culled) [since 1.1] */
    /* the tiled draw path's entries and budget (plume_profile); entries over
     * the budget: the frame drew with the raster path [since 1.2] */
    uint32_t tiled_entries;
    uint32_t tiled_entry_budget;
    /* bit (1u << draw stage) set: draw_stage_ms[stage] was measured
     * (plume_draw_stage) [since 1.2] */
    uint32_t draw_stage_mask;
    double draw_stage_ms[PLUME_DRAW_STAGE_COUNT];
    uint32_t event_children;     /* as in plume_profile [since 1.2] */
    uint32_t event_children_dropped;
} plume_frame_profile;

#ifdef __cplusplus
}
#endif

#endif
