/* Sprites from textures the host owns (plume_system_desc.host_sprite):
 * the same picture as the same pixels given as data, on the raster and
 * tiled paths, the fragment path and a draw group; a GL_TEXTURE_2D_ARRAY's
 * layers as the flipbook's frames; the host's texture untouched after the
 * system's end; bad textures refused, nothing created. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "particle_fixture.h"
#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { SPRITE = 32, CELL = SPRITE / 2, PIXELS = IMAGE_SIZE * IMAGE_SIZE };

/* A 2x2 flipbook of soft puffs, a tint per frame, alpha 0 at each frame's
 * edge; `frames_alike`: every frame the first. */
static unsigned char *puff_flipbook(bool frames_alike) {
    unsigned char *pixels = malloc(4 * SPRITE * SPRITE);
    assert_non_null(pixels);
    for (int y = 0; y < SPRITE; ++y)
        for (int x = 0; x < SPRITE; ++x) {
            int frame = frames_alike ? 0 : (y / CELL) * 2 + x / CELL;
            float u = ((float)(x % CELL) + 0.5f) / CELL - 0.5f, v = ((float)(y % CELL) + 0.5f) / CELL - 0.5f;
            float r = sqrtf(u * u + v * v) / 0.45f;
            unsigned char *p = &pixels[4 * (y * SPRITE + x)];
            p[0] = (unsigned char)(250 - 60 * frame);
            p[1] = (unsigned char)(90 + 50 * frame);
            p[2] = (unsigned char)(30 + 70 * frame);
            p[3] = (unsigned char)lroundf(r >= 1.0f ? 0.0f : 255.0f * (1.0f - r * r));
        }
    return pixels;
}

/* As plume premultiplies a sprite it is given as data (texture.c). */
static unsigned char *premultiplied(const unsigned char *rgba, size_t count) {
    unsigned char *out = malloc(4 * count);
    assert_non_null(out);
    for (size_t i = 0; i < count; ++i) {
        unsigned a = rgba[4 * i + 3];
        for (int c = 0; c < 3; ++c) out[4 * i + c] = (unsigned char)((rgba[4 * i + c] * a + 127) / 255);
        out[4 * i + 3] = (unsigned char)a;
    }
    return out;
}

/* Uploads `layers` square RGBA8 images of `size` (a power of two), one
 * after another, and their levels as plume makes its own (the mean of each
 * 2 x 2 texels, rounded to the nearest byte: particles/mip_chain.h), so
 * that the host's texture and the same pixels given as data draw alike to
 * the bit; GL_TEXTURE_2D (one layer) or GL_TEXTURE_2D_ARRAY. */
static void upload_with_plume_levels(GLenum target, const unsigned char *texels, int size, int layers) {
    unsigned char *level = malloc(4 * (size_t)size * size * layers), *next = malloc(4 * (size_t)size * size * layers);
    assert_true(level && next);
    memcpy(level, texels, 4 * (size_t)size * size * layers);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (int k = 0, s = size;; ++k, s /= 2) {
        if (target == GL_TEXTURE_2D_ARRAY)
            glTexImage3D(target, k, GL_RGBA8, s, s, layers, 0, GL_RGBA, GL_UNSIGNED_BYTE, level);
        else glTexImage2D(target, k, GL_RGBA8, s, s, 0, GL_RGBA, GL_UNSIGNED_BYTE, level);
        if (s == 1) break;
        int h = s / 2;
        for (int l = 0; l < layers; ++l)
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < h; ++x)
                    for (int c = 0; c < 4; ++c) {
                        const unsigned char *from = &level[4 * ((size_t)l * s * s + 2 * y * s + 2 * x) + c];
                        unsigned sum = from[0] + from[4] + from[4 * s] + from[4 * s + 4];
                        next[4 * ((size_t)l * h * h + y * h + x) + c] = (unsigned char)((sum + 2) / 4);
                    }
        unsigned char *swap = level;
        level = next;
        next = swap;
    }
    free(level);
    free(next);
}

/* The host's own texture of the premultiplied pixels, with its mipmaps. */
static GLuint host_texture_2d(const unsigned char *rgba) {
    unsigned char *texels = premultiplied(rgba, SPRITE * SPRITE);
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    upload_with_plume_levels(GL_TEXTURE_2D, texels, SPRITE, 1);
    glBindTexture(GL_TEXTURE_2D, 0);
    free(texels);
    return texture;
}

/* The host's GL_TEXTURE_2D_ARRAY: the flipbook's four frames as layers. */
static GLuint host_texture_array(const unsigned char *rgba) {
    unsigned char *texels = premultiplied(rgba, SPRITE * SPRITE), *layers = malloc(4 * CELL * CELL * 4);
    assert_non_null(layers);
    for (int frame = 0; frame < 4; ++frame)
        for (int y = 0; y < CELL; ++y)
            memcpy(&layers[4 * (frame * CELL * CELL + y * CELL)],
                   &texels[4 * ((frame / 2 * CELL + y) * SPRITE + frame % 2 * CELL)], 4 * CELL);
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D_ARRAY, texture);
    upload_with_plume_levels(GL_TEXTURE_2D_ARRAY, layers, CELL, 4);
    glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
    free(texels);
    free(layers);
    return texture;
}

/* Puffs in front of the orthographic camera, half way through their lives
 * after the test's updates (frames 2 and 3 cross-faded). */
static plume_system_desc puffs(uint32_t path) {
    plume_system_desc d = {.capacity = 61, .seed = 77, .path = path};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {0.7f, 0.7f, 0.3f}, .rate = 30,
                                         .lifetime = {2.9f, 3.1f}, .size = {0.3f, 0.5f}, .rotation = {0, 6.28f}};
    d.appearance.color_over_life.key_count = 1;
    d.appearance.color_over_life.keys[0] = (plume_color_key){0.0f, {1.0f, 0.9f, 0.8f, 0.6f}};
    return d;
}

static plume_frame_desc camera_frame(uint32_t draw_path) {
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(0.1f, view, projection);
    frame.draw_path = draw_path;
    return frame;
}

/* 15 updates, then the system's draw (or the group's) into a fresh target. */
static void picture(plume_system system, plume_draw_group group, uint32_t draw_path, float *image) {
    plume_frame_desc frame = camera_frame(draw_path);
    for (int k = 0; k < 15; ++k) update(system, &frame);
    const float clear[4] = {0.1f, 0.2f, 0.3f, 1.0f};
    test_target t = test_target_begin(IMAGE_SIZE, clear);
    if (group.id) assert_int_equal(plume_draw_group_draw(fixture_context(), group, &frame), PLUME_OK);
    else assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    test_target_end(&t, image);
}

static float largest_difference(const float *a, const float *b, float *signal) {
    float largest = 0.0f;
    *signal = 0.0f;
    for (int i = 0; i < 4 * PIXELS; ++i) {
        largest = fmaxf(largest, fabsf(a[i] - b[i]));
        *signal = fmaxf(*signal, fabsf(a[i] - a[i % 4]));
    }
    return largest;
}

/* The system as the data's and as the host texture's; `grouped`: each drawn
 * by a draw group of itself. Returns the largest difference. */
static float compare_pictures(plume_system_desc data, plume_system_desc host, uint32_t draw_path, bool grouped,
                              const char *what) {
    plume_system systems[2] = {make_system(data), make_system(host)};
    float *images[2] = {malloc(sizeof(float) * 4 * PIXELS), malloc(sizeof(float) * 4 * PIXELS)};
    assert_true(images[0] && images[1]);
    for (int k = 0; k < 2; ++k) {
        plume_draw_group group = {0};
        plume_draw_group_desc group_desc = {.systems = &systems[k], .system_count = 1};
        if (grouped) assert_int_equal(plume_draw_group_create(fixture_context(), &group_desc, &group), PLUME_OK);
        picture(systems[k], group, draw_path, images[k]);
        if (grouped) assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
        destroy_system(systems[k]);
    }
    float signal = 0.0f, largest = largest_difference(images[0], images[1], &signal);
    printf("  %s: host texture against the same pixels as data: largest difference %.4f/255 (the sprites move "
           "pixels by %.0f/255)\n",
           what, largest * 255.0f, signal * 255.0f);
    assert_true(signal > 0.2f);
    free(images[0]);
    free(images[1]);
    return largest;
}

/* The host's texture level 0 as it reads now. */
static unsigned char *texels_of(GLenum target, GLuint texture, size_t bytes) {
    unsigned char *texels = malloc(bytes);
    assert_non_null(texels);
    glBindTexture(target, texture);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(target, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glBindTexture(target, 0);
    return texels;
}

static void test_host_texture_draws_as_its_pixels(void **state) {
    (void)state;
    unsigned char *pixels = puff_flipbook(false);
    GLuint texture = host_texture_2d(pixels);
    unsigned char *before = texels_of(GL_TEXTURE_2D, texture, 4 * SPRITE * SPRITE);
    const struct {
        uint32_t path, draw_path;
        bool grouped;
        const char *what;
    } cases[] = {
        {PLUME_PATH_COMPUTE, PLUME_DRAW_PATH_RASTER, false, "raster"},
        {PLUME_PATH_COMPUTE, PLUME_DRAW_PATH_TILED, false, "tiled"},
        {PLUME_PATH_COMPUTE, PLUME_DRAW_PATH_RASTER, true, "draw group"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        plume_system_desc data = puffs(cases[c].path), host = data;
        data.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = SPRITE, .height = SPRITE,
                                                       .columns = 2, .rows = 2};
        host.appearance.texture = (plume_texture_desc){.columns = 2, .rows = 2};
        host.host_sprite = (plume_host_sprite){.texture = texture};
        assert_true(compare_pictures(data, host, cases[c].draw_path, cases[c].grouped, cases[c].what) == 0.0f);
    }
    /* Every system is gone: the texture is still the host's, as it was. */
    assert_true(glIsTexture(texture));
    unsigned char *after = texels_of(GL_TEXTURE_2D, texture, 4 * SPRITE * SPRITE);
    assert_memory_equal(before, after, 4 * SPRITE * SPRITE);
    glDeleteTextures(1, &texture);
    free(before);
    free(after);
    free(pixels);
}

/* The fragment path (tests/run_gl33.sh runs it in a GL 3.3 context): a 2D
 * host texture and an array of alike layers draw as their pixels. */
static void test_host_texture_on_the_fragment_path(void **state) {
    (void)state;
    unsigned char *pixels = puff_flipbook(true);
    GLuint texture = host_texture_2d(pixels), array = host_texture_array(pixels);
    plume_system_desc data = puffs(PLUME_PATH_FRAGMENT), host = data;
    data.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = SPRITE, .height = SPRITE,
                                                   .columns = 2, .rows = 2};
    host.appearance.texture = (plume_texture_desc){.columns = 2, .rows = 2};
        host.host_sprite = (plume_host_sprite){.texture = texture};
    assert_true(compare_pictures(data, host, PLUME_DRAW_PATH_RASTER, false, "fragment path, 2D") == 0.0f);
    unsigned char *cell = malloc(4 * CELL * CELL);
    assert_non_null(cell);
    for (int y = 0; y < CELL; ++y) memcpy(&cell[4 * y * CELL], &pixels[4 * y * SPRITE], 4 * CELL);
    data.appearance.texture = (plume_texture_desc){.pixels = cell, .width = CELL, .height = CELL};
    host.appearance.texture = (plume_texture_desc){0};
    host.host_sprite = (plume_host_sprite){.texture = array, .target = GL_TEXTURE_2D_ARRAY};
    assert_true(compare_pictures(data, host, PLUME_DRAW_PATH_RASTER, false, "fragment path, array") == 0.0f);
    assert_true(glIsTexture(texture) && glIsTexture(array));
    glDeleteTextures(1, &texture);
    glDeleteTextures(1, &array);
    free(cell);
    free(pixels);
}

/* A GL_TEXTURE_2D_ARRAY, a frame per layer. Exact where its layers are
 * alike (against one frame of those pixels); its four frames against the
 * 2x2 atlas of them within what sampling an atlas changes: its smallest
 * mipmaps mix neighbouring frames (at most 2/255 here). */
static void test_host_texture_array_frames_are_its_layers(void **state) {
    (void)state;
    const uint32_t paths[] = {PLUME_DRAW_PATH_RASTER, PLUME_DRAW_PATH_TILED};
    for (int alike = 1; alike >= 0; --alike) {
        unsigned char *pixels = puff_flipbook(alike);
        GLuint texture = host_texture_array(pixels);
        unsigned char *before = texels_of(GL_TEXTURE_2D_ARRAY, texture, 4 * CELL * CELL * 4);
        for (int p = 0; p < 2; ++p) {
            plume_system_desc data = puffs(PLUME_PATH_COMPUTE), host = data;
            data.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = SPRITE, .height = SPRITE,
                                                           .columns = 2, .rows = 2};
            if (alike) /* one frame of the first frame's pixels: the atlas's top-left cell */
                data.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = CELL, .height = CELL};
            unsigned char *cell = NULL;
            if (alike) {
                cell = malloc(4 * CELL * CELL);
                assert_non_null(cell);
                for (int y = 0; y < CELL; ++y) memcpy(&cell[4 * y * CELL], &pixels[4 * y * SPRITE], 4 * CELL);
                data.appearance.texture.pixels = cell;
            }
            host.appearance.texture = (plume_texture_desc){0};
            host.host_sprite = (plume_host_sprite){.texture = texture, .target = GL_TEXTURE_2D_ARRAY};
            float largest = compare_pictures(data, host, paths[p], false,
                                             alike ? "array of alike layers" : "array of four frames");
            assert_true(alike ? largest == 0.0f : largest <= 2.0f / 255.0f);
            free(cell);
        }
        unsigned char *after = texels_of(GL_TEXTURE_2D_ARRAY, texture, 4 * CELL * CELL * 4);
        assert_memory_equal(before, after, 4 * CELL * CELL * 4);
        glDeleteTextures(1, &texture);
        free(before);
        free(after);
        free(pixels);
    }
}

/* Each bad texture: its code, one message naming the field, no system and
 * no GL object left. */
static void expect_refused(plume_system_desc desc, plume_result code, const char *message) {
    static test_gl_census before, after; /* 32 K each: not on the stack */
    test_take_gl_census(&before);
    desc.logger = test_logger();
    plume_system system = {7};
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), code);
    assert_int_equal(system.id, 0);
    if (!test_log_contains(message)) fail_msg("no message with \"%s\"", message);
    test_take_gl_census(&after);
    test_assert_same_census(&before, &after, message);
}

static void test_host_texture_bad_input(void **state) {
    (void)state;
    test_log_expect_errors();
    unsigned char *pixels = puff_flipbook(false);
    GLuint good = host_texture_2d(pixels), buffer = 0, textures[5];
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferData(GL_ARRAY_BUFFER, 64, NULL, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glGenTextures(5, textures);
    /* A 3D texture; a 2D one with no image; one without mipmaps; a depth
     * texture; one whose chain stops at GL_TEXTURE_MAX_LEVEL (accepted). */
    glBindTexture(GL_TEXTURE_3D, textures[0]);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 4, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glBindTexture(GL_TEXTURE_2D, textures[1]);
    glBindTexture(GL_TEXTURE_2D, textures[2]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glBindTexture(GL_TEXTURE_2D, textures[3]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, 8, 8, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, NULL);
    glBindTexture(GL_TEXTURE_2D, textures[4]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    GLuint unused = 0;
    while (glIsTexture(++unused) || unused == buffer) {
    }

    plume_system_desc d = puffs(PLUME_PATH_COMPUTE);
    d.host_sprite = (plume_host_sprite){.texture = unused};
    expect_refused(d, PLUME_ERROR_INVALID_ARGUMENT, "host_sprite.texture");
    if (!glIsTexture(buffer)) {
        d.host_sprite.texture = buffer;
        expect_refused(d, PLUME_ERROR_INVALID_ARGUMENT, "is not a texture of this GL context");
    }
    d.host_sprite.texture = textures[0];
    expect_refused(d, PLUME_ERROR_INVALID_ARGUMENT, "is not a GL_TEXTURE_2D (host_sprite.target)");
    d.host_sprite.texture = textures[1];
    expect_refused(d, PLUME_ERROR_INVALID_ARGUMENT, "has no image: its base level is zero-sized");
    d.host_sprite.texture = textures[2];
    expect_refused(d, PLUME_ERROR_INVALID_ARGUMENT, "misses mipmap levels");
    d.host_sprite.texture = textures[3];
    expect_refused(d, PLUME_ERROR_INVALID_ARGUMENT, "is a depth or stencil texture");
    d.host_sprite = (plume_host_sprite){.texture = good, .target = GL_TEXTURE_2D_ARRAY};
    expect_refused(d, PLUME_ERROR_INVALID_ARGUMENT, "is not a GL_TEXTURE_2D_ARRAY");
    d.host_sprite = (plume_host_sprite){.texture = good};
    d.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = SPRITE, .height = SPRITE};
    expect_refused(d, PLUME_ERROR_INVALID_ARGUMENT, "host_sprite.texture is given with appearance.texture's path or pixels");
    d.appearance.texture = (plume_texture_desc){0};
    d.host_sprite = (plume_host_sprite){.texture = good, .target = GL_TEXTURE_3D};
    expect_refused(d, PLUME_ERROR_INVALID_ARGUMENT, "host_sprite.target is neither");
    d.host_sprite = (plume_host_sprite){.target = GL_TEXTURE_2D};
    expect_refused(d, PLUME_ERROR_INVALID_ARGUMENT, "host_sprite.target is given without");
    d.host_sprite = (plume_host_sprite){.texture = good, .target = GL_TEXTURE_2D_ARRAY};
    d.appearance.texture = (plume_texture_desc){.columns = 2};
    expect_refused(d, PLUME_ERROR_INVALID_ARGUMENT, "appearance.texture.columns");
    assert_int_equal(plume_system_desc_check(&d, NULL), PLUME_ERROR_INVALID_ARGUMENT);

    /* Accepted: a chain limited by GL_TEXTURE_MAX_LEVEL; the size is the
     * texture's. A draw group refuses to copy it (its levels are not all
     * there), and an array. */
    d.appearance.texture = (plume_texture_desc){0};
    d.host_sprite = (plume_host_sprite){.texture = textures[4]};
    plume_system limited = make_system(d);
    plume_system_desc resolved = system_desc(fixture_context(), limited);
    assert_int_equal(resolved.appearance.texture.width, 8);
    assert_int_equal(resolved.host_sprite.texture, textures[4]);
    plume_draw_group_desc group_desc = {.systems = &limited, .system_count = 1};
    plume_draw_group group = {7};
    assert_int_equal(plume_draw_group_create(fixture_context(), &group_desc, &group), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("cannot be copied into the group's sprites"));
    destroy_system(limited);
    GLuint array = host_texture_array(pixels);
    d.host_sprite = (plume_host_sprite){.texture = array, .target = GL_TEXTURE_2D_ARRAY};
    plume_system layered = make_system(d);
    assert_int_equal(system_desc(fixture_context(), layered).appearance.texture.columns, 4);
    group_desc.systems = &layered;
    assert_int_equal(plume_draw_group_create(fixture_context(), &group_desc, &group), PLUME_ERROR_GL_UNSUPPORTED);
    assert_true(test_log_contains("a draw group takes 2D sprites"));
    assert_int_equal(group.id, 0);
    destroy_system(layered);
    assert_true(glIsTexture(array) && glIsTexture(textures[4]));

    glDeleteTextures(1, &array);
    glDeleteTextures(5, textures);
    glDeleteTextures(1, &good);
    glDeleteBuffers(1, &buffer);
    free(pixels);
}

const struct CMUnitTest host_texture_tests[] = {
    cmocka_unit_test_setup_teardown(test_host_texture_draws_as_its_pixels, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_host_texture_array_frames_are_its_layers, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_host_texture_on_the_fragment_path, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_host_texture_bad_input, fixture_setup, fixture_teardown),
};
const size_t host_texture_test_count = sizeof host_texture_tests / sizeof host_texture_tests[0];
