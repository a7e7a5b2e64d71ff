/* Where a field is in an effect file's text. jansson parses the file but
 * keeps no positions, so a field named in an error ("emitters[0].lifetime")
 * is found again by walking the text along its path. */
#ifndef PLUME_EFFECT_LOCATE_H
#define PLUME_EFFECT_LOCATE_H

#include <stddef.h>

typedef struct effect_position {
    int line, column;   /* 1-based; column counts bytes */
} effect_position;

/* The position of `field` ("a.b[2].c", "" for the whole text) in `text`, which
 * must be JSON that jansson accepted: the key of an object member, the start
 * of an array element. Where the path leaves the text (a field the file
 * omits), the position of the deepest part of it the text has. */
effect_position effect_locate(const char *text, size_t length, const char *field);

/* The line and column of byte `offset` of `text`. */
effect_position effect_position_at(const char *text, size_t length, size_t offset);

#endif
