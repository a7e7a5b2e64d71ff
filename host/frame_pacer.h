/* A swap chain's throttle for programs without one (the offscreen demo, the
 * frame benchmark): at most `frames_in_flight` frames queued on the GPU. Without
 * it the CPU issues hundreds of frames ahead, CPU frame times mean nothing and
 * a profiler ring reading results a few frames late misses most frames. */
#ifndef PLUME_FRAME_PACER_H
#define PLUME_FRAME_PACER_H

#include <epoxy/gl.h>
#include <stdint.h>

enum { FRAME_PACER_MAX_FRAMES = 4 };

typedef struct frame_pacer {
    GLsync fences[FRAME_PACER_MAX_FRAMES];
    uint32_t frames_in_flight;  /* 1 .. FRAME_PACER_MAX_FRAMES */
    uint32_t next;
} frame_pacer;

void frame_pacer_init(frame_pacer *pacer, uint32_t frames_in_flight);
/* Before a frame: waits until the frame `frames_in_flight` ago has finished. */
void frame_pacer_begin_frame(frame_pacer *pacer);
/* After the frame's commands: fences them. */
void frame_pacer_end_frame(frame_pacer *pacer);
/* Deletes the fences (waits for nothing). */
void frame_pacer_destroy(frame_pacer *pacer);

#endif
