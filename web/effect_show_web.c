/* The page's effect show (demo/effect_show.h): the built-in column only.
 * Effect files need the effects library and its JSON reader (jansson),
 * which the WebAssembly build leaves out, and a page has no files to watch. */
#include <stdio.h>
#include <stdlib.h>

#include "effect_show.h"

struct effect_show {
    const char *name;
};

effect_show *effect_show_create(const char *path) {
    if (path) {
        fprintf(stderr, "plume_demo: effect files are left out of the web build (no JSON reader): %s\n", path);
        return NULL;
    }
    effect_show *show = malloc(sizeof *show);
    if (show) show->name = "the built-in smoke column";
    return show;
}

void effect_show_name_built_in(effect_show *show, const char *name) { show->name = name; }
void effect_show_destroy(effect_show *show) { free(show); }
const plume_effect *effect_show_first(const effect_show *show) { (void)show; return NULL; }
const plume_effect_group *effect_show_group(const effect_show *show) { (void)show; return NULL; }
bool effect_show_poll(effect_show *show, smoke_system *smoke) { (void)show, (void)smoke; return false; }
bool effect_show_next(effect_show *show, smoke_system *smoke) { (void)show, (void)smoke; return false; }

const char *effect_show_line(const effect_show *show, bool *is_error) {
    *is_error = false;
    return show->name;
}
