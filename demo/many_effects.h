/* The many-effects scene (--many-effects, M): a few hundred small effects
 * at once, as a game shows them, each its own system: torches in rings
 * round the scene, impacts bursting on the ground, dust drifting over it. All of them are
 * updated by one plume_batch_update and drawn by one plume_batch_draw (one
 * order for all, one draw), and their figures go to the HUD. Every call
 * into the module for them is in demo/many_effects.c. */
#ifndef DEMO_MANY_EFFECTS_H
#define DEMO_MANY_EFFECTS_H

#include <stdbool.h>
#include <stdint.h>

#include "smoke_system.h"

typedef struct many_effects many_effects;

typedef struct many_effects_stats {
    uint32_t systems, torches, impacts, dust;
    double update_cpu_ms, draw_cpu_ms; /* the batch calls, the host's clock */
    double gpu_ms;                     /* both, a timer query a few frames old; NAN before one */
} many_effects_stats;

/* Its own plume_context and every system; `sprite_path` is the smoke puff
 * flipbook (4x4). False, with the module's message logged, on failure. */
bool many_effects_create(const char *sprite_path, many_effects **out);
void many_effects_destroy(many_effects *m);
/* Fires the impacts whose turn it is, then one batch update. */
bool many_effects_update(many_effects *m, const smoke_frame *frame);
/* One batch draw of every system. */
bool many_effects_draw(many_effects *m, const smoke_frame *frame);
void many_effects_get_stats(const many_effects *m, many_effects_stats *out);

#endif
