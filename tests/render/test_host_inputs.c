/* What engines hand the draw and update that the docs do not assume (issue
 * 35): a minimised window (a 0x0 viewport: nothing drawn, PLUME_OK, the
 * host's state untouched, on every path, resolution and for draw groups), a
 * negative viewport_size, a colour texture as the depth texture, the depth
 * texture attached to the framebuffer being drawn, a lit system without a
 * light, an hour-long dt and a burst larger than the capacity: each refused
 * or said once, through the log. */
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

#include "hostile_host.h"
#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { WIDTH = RENDER_WIDTH, HEIGHT = RENDER_HEIGHT };

/* A host frame as render_fixture.c makes it: colour and depth attached, the
 * depth cleared to far, a copy of it as the frame's depth texture. */
typedef struct host_target {
    GLuint framebuffer, color, depth, depth_copy;
} host_target;

static host_target host_target_begin(void) {
    host_target h = {.color = test_texture_create(GL_RGBA32F, WIDTH, HEIGHT),
                     .depth = test_texture_create(GL_DEPTH_COMPONENT32F, WIDTH, HEIGHT),
                     .depth_copy = test_texture_create(GL_DEPTH_COMPONENT32F, WIDTH, HEIGHT)};
    const float far = 1.0f;
    glGenFramebuffers(1, &h.framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, h.framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, h.depth_copy, 0);
    glDrawBuffer(GL_NONE);
    glClearBufferfv(GL_DEPTH, 0, &far);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, h.color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, h.depth, 0);
    glDrawBuffer(GL_COLOR_ATTACHMENT0);
    assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    glClearBufferfv(GL_DEPTH, 0, &far);
    glClearBufferfv(GL_COLOR, 0, RENDER_BACKGROUND);
    glViewport(0, 0, WIDTH, HEIGHT);
    glEnable(GL_DEPTH_TEST);
    return h;
}

static void host_target_end(host_target *h, float *rgba) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDisable(GL_DEPTH_TEST);
    glViewport(0, 0, WIDTH, HEIGHT);
    if (rgba) {
        glBindTexture(GL_TEXTURE_2D, h->color);
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, rgba);
        glBindTexture(GL_TEXTURE_2D, 0);
    }
    glDeleteFramebuffers(1, &h->framebuffer);
    GLuint textures[] = {h->color, h->depth, h->depth_copy};
    glDeleteTextures(3, textures);
}

static plume_frame_desc camera_frame(const render_camera *c) {
    plume_frame_desc frame = {.dt = 0.001f};
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    return frame;
}

/* A system's draw or a group's, behind one signature. */
typedef struct drawn {
    plume_system system;
    plume_draw_group group;
} drawn;

static plume_result draw(const drawn *d, const plume_frame_desc *frame) {
    return d->group.id ? plume_draw_group_draw(fixture_context(), d->group, frame)
                       : plume_system_draw(fixture_context(), d->system, frame);
}

/* A 0x0 viewport (a minimised window) then the full one, in one host frame:
 * the first draws nothing, returns OK, logs nothing and changes no state;
 * the second is the picture a fresh frame gets (`reference`). */
static void check_minimised_then_restored(const drawn *d, plume_frame_desc frame, const float *reference,
                                          const char *what) {
    float *picture = render_new_image();
    host_target h = host_target_begin();
    frame.depth_texture = h.depth_copy;
    glViewport(0, 0, 0, 0);
    GLint64 before[HOSTILE_MAX_VALUES];
    int values = snapshot(before);
    int errors = test_log_error_count();
    plume_result r = draw(d, &frame);
    if (r != PLUME_OK) fail_msg("%s: a 0x0 viewport gives %d, not PLUME_OK", what, (int)r);
    if (test_log_error_count() != errors) fail_msg("%s: a 0x0 viewport logged an error", what);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    assert_unchanged(before, values, what);
    glBindTexture(GL_TEXTURE_2D, h.color);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, picture);
    glBindTexture(GL_TEXTURE_2D, 0);
    for (int i = 0; i < WIDTH * HEIGHT * 4; ++i)
        if (picture[i] != RENDER_BACKGROUND[i % 4]) fail_msg("%s: a 0x0 viewport drew at %d", what, i / 4);
    glViewport(0, 0, WIDTH, HEIGHT);
    assert_int_equal(draw(d, &frame), PLUME_OK);
    host_target_end(&h, picture);
    if (!(render_covered_pixels(picture) > 100)) fail_msg("%s: the next draw drew too little", what);
    if (!(render_psnr(picture, reference) > 60.0))
        fail_msg("%s: the next draw differs from a fresh frame's (%.1f dB)", what, render_psnr(picture, reference));
    free(picture);
}

static const uint32_t RESOLUTIONS[] = {PLUME_DRAW_FULL, PLUME_DRAW_HALF, PLUME_DRAW_QUARTER};

static void fragment_path(plume_system_desc *desc) { desc->path = PLUME_PATH_FRAGMENT; }

static void test_zero_viewport_draws_nothing_on_every_path_and_resolution(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -8.0f};
    drawn d = {.system = render_cloud(centre, 4.0f, 0.8f, 400, 7, true)};
    plume_frame_desc frame = camera_frame(&c);
    float *reference = render_new_image();
    render_frame(d.system, &c, frame, true, 0, 0.0f, reference);
    const uint32_t paths[] = {PLUME_DRAW_PATH_RASTER, PLUME_DRAW_PATH_TILED};
    for (size_t p = 0; p < 2; ++p)
        for (size_t r = 0; r < 3; ++r) {
            frame.draw_path = paths[p];
            frame.draw_resolution = RESOLUTIONS[r];
            render_draw(d.system, &c, frame, true, 0, 0.0f, reference);
            char what[80];
            snprintf(what, sizeof what, "plume_system_draw, path %u, resolution %u", paths[p], RESOLUTIONS[r]);
            check_minimised_then_restored(&d, frame, reference, what);
        }
    /* The same system in a draw group (raster only). */
    plume_draw_group_desc group_desc = {.systems = &d.system, .system_count = 1};
    assert_int_equal(plume_draw_group_create(fixture_context(), &group_desc, &d.group), PLUME_OK);
    frame.draw_path = PLUME_DRAW_PATH_RASTER;
    for (size_t r = 0; r < 3; ++r) {
        frame.draw_resolution = RESOLUTIONS[r];
        host_target h = host_target_begin();
        frame.depth_texture = h.depth_copy;
        assert_int_equal(draw(&d, &frame), PLUME_OK);
        host_target_end(&h, reference);
        char what[80];
        snprintf(what, sizeof what, "plume_draw_group_draw, resolution %u", RESOLUTIONS[r]);
        check_minimised_then_restored(&d, frame, reference, what);
    }
    assert_int_equal(plume_draw_group_destroy(fixture_context(), d.group), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), d.system), PLUME_OK);
    /* The fragment path's draw (GL 3.3's), at each resolution it is asked for. */
    drawn fragment = {.system = render_cloud_with(centre, 4.0f, 0.8f, 400, 7, true, fragment_path)};
    frame = camera_frame(&c);
    render_frame(fragment.system, &c, frame, true, 0, 0.0f, reference);
    for (size_t r = 0; r < 3; ++r) {
        frame.draw_resolution = RESOLUTIONS[r];
        render_draw(fragment.system, &c, frame, true, 0, 0.0f, reference);
        char what[80];
        snprintf(what, sizeof what, "plume_system_draw, fragment path, resolution %u", RESOLUTIONS[r]);
        check_minimised_then_restored(&fragment, frame, reference, what);
    }
    free(reference);
    assert_int_equal(plume_system_destroy(fixture_context(), fragment.system), PLUME_OK);
}

/* A refused draw: `expected`, one message containing `message`, nothing
 * drawn and no state changed. */
static void check_refused(const drawn *d, const plume_frame_desc *frame, host_target *h, const char *message,
                          const char *what) {
    GLint64 before[HOSTILE_MAX_VALUES];
    int values = snapshot(before);
    int said = test_log_count(message);
    plume_result r = draw(d, frame);
    if (r != PLUME_ERROR_INVALID_ARGUMENT) fail_msg("%s: %d, not PLUME_ERROR_INVALID_ARGUMENT", what, (int)r);
    if (test_log_count(message) != said + 1) fail_msg("%s: no message with \"%s\"", what, message);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    assert_unchanged(before, values, what);
    float *picture = render_new_image();
    glBindTexture(GL_TEXTURE_2D, h->color);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, picture);
    glBindTexture(GL_TEXTURE_2D, 0);
    assert_int_equal(render_covered_pixels(picture), 0);
    free(picture);
}

static void test_bad_depth_textures_and_viewport_sizes_are_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -8.0f};
    drawn d = {.system = render_cloud(centre, 4.0f, 0.8f, 400, 7, false)};
    plume_frame_desc frame = camera_frame(&c);
    assert_int_equal(plume_system_update(fixture_context(), d.system, &frame), PLUME_OK);
    plume_draw_group group;
    plume_draw_group_desc group_desc = {.systems = &d.system, .system_count = 1};
    assert_int_equal(plume_draw_group_create(fixture_context(), &group_desc, &group), PLUME_OK);
    GLuint colour = test_texture_create(GL_RGBA8, WIDTH, HEIGHT);
    /* update (depth collisions read it) refuses it too, before it changes anything. */
    frame.depth_texture = colour;
    assert_int_equal(plume_system_update(fixture_context(), d.system, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(test_log_count("has no depth format"), 1);
    for (int grouped = 0; grouped < 2; ++grouped) {
        d.group = grouped ? group : (plume_draw_group){0};
        const uint32_t paths = grouped ? 1 : 2;
        for (uint32_t path = 0; path < paths; ++path)
            for (size_t r = 0; r < 3; ++r) {
                frame.draw_path = path;
                frame.draw_resolution = RESOLUTIONS[r];
                char what[96];
                host_target h = host_target_begin();
                frame.depth_texture = colour;
                snprintf(what, sizeof what, "colour depth texture, group %d path %u res %u", grouped, path,
                         RESOLUTIONS[r]);
                check_refused(&d, &frame, &h, "has no depth format", what);
                frame.depth_texture = h.depth;
                snprintf(what, sizeof what, "attached depth texture, group %d path %u res %u", grouped, path,
                         RESOLUTIONS[r]);
                check_refused(&d, &frame, &h, "is attached to the draw framebuffer", what);
                frame.depth_texture = h.depth_copy;
                frame.viewport_size[0] = WIDTH, frame.viewport_size[1] = -1;
                snprintf(what, sizeof what, "negative viewport_size, group %d path %u res %u", grouped, path,
                         RESOLUTIONS[r]);
                check_refused(&d, &frame, &h, "viewport_size", what);
                frame.viewport_size[0] = frame.viewport_size[1] = 0;
                assert_int_equal(draw(&d, &frame), PLUME_OK);
                host_target_end(&h, NULL);
            }
    }
    glDeleteTextures(1, &colour);
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), d.system), PLUME_OK);
}

static void make_lit(plume_system_desc *desc) { desc->lit = true; }

static void test_lit_system_without_light_warns_once(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -8.0f};
    static const char *WARNING = "is lit but the frame has no light";
    plume_system lit = render_cloud_with(centre, 4.0f, 0.8f, 100, 7, false, make_lit);
    plume_system unlit = render_cloud(centre, 4.0f, 0.8f, 100, 7, false);
    plume_frame_desc frame = camera_frame(&c);
    float *picture = render_new_image();
    for (int k = 0; k < 3; ++k) {
        render_frame(lit, &c, frame, false, 0, 0.0f, picture);
        render_frame(unlit, &c, frame, false, 0, 0.0f, picture);
    }
    assert_int_equal(test_log_count(WARNING), 1);
    /* Any light at all (ambient alone included) is a light. */
    plume_system second = render_cloud_with(centre, 4.0f, 0.8f, 100, 7, false, make_lit);
    frame.ambient_color[0] = frame.ambient_color[1] = frame.ambient_color[2] = 0.3f;
    render_frame(second, &c, frame, false, 0, 0.0f, picture);
    assert_int_equal(test_log_count(WARNING), 1);
    /* A draw group with a lit system: once per group. */
    plume_draw_group group;
    plume_system members[] = {unlit, lit};
    plume_draw_group_desc group_desc = {.systems = members, .system_count = 2};
    assert_int_equal(plume_draw_group_create(fixture_context(), &group_desc, &group), PLUME_OK);
    frame = camera_frame(&c);
    host_target h = host_target_begin();
    for (int k = 0; k < 3; ++k) assert_int_equal(plume_draw_group_draw(fixture_context(), group, &frame), PLUME_OK);
    host_target_end(&h, NULL);
    assert_int_equal(test_log_count(WARNING), 2);
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    free(picture);
    plume_system systems[] = {lit, unlit, second};
    for (int i = 0; i < 3; ++i) assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
}

static void test_dt_over_a_second_warns_once(void **state) {
    (void)state;
    static const char *WARNING = "over a second";
    const float centre[3] = {0.0f, 0.0f, -8.0f};
    plume_system system = render_cloud(centre, 4.0f, 0.8f, 100, 7, false);
    plume_frame_desc frame = {.dt = 1.0f};
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    assert_int_equal(test_log_count(WARNING), 0);
    frame.dt = 1e6f;
    for (int k = 0; k < 3; ++k) assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    assert_int_equal(test_log_count(WARNING), 1);
    test_log_expect_errors();
    const float absurd[] = {-1.0f, NAN, INFINITY};
    for (int k = 0; k < 3; ++k) {
        frame.dt = absurd[k];
        assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    }
    assert_int_equal(test_log_count("it must be finite and >= 0"), 3);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

static void test_burst_over_capacity_warns_at_create_and_check(void **state) {
    (void)state;
    static const char *WARNING = "emitters[2].burst_count is 1000, over the capacity 100";
    plume_system_desc desc = {.capacity = 100, .logger = test_logger()};
    desc.emitters[2] = (plume_emitter_desc){.burst_count = 1000, .lifetime = {1, 1}};
    assert_int_equal(plume_system_desc_check(&desc, NULL), PLUME_OK);
    assert_int_equal(test_log_count(WARNING), 1);
    plume_system system;
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    assert_int_equal(test_log_count(WARNING), 2);
    desc.emitters[2].burst_count = 100;
    assert_int_equal(plume_system_desc_check(&desc, NULL), PLUME_OK);
    assert_int_equal(test_log_count("over the capacity"), 2);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

const struct CMUnitTest host_inputs_tests[] = {
    cmocka_unit_test_setup_teardown(test_zero_viewport_draws_nothing_on_every_path_and_resolution, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bad_depth_textures_and_viewport_sizes_are_refused, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_lit_system_without_light_warns_once, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_dt_over_a_second_warns_once, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_burst_over_capacity_warns_at_create_and_check, fixture_setup,
                                    fixture_teardown),
};
const size_t host_inputs_test_count = sizeof host_inputs_tests / sizeof host_inputs_tests[0];
