/* The low-resolution draw paths (plume_frame_desc.draw_resolution, since
 * 1.1) against the full-resolution raster draw of the same particles: close
 * in PSNR on a smoke-like scene, no halo at a depth edge, and the full
 * resolution (with one warning) when the frame has no depth texture. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { WIDTH = 128, HEIGHT = 96 };
static const float BACKGROUND[4] = {0.2f, 0.25f, 0.3f, 1.0f};

typedef struct camera {
    mat4 view, projection;
} camera;

static camera make_camera(void) {
    camera c;
    glm_lookat((vec3){0, 0, 0}, (vec3){0, 0, -1}, (vec3){0, 1, 0}, c.view);
    glm_perspective(glm_rad(60.0f), (float)WIDTH / HEIGHT, 0.5f, 50.0f, c.projection);
    return c;
}

/* The window depth of a point `distance` in front of the camera. */
static float window_depth(const camera *c, float distance) {
    vec4 clip;
    glm_mat4_mulv((vec4 *)c->projection, (vec4){0, 0, -distance, 1}, clip);
    return clip[2] / clip[3] * 0.5f + 0.5f;
}

/* The host's frame: colour and a depth attachment, and a copy of the depth
 * as the frame's depth texture (sampling the attached one would be a
 * feedback loop). Both hold 1 (the far plane), and `occluder_depth` where
 * x < occluder_width. */
typedef struct host_frame {
    GLuint framebuffer, color, depth, depth_copy, scratch_framebuffer;
} host_frame;

static void fill_depth(GLuint framebuffer, int occluder_width, float occluder_depth) {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    const float far = 1.0f;
    glClearBufferfv(GL_DEPTH, 0, &far);
    if (occluder_width > 0) {
        glEnable(GL_SCISSOR_TEST);
        glScissor(0, 0, occluder_width, HEIGHT);
        glClearBufferfv(GL_DEPTH, 0, &occluder_depth);
        glDisable(GL_SCISSOR_TEST);
    }
}

static host_frame begin_host_frame(int occluder_width, float occluder_depth) {
    host_frame h = {.color = test_texture_create(GL_RGBA32F, WIDTH, HEIGHT),
                    .depth = test_texture_create(GL_DEPTH_COMPONENT32F, WIDTH, HEIGHT),
                    .depth_copy = test_texture_create(GL_DEPTH_COMPONENT32F, WIDTH, HEIGHT)};
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
    glClearBufferfv(GL_COLOR, 0, BACKGROUND);
    glViewport(0, 0, WIDTH, HEIGHT);
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

/* A smoke-like cloud: soft, overlapping, semi-transparent puffs around
 * `centre`, `size` across, frozen. */
static plume_system cloud(const float centre[3], float extent, float size, uint32_t count, uint32_t seed) {
    plume_system_desc desc = {.capacity = count, .seed = seed};
    desc.emitters[0] = (plume_emitter_desc){.position = {centre[0], centre[1], centre[2]}, .shape = PLUME_SHAPE_BOX,
                                            .extents = {extent, extent, extent * 0.5f}, .burst_count = count,
                                            .lifetime = {100, 100}, .size = {size * 0.5f, size}};
    desc.appearance.color_over_life.key_count = 1;
    desc.appearance.color_over_life.keys[0] = (plume_color_key){.time = 0, .rgba = {0.9f, 0.8f, 0.7f, 0.25f}};
    plume_system system = {0};
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    return system;
}

/* One update, then a draw at `resolution` into a fresh host frame. */
static void render(plume_system system, const camera *c, uint32_t resolution, bool with_depth, int occluder_width,
                   float occluder_depth, float *rgba) {
    plume_frame_desc frame = {.dt = 0.001f, .draw_resolution = resolution};
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    host_frame h = begin_host_frame(occluder_width, occluder_depth);
    if (with_depth) frame.depth_texture = h.depth_copy;
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    end_host_frame(&h, rgba);
}

static float *new_image(void) {
    float *image = malloc(sizeof(float) * 4 * WIDTH * HEIGHT);
    assert_non_null(image);
    return image;
}

static double psnr(const float *a, const float *b) {
    double squared = 0.0;
    for (int i = 0; i < WIDTH * HEIGHT; ++i)
        for (int c = 0; c < 3; ++c) {
            double d = (double)a[4 * i + c] - (double)b[4 * i + c];
            squared += d * d;
        }
    double mean = squared / (3.0 * WIDTH * HEIGHT);
    return mean > 0.0 ? 10.0 * log10(1.0 / mean) : 99.0;
}

static void test_low_resolution_is_close_to_full_resolution(void **state) {
    (void)state;
    camera c = make_camera();
    const float centre[3] = {0.0f, 0.0f, -8.0f};
    float *full = new_image(), *low = new_image();
    /* PSNR each path must reach on this scene (measured on llvmpipe:
     * printed below; the thresholds leave a margin). */
    const uint32_t resolutions[2] = {PLUME_DRAW_HALF, PLUME_DRAW_QUARTER};
    const double least[2] = {30.0, 25.0};
    for (int r = 0; r < 2; ++r) {
        plume_system a = cloud(centre, 3.0f, 1.5f, 400, 5), b = cloud(centre, 3.0f, 1.5f, 400, 5);
        render(a, &c, PLUME_DRAW_FULL, true, 0, 1.0f, full);
        render(b, &c, resolutions[r], true, 0, 1.0f, low);
        int covered = 0;
        for (int i = 0; i < WIDTH * HEIGHT; ++i) covered += fabsf(full[4 * i] - BACKGROUND[0]) > 0.05f;
        assert_true(covered > WIDTH * HEIGHT / 8);
        double quality = psnr(full, low);
        printf("  1/%d resolution: PSNR %.1f dB against full resolution (at least %.0f)\n", r == 0 ? 2 : 4,
               quality, least[r]);
        assert_true(quality >= least[r]);
        assert_int_equal(plume_system_destroy(fixture_context(), a), PLUME_OK);
        assert_int_equal(plume_system_destroy(fixture_context(), b), PLUME_OK);
    }
    free(full);
    free(low);
}

/* Particles behind an occluder's edge: its pixels keep the background at
 * every resolution, and the particles beside it are not lost. */
static void test_no_halo_at_a_depth_edge(void **state) {
    (void)state;
    camera c = make_camera();
    const float centre[3] = {0.0f, 0.0f, -10.0f}; /* the cloud straddles x = 0: the edge */
    float occluder = window_depth(&c, 4.0f);
    float *full = new_image(), *low = new_image();
    const uint32_t resolutions[3] = {PLUME_DRAW_FULL, PLUME_DRAW_HALF, PLUME_DRAW_QUARTER};
    plume_system reference = cloud(centre, 4.0f, 2.0f, 300, 9);
    render(reference, &c, PLUME_DRAW_FULL, true, WIDTH / 2, occluder, full);
    assert_int_equal(plume_system_destroy(fixture_context(), reference), PLUME_OK);
    for (int r = 0; r < 3; ++r) {
        plume_system system = cloud(centre, 4.0f, 2.0f, 300, 9);
        render(system, &c, resolutions[r], true, WIDTH / 2, occluder, low);
        int shown_beside = 0;
        for (int y = 0; y < HEIGHT; ++y)
            for (int x = 0; x < WIDTH; ++x) {
                const float *p = &low[4 * (y * WIDTH + x)], *q = &full[4 * (y * WIDTH + x)];
                if (x < WIDTH / 2) {
                    for (int k = 0; k < 3; ++k)
                        if (fabsf(p[k] - BACKGROUND[k]) > 1.0f / 255.0f)
                            fail_msg("resolution %u: the occluder's pixel (%d, %d) shows particles (%f)",
                                     resolutions[r], x, y, p[k]);
                } else if (x < WIDTH / 2 + 8 && fabsf(q[0] - BACKGROUND[0]) > 0.05f) {
                    /* Beside the edge, where the full resolution shows smoke. */
                    shown_beside += fabsf(p[0] - BACKGROUND[0]) > 0.02f;
                }
            }
        printf("  resolution %u: %d pixels beside the edge show the particles\n", resolutions[r], shown_beside);
        assert_true(shown_beside > 100);
        assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    }
    free(full);
    free(low);
}

static void test_low_resolution_without_depth_draws_at_full_resolution(void **state) {
    (void)state;
    camera c = make_camera();
    const float centre[3] = {0.0f, 0.0f, -8.0f};
    float *full = new_image(), *low = new_image();
    plume_system a = cloud(centre, 3.0f, 1.5f, 200, 3), b = cloud(centre, 3.0f, 1.5f, 200, 3);
    render(a, &c, PLUME_DRAW_FULL, false, 0, 1.0f, full);
    render(b, &c, PLUME_DRAW_QUARTER, false, 0, 1.0f, low);
    assert_int_equal(test_log_count("needs the frame's depth_texture"), 1);
    render(b, &c, PLUME_DRAW_QUARTER, false, 0, 1.0f, low); /* said once */
    assert_int_equal(test_log_count("needs the frame's depth_texture"), 1);
    assert_memory_equal(full, low, sizeof(float) * 4 * WIDTH * HEIGHT);
    test_log_expect_errors();
    plume_frame_desc bad = {.draw_resolution = 3};
    assert_int_equal(plume_system_draw(fixture_context(), b, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("draw_resolution 3"));
    assert_int_equal(plume_system_destroy(fixture_context(), a), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), b), PLUME_OK);
    free(full);
    free(low);
}

const struct CMUnitTest lowres_tests[] = {
    cmocka_unit_test_setup_teardown(test_low_resolution_is_close_to_full_resolution, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_no_halo_at_a_depth_edge, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_low_resolution_without_depth_draws_at_full_resolution, fixture_setup,
                                    fixture_teardown),
};
const size_t lowres_test_count = sizeof lowres_tests / sizeof lowres_tests[0];
