/* The particle sprite and its flipbook's motion: read from a file (decoded
 * by stb_image) or taken from RGBA8 pixels, and uploaded with mipmaps; the
 * sprite premultiplied by alpha (so filtering never bleeds colour from
 * transparent texels), the motion kept as RG8 (its two channels), their
 * levels made here (mip_chain.h); or the host's texture, checked. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "particles_internal.h"
#include "particles/sprite_cover.h"

/* Static, so a host that links its own stb_image gets no duplicate symbols;
 * files are read here (through the system's allocator) and decoded from
 * memory. */
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_STDIO
/* No failure strings: stb_image would keep the last one in a writable
 * (thread-local) global; the message below tells the two failures apart
 * with stbi_info_from_memory instead. */
#define STBI_NO_FAILURE_STRINGS
#if defined(__GNUC__)
/* For the whole file: stb_image declares a static function it never defines
 * (stbi_set_unpremultiply_on_load_thread), reported at the end of the unit,
 * and most of its static API goes unused here. */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static const char *const CALLER = "plume_system_create";

/* The whole file in a block from the system's allocator. */
static plume_result read_file(const plume_env *env, const char *path, unsigned char **out_bytes, size_t *out_size) {
    *out_bytes = NULL;
    *out_size = 0;
    FILE *file = fopen(path, "rb");
    if (!file) {
        plume_log(env, PLUME_LOG_ERROR, "%s: cannot open texture file '%s': %s", CALLER, path, strerror(errno));
        return PLUME_ERROR_IO;
    }
    long size = -1;
    if (fseek(file, 0, SEEK_END) == 0) size = ftell(file);
    if (size < 0 || fseek(file, 0, SEEK_SET) != 0) {
        plume_log(env, PLUME_LOG_ERROR, "%s: cannot find the size of texture file '%s'", CALLER, path);
        fclose(file);
        return PLUME_ERROR_IO;
    }
    unsigned char *bytes = plume_alloc(env, (size_t)size);
    if (!bytes) {
        fclose(file);
        return PLUME_ERROR_OUT_OF_MEMORY;
    }
    size_t read = fread(bytes, 1, (size_t)size, file);
    fclose(file);
    if (read != (size_t)size) {
        plume_log(env, PLUME_LOG_ERROR, "%s: read %zu of %ld bytes of texture file '%s'", CALLER, read, size, path);
        plume_free(env, bytes);
        return PLUME_ERROR_IO;
    }
    *out_bytes = bytes;
    *out_size = (size_t)size;
    return PLUME_OK;
}

static void premultiply(unsigned char *rgba, size_t pixel_count) {
    for (size_t i = 0; i < pixel_count; ++i) {
        unsigned alpha = rgba[4 * i + 3];
        for (int c = 0; c < 3; ++c) rgba[4 * i + c] = (unsigned char)((rgba[4 * i + c] * alpha + 127) / 255);
    }
}

/* RGBA8 pixels packed in place to their RG8. */
static void keep_red_and_green(unsigned char *rgba, size_t pixel_count) {
    for (size_t i = 0; i < pixel_count; ++i) {
        rgba[2 * i] = rgba[4 * i];
        rgba[2 * i + 1] = rgba[4 * i + 1];
    }
}

/* `chain`: RGBA8 levels, or RG8 (two channels: a flipbook's motion, whose
 * blue and alpha no shader reads: half the bytes for the composite's
 * texture cache to hold). */
static bool fits_the_gl(const plume_env *env, uint32_t width, uint32_t height) {
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    if (width <= (uint32_t)max_size && height <= (uint32_t)max_size) return true;
    plume_log(env, PLUME_LOG_ERROR, "%s: texture of %ux%u pixels is over this GL's GL_MAX_TEXTURE_SIZE %d", CALLER,
              width, height, max_size);
    return false;
}

static plume_result upload(const plume_env *env, const mip_chain *chain, const char *label, GLuint *out_texture) {
    bool two_channels = chain->channels == 2;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_TEXTURES | PLUME_SCOPE_PIXEL_UNPACK);
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
    for (uint32_t level = 0; level < chain->count; ++level)
        glTexImage2D(GL_TEXTURE_2D, (GLint)level, two_channels ? GL_RG8 : GL_RGBA8, (GLsizei)chain->width[level],
                     (GLsizei)chain->height[level], 0, two_channels ? GL_RG : GL_RGBA, GL_UNSIGNED_BYTE,
                     chain->level[level]);
    plume_label_gl_object(env, GL_TEXTURE, texture, label);
    plume_gl_scope_end(&scope);
    plume_result result = plume_drain_gl_errors(env, "plume_system_create (texture upload)");
    if (result != PLUME_OK) {
        glDeleteTextures(1, &texture);
        return result;
    }
    *out_texture = texture;
    return PLUME_OK;
}

/* ---- A texture the host owns ------------------------------------------------------ */

/* An image to load: the sprite or the flipbook's motion. */
typedef struct image_source {
    const char *field;          /* the descriptor's, for messages */
    const char *host_field;     /* the host texture's field and its kind's, for messages */
    const char *target_field;
    const char *path;
    const void *pixels;
    uint32_t width, height;
    GLuint host_texture;
    GLenum host_target;
    bool motion;                /* a flipbook's motion (red and green): no colour to premultiply */
    const char *label;
} image_source;

static plume_result refuse_host(const plume_env *env, const image_source *source, const char *why, const char *more) {
    plume_log(env, PLUME_LOG_ERROR, "%s: %s %u %s%s", CALLER, source->host_field, source->host_texture, why, more);
    return PLUME_ERROR_INVALID_ARGUMENT;
}

/* Complete for a mipmapped sampler: immutable storage (its levels are all
 * there is), or every level from the base down to 1x1 or GL_TEXTURE_MAX_LEVEL. */
static bool host_mipmaps_complete(GLenum target, GLint width, GLint height) {
    GLint immutable = 0, base = 0, max = 0;
    /* Immutable storage came with GL 4.2 (a 3.3 context may lack it). */
    if (epoxy_gl_version() >= 42 || epoxy_has_gl_extension("GL_ARB_texture_storage"))
        glGetTexParameteriv(target, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable);
    if (immutable) return true;
    glGetTexParameteriv(target, GL_TEXTURE_BASE_LEVEL, &base);
    glGetTexParameteriv(target, GL_TEXTURE_MAX_LEVEL, &max);
    GLint last = base, size = width > height ? width : height;
    while (size > 1 && last < max) size >>= 1, ++last;
    for (GLint level = base + 1; level <= last; ++level) {
        GLint w = 0;
        glGetTexLevelParameteriv(target, level, GL_TEXTURE_WIDTH, &w);
        if (w == 0) return false;
    }
    return true;
}

/* Checks the host's texture (bound on unit 0 meanwhile, restored) and takes
 * its size; the layers of an array in *layers (1 for a 2D texture). */
static plume_result check_host_texture(const plume_env *env, const image_source *source, uint32_t *width,
                                       uint32_t *height, uint32_t *layers) {
    GLuint name = source->host_texture;
    GLenum target = source->host_target;
    const char *kind = target == GL_TEXTURE_2D_ARRAY ? "GL_TEXTURE_2D_ARRAY" : "GL_TEXTURE_2D";
    if (!glIsTexture(name)) return refuse_host(env, source, "is not a texture of this GL context (or its share group)", "");
    /* Its size, format and levels are asked of the GL, which OpenGL ES can
     * answer from 3.1 only (glGetTexLevelParameteriv). */
    if (!plume_env_gl_caps(env).level_parameters)
        return refuse_host(env, source, "needs OpenGL ES 3.1 to be checked (glGetTexLevelParameteriv)",
                           "; on OpenGL ES 3.0 give the sprite as pixels or a file");
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_TEXTURES);
    glActiveTexture(GL_TEXTURE0);
    while (glGetError() != GL_NO_ERROR) {
    }
    glBindTexture(target, name);
    bool other_kind = glGetError() != GL_NO_ERROR;
    GLint w = 0, h = 0, d = 0, depth_bits = 0, stencil_bits = 0;
    bool complete = false;
    if (!other_kind) {
        GLint base = 0;
        glGetTexParameteriv(target, GL_TEXTURE_BASE_LEVEL, &base);
        glGetTexLevelParameteriv(target, base, GL_TEXTURE_WIDTH, &w);
        glGetTexLevelParameteriv(target, base, GL_TEXTURE_HEIGHT, &h);
        glGetTexLevelParameteriv(target, base, GL_TEXTURE_DEPTH, &d);
        glGetTexLevelParameteriv(target, base, GL_TEXTURE_DEPTH_SIZE, &depth_bits);
        glGetTexLevelParameteriv(target, base, GL_TEXTURE_STENCIL_SIZE, &stencil_bits);
        complete = w > 0 && h > 0 && host_mipmaps_complete(target, w, h);
    }
    plume_gl_scope_end(&scope);
    if (other_kind) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: %s %u is not a %s (%s): a texture of another kind", CALLER, source->host_field, name, kind,
                  source->target_field);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (w <= 0 || h <= 0 || d <= 0) return refuse_host(env, source, "has no image: its base level is zero-sized", "");
    if (depth_bits || stencil_bits) return refuse_host(env, source, "is a depth or stencil texture; a sprite is colour", "");
    if (!complete)
        return refuse_host(env, source, "misses mipmap levels plume's trilinear sampler needs",
                           " (glGenerateMipmap, or GL_TEXTURE_MAX_LEVEL down to the levels it has)");
    *width = (uint32_t)w;
    *height = (uint32_t)h;
    *layers = (uint32_t)d;
    return plume_drain_gl_errors(env, "plume_system_create (host texture)");
}

/* ---- The sprite and the flipbook's motion ---------------------------------------- */

/* The file's or the pixels' RGBA8 (*decoded: stb_image's, else ours). */
static plume_result read_image(const plume_env *env, const image_source *source, unsigned char **out_rgba,
                               bool *decoded, uint32_t *width, uint32_t *height) {
    *decoded = source->path != NULL;
    if (!source->path) {
        *width = source->width;
        *height = source->height;
        size_t bytes = (size_t)*width * *height * 4;
        *out_rgba = plume_alloc(env, bytes);
        if (!*out_rgba) return PLUME_ERROR_OUT_OF_MEMORY;
        memcpy(*out_rgba, source->pixels, bytes);
        return PLUME_OK;
    }
    unsigned char *bytes = NULL;
    size_t size = 0;
    plume_result result = read_file(env, source->path, &bytes, &size);
    if (result != PLUME_OK) return result;
    int w = 0, h = 0, channels = 0;
    unsigned char *rgba = size <= 0x7fffffff ? stbi_load_from_memory(bytes, (int)size, &w, &h, &channels, 4) : NULL;
    bool known = !rgba && size <= 0x7fffffff && stbi_info_from_memory(bytes, (int)size, &w, &h, &channels);
    plume_free(env, bytes);
    if (!rgba && known) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: texture file '%s' is not an image stb_image decodes (its header says %dx%d pixels; the "
                  "data is corrupt, too large or of a variant stb_image does not read)",
                  CALLER, source->path, w, h);
        return PLUME_ERROR_IO;
    }
    if (!rgba) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: texture file '%s' is not an image stb_image decodes (not PNG, JPEG, BMP, GIF, TGA, PSD, "
                  "HDR, PIC or PNM)",
                  CALLER, source->path);
        return PLUME_ERROR_IO;
    }
    *width = (uint32_t)w;
    *height = (uint32_t)h;
    *out_rgba = rgba;
    return PLUME_OK;
}

/* Loads the image, refusing it (before any upload) where `fits` says no. */
typedef bool (*image_fits)(const plume_env *env, const void *context, uint32_t width, uint32_t height);
/* What is derived from plume's own pixels as uploaded (the sprite
 * premultiplied, the motion as RG8) before they are freed. */
typedef plume_result (*image_derive)(const plume_env *env, void *context, const mip_chain *chain);

static plume_result load_image(const plume_env *env, const image_source *source, image_fits fits,
                               const void *fits_context, image_derive derive, void *derive_context,
                               GLuint *out_texture, uint32_t *width, uint32_t *height, uint32_t *layers) {
    *out_texture = 0;
    *width = *height = 0;
    *layers = 1;
    if (source->host_texture) {
        plume_result r = check_host_texture(env, source, width, height, layers);
        if (r == PLUME_OK && !fits(env, fits_context, *width, *height)) r = PLUME_ERROR_INVALID_ARGUMENT;
        return r;
    }
    if (!source->path && !source->pixels) return PLUME_OK;
    unsigned char *rgba = NULL;
    bool decoded = false;
    plume_result result = read_image(env, source, &rgba, &decoded, width, height);
    if (result != PLUME_OK) return result;
    if (!fits(env, fits_context, *width, *height)) result = PLUME_ERROR_INVALID_ARGUMENT;
    if (result == PLUME_OK) {
        size_t pixel_count = (size_t)*width * *height;
        if (source->motion) keep_red_and_green(rgba, pixel_count);
        else premultiply(rgba, pixel_count);
        mip_chain chain;
        if (!fits_the_gl(env, *width, *height)) result = PLUME_ERROR_GL_UNSUPPORTED;
        else result = mip_chain_build(env, rgba, source->motion ? 2 : 4, *width, *height, &chain);
        if (result == PLUME_OK) {
            result = upload(env, &chain, source->label, out_texture);
            if (result == PLUME_OK) result = derive(env, derive_context, &chain);
            mip_chain_free(env, &chain);
        }
    }
    if (decoded) stbi_image_free(rgba);
    else plume_free(env, rgba);
    return result;
}

static bool flipbook_fits(const plume_env *env, const void *context, uint32_t width, uint32_t height) {
    const plume_system_desc *desc = context;
    const plume_texture_desc *texture = &desc->appearance.texture;
    if (desc->host_sprite.target == GL_TEXTURE_2D_ARRAY || (texture->columns <= width && texture->rows <= height))
        return true;
    plume_log(env, PLUME_LOG_ERROR, "%s: appearance.texture has a flipbook of %ux%u frames, more than its %ux%u pixels",
              CALLER, texture->columns, texture->rows, width, height);
    return false;
}

/* The sprite's cover, for a book whose table is not too large. */
static plume_result derive_sprite_cover(const plume_env *env, void *context, const mip_chain *chain) {
    loaded_sprite_cover *cover = context;
    const plume_texture_desc *texture = &cover->desc->appearance.texture;
    uint64_t octagons = (uint64_t)texture->columns * texture->rows * chain->count;
    if (octagons == 0 || octagons > SPRITE_COVER_MOST_OCTAGONS) return PLUME_OK;
    cover->octagons = plume_alloc(env, (size_t)octagons * SPRITE_COVER_FLOATS * sizeof(float));
    if (!cover->octagons) return PLUME_ERROR_OUT_OF_MEMORY;
    cover->levels = chain->count;
    return sprite_cover_build(env, chain, texture->columns, texture->rows, cover->octagons);
}

plume_result plume_particles_load_texture(const plume_env *env, const plume_system_desc *desc, GLuint *out_texture,
                                          uint32_t *width, uint32_t *height, uint32_t *layers,
                                          loaded_sprite_cover *cover) {
    const plume_texture_desc *texture = &desc->appearance.texture;
    const image_source source = {"appearance.texture",
                                 "host_sprite.texture",
                                 "host_sprite.target",
                                 texture->path,
                                 texture->pixels,
                                 texture->width,
                                 texture->height,
                                 desc->host_sprite.texture,
                                 desc->host_sprite.target,
                                 false,
                                 "plume particles: sprite"};
    *cover = (loaded_sprite_cover){.desc = desc};
    return load_image(env, &source, flipbook_fits, desc, derive_sprite_cover, cover, out_texture, width, height,
                      layers);
}

static bool motion_fits(const plume_env *env, const void *context, uint32_t width, uint32_t height) {
    const plume_texture_desc *sprite = context;
    if (width == sprite->width && height == sprite->height) return true;
    plume_log(env, PLUME_LOG_ERROR,
              "%s: flipbook_motion is %ux%u pixels; it must be the sprite's size (appearance.texture: %ux%u)", CALLER,
              width, height, sprite->width, sprite->height);
    return false;
}

static plume_result derive_motion_reach(const plume_env *env, void *context, const mip_chain *chain) {
    (void)env;
    /* Level 0's: a level's mean lies within the texels it is made of. */
    *(float *)context = sprite_motion_reach(chain->level[0], (size_t)chain->width[0] * chain->height[0]);
    return PLUME_OK;
}

plume_result plume_particles_load_flipbook_motion(const plume_env *env, const plume_flipbook_motion *motion,
                                                  const plume_texture_desc *sprite, GLuint *out_texture,
                                                  float *reach) {
    const image_source source = {"flipbook_motion",
                                 "flipbook_motion.host_texture",
                                 "a flipbook motion is one",
                                 motion->path,
                                 motion->pixels,
                                 motion->width,
                                 motion->height,
                                 motion->host_texture,
                                 GL_TEXTURE_2D,
                                 true,
                                 "plume particles: flipbook motion"};
    uint32_t width = 0, height = 0, layers = 1;
    /* The host's motion may slide as far as any. */
    *reach = motion->host_texture ? 1.0f : 0.0f;
    return load_image(env, &source, motion_fits, sprite, derive_motion_reach, reach, out_texture, &width, &height,
                      &layers);
}
