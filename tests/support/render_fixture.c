/* The draw-path tests' scene (render_fixture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "particle_fixture.h"
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"

const float RENDER_BACKGROUND[4] = {0.2f, 0.25f, 0.3f, 1.0f};

render_camera render_make_camera(void) {
    render_camera c;
    glm_lookat((vec3){0, 0, 0}, (vec3){0, 0, -1}, (vec3){0, 1, 0}, c.view);
    glm_perspective(glm_rad(60.0f), (float)RENDER_WIDTH / RENDER_HEIGHT, 0.5f, 50.0f, c.projection);
    return c;
}

render_camera render_make_reversed_camera(void) {
    render_camera c = render_make_camera();
    infinite_reversed_perspective(glm_rad(60.0f), (float)RENDER_WIDTH / RENDER_HEIGHT, 0.5f, c.projection);
    return c;
}

float render_window_depth(const render_camera *c, float distance) {
    vec4 clip;
    glm_mat4_mulv((vec4 *)c->projection, (vec4){0, 0, -distance, 1}, clip);
    GLint mode = GL_NEGATIVE_ONE_TO_ONE;
    glGetIntegerv(GL_CLIP_DEPTH_MODE, &mode);
    return mode == GL_ZERO_TO_ONE ? clip[2] / clip[3] : clip[2] / clip[3] * 0.5f + 0.5f;
}

/* The host's frame: colour and a depth attachment, and a copy of the depth
 * as the frame's depth texture (sampling the attached one would be a
 * feedback loop). */
typedef struct host_frame {
    GLuint framebuffer, color, depth, depth_copy, scratch_framebuffer;
} host_frame;

/* Cleared with the host's clear depth (its convention's farthest). */
static void fill_depth(GLuint framebuffer, int occluder_width, float occluder_depth) {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    float far = 1.0f;
    glGetFloatv(GL_DEPTH_CLEAR_VALUE, &far);
    glClearBufferfv(GL_DEPTH, 0, &far);
    if (occluder_width > 0) {
        glEnable(GL_SCISSOR_TEST);
        glScissor(0, 0, occluder_width, RENDER_HEIGHT);
        glClearBufferfv(GL_DEPTH, 0, &occluder_depth);
        glDisable(GL_SCISSOR_TEST);
    }
}

static GLenum host_color_format = GL_RGBA32F;
static int host_color_levels = 1;
static void (*host_before_draw)(void), (*host_after_draw)(void);

void render_set_host_frame(uint32_t color_format, int levels, void (*before_draw)(void), void (*after_draw)(void)) {
    host_color_format = color_format ? (GLenum)color_format : GL_RGBA32F;
    host_color_levels = levels > 0 ? levels : 1;
    host_before_draw = before_draw;
    host_after_draw = after_draw;
}

static host_frame begin_host_frame(int occluder_width, float occluder_depth) {
    host_frame h = {.color = test_texture_create_levels(host_color_format, RENDER_WIDTH, RENDER_HEIGHT,
                                                        host_color_levels),
                    .depth = test_texture_create(GL_DEPTH_COMPONENT32F, RENDER_WIDTH, RENDER_HEIGHT),
                    .depth_copy = test_texture_create(GL_DEPTH_COMPONENT32F, RENDER_WIDTH, RENDER_HEIGHT)};
    glGenFramebuffers(1, &h.scratch_framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, h.scratch_framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, h.depth_copy, 0);
    glDrawBuffer(GL_NONE);
    fill_depth(h.scratch_framebuffer, occluder_width, occluder_depth);
    glGenFramebuffers(1, &h.framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, h.framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, h.color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, h.depth, 0);
    assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    fill_depth(h.framebuffer, occluder_width, occluder_depth);
    glClearBufferfv(GL_COLOR, 0, RENDER_BACKGROUND);
    glViewport(0, 0, RENDER_WIDTH, RENDER_HEIGHT);
    glEnable(GL_DEPTH_TEST);
    return h;
}

static void end_host_frame(host_frame *h, float *rgba) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDisable(GL_DEPTH_TEST);
    glBindTexture(GL_TEXTURE_2D, h->color);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, rgba);
    glBindTexture(GL_TEXTURE_2D, 0);
    GLuint framebuffers[] = {h->framebuffer, h->scratch_framebuffer};
    glDeleteFramebuffers(2, framebuffers);
    GLuint textures[] = {h->color, h->depth, h->depth_copy};
    glDeleteTextures(3, textures);
}

enum { SPRITE_SIZE = 32 };

/* A 2x2 flipbook of soft round puffs, each frame another tint, alpha falling
 * to 0 before the frame's edge (so that no pixel's coverage depends on how
 * a path rounds the quad's edge). */
static uint8_t *soft_sprite(void) {
    uint8_t *pixels = malloc(4 * SPRITE_SIZE * SPRITE_SIZE);
    assert_non_null(pixels);
    const int cell = SPRITE_SIZE / 2;
    for (int y = 0; y < SPRITE_SIZE; ++y)
        for (int x = 0; x < SPRITE_SIZE; ++x) {
            int frame = (y / cell) * 2 + x / cell;
            float u = ((float)(x % cell) + 0.5f) / cell - 0.5f, v = ((float)(y % cell) + 0.5f) / cell - 0.5f;
            float r = sqrtf(u * u + v * v) / 0.45f, alpha = r >= 1.0f ? 0.0f : (1.0f - r * r);
            uint8_t *p = &pixels[4 * (y * SPRITE_SIZE + x)];
            p[0] = (uint8_t)(255 - 40 * frame);
            p[1] = (uint8_t)(200 + 15 * frame);
            p[2] = (uint8_t)(120 + 40 * frame);
            p[3] = (uint8_t)lroundf(255.0f * alpha);
        }
    return pixels;
}

plume_system render_cloud(const float centre[3], float extent, float size, uint32_t count, uint32_t seed,
                          bool sprite) {
    return render_cloud_with(centre, extent, size, count, seed, sprite, NULL);
}

plume_system render_cloud_with(const float centre[3], float extent, float size, uint32_t count, uint32_t seed,
                               bool sprite, void (*adjust)(plume_system_desc *desc)) {
    plume_system_desc desc = {.capacity = count, .seed = seed};
    desc.emitters[0] = (plume_emitter_desc){.position = {centre[0], centre[1], centre[2]}, .shape = PLUME_SHAPE_BOX,
                                            .extents = {extent, extent, extent * 0.5f}, .burst_count = count,
                                            .lifetime = {100, 100}, .size = {size * 0.5f, size},
                                            .rotation = {0.0f, sprite ? 6.2831853f : 0.0f}};
    desc.appearance.color_over_life.key_count = 1;
    desc.appearance.color_over_life.keys[0] = (plume_color_key){.time = 0, .rgba = {0.9f, 0.8f, 0.7f, 0.25f}};
    uint8_t *pixels = sprite ? soft_sprite() : NULL;
    if (sprite) {
        desc.appearance.texture = (plume_texture_desc){
            .pixels = pixels, .width = SPRITE_SIZE, .height = SPRITE_SIZE, .columns = 2, .rows = 2};
        /* Lives of 4-6 ms: after an update or two of 1 ms a particle is
         * between its flipbook's first frames, cross-faded. */
        desc.emitters[0].lifetime = (plume_range){0.004f, 0.006f};
    }
    if (adjust) adjust(&desc);
    plume_system system = {0};
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    free(pixels);
    return system;
}

void render_frame(plume_system system, const render_camera *c, plume_frame_desc frame, bool with_depth,
                  int occluder_width, float occluder_depth, float *rgba) {
    frame.dt = 0.001f;
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    render_draw(system, c, frame, with_depth, occluder_width, occluder_depth, rgba);
}

/* A system's draw (group.id 0) or a group's into a fresh host frame. */
static void draw_system_or_group(plume_system system, plume_draw_group group, const render_camera *c,
                                 plume_frame_desc frame, bool with_depth, int occluder_width, float occluder_depth,
                                 float *rgba) {
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    host_frame h = begin_host_frame(occluder_width, occluder_depth);
    if (with_depth) frame.depth_texture = h.depth_copy;
    if (host_before_draw) host_before_draw();
    if (group.id) assert_int_equal(plume_draw_group_draw(fixture_context(), group, &frame), PLUME_OK);
    else assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    if (host_after_draw) host_after_draw();
    end_host_frame(&h, rgba);
}

void render_draw(plume_system system, const render_camera *c, plume_frame_desc frame, bool with_depth,
                 int occluder_width, float occluder_depth, float *rgba) {
    draw_system_or_group(system, (plume_draw_group){0}, c, frame, with_depth, occluder_width, occluder_depth, rgba);
}

void render_draw_group(plume_draw_group group, const render_camera *c, plume_frame_desc frame, bool with_depth,
                       int occluder_width, float occluder_depth, float *rgba) {
    draw_system_or_group((plume_system){0}, group, c, frame, with_depth, occluder_width, occluder_depth, rgba);
}

plume_result render_try_batch(const plume_system *systems, uint32_t count, const render_camera *c,
                              plume_frame_desc frame, bool with_depth, float *rgba) {
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    host_frame h = begin_host_frame(0, 1.0f);
    if (with_depth) frame.depth_texture = h.depth_copy;
    plume_result r = plume_batch_draw(fixture_context(), systems, count, &frame);
    end_host_frame(&h, rgba);
    return r;
}

void render_draw_batch(const plume_system *systems, uint32_t count, const render_camera *c, plume_frame_desc frame,
                       bool with_depth, float *rgba) {
    assert_int_equal(render_try_batch(systems, count, c, frame, with_depth, rgba), PLUME_OK);
}

void render_draw_many(const plume_system *systems, uint32_t count, const render_camera *c,
                      const plume_frame_desc *frames, const int *viewport, float *rgba) {
    host_frame h = begin_host_frame(0, 1.0f);
    if (viewport) glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    for (uint32_t i = 0; i < count; ++i) {
        plume_frame_desc frame = frames[i];
        memcpy(frame.view, c->view, sizeof frame.view);
        memcpy(frame.projection, c->projection, sizeof frame.projection);
        frame.depth_texture = h.depth_copy;
        assert_int_equal(plume_system_draw(fixture_context(), systems[i], &frame), PLUME_OK);
    }
    end_host_frame(&h, rgba);
}

float *render_new_image(void) {
    float *image = malloc(sizeof(float) * 4 * RENDER_WIDTH * RENDER_HEIGHT);
    assert_non_null(image);
    return image;
}

double render_psnr(const float *a, const float *b) {
    double squared = 0.0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i)
        for (int c = 0; c < 3; ++c) {
            double d = (double)a[4 * i + c] - (double)b[4 * i + c];
            squared += d * d;
        }
    double mean = squared / (3.0 * RENDER_WIDTH * RENDER_HEIGHT);
    return mean > 0.0 ? 10.0 * log10(1.0 / mean) : 99.0;
}

float render_largest_difference(const float *a, const float *b) {
    float largest = 0.0f;
    for (int i = 0; i < 4 * RENDER_WIDTH * RENDER_HEIGHT; ++i) largest = fmaxf(largest, fabsf(a[i] - b[i]));
    return largest;
}

int render_pixels_differing(const float *a, const float *b, float bound) {
    int differing = 0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) {
        bool differs = false;
        for (int c = 0; c < 4; ++c) differs = differs || fabsf(a[4 * i + c] - b[4 * i + c]) > bound;
        differing += differs;
    }
    return differing;
}

bool render_within_tiled_bound(const float *a, const float *b, float bound, float *largest, int *over) {
    float most = render_largest_difference(a, b);
    int outliers = render_pixels_differing(a, b, bound);
    if (largest) *largest = most;
    if (over) *over = outliers;
    return outliers <= RENDER_TILED_OUTLIERS && most <= 2.0f * bound;
}

int render_covered_pixels_in_columns(const float *rgba, int x0, int x1) {
    int covered = 0;
    for (int y = 0; y < RENDER_HEIGHT; ++y)
        for (int x = x0; x < x1; ++x) covered += fabsf(rgba[4 * (y * RENDER_WIDTH + x)] - RENDER_BACKGROUND[0]) > 0.05f;
    return covered;
}

int render_covered_pixels(const float *rgba) { return render_covered_pixels_in_columns(rgba, 0, RENDER_WIDTH); }

void render_draw_both(const float centre[3], float extent, float size, uint32_t count, uint32_t seed,
                      plume_frame_desc a, plume_frame_desc b, int occluder_width, float occluder_depth,
                      float *image_a, float *image_b) {
    render_camera c = render_make_camera();
    plume_system first = render_cloud(centre, extent, size, count, seed, true);
    plume_system second = render_cloud(centre, extent, size, count, seed, true);
    render_frame(first, &c, a, true, occluder_width, occluder_depth, image_a);
    render_frame(second, &c, b, true, occluder_width, occluder_depth, image_b);
    assert_int_equal(plume_system_destroy(fixture_context(), first), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), second), PLUME_OK);
}

plume_frame_desc render_tiled_frame(uint32_t resolution, bool terminate, float threshold) {
    return (plume_frame_desc){.draw_path = PLUME_DRAW_PATH_TILED, .draw_resolution = resolution,
                              .disable_early_termination = !terminate, .transmittance_threshold = threshold};
}
