/* Which effect the demo shows: the built-in smoke column, an effect file
 * given with --effect (reloaded when saved), or the gallery's files, stepped
 * through with the E key. A file that fails to load or to build keeps the
 * last good effect on screen; the HUD line says what went wrong. */
#ifndef DEMO_EFFECT_SHOW_H
#define DEMO_EFFECT_SHOW_H

#include <stdbool.h>

#include "smoke_system.h"

typedef struct effect_show effect_show;

/* `path` NULL: the built-in column until the gallery is opened. With a path,
 * its first load's error (if any) is in effect_show_line(). NULL when out of
 * memory. */
effect_show *effect_show_create(const char *path);
/* The built-in effect on show without a file (default "the built-in smoke
 * column"), as the HUD line names it; `name` outlives the show. */
void effect_show_name_built_in(effect_show *show, const char *name);
void effect_show_destroy(effect_show *show);
/* The effect to build the first system from: NULL for the built-in column
 * (or a file that did not load). */
const plume_effect *effect_show_first(const effect_show *show);
/* All the systems of the file on show (NULL as effect_show_first). */
const plume_effect_group *effect_show_group(const effect_show *show);
/* Once a frame: rebuilds `smoke` when the file on show was saved. True
 * when `smoke` has a new system. */
bool effect_show_poll(effect_show *show, smoke_system *smoke);
/* The gallery's next file (after the last: the built-in column again). True
 * when `smoke` has a new system. */
bool effect_show_next(effect_show *show, smoke_system *smoke);
/* The HUD's line: the file on show and how it is watched, or the error
 * that keeps the last good effect on screen (*is_error then true). */
const char *effect_show_line(const effect_show *show, bool *is_error);

#endif
