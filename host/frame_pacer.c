#include "frame_pacer.h"

#include <string.h>

void frame_pacer_init(frame_pacer *pacer, uint32_t frames_in_flight) {
    memset(pacer, 0, sizeof *pacer);
    if (frames_in_flight < 1) frames_in_flight = 1;
    if (frames_in_flight > FRAME_PACER_MAX_FRAMES) frames_in_flight = FRAME_PACER_MAX_FRAMES;
    pacer->frames_in_flight = frames_in_flight;
}

void frame_pacer_begin_frame(frame_pacer *pacer) {
    GLsync *slot = &pacer->fences[pacer->next];
    if (!*slot) return;
    /* Ten seconds: a frame that takes longer has hung; go on rather than block forever. */
    glClientWaitSync(*slot, GL_SYNC_FLUSH_COMMANDS_BIT, UINT64_C(10000000000));
    glDeleteSync(*slot);
    *slot = 0;
}

void frame_pacer_end_frame(frame_pacer *pacer) {
    pacer->fences[pacer->next] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    pacer->next = (pacer->next + 1) % pacer->frames_in_flight;
}

void frame_pacer_destroy(frame_pacer *pacer) {
    for (uint32_t i = 0; i < FRAME_PACER_MAX_FRAMES; ++i)
        if (pacer->fences[i]) glDeleteSync(pacer->fences[i]);
    memset(pacer, 0, sizeof *pacer);
}
