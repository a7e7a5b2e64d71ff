/* The draw group's stage hook, which the lab sets (render/render_lab.c,
 * lab builds only: the shipped library never sets it). Not part of the API. */
#ifndef PLUME_RENDER_DRAW_GROUP_H
#define PLUME_RENDER_DRAW_GROUP_H

#include "core/plume_internal.h"
#include "plume/plume_draw_group.h"

/* Called in every plume_draw_group_draw of `group` before each of its
 * stages ("gather", "sort", "draw") and once more with NULL after the last:
 * bench/draw_group_bench.c puts a GL timestamp at each call to time them.
 * NULL hook: none (the default). */
typedef void (*draw_group_stage_hook)(void *user, const char *stage);

#endif
