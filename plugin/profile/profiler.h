/* The module's GPU profiler (internal): GL timestamp queries around each stage
 * of a frame, kept in a ring several frames deep and read only once
 * GL_QUERY_RESULT_AVAILABLE (and the frame's fence) say the GPU is done, so
 * the CPU never waits. Figures lag the current frame by up to `ring_depth`
 * frames; when every slot of the ring still waits for the GPU, the new frame is
 * not measured (counted in frames_skipped) rather than stalling.
 *
 * Why GL_TIMESTAMP pairs and not GL_TIME_ELAPSED: the update stage encloses
 * simulate and sort, and TIME_ELAPSED queries may not nest; a timestamp also
 * never collides with a TIME_ELAPSED query the host itself keeps open around
 * our calls. (On Mesa llvmpipe, compute work runs inside the dispatch call and
 * timestamps bracket it well; draw timestamps there are not meaningful.)
 *
 * Per frame the profiler also carries a few uint values: copied on the GPU
 * from a host buffer into a small per-slot readback buffer
 * (profiler_capture_u32) and read with the frame's timings, or known on the
 * CPU (profiler_set_u32).
 *
 * Off (the default) it issues no GL call at all and owns no GL object. On, it
 * brackets each stage with a KHR_debug group ("plume simulate", ...) so
 * captures in RenderDoc / Nsight show named passes, and labels its queries and
 * buffers.
 *
 * GL state: profiler_frame_begin, profiler_collect and profiler_capture_u32
 * bind GL_COPY_READ_BUFFER / GL_COPY_WRITE_BUFFER; they take the caller's
 * plume_gl_scope and save that group in it (only when they are about to bind),
 * so its end restores both. Nothing else is bound. Debug groups are balanced:
 * each stage_end pops what its stage_begin pushed.
 *
 * Usage, per frame (the frame is closed by the next frame_begin, or by
 * profiler_frame_end):
 *     profiler_frame_begin(p, index, &scope); // reads finished frames, opens one
 *     profiler_stage_begin(p, PLUME_STAGE_UPDATE);
 *     profiler_stage_begin(p, PLUME_STAGE_SIMULATE); ... profiler_stage_end(...);
 *     profiler_capture_u32(p, PROFILER_VALUE_LIVE_COUNT, counter_buffer, 0, &scope);
 *     ...
 *     profiler_stage_end(p, PLUME_STAGE_UPDATE);
 *     profiler_stage_begin(p, PLUME_STAGE_DRAW); ... profiler_stage_end(...);
 * A stage is timed once per frame: a second begin/end of the same stage in one
 * frame gets its debug group but no time. The draw's sub-stages
 * (profiler_draw_stage_begin) are timed the same way, inside the draw.
 */
#ifndef PLUME_PROFILER_H
#define PLUME_PROFILER_H

#include "plume/plume_profile.h"
#include "plume/plume_sort.h"
#include "core/plume_internal.h"

enum {
    PROFILER_DEFAULT_RING_DEPTH = 4,
    PROFILER_MIN_RING_DEPTH = 2,
    PROFILER_MAX_RING_DEPTH = 16,
    PROFILER_DEFAULT_WINDOW = 120,
    PROFILER_MAX_WINDOW = 4096
};

/* Per-frame uint values; the first three go into plume_profile. */
typedef enum profiler_value {
    PROFILER_VALUE_LIVE_COUNT = 0,
    PROFILER_VALUE_SORT_PADDED_COUNT = 1,
    PROFILER_VALUE_SORT_PASSES = 2,
    PROFILER_VALUE_SORT_BOUND = 3,  /* the count bound a sort was issued for (absent: no sort) */
    PROFILER_VALUE_DRAWN_COUNT = 4, /* live and not culled: sorted and drawn */
    PROFILER_VALUE_TILED_ENTRIES = 5, /* the tiled draw's entries (absent: no tiled draw) */
    PROFILER_VALUE_TILED_BUDGET = 6,  /* the entries it had room for: more is an overflow frame */
    PROFILER_VALUE_EVENT_CHILDREN = 7, /* GPU events: children requested of the update */
    PROFILER_VALUE_EVENT_DROPPED = 8,  /* and of those, dropped */
    PROFILER_VALUE_DRAW_PATH = 9,       /* the plume_draw_path the draw ran */
    PROFILER_VALUE_DRAW_RESOLUTION = 10, /* and its plume_draw_resolution */
    PROFILER_VALUE_TILED_OVERFLOW = 11,  /* 1: the tiled draw fell back (its entries or a trail's ranks did not fit) */
    PROFILER_VALUE_COUNT = 12
} profiler_value;

typedef struct plume_profiler plume_profiler;

typedef struct profiler_desc {
    uint32_t ring_depth; /* frames in flight; 0: PROFILER_DEFAULT_RING_DEPTH (2 .. 16) */
    uint32_t window;     /* frames the statistics cover; 0: PROFILER_DEFAULT_WINDOW (1 .. 4096) */
} profiler_desc;

/* What the profiler times: the stages, then the draw's sub-stages. */
enum { PROFILER_SPAN_COUNT = PLUME_STAGE_COUNT + PLUME_DRAW_STAGE_COUNT };

/* One completed frame. */
typedef struct profiler_frame {
    uint64_t index;                       /* as given to profiler_frame_begin */
    uint32_t stage_mask;                  /* bit s set: stage_ms[s] holds a time */
    double stage_ms[PLUME_STAGE_COUNT];
    uint32_t draw_stage_mask;             /* bit s set: draw_stage_ms[s] holds a time */
    double draw_stage_ms[PLUME_DRAW_STAGE_COUNT];
    uint32_t value_mask;                  /* bit v set: values[v] was captured or set */
    uint32_t values[PROFILER_VALUE_COUNT];
} profiler_frame;

typedef struct profiler_counters {
    uint64_t frames_begun;      /* frame_begin calls while enabled */
    uint64_t frames_measured;   /* of those, frames that got a ring slot */
    uint64_t frames_skipped;    /* of those, frames not measured: every slot still in flight */
    uint64_t frames_completed;  /* frames whose results were read */
    uint64_t samples_rejected;  /* stage times dropped: end timestamp before begin */
    uint32_t queries_alive;     /* query names the profiler holds now */
} profiler_counters;

/* Creates a disabled profiler (no GL call). `env` is copied. Errors:
 * PLUME_ERROR_INVALID_ARGUMENT (null pointers, ring_depth or window out of
 * range), PLUME_ERROR_OUT_OF_MEMORY. */
plume_result profiler_create(const plume_env *env, const profiler_desc *desc, plume_profiler **out_profiler);

/* Deletes every GL object the profiler holds (a GL context must be current if
 * it is enabled) and frees it. NULL is a no-op. */
void profiler_destroy(plume_profiler *profiler);

/* Switching on checks GL_QUERY_COUNTER_BITS (0: no times, only values) and
 * creates the ring's queries and readback buffers; the statistics start
 * empty. Switching off deletes them; frames still in flight are dropped.
 * Errors: PLUME_ERROR_GL (creation failed; the profiler stays off). */
plume_result profiler_set_enabled(plume_profiler *profiler, bool enabled);
bool profiler_is_enabled(const plume_profiler *profiler);
/* False when the context has no timer (GL_QUERY_COUNTER_BITS of GL_TIMESTAMP
 * is 0); meaningful once enabled. */
bool profiler_timer_available(const plume_profiler *profiler);

/* Closes the open frame (if any), reads every finished frame without waiting,
 * then opens frame `index` in a free slot, or skips measuring it when none is
 * free. */
void profiler_frame_begin(plume_profiler *profiler, uint64_t index, plume_gl_scope *scope);
/* Closes the open frame (puts a fence behind it); nothing if none is open. */
void profiler_frame_end(plume_profiler *profiler);
/* Reads every finished frame without waiting (frame_begin does this too). */
void profiler_collect(plume_profiler *profiler, plume_gl_scope *scope);

void profiler_stage_begin(plume_profiler *profiler, plume_stage stage);
void profiler_stage_end(plume_profiler *profiler, plume_stage stage);
/* A sub-stage of the draw, inside PLUME_STAGE_DRAW: timed as a stage is (once
 * a frame), with no debug group of its own (the draw path pushes one, on or
 * off: render/draw.c). */
void profiler_draw_stage_begin(plume_profiler *profiler, plume_draw_stage stage);
void profiler_draw_stage_end(plume_profiler *profiler, plume_draw_stage stage);

/* Copies the uint at byte `offset` of `source_buffer` into the open frame's
 * readback slot on the GPU (no wait); it is read with that frame's results.
 * Issue it before the frame's last stage ends. */
void profiler_capture_u32(plume_profiler *profiler, profiler_value value, GLuint source_buffer, GLintptr offset,
                          plume_gl_scope *scope);
/* A value known on the CPU for the open frame. */
void profiler_set_u32(plume_profiler *profiler, profiler_value value, uint32_t number);

/* The last completed frame and statistics over the window. Stages without a
 * sample (or no timer) report samples = 0 and zero times. */
void profiler_get_profile(const plume_profiler *profiler, plume_profile *out);

/* Copies the completed frames still in the window whose index is at least
 * `first_index`, oldest first, at most `max`; returns how many. */
uint32_t profiler_frames_from(const plume_profiler *profiler, uint64_t first_index, profiler_frame *out,
                              uint32_t max);

profiler_counters profiler_get_counters(const plume_profiler *profiler);

/* Writes at most `capacity` of the GL objects the profiler holds (while
 * enabled: the ring's queries used so far, which are objects, and its
 * readback buffers) to `out`; returns how many it holds. The same list
 * serves its deletion, with the query names never used. */
uint32_t profiler_list_gl_objects(const plume_profiler *profiler, plume_gl_object *out, uint32_t capacity);

/* Called with each frame as its results arrive, before it enters the window:
 * the owner derives values that need the GPU's numbers (the sort's padded
 * size and passes from the live count). NULL: none. */
typedef void (*profiler_frame_finisher)(void *user, profiler_frame *frame);
void profiler_set_frame_finisher(plume_profiler *profiler, profiler_frame_finisher finisher, void *user);

/* ---- Pure helpers (no GL), exposed for tests -------------------------------- */

/* mean, min, max and p95 of `count` samples in any order (p95: nearest rank,
 * the smallest sample with at least 95% of the samples at or below it);
 * `scratch` holds `count` doubles. last_ms is left 0 for the caller. count 0:
 * everything 0. */
void profiler_timing_from_samples(const double *samples, uint32_t count, double *scratch, plume_stage_timing *out);

/* The median of `count` values (the mean of the middle two for an even
 * count; 0 for none). Sorts `values` in place. */
double profiler_median(double *values, uint32_t count);

/* end - begin of two GL timestamps of a counter `bits` wide, in ns. With fewer
 * than 64 bits the counter wraps and the difference is taken modulo 2^bits;
 * with 64 an end before begin is not a duration: returns false. */
bool profiler_timestamp_delta(uint64_t begin, uint64_t end, int bits, uint64_t *out_ns);

/* ---- profile_calls.c: what a system's and a draw group's profiling share ---- */

/* The sort's size follows from the GPU's drawn count, known only when the
 * frame's results arrive: what the network covered and how many of its
 * dispatches had work (from the frame's drawn count and sort bound), for a
 * profiler whose frames sort with `sorter` (a system's, a draw group's). */
void profile_finish_sort_values(profiler_frame *frame, const plume_context *context, plume_sorter sorter);
/* Switches `profiler` on or off (profiler_set_enabled) inside a GL state
 * scope of `env` that restores the copy buffers its queries and readback
 * buffers bind: a system's and a draw group's set_profiling. */
plume_result profile_switch(plume_profiler *profiler, const plume_env *env, bool enabled);

#endif
