/* inotify where there is one, else a stat() per call. */
#define _POSIX_C_SOURCE 200809L
#include "file_watch.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/inotify.h>
#endif

struct file_watch {
    char path[PATH_MAX];
    const char *name;            /* the file's name within its folder (into path) */
    int inotify;                 /* -1: polling the modification time */
    struct stat last;            /* polling: what stat() said last time */
    bool existed;
};

static bool stat_path(const char *path, struct stat *out) { return stat(path, out) == 0; }

static bool same_file_state(const struct stat *a, const struct stat *b) {
#ifdef _WIN32 /* Windows' stat has whole seconds and no inode */
    return a->st_mtime == b->st_mtime && a->st_size == b->st_size;
#else
    return a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
           a->st_size == b->st_size && a->st_ino == b->st_ino;
#endif
}

file_watch *file_watch_create(const char *path) {
    file_watch *watch = calloc(1, sizeof *watch);
    if (!watch) return NULL;
    snprintf(watch->path, sizeof watch->path, "%s", path);
    const char *slash = strrchr(watch->path, '/');
    watch->name = slash ? slash + 1 : watch->path;
    watch->inotify = -1;
#ifdef __linux__
    char folder[PATH_MAX];
    if (slash) snprintf(folder, sizeof folder, "%.*s", (int)(slash == watch->path ? 1 : slash - watch->path), path);
    else snprintf(folder, sizeof folder, ".");
    watch->inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (watch->inotify >= 0 &&
        inotify_add_watch(watch->inotify, folder, IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
        close(watch->inotify);
        watch->inotify = -1;
    }
#endif
    watch->existed = stat_path(watch->path, &watch->last);
    return watch;
}

void file_watch_destroy(file_watch *watch) {
    if (!watch) return;
    if (watch->inotify >= 0) close(watch->inotify);
    free(watch);
}

const char *file_watch_method(const file_watch *watch) {
    return watch->inotify >= 0 ? "inotify" : "modification time";
}

static bool poll_changed(file_watch *watch) {
    struct stat now;
    bool exists = stat_path(watch->path, &now);
    bool changed = exists != watch->existed || (exists && !same_file_state(&now, &watch->last));
    watch->existed = exists;
    if (exists) watch->last = now;
    return changed && exists;
}

bool file_watch_changed(file_watch *watch) {
#ifdef __linux__
    if (watch->inotify >= 0) {
        bool changed = false;
        /* Aligned as inotify_event: events are read straight out of it. */
        _Alignas(struct inotify_event) char buffer[4096];
        ssize_t length;
        while ((length = read(watch->inotify, buffer, sizeof buffer)) > 0) {
            for (ssize_t at = 0; at < length;) {
                const struct inotify_event *event = (const struct inotify_event *)(buffer + at);
                if (event->len && strcmp(event->name, watch->name) == 0) changed = true;
                at += (ssize_t)(sizeof *event + event->len);
            }
        }
        return changed;
    }
#endif
    return poll_changed(watch);
}
