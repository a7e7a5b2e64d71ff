/* When an effect's measurement may start: its steady state, once the live
 * count and the screen coverage (the tiled path's entries, or the drawn
 * count) have stopped growing. An effect that emits over time grows for a
 * lifetime or more, and a smoke column keeps spreading after its live count
 * has settled, so medians over its first frames understate what a player
 * sees; the demo and the frame benchmark measure only after this says so.
 *
 * The frames are cut into blocks of STEADY_STATE_WINDOW; the state is
 * steady at the end of the first block, past `min_frames`, whose mean of
 * each series is at most (1 + STEADY_STATE_TOLERANCE) times the previous
 * block's: growth under 2 % a second (60 frames) at 60 Hz. Past
 * `max_frames` the measurement starts anyway, said as not steady. */
#ifndef PLUME_HOST_STEADY_STATE_H
#define PLUME_HOST_STEADY_STATE_H

#include <stdbool.h>
#include <stdint.h>

enum { STEADY_STATE_WINDOW = 60 };
#define STEADY_STATE_TOLERANCE 0.02

typedef struct steady_state {
    uint32_t min_frames, max_frames;
    uint32_t frames;          /* pushed so far */
    double block_sum[2];      /* this block's live count and coverage */
    double previous_mean[2];  /* the last whole block's */
    bool has_previous;
    bool reached;             /* steady, or given up (then `steady` is false) */
    bool steady;
    uint32_t reached_at;      /* frames pushed when `reached` was set */
} steady_state;

/* `min_frames`: the frames before which it is never steady (from the
 * effect's lifetimes: steady_state_lifetime_frames); `max_frames`: when to
 * stop waiting, below min_frames too (a run shorter than the effect's
 * lifetimes measures its end, said as not steady). */
void steady_state_init(steady_state *s, uint32_t min_frames, uint32_t max_frames);

/* One frame's live count and coverage, in frame order; true once the
 * measurement may start (from the frame after this one on). */
bool steady_state_push(steady_state *s, double live_count, double coverage);

/* The frames of `dt` seconds an effect whose particles live at most
 * `longest_lifetime` seconds needs before its population has turned over
 * once (a burst of particles that never die: none), rounded up to whole
 * blocks and at least two of them (the first block's growth is compared
 * with a second's). */
uint32_t steady_state_lifetime_frames(double longest_lifetime, double dt);

/* "steady state from frame N (live count and coverage growing under 2 % a
 * second)" or "NOT steady after N frames (...)", for the outputs. */
void steady_state_describe(const steady_state *s, char *out, uint32_t size);

#endif
