/* What the effect tests share: a valid effect text with every field, temporary
 * files, and the gallery's files. */
#ifndef PLUME_EFFECT_TEST_SUPPORT_H
#define PLUME_EFFECT_TEST_SUPPORT_H

#include <stddef.h>

#include "plume/plume_effect.h"

/* Every field of the format once, each key on a line of its own; "TEXTURE"
 * stands for the texture's path (effect_template_text fills it in). */
extern const char EFFECT_TEMPLATE[];

/* A fresh temporary file holding `text` (or an empty one for NULL); its path
 * goes to out (PATH_MAX bytes). The caller removes it. */
void effect_temporary_file(char *out, const char *suffix, const char *text);
/* A fresh temporary PNG of width x height opaque black pixels, as
 * effect_temporary_file. */
void effect_temporary_image(char *out, int width, int height);
/* Line and column (1-based, bytes) of `offset` in `text`: the tests' own
 * count, to compare with the loader's. */
void effect_line_and_column(const char *text, size_t offset, int *line, int *column);
/* EFFECT_TEMPLATE with TEXTURE replaced by `texture_path`; caller frees. */
char *effect_template_text(const char *texture_path);
/* `text` with its first `find` replaced by `replace`; caller frees. NULL if
 * `find` is not in `text`. */
char *effect_replace(const char *text, const char *find, const char *replace);
/* The gallery's files (the *.json of demo/effects, found from the test binary);
 * returns how many, at least one or the test fails. */
int effect_gallery_paths(char (*out)[4096], int max);
/* Fails the test unless the two are equal bit for bit (the texture and
 * motion paths compared as strings), printing both as effect text. */
void assert_same_desc(const plume_system_desc *expected, const plume_system_desc *actual);

#endif
