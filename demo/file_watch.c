/* inotify where there is one, else the file's state (modification time,
 * size) polled per call. */
#define _POSIX_C_SOURCE 200809L
#include "file_watch.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/inotify.h>
#endif
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#endif

/* What polling compares: a save changes the modification time (to the
 * nanosecond where the system has it) or the size or, saved by rename, the
 * file itself. */
typedef struct file_state {
    uint64_t modified, size, file;
} file_state;

struct file_watch {
    char path[PATH_MAX];
    const char *name;            /* the file's name within its folder (into path) */
    int inotify;                 /* -1: polling the modification time */
    file_state last;             /* polling: the state last time */
    bool existed;
};

#ifdef _WIN32
/* Not stat(): Windows' has whole seconds, so that two saves of the same
 * size within a second looked the same. */
static bool read_state(const char *path, file_state *out) {
    WIN32_FILE_ATTRIBUTE_DATA data;
    if (!GetFileAttributesExA(path, GetFileExInfoStandard, &data)) return false;
    *out = (file_state){((uint64_t)data.ftLastWriteTime.dwHighDateTime << 32) | data.ftLastWriteTime.dwLowDateTime,
                        ((uint64_t)data.nFileSizeHigh << 32) | data.nFileSizeLow, 0};
    return true;
}
#else
static bool read_state(const char *path, file_state *out) {
    struct stat status;
    if (stat(path, &status) != 0) return false;
    *out = (file_state){(uint64_t)status.st_mtim.tv_sec * 1000000000u + (uint64_t)status.st_mtim.tv_nsec,
                        (uint64_t)status.st_size, (uint64_t)status.st_ino};
    return true;
}
#endif

static bool same_file_state(const file_state *a, const file_state *b) {
    return a->modified == b->modified && a->size == b->size && a->file == b->file;
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
    watch->existed = read_state(watch->path, &watch->last);
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
    file_state now;
    bool exists = read_state(watch->path, &now);
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
