/* The demo's effect on show: glue between effect_reload (files) and
 * smoke_system (the module). */
#include "effect_show.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "effect_reload.h"

enum { GALLERY_MAX = 32 };

struct effect_show {
    effect_reload *reload;           /* NULL: the built-in column */
    char gallery[GALLERY_MAX][4096];
    int gallery_count, gallery_index; /* index -1: not in the gallery */
    char line[PLUME_EFFECT_MESSAGE_MAX + 64];
    bool line_is_error;
    const char *built_in;            /* the built-in effect's name */
};

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void describe(effect_show *show) {
    show->line_is_error = false;
    if (!show->reload) {
        snprintf(show->line, sizeof show->line, "effect: %s   E: gallery",
                 show->built_in ? show->built_in : "the built-in smoke column");
        return;
    }
    snprintf(show->line, sizeof show->line, "effect: %s (watched)   E: next", base_name(effect_reload_path(show->reload)));
}

static void show_error(effect_show *show, const char *message) {
    fprintf(stderr, "plume_demo: %s\n", message);
    snprintf(show->line, sizeof show->line, "%s", message);
    show->line_is_error = true;
}

effect_show *effect_show_create(const char *path) {
    effect_show *show = calloc(1, sizeof *show);
    if (!show) return NULL;
    show->gallery_index = -1;
    describe(show);
    if (!path) return show;
    effect_reload_status first;
    show->reload = effect_reload_open(path, &first);
    if (!show->reload) {
        free(show);
        return NULL;
    }
    describe(show);
    if (first == EFFECT_BROKEN) show_error(show, effect_reload_error(show->reload));
    return show;
}

void effect_show_name_built_in(effect_show *show, const char *name) {
    show->built_in = name;
    if (!show->reload && !show->line_is_error) describe(show);
}

void effect_show_destroy(effect_show *show) {
    if (!show) return;
    effect_reload_close(show->reload);
    free(show);
}

const plume_effect *effect_show_first(const effect_show *show) {
    return show->reload ? effect_reload_effect(show->reload) : NULL;
}

const plume_effect_group *effect_show_group(const effect_show *show) {
    return show->reload ? effect_reload_group(show->reload) : NULL;
}

/* Builds the system of the effect just loaded; on failure the old one stays. */
static bool apply(effect_show *show, smoke_system *smoke) {
    const plume_effect_group *group = effect_reload_group(show->reload);
    if (smoke_system_use_group(smoke, group->systems, group->system_count)) {
        describe(show);
        return true;
    }
    char message[sizeof show->line];
    snprintf(message, sizeof message, "%s: the module refused it: %s", effect_reload_path(show->reload),
             smoke_system_last_error(smoke));
    show_error(show, message);
    return false;
}

bool effect_show_poll(effect_show *show, smoke_system *smoke) {
    if (!show->reload) return false;
    switch (effect_reload_poll(show->reload)) {
    case EFFECT_UNCHANGED: break;
    case EFFECT_LOADED: return apply(show, smoke);
    case EFFECT_BROKEN: show_error(show, effect_reload_error(show->reload)); break;
    }
    return false;
}

bool effect_show_next(effect_show *show, smoke_system *smoke) {
    if (show->gallery_count == 0) show->gallery_count = effect_gallery_list(show->gallery, GALLERY_MAX);
    if (show->gallery_count == 0) {
        show_error(show, "no gallery: no *.json in demo/effects (next to the binary's sources, installed, or here)");
        return false;
    }
    effect_reload_close(show->reload);
    show->reload = NULL;
    show->gallery_index = show->gallery_index + 1 >= show->gallery_count ? -1 : show->gallery_index + 1;
    if (show->gallery_index < 0) {
        describe(show);
        return smoke_system_use_effect(smoke, NULL);
    }
    effect_reload_status first;
    show->reload = effect_reload_open(show->gallery[show->gallery_index], &first);
    if (!show->reload) return false;
    if (first == EFFECT_LOADED) return apply(show, smoke);
    show_error(show, effect_reload_error(show->reload));
    return false;
}

const char *effect_show_line(const effect_show *show, bool *is_error) {
    *is_error = show->line_is_error;
    return show->line;
}
