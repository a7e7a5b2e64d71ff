/* The gameplay scene (--gameplay): what a game asks of a particle module,
 * on top of the smoke column. Impacts fired where the camera's ray meets the
 * scene (plume_system_emit), sparks whose landings tick a counter (events
 * read back to the CPU), an emitter orbiting the pillar fast and leaving an
 * even trail (a moving placement), a campfire already burning at the first
 * frame (prewarm) and a hundred torches that are one system (instances).
 * Every call into the module for them is in demo/gameplay.c. */
#ifndef DEMO_GAMEPLAY_H
#define DEMO_GAMEPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "smoke_system.h"

typedef struct gameplay gameplay;

typedef struct gameplay_stats {
    uint32_t impacts;           /* fired so far */
    uint64_t spark_landings;    /* collision events the CPU has received */
    uint64_t events_dropped;    /* over budget, in flight or queue: none expected */
    uint32_t torches;           /* instances of the torch system */
    float campfire_prewarm;     /* seconds the campfire was prewarmed by */
    bool bounds_known;          /* the trail's box came back from the GPU */
    float trail_min[3], trail_max[3];
} gameplay_stats;

/* Its own plume_context and four systems; `sprite_path` is the smoke puff
 * flipbook (4x4). False, with the module's message logged, on failure. */
bool gameplay_create(const char *sprite_path, gameplay **out);
void gameplay_destroy(gameplay *g);
/* Queues an impact at `point` on a surface facing `normal` (unit): sparks
 * and dust thrown off the surface at the next update. */
bool gameplay_fire_impact(gameplay *g, const float point[3], const float normal[3]);
/* Moves the orbiting emitter, updates every system and takes the events
 * that have come back. */
bool gameplay_update(gameplay *g, const smoke_frame *frame);
bool gameplay_draw(gameplay *g, const smoke_frame *frame);
void gameplay_get_stats(const gameplay *g, gameplay_stats *out);

#endif
