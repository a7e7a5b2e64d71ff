/* Particle systems in an OpenGL ES 3.0 context (tests/run_gles3.sh makes the
 * tests' context one; in any other context these tests skip). The fragment
 * path runs there with its list in a texture (no buffer textures): the
 * particle suites' tests that hold on the fragment path run in that context
 * against their CPU references (the script lists them). Here, what ES 3.0
 * refuses, by name, with nothing made: float render targets without
 * EXT_color_buffer_float (the script runs a second time with the extension
 * hidden), a host texture (its format and levels cannot be asked before ES
 * 3.1), and what needs the compute path as on GL 3.3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <epoxy/gl.h>

#include "gl_spy.h"
#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

static bool in_gles_context(void) {
    const char *version = (const char *)glGetString(GL_VERSION);
    return version && strncmp(version, "OpenGL ES 3.", 12) == 0;
}

static plume_system_desc burst_desc(void) {
    plume_system_desc desc = {.capacity = 777, .logger = test_logger()};
    desc.emitters[0] = (plume_emitter_desc){.burst_count = 300, .burst_interval = 10.0f, .lifetime = {5, 5}};
    return desc;
}

/* `desc` is refused with `message`, its handle left zero. */
static void assert_refused(plume_system_desc desc, plume_result expected, const char *message) {
    plume_system system = {12345};
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), expected);
    assert_true(test_log_contains(message));
    assert_int_equal(system.id, 0);
}

/* With EXT_color_buffer_float a system runs (its burst read back); without
 * it the simulate pass's RGBA32F targets cannot be rendered to, and the
 * system is refused, naming the path and the extension. */
static void test_gles_particles_need_float_targets(void **state) {
    (void)state;
    if (!in_gles_context()) skip();
    printf("GL_VERSION: %s, EXT_color_buffer_float: %s\n", (const char *)glGetString(GL_VERSION),
           epoxy_has_gl_extension("GL_EXT_color_buffer_float") ? "yes" : "no");
    if (!epoxy_has_gl_extension("GL_EXT_color_buffer_float")) {
        test_log_expect_errors();
        assert_refused(burst_desc(), PLUME_ERROR_GL_UNSUPPORTED,
                       "plume_system_create: path: the fragment path's particle systems render into RGBA32F "
                       "textures, which OpenGL ES makes renderable only with EXT_color_buffer_float");
        return;
    }
    plume_system system = make_system(burst_desc());
    assert_int_equal(system_desc(fixture_context(), system).path, PLUME_PATH_FRAGMENT);
    plume_frame_desc frame = make_frame(0.05f, NULL, NULL);
    update(system, &frame);
    plume_readback rb = read_all(fixture_context(), system);
    assert_int_equal(rb.live_count, 300);
    assert_int_equal(rb.drawn_count, 300);
    free_readback(&rb);
    destroy_system(system);
}

/* What needs more than ES 3.0 is refused by name, nothing made: a host
 * texture where the GL is ES 3.0 (an ES 3.1 or later context, as NVIDIA's
 * ES 3.2, checks it and takes it). */
static void test_gles_particles_refuse_by_name(void **state) {
    (void)state;
    if (!in_gles_context() || !epoxy_has_gl_extension("GL_EXT_color_buffer_float")) skip();
    bool es30 = epoxy_gl_version() < 31;
    test_log_expect_errors();
    GLuint texture = 0;
    const unsigned char white[4] = {255, 255, 255, 255};
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, white);
    glBindTexture(GL_TEXTURE_2D, 0);
    plume_system_desc desc = burst_desc();
    desc.host_sprite = (plume_host_sprite){.texture = texture};
    if (es30) {
        assert_refused(desc, PLUME_ERROR_INVALID_ARGUMENT, "needs OpenGL ES 3.1 to be checked");
        assert_true(test_log_contains("plume_system_create: host_sprite.texture "));
    } else {
        destroy_system(make_system(desc));
    }
    glDeleteTextures(1, &texture);
    desc = burst_desc();
    desc.self_shadow.strength = 0.5f;
    desc.lit = true;
    assert_refused(desc, PLUME_ERROR_GL_UNSUPPORTED, "self_shadow.strength needs the compute path");
    desc = burst_desc();
    desc.path = PLUME_PATH_COMPUTE;
    assert_refused(desc, PLUME_ERROR_GL_UNSUPPORTED, "needs OpenGL 4.3");
}

/* A 16x16 RGBA8 framebuffer bound to draw into (the context may have none). */
static void bind_small_target(GLuint *framebuffer, GLuint *colour) {
    glGenTextures(1, colour);
    glBindTexture(GL_TEXTURE_2D, *colour);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glBindTexture(GL_TEXTURE_2D, 0);
    glGenFramebuffers(1, framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, *framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, *colour, 0);
    glViewport(0, 0, 16, 16);
}

/* WebGL 2 is ES 3.0 without GL_PRIMITIVE_RESTART_FIXED_INDEX (always on, no
 * enum: naming it is GL_INVALID_ENUM there): in a context whose GL_VERSION
 * is a browser's, a system's creation, update and draw never name it, and
 * say no error. (Mesa's ES 3.0 plays the browser through the spy.) */
static void test_webgl_is_never_asked_the_fixed_index_restart(void **state) {
    (void)state;
    if (!in_gles_context() || !epoxy_has_gl_extension("GL_EXT_color_buffer_float")) skip();
    for (int webgl = 0; webgl <= 1; ++webgl) {
        spy_install();
        spy.fake_version = webgl ? "OpenGL ES 3.0 (WebGL 2.0 (OpenGL ES 3.0 Chromium))" : NULL;
        /* A context of its own: the capabilities are asked once per context. */
        plume_context *context = NULL;
        plume_context_desc context_desc = {.logger = test_logger()};
        assert_int_equal(plume_context_create(&context_desc, &context), PLUME_OK);
        plume_system system = {0};
        plume_system_desc desc = burst_desc();
        assert_int_equal(plume_system_create(context, &desc, &system), PLUME_OK);
        plume_frame_desc frame = make_frame(0.05f, NULL, NULL);
        assert_int_equal(plume_system_update(context, system, &frame), PLUME_OK);
        GLuint target = 0, colour = 0;
        bind_small_target(&target, &colour);
        assert_int_equal(plume_system_draw(context, system, &frame), PLUME_OK);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glDeleteFramebuffers(1, &target);
        glDeleteTextures(1, &colour);
        assert_int_equal(plume_system_destroy(context, system), PLUME_OK);
        plume_context_destroy(context);
        long uses = spy.fixed_index_restart_uses;
        spy_remove();
        printf("  %s: GL_PRIMITIVE_RESTART_FIXED_INDEX named %ld times\n", webgl ? "WebGL 2" : "ES 3.0", uses);
        if (webgl) assert_int_equal(uses, 0);
        else assert_true(uses > 0); /* ES 3.0 has it: the scope saves and restores it */
    }
}

const struct CMUnitTest particle_gles_tests[] = {
    cmocka_unit_test_setup_teardown(test_gles_particles_need_float_targets, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_gles_particles_refuse_by_name, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_webgl_is_never_asked_the_fixed_index_restart, fixture_setup,
                                    fixture_teardown),
};
const size_t particle_gles_test_count = sizeof particle_gles_tests / sizeof particle_gles_tests[0];
