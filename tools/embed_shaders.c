/* Embeds every GLSL file below a folder into one C header, so that the library
 * needs no files at run time. A file is named by its path below the folder
 * with '/' between parts ("sort/sort_local.comp"); headers (.h) are embedded
 * too, for the layout that C and GLSL share (shaders/shared/). Files are
 * embedded as written: plugin/core/shader.c resolves their
 * `#include "dir/file.glsl"` lines when it builds a program. The header is
 * rewritten only when its content changes, so that an unchanged shader tree
 * does not trigger a rebuild.
 *     embed_shaders SHADER_DIR OUTPUT_HEADER
 * Plain C with no shell or script behind it, so that every build system and
 * platform can compile it and run it before the library (premake5.lua does).
 * Carriage returns are dropped, so a checkout with CRLF line ends embeds the
 * same text as one with LF. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L /* opendir, stat, mkdir under -std=c11 */
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <direct.h>
#include <io.h>
#else
#include <dirent.h>
#include <sys/stat.h>
#endif

typedef struct buffer {
    char *data;
    size_t size, capacity;
} buffer;

typedef struct name_list {
    char **names;
    size_t count, capacity;
} name_list;

static void fail(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fputs("embed_shaders: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

static void *grow(void *block, size_t size) {
    void *grown = realloc(block, size);
    if (!grown) fail("out of memory");
    return grown;
}

static void append(buffer *b, const char *bytes, size_t size) {
    if (b->size + size + 1 > b->capacity) {
        while (b->size + size + 1 > b->capacity) b->capacity = b->capacity ? b->capacity * 2 : 4096;
        b->data = grow(b->data, b->capacity);
    }
    memcpy(b->data + b->size, bytes, size);
    b->size += size;
    b->data[b->size] = '\0';
}

static void append_string(buffer *b, const char *text) {
    append(b, text, strlen(text));
}

static char *copy_string(const char *text) {
    char *copy = grow(NULL, strlen(text) + 1);
    return strcpy(copy, text);
}

static char *join(const char *a, const char *b) {
    size_t a_size = strlen(a), b_size = strlen(b);
    char *joined = grow(NULL, a_size + b_size + 2);
    memcpy(joined, a, a_size);
    joined[a_size] = '/';
    memcpy(joined + a_size + 1, b, b_size + 1);
    return joined;
}

static int is_shader(const char *name) {
    static const char *const extensions[] = {".comp", ".vert", ".geom", ".frag", ".glsl", ".h"};
    size_t size = strlen(name);
    for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; ++i) {
        size_t extension_size = strlen(extensions[i]);
        if (size > extension_size && strcmp(name + size - extension_size, extensions[i]) == 0) return 1;
    }
    return 0;
}

/* `entry` of the folder root/relative, as a path below root. */
static char *path_below(const char *relative, const char *entry) {
    return relative[0] ? join(relative, entry) : copy_string(entry);
}

static void walk(const char *root, const char *relative, name_list *list);

/* One entry of a folder: a folder to walk into, a shader to embed, or neither. */
static void visit(const char *root, const char *relative, const char *entry, int is_folder, name_list *list) {
    if (strcmp(entry, ".") == 0 || strcmp(entry, "..") == 0) return;
    if (!is_folder && !is_shader(entry)) return;
    char *below = path_below(relative, entry);
    if (is_folder) {
        walk(root, below, list);
        free(below);
        return;
    }
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 64;
        list->names = grow(list->names, list->capacity * sizeof *list->names);
    }
    list->names[list->count++] = below;
}

/* Adds the shaders below root/relative to the list, as paths below root. */
static void walk(const char *root, const char *relative, name_list *list) {
    char *folder = relative[0] ? join(root, relative) : copy_string(root);
#if defined(_WIN32)
    char *pattern = join(folder, "*");
    struct _finddata_t found;
    intptr_t search = _findfirst(pattern, &found);
    if (search == -1) fail("cannot read folder %s: %s", folder, strerror(errno));
    do visit(root, relative, found.name, (found.attrib & _A_SUBDIR) != 0, list);
    while (_findnext(search, &found) == 0);
    _findclose(search);
    free(pattern);
#else
    DIR *dir = opendir(folder);
    if (!dir) fail("cannot read folder %s: %s", folder, strerror(errno));
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        char *path = join(folder, entry->d_name);
        struct stat status;
        int found = stat(path, &status) == 0;
        if (!found && errno != ENOENT) fail("cannot read %s: %s", path, strerror(errno));
        free(path);
        /* A link to nothing (an editor's lock file) is no shader. */
        if (found && (S_ISDIR(status.st_mode) || S_ISREG(status.st_mode)))
            visit(root, relative, entry->d_name, S_ISDIR(status.st_mode), list);
    }
    closedir(dir);
#endif
    free(folder);
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The whole file, or NULL when it cannot be opened. */
static char *read_file(const char *path, size_t *out_size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    buffer b = {0};
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, file)) > 0) append(&b, chunk, got);
    if (ferror(file)) fail("cannot read %s", path);
    fclose(file);
    if (!b.data) append(&b, "", 0);
    *out_size = b.size;
    return b.data;
}

/* One file as a C string literal, a line a piece: "line\n" */
static void append_literal(buffer *out, const char *text, size_t size) {
    int line_open = 0;
    char previous = 0;
    for (size_t i = 0; i < size; ++i) {
        char c = text[i];
        if (c == '\r') continue;
        if (!line_open) {
            append_string(out, "      \"");
            line_open = 1;
        }
        if (c == '\n') {
            append_string(out, "\\n\"\n");
            line_open = 0;
        } else if (c == '\\' || c == '"' || (c == '?' && previous == '?')) { /* '??' starts a trigraph */
            char escaped[2] = {'\\', c};
            append(out, escaped, 2);
        } else if ((unsigned char)c < 0x20 && c != '\t') {
            char escaped[8];
            snprintf(escaped, sizeof escaped, "\\%03o", (unsigned)(unsigned char)c);
            append_string(out, escaped);
        } else {
            append(out, &c, 1);
        }
        previous = c;
    }
    if (line_open) append_string(out, "\\n\"\n");
}

/* Creates the folders above `path` that are missing. */
static void make_parent_folders(const char *path) {
    char *copy = copy_string(path);
    for (char *p = copy + 1; *p; ++p) {
        if (*p != '/' && *p != '\\') continue;
        char separator = *p;
        *p = '\0';
#if defined(_WIN32)
        int made = _mkdir(copy);
#else
        int made = mkdir(copy, 0777);
#endif
        if (made != 0 && errno != EEXIST) fail("cannot create folder %s: %s", copy, strerror(errno));
        *p = separator;
    }
    free(copy);
}

/* The last part of a folder's path, without trailing separators. */
static const char *folder_name(const char *path, char *out, size_t capacity) {
    size_t end = strlen(path);
    while (end > 1 && (path[end - 1] == '/' || path[end - 1] == '\\')) --end;
    size_t start = end;
    while (start > 0 && path[start - 1] != '/' && path[start - 1] != '\\') --start;
    size_t size = end - start < capacity - 1 ? end - start : capacity - 1;
    memcpy(out, path + start, size);
    out[size] = '\0';
    return out;
}

static void write_header(const char *output, const buffer *out, size_t file_count, const char *root) {
    /* Written beside the header and renamed over it, so that a build stopped
     * halfway never leaves half a header behind. */
    make_parent_folders(output);
    char *temporary = grow(NULL, strlen(output) + 5);
    strcpy(temporary, output);
    strcat(temporary, ".tmp");
    FILE *file = fopen(temporary, "wb");
    if (!file) fail("cannot write %s: %s", temporary, strerror(errno));
    if (fwrite(out->data, 1, out->size, file) != out->size || fclose(file) != 0)
        fail("cannot write %s: %s", temporary, strerror(errno));
    remove(output); /* rename does not replace a file on Windows */
    if (rename(temporary, output) != 0) fail("cannot rename %s to %s: %s", temporary, output, strerror(errno));
    printf("embed_shaders: wrote %s from %s (%zu file%s)\n", output, root, file_count, file_count == 1 ? "" : "s");
    free(temporary);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: embed_shaders SHADER_DIR OUTPUT_HEADER\n");
        return 2;
    }
    const char *root = argv[1], *output = argv[2];
    name_list list = {0};
    walk(root, "", &list);
    if (list.count == 0) fail("no shader files (.comp .vert .geom .frag .glsl .h) below %s", root);
    qsort(list.names, list.count, sizeof *list.names, compare_names);

    buffer out = {0};
    char name[256];
    append_string(&out, "/* Generated by tools/embed_shaders.c from ");
    append_string(&out, folder_name(root, name, sizeof name));
    append_string(&out, "/: do not edit. */\n");
    append_string(&out, "static const struct plume_embedded_shader { const char *name; const char *source; } "
                        "plume_embedded_shaders[] = {\n");
    for (size_t i = 0; i < list.count; ++i) {
        char *path = join(root, list.names[i]);
        size_t size;
        char *text = read_file(path, &size);
        if (!text) fail("cannot read %s: %s", path, strerror(errno));
        append_string(&out, "    { \"");
        append_string(&out, list.names[i]);
        append_string(&out, "\",\n");
        append_literal(&out, text, size);
        append_string(&out, "    },\n");
        free(text);
        free(path);
    }
    append_string(&out, "};\n");

    for (size_t i = 0; i < list.count; ++i) free(list.names[i]);
    free(list.names);

    size_t old_size = 0;
    char *old = read_file(output, &old_size);
    int unchanged = old && old_size == out.size && memcmp(old, out.data, out.size) == 0;
    free(old);
    if (!unchanged) write_header(output, &out, list.count, root);
    free(out.data);
    return 0;
}
