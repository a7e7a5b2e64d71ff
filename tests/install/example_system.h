/* What both integration examples share for the particle system: one burst of
 * particles that live for a while, so the live count after a frame is known
 * without a reference. An engine describes its own effects. */
#ifndef PLUME_EXAMPLE_SYSTEM_H
#define PLUME_EXAMPLE_SYSTEM_H

#include <plume/plume_particles.h>

enum { EXAMPLE_BURST = 500 };

static plume_system_desc example_system_desc(void) {
    plume_system_desc desc = {.capacity = 1000};
    desc.emitters[0] = (plume_emitter_desc){.burst_count = EXAMPLE_BURST, .lifetime = {10, 10}, .speed = {0.5f, 1},
                                            .spread = 3.14159f};
    desc.forces.gravity[1] = -1.0f;
    return desc;
}

/* A frame for an engine's camera; identity matrices here. */
static plume_frame_desc example_frame(void) {
    plume_frame_desc frame = {.dt = 1.0f / 60.0f};
    return frame;
}

#endif
