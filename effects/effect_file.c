/* Whole files for the effects library (effect_path.h): an effect file and
 * the OBJ meshes it names are read the same way, in growing steps, so a
 * pipe or a file whose size changes while it is read is read as far as it
 * goes rather than by a length asked for beforehand. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "effect_path.h"

char *effect_read_file(const char *path, size_t max_bytes, const char *what, size_t *out_length, char *message,
                       size_t message_size, plume_result *result) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        snprintf(message, message_size, "%s: cannot open: %s", path, strerror(errno));
        *result = PLUME_ERROR_IO;
        return NULL;
    }
    size_t length = 0, capacity = 0;
    char *text = NULL;
    bool read_failed = false;
    while (!read_failed && length <= max_bytes) {
        if (length == capacity) {
            capacity = capacity ? 2 * capacity : 1 << 16;
            char *grown = realloc(text, capacity + 1);
            if (!grown) {
                free(text);
                text = NULL;
                break;
            }
            text = grown;
        }
        size_t got = fread(text + length, 1, capacity - length, file);
        length += got;
        if (got == 0) {
            read_failed = ferror(file) != 0;
            break;
        }
    }
    fclose(file);
    *result = PLUME_OK;
    if (!text) {
        snprintf(message, message_size, "%s: out of memory", path), *result = PLUME_ERROR_OUT_OF_MEMORY;
    } else if (read_failed) {
        snprintf(message, message_size, "%s: cannot read", path), *result = PLUME_ERROR_IO;
    } else if (length > max_bytes) {
        snprintf(message, message_size, "%s: larger than %zu bytes: not %s", path, max_bytes, what);
        *result = PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (*result != PLUME_OK) {
        free(text);
        return NULL;
    }
    text[length] = '\0';
    *out_length = length;
    return text;
}
