/* A host whose scene depth is not a depth texture (a renderbuffer, as an
 * engine's default framebuffer or multisampled target is) gives the draw one
 * by blitting its depth into a depth texture of its own after the opaque
 * scene, the way docs/integration.md ("A depth texture from any depth
 * buffer") says: single-sampled and 4x multisampled (the blit resolves it,
 * GL_NEAREST), with a packed depth-stencil and a float depth format. Soft
 * particles must then fade against the copy. The draw's depth test against
 * the scene's own depth hides what is behind the occluder anyway; the soft
 * fade is what only the texture gives: particles just in front of the
 * occluder (left half) fade, those over the far background (right half) do
 * not. */
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
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { WIDTH = RENDER_WIDTH, HEIGHT = RENDER_HEIGHT };

/* The engine's scene target: colour and depth renderbuffers, `samples` 0
 * (single-sampled) or more, the left half of the depth at `occluder_depth`
 * and the rest at the far plane, as an opaque pass leaves it. */
typedef struct scene_target {
    GLuint framebuffer, color, depth;
} scene_target;

static GLenum depth_attachment(GLenum format) {
    return format == GL_DEPTH24_STENCIL8 || format == GL_DEPTH32F_STENCIL8 ? GL_DEPTH_STENCIL_ATTACHMENT
                                                                           : GL_DEPTH_ATTACHMENT;
}

static scene_target scene_begin(int samples, GLenum depth_format, float occluder_depth) {
    scene_target s;
    glGenRenderbuffers(1, &s.color);
    glBindRenderbuffer(GL_RENDERBUFFER, s.color);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA16F, WIDTH, HEIGHT);
    glGenRenderbuffers(1, &s.depth);
    glBindRenderbuffer(GL_RENDERBUFFER, s.depth);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, depth_format, WIDTH, HEIGHT);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glGenFramebuffers(1, &s.framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, s.framebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, s.color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, depth_attachment(depth_format), GL_RENDERBUFFER, s.depth);
    assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    glViewport(0, 0, WIDTH, HEIGHT);
    glClearBufferfv(GL_COLOR, 0, RENDER_BACKGROUND);
    const float far = 1.0f;
    glClearBufferfv(GL_DEPTH, 0, &far);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, WIDTH / 2, HEIGHT);
    glClearBufferfv(GL_DEPTH, 0, &occluder_depth);
    glDisable(GL_SCISSOR_TEST);
    return s;
}

/* The scene's colour, resolved where multisampled, as RGBA floats. */
static void scene_end(scene_target *s, float *rgba) {
    GLuint resolved = test_texture_create(GL_RGBA16F, WIDTH, HEIGHT), resolve_framebuffer;
    glGenFramebuffers(1, &resolve_framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_framebuffer);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, resolved, 0);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s->framebuffer);
    glBlitFramebuffer(0, 0, WIDTH, HEIGHT, 0, 0, WIDTH, HEIGHT, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, resolved);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, rgba);
    glBindTexture(GL_TEXTURE_2D, 0);
    glDeleteFramebuffers(1, &resolve_framebuffer);
    glDeleteTextures(1, &resolved);
    glDeleteFramebuffers(1, &s->framebuffer);
    GLuint renderbuffers[] = {s->color, s->depth};
    glDeleteRenderbuffers(2, renderbuffers);
}

/* The host's depth texture (made once, at the scene target's size and depth
 * format: a depth blit needs the same format on both sides) in a framebuffer
 * of its own. */
typedef struct depth_copy {
    GLuint texture, framebuffer;
} depth_copy;

static depth_copy depth_copy_create(GLenum depth_format) {
    depth_copy copy = {.texture = test_texture_create(depth_format, WIDTH, HEIGHT)};
    glGenFramebuffers(1, &copy.framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, copy.framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, depth_attachment(depth_format), GL_TEXTURE_2D, copy.texture, 0);
    glDrawBuffer(GL_NONE);
    glReadBuffer(GL_NONE);
    assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    return copy;
}

/* Each frame, after the opaque scene and before the particles' draw: the
 * scene's depth into the copy (a resolve where the scene is multisampled:
 * depth blits filter with GL_NEAREST only), then the scene bound again. */
static void depth_copy_update(const depth_copy *copy, GLuint scene_framebuffer) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, scene_framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, copy->framebuffer);
    glBlitFramebuffer(0, 0, WIDTH, HEIGHT, 0, 0, WIDTH, HEIGHT, GL_DEPTH_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, scene_framebuffer);
}

static void depth_copy_destroy(depth_copy *copy) {
    glDeleteFramebuffers(1, &copy->framebuffer);
    glDeleteTextures(1, &copy->texture);
}

/* How far the colours of columns [x0, x1) are from the background's: the
 * sum over their pixels and channels. */
static double ink(const float *rgba, int x0, int x1) {
    double sum = 0.0;
    for (int y = 0; y < HEIGHT; ++y)
        for (int x = x0; x < x1; ++x)
            for (int c = 0; c < 3; ++c) sum += fabsf(rgba[4 * (y * WIDTH + x) + c] - RENDER_BACKGROUND[c]);
    return sum;
}

/* A thin layer of particles: every one 7.9 to 8.1 units in front of the eye. */
static void thin_layer(plume_system_desc *desc) {
    desc->emitters[0].extents[2] = 0.1f;
}

/* One draw of `system` for `frame` into a scene target of `samples` and
 * `depth_format` whose left half holds an occluder at `occluder_depth`,
 * given the blitted copy of the scene's depth or none; the picture to
 * `rgba`. */
static void draw_into_scene(plume_system system, plume_frame_desc frame, int samples, GLenum depth_format,
                            float occluder_depth, bool with_copy, float *rgba) {
    scene_target scene = scene_begin(samples, depth_format, occluder_depth);
    depth_copy copy = depth_copy_create(depth_format);
    depth_copy_update(&copy, scene.framebuffer);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    glEnable(GL_DEPTH_TEST);
    frame.depth_texture = with_copy ? copy.texture : 0;
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    glDisable(GL_DEPTH_TEST);
    scene_end(&scene, rgba);
    depth_copy_destroy(&copy);
}

static void test_blitted_renderbuffer_depth_fades_soft_particles(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -8.0f};
    plume_system system = render_cloud_with(centre, 4.0f, 0.8f, 400, 7, false, thin_layer);
    plume_frame_desc frame = {.dt = 0.001f};
    memcpy(frame.view, c.view, sizeof frame.view);
    memcpy(frame.projection, c.projection, sizeof frame.projection);
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    /* 0.05 to 0.25 behind the layer: the default fade distance (0.5) keeps
     * 10 to 50 % of each particle in front of it. */
    const float occluder_depth = render_window_depth(&c, 8.15f);
    float *with_copy = render_new_image(), *without = render_new_image();
    const struct {
        int samples;
        GLenum depth_format;
        uint32_t draw_path;
    } cases[] = {
        {0, GL_DEPTH24_STENCIL8, PLUME_DRAW_PATH_RASTER}, {0, GL_DEPTH_COMPONENT32F, PLUME_DRAW_PATH_RASTER},
        {4, GL_DEPTH24_STENCIL8, PLUME_DRAW_PATH_RASTER}, {4, GL_DEPTH_COMPONENT32F, PLUME_DRAW_PATH_RASTER},
        {4, GL_DEPTH24_STENCIL8, PLUME_DRAW_PATH_TILED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        frame.draw_path = cases[i].draw_path;
        draw_into_scene(system, frame, cases[i].samples, cases[i].depth_format, occluder_depth, true, with_copy);
        draw_into_scene(system, frame, cases[i].samples, cases[i].depth_format, occluder_depth, false, without);
        const int middle = WIDTH / 2;
        double left = ink(with_copy, 0, middle - 2), left_unfaded = ink(without, 0, middle - 2);
        double right = ink(with_copy, middle + 2, WIDTH), right_unfaded = ink(without, middle + 2, WIDTH);
        char what[96];
        snprintf(what, sizeof what, "%d samples, depth format 0x%x, draw path %u", cases[i].samples,
                 cases[i].depth_format, cases[i].draw_path);
        if (!(left_unfaded > 100.0 && right_unfaded > 100.0)) fail_msg("%s: too little drawn", what);
        if (!(left < 0.6 * left_unfaded))
            fail_msg("%s: in front of the occluder %.1f of %.1f: not faded", what, left, left_unfaded);
        if (!(fabs(right - right_unfaded) < 0.02 * right_unfaded))
            fail_msg("%s: over the background %.1f, unfaded %.1f", what, right, right_unfaded);
    }
    free(with_copy);
    free(without);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

const struct CMUnitTest host_depth_tests[] = {
    cmocka_unit_test_setup_teardown(test_blitted_renderbuffer_depth_fades_soft_particles, fixture_setup,
                                    fixture_teardown),
};
const size_t host_depth_test_count = sizeof host_depth_tests / sizeof host_depth_tests[0];
