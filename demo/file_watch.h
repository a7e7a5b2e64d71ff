/* Tells when a file has been rewritten: inotify on Linux (on the file's
 * folder, so that editors that save by writing a new file and renaming it
 * over the old one are seen too), the file's modification time, size and
 * inode elsewhere or when inotify is not available. */
#ifndef DEMO_FILE_WATCH_H
#define DEMO_FILE_WATCH_H

#include <stdbool.h>

typedef struct file_watch file_watch;

/* Watches `path` (which need not exist yet). NULL only when out of memory. */
file_watch *file_watch_create(const char *path);
void file_watch_destroy(file_watch *watch);
/* True once for each batch of changes since the last call (a write that is
 * finished: closed, or renamed into place). Never blocks. */
bool file_watch_changed(file_watch *watch);
/* "inotify" or "modification time": how it watches. */
const char *file_watch_method(const file_watch *watch);

#endif
