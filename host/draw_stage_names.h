/* The draw's sub-stages (plume_draw_stage) by name, as the demo and the
 * benchmarks print them. */
#ifndef PLUME_HOST_DRAW_STAGE_NAMES_H
#define PLUME_HOST_DRAW_STAGE_NAMES_H

#include "plume/plume_profile.h"

static const char *const HOST_DRAW_STAGE_NAMES[PLUME_DRAW_STAGE_COUNT] = {
    "project", "scan", "entries", "tile sort", "ranges", "composite", "resolve", "blend", "downsample", "upsample"};

#endif
