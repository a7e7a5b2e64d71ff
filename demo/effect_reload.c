/* Watch, load, keep the last good effect. */
#define _POSIX_C_SOURCE 200809L
#include "effect_reload.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demo.h"
#include "file_watch.h"

_Static_assert(PATH_MAX <= 4096, "effect_gallery_list's paths are 4096 bytes");

struct effect_reload {
    char path[PATH_MAX];
    file_watch *watch;
    plume_effect_group group; /* the last good one: its systems (one, or several of a group file) */
    plume_effect_error error;
};

static effect_reload_status load(effect_reload *reload) {
    plume_effect_group candidate;
    if (plume_effect_group_load(reload->path, &candidate, &reload->error) != PLUME_OK) return EFFECT_BROKEN;
    plume_effect_group_free(&reload->group);
    reload->group = candidate;
    reload->error.message[0] = '\0';
    return EFFECT_LOADED;
}

effect_reload *effect_reload_open(const char *path, effect_reload_status *first) {
    effect_reload *reload = calloc(1, sizeof *reload);
    if (!reload) return NULL;
    snprintf(reload->path, sizeof reload->path, "%s", path);
    reload->watch = file_watch_create(path);
    if (!reload->watch) {
        free(reload);
        return NULL;
    }
    *first = load(reload);
    return reload;
}

void effect_reload_close(effect_reload *reload) {
    if (!reload) return;
    file_watch_destroy(reload->watch);
    plume_effect_group_free(&reload->group);
    free(reload);
}

effect_reload_status effect_reload_poll(effect_reload *reload) {
    return file_watch_changed(reload->watch) ? load(reload) : EFFECT_UNCHANGED;
}

const plume_effect *effect_reload_effect(const effect_reload *reload) {
    return reload->group.system_count ? &reload->group.systems[0] : NULL;
}

const plume_effect_group *effect_reload_group(const effect_reload *reload) {
    return reload->group.system_count ? &reload->group : NULL;
}

const char *effect_reload_error(const effect_reload *reload) { return reload->error.message; }

const char *effect_reload_path(const effect_reload *reload) { return reload->path; }

static int compare_paths(const void *a, const void *b) { return strcmp(a, b); }

static int list_folder(const char *folder, char (*out)[4096], int max) {
    DIR *dir = opendir(folder);
    if (!dir) return 0;
    int count = 0;
    struct dirent *entry;
    while (count < max && (entry = readdir(dir)) != NULL) {
        size_t length = strlen(entry->d_name);
        if (length < 6 || strcmp(entry->d_name + length - 5, ".json") != 0) continue;
        int written = snprintf(out[count], 4096, "%s/%s", folder, entry->d_name);
        if (written > 0 && written < 4096) ++count;
    }
    closedir(dir);
    qsort(out, (size_t)count, sizeof out[0], compare_paths);
    return count;
}

int effect_gallery_list(char (*out)[4096], int max) {
    static const char *const FROM_BINARY[] = {"../../../demo/effects", "../share/plume/effects"};
    char exe[PATH_MAX];
    if (demo_binary_folder(exe, sizeof exe)) {
        for (size_t i = 0; i < sizeof FROM_BINARY / sizeof FROM_BINARY[0]; ++i) {
            char folder[PATH_MAX + 64];
            snprintf(folder, sizeof folder, "%s/%s", exe, FROM_BINARY[i]);
            int count = list_folder(folder, out, max);
            if (count > 0) return count;
        }
    }
    return list_folder("demo/effects", out, max);
}
