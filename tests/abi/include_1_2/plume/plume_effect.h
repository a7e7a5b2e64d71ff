/*
 * plume_effect.h — particle effects as JSON files (the plume_effects library,
 * beside the module: libplume_effects.a, pkg-config plume_effects).
 *
 * An effect file maps one to one onto plume_system_desc (docs/effects.md
 * lists every field). Omitted fields take the descriptor's defaults; the
 * texture path is relative to the effect file; the file carries its format
 * version as "plume_effect": 1.
 *
 *     plume_effect effect;
 *     plume_effect_error error;
 *     if (plume_effect_load("fire.json", &effect, &error) != PLUME_OK) {
 *         puts(error.message);   // "fire.json:12:9: emitters[0].lifetime: min is 0; it must be above 0"
 *     } else {
 *         plume_system_create(context, &effect.desc, &system);
 *     }
 *
 * Loading checks every value with the module's own descriptor checks (the
 * rules plume_system_create applies, so a file that loads creates a system
 * unless the GL refuses it) and reports the first problem with the file, line
 * and column of the field it names; unknown fields are errors (a misspelt
 * field must not silently take its default), and so are a texture file that
 * cannot be opened, malformed JSON and a newer format version. No input makes
 * it crash or leak. The library keeps no state: every call may run on any
 * thread. It makes no GL call.
 */
#ifndef PLUME_EFFECT_H
#define PLUME_EFFECT_H

#include <stddef.h>

#include "plume_common.h"
#include "plume_particles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The format version this library writes and the newest it reads. */
#define PLUME_EFFECT_FORMAT_VERSION 1

enum { PLUME_EFFECT_PATH_MAX = 4096, PLUME_EFFECT_MESSAGE_MAX = 640 };

/* A loaded effect: the descriptor, and the storage its texture path points
 * into (so the struct may be copied only with desc.appearance.texture.path
 * fixed up: plume_effect_copy does it). */
typedef struct plume_effect {
    plume_system_desc desc;                   /* texture.path: NULL or texture_path */
    char texture_path[PLUME_EFFECT_PATH_MAX]; /* the file's path joined to the effect file's folder */
} plume_effect;

typedef struct plume_effect_error {
    int line, column;                         /* 1-based; 0 when the error is about no place in a file */
    char field[128];                          /* "emitters[0].lifetime"; "" for syntax and file errors */
    char message[PLUME_EFFECT_MESSAGE_MAX];   /* "FILE:LINE:COLUMN: FIELD: why", or "FILE: why" */
} plume_effect_error;

/* Reads the effect file at `path` into *out (zeroed first; on failure left
 * zeroed). Errors: PLUME_ERROR_INVALID_ARGUMENT (a NULL argument; a value the
 * format or the descriptor checks refuse; an unknown field; malformed JSON; a
 * format version newer than PLUME_EFFECT_FORMAT_VERSION or none), PLUME_ERROR_IO
 * (the effect file or its texture cannot be read), PLUME_ERROR_OUT_OF_MEMORY.
 * `error` (may be NULL) says which and where. */
PLUME_API plume_result plume_effect_load(const char *path, plume_effect *out, plume_effect_error *error);

/* As plume_effect_load, from `length` bytes of `text`: `file_name` names it in
 * messages, and a relative texture path is joined to `folder` ("" or NULL:
 * kept as it is). */
PLUME_API plume_result plume_effect_parse(const char *text, size_t length, const char *file_name, const char *folder,
                                          plume_effect *out, plume_effect_error *error);

/* Writes `desc` as effect text, every field that is not zero (a zero field is
 * the default, so reading the text back gives `desc` again, bit for bit);
 * the texture path as it is. Returns a NUL-terminated malloc'd string to free
 * with plume_effect_free_text, or NULL (with `error` filled) when desc cannot
 * be a file: pixels in memory (only a path can be written), a value out of the
 * field's type (an unknown shape) or memory ran out. The logger and allocator
 * are not written. Values are not checked against the descriptor rules. */
PLUME_API char *plume_effect_write(const plume_system_desc *desc, plume_effect_error *error);
PLUME_API void plume_effect_free_text(char *text);

/* plume_effect_write into the file `path` (replaced whole: written beside it
 * and renamed, so a watcher never sees half a file). A texture path below
 * the effect file's folder is written relative to it. Errors:
 * PLUME_ERROR_INVALID_ARGUMENT (as plume_effect_write), PLUME_ERROR_IO. */
PLUME_API plume_result plume_effect_save(const char *path, const plume_system_desc *desc, plume_effect_error *error);

/* *to = *from, with to's texture path pointing into to's own storage. */
PLUME_API void plume_effect_copy(plume_effect *to, const plume_effect *from);

#ifdef __cplusplus
}
#endif

#endif
