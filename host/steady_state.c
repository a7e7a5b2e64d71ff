#include "steady_state.h"

#include <math.h>
#include <stdio.h>

void steady_state_init(steady_state *s, uint32_t min_frames, uint32_t max_frames) {
    *s = (steady_state){.min_frames = min_frames, .max_frames = max_frames};
}

/* A series no longer grows: its block's mean is within the tolerance of the
 * previous block's, or below it. */
static bool settled(double mean, double previous) { return mean <= previous * (1.0 + STEADY_STATE_TOLERANCE); }

bool steady_state_push(steady_state *s, double live_count, double coverage) {
    if (s->reached) return true;
    ++s->frames;
    s->block_sum[0] += live_count;
    s->block_sum[1] += coverage;
    if (s->frames % STEADY_STATE_WINDOW == 0) {
        double mean[2] = {s->block_sum[0] / STEADY_STATE_WINDOW, s->block_sum[1] / STEADY_STATE_WINDOW};
        bool flat = s->has_previous && settled(mean[0], s->previous_mean[0]) && settled(mean[1], s->previous_mean[1]);
        if (flat && s->frames >= s->min_frames) s->reached = s->steady = true;
        s->previous_mean[0] = mean[0], s->previous_mean[1] = mean[1];
        s->block_sum[0] = s->block_sum[1] = 0.0;
        s->has_previous = true;
    }
    if (!s->reached && s->frames >= s->max_frames) s->reached = true;
    if (s->reached) s->reached_at = s->frames;
    return s->reached;
}

uint32_t steady_state_lifetime_frames(double longest_lifetime, double dt) {
    double frames = longest_lifetime > 0.0 && longest_lifetime < 1.0e5 && dt > 0.0 ? ceil(longest_lifetime / dt) : 0.0;
    uint32_t blocks = (uint32_t)ceil(frames / STEADY_STATE_WINDOW);
    return (blocks < 2 ? 2 : blocks) * STEADY_STATE_WINDOW;
}

void steady_state_describe(const steady_state *s, char *out, uint32_t size) {
    if (s->steady)
        snprintf(out, size, "steady state from frame %u (live count and coverage growing under %.0f %% per %u frames)",
                 s->reached_at, 100.0 * STEADY_STATE_TOLERANCE, (unsigned)STEADY_STATE_WINDOW);
    else if (s->reached)
        snprintf(out, size, "NOT steady after %u frames (still growing over %.0f %% per %u frames); measured anyway",
                 s->reached_at, 100.0 * STEADY_STATE_TOLERANCE, (unsigned)STEADY_STATE_WINDOW);
    else snprintf(out, size, "no steady state yet (%u frames)", s->frames);
}
