/* File paths as the system writes them: on Windows a folder separator is
 * '\\' as well as '/', and a path from a root may start with a drive
 * ("C:"); elsewhere only '/'. The effects library finds an effect file's
 * folder with these (relative sprite and mesh paths start there), and reads
 * its files whole with effect_read_file. */
#ifndef PLUME_EFFECT_PATH_H
#define PLUME_EFFECT_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "plume/plume_common.h"

static inline bool effect_path_is_separator(char c) {
#ifdef _WIN32
    return c == '/' || c == '\\';
#else
    return c == '/';
/* The whole file at `path`, malloc'd with a NUL after its *length bytes; at
 * most `max_bytes` (a file over it is refused: not a `what`). NULL
 * otherwise, with `message` (naming the path) and *result set:
 * PLUME_ERROR_IO (cannot open or read), PLUME_ERROR_OUT_OF_MEMORY,
 * PLUME_ERROR_INVALID_ARGUMENT (too large). effect_file.c */
char *effect_read_file(const char *path, size_t max_bytes, const char *what, size_t *length, char *message,
                       size_t message_size, plume_result *result);

#endif
}

/* The last folder separator of `path`, or NULL. */
static inline const char *effect_path_last_separator(const char *path) {
    const char *last = NULL;
    for (const char *p = path; *p; ++p)
        if (effect_path_is_separator(*p)) last = p;
    return last;
}

/* Whether `path` starts from a root rather than from the current folder. */
static inline bool effect_path_is_absolute(const char *path) {
#ifdef _WIN32
    if (((path[0] | 0x20) >= 'a' && (path[0] | 0x20) <= 'z') && path[1] == ':') return true;
/* The whole file at `path`, malloc'd with a NUL after its *length bytes; at
 * most `max_bytes` (a file over it is refused: not a `what`). NULL
 * otherwise, with `message` (naming the path) and *result set:
 * PLUME_ERROR_IO (cannot open or read), PLUME_ERROR_OUT_OF_MEMORY,
 * PLUME_ERROR_INVALID_ARGUMENT (too large). effect_file.c */
char *effect_read_file(const char *path, size_t max_bytes, const char *what, size_t *length, char *message,
                       size_t message_size, plume_result *result);

#endif
    return effect_path_is_separator(path[0]);
}

/* The whole file at `path`, malloc'd with a NUL after its *length bytes; at
 * most `max_bytes` (a file over it is refused: not a `what`). NULL
 * otherwise, with `message` (naming the path) and *result set:
 * PLUME_ERROR_IO (cannot open or read), PLUME_ERROR_OUT_OF_MEMORY,
 * PLUME_ERROR_INVALID_ARGUMENT (too large). effect_file.c */
char *effect_read_file(const char *path, size_t max_bytes, const char *what, size_t *length, char *message,
                       size_t message_size, plume_result *result);

#endif
