/* The sprite file of an effect: decodes it as creation does and gives its
 * size (effect_sprite.c). */
#ifndef PLUME_EFFECT_SPRITE_H
#define PLUME_EFFECT_SPRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* true and the image's size when `path` decodes as an image; false and why
 * (NUL-terminated, at most why_size bytes) when it does not. */
bool effect_sprite_size(const char *path, uint32_t *width, uint32_t *height, char *why, size_t why_size);

#endif
