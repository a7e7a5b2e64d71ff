/* The sprite of an effect file, decoded as plume_system_create will decode
 * it (stb_image), so a file that is not an image is refused at load, with
 * the field's place, rather than at creation. */
#include <stdio.h>

#include "effect_sprite.h"

/* Static, so that neither the module's copy (the sprite upload) nor a host's
 * own stb_image meets these symbols. */
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#if defined(__GNUC__)
/* stb_image declares a static function it never defines
 * (stbi_set_unpremultiply_on_load_thread), and most of its static API goes
 * unused here. */
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb/stb_image.h>

bool effect_sprite_size(const char *path, uint32_t *width, uint32_t *height, char *why, size_t why_size) {
    *width = *height = 0;
    int w = 0, h = 0, channels = 0;
    /* Decoded whole, as creation decodes it: a header alone can hide a
     * truncated or corrupt file. */
    unsigned char *pixels = stbi_load(path, &w, &h, &channels, 4);
    if (!pixels) {
        snprintf(why, why_size, "'%s' is not an image stb_image decodes (%s)", path, stbi_failure_reason());
        return false;
    }
    stbi_image_free(pixels);
    *width = (uint32_t)w;
    *height = (uint32_t)h;
    return true;
}
