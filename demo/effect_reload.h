/* The demo's effect files: the one on show, reloaded when it is saved (a
 * broken file keeps the last good effect and says what is wrong), and the
 * gallery the E key steps through. Loading is the plume_effects library's
 * (include/plume/plume_effect.h); this file only watches and remembers. */
#ifndef DEMO_EFFECT_RELOAD_H
#define DEMO_EFFECT_RELOAD_H

#include <stdbool.h>

#include "plume/plume_effect.h"

typedef struct effect_reload effect_reload;

typedef enum effect_reload_status {
    EFFECT_UNCHANGED,   /* nothing new: keep drawing what is on show */
    EFFECT_LOADED,      /* effect_reload_effect() is a new good effect: rebuild the system */
    EFFECT_BROKEN       /* the file changed but does not load: effect_reload_error() says why */
} effect_reload_status;

/* Watches `path` and loads it once: the status of that first load goes to
 * *first (EFFECT_LOADED or EFFECT_BROKEN). NULL only when out of memory. */
effect_reload *effect_reload_open(const char *path, effect_reload_status *first);
void effect_reload_close(effect_reload *reload);
/* Loads the file again if it was rewritten since the last call. */
effect_reload_status effect_reload_poll(effect_reload *reload);
/* The last effect that loaded (NULL before the first): its first system,
 * and all its systems (a file of several, plume_effect_group_load). */
const plume_effect *effect_reload_effect(const effect_reload *reload);
const plume_effect_group *effect_reload_group(const effect_reload *reload);
/* Why the last load failed; "" after a good one. */
const char *effect_reload_error(const effect_reload *reload);
const char *effect_reload_path(const effect_reload *reload);

/* The gallery: the *.json files of the demo's effects folder (next to the
 * sources: <binary>/../../../demo/effects, installed: <binary>/../share/plume/effects,
 * else ./demo/effects), sorted by name. Returns how many (at most `max`)
 * paths went to out[i] (each PATH_MAX bytes). */
int effect_gallery_list(char (*out)[4096], int max);

#endif
