/* plume_context_warm_programs (since 1.3): a look's programs built for a
 * loading screen. Bad input is refused with a message and keeps nothing; a
 * warm-up leaves the host's framebuffer, viewport and texture binding as
 * they were, logs none of its temporary system's warnings, keeps only
 * programs (until the context goes, which deletes them), and a system of the
 * look then draws as one made without it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <epoxy/gl.h>

#include "plume/plume_particles.h"
#include "plume/plume_plugin.h"
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

/* A lit look (its draw warns without a light), additive, sorted by distance. */
static plume_system_desc lit_look(uint32_t capacity, uint32_t seed) {
    plume_system_desc d = {.capacity = capacity, .seed = seed, .lit = true, .sort_mode = PLUME_SORT_MODE_DISTANCE,
                           .path = test_forced_path()};
    d.emitters[0] = (plume_emitter_desc){.position = {0, 0, -5}, .extents = {1, 1, 1}, .shape = PLUME_SHAPE_BOX,
                                         .rate = 2000.0f, .lifetime = {1, 2}, .size = {0.2f, 0.4f}};
    d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {0.8f, 0.6f, 0.3f, 0.5f}}}};
    d.blend_mode = PLUME_BLEND_PREMULTIPLIED_ADDITIVE;
    d.additive_over_life = (plume_curve){1, {{0.0f, 0.5f}}};
    return d;
}

static uint32_t listed(plume_context *context, uint32_t *programs) {
    plume_gl_object objects[512];
    uint32_t count = 0;
    assert_int_equal(plume_context_list_gl_objects(context, objects, 512, &count), PLUME_OK);
    assert_true(count <= 512);
    *programs = 0;
    for (uint32_t i = 0; i < count; ++i) *programs += objects[i].type == GL_PROGRAM;
    return count;
}

static void test_warm_refuses_bad_input(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_system_desc desc = lit_look(100, 1);
    assert_int_equal(plume_context_warm_programs(NULL, &desc, 0), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_context_warm_programs(fixture_context(), NULL, 0), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_context_warm_programs"));
    assert_int_equal(plume_context_warm_programs(fixture_context(), &desc, 1u << 3), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("draws 0x8"));
    desc.capacity = 0;
    assert_int_equal(plume_context_warm_programs(fixture_context(), &desc, 0), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("capacity"));
    uint32_t programs = 0;
    assert_int_equal(listed(fixture_context(), &programs), 0);
}

static void test_warm_keeps_programs_and_the_host_state(void **state) {
    (void)state;
    plume_context_desc context_desc = {.logger = test_logger()};
    plume_context *context = NULL;
    assert_int_equal(plume_context_create(&context_desc, &context), PLUME_OK);
    GLuint framebuffer = 0, texture = 0;
    glGenFramebuffers(1, &framebuffer);
    glGenTextures(1, &texture);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glActiveTexture(GL_TEXTURE3);
    glBindTexture(GL_TEXTURE_2D, texture);
    glViewport(3, 5, 77, 41);
    plume_system_desc desc = lit_look(300, 9);
    assert_int_equal(plume_context_warm_programs(context, &desc, 0), PLUME_OK);
    GLint bound = 0, active = 0, bound_texture = 0, viewport[4] = {0};
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &bound);
    assert_int_equal(bound, (GLint)framebuffer);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &bound);
    assert_int_equal(bound, (GLint)framebuffer);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    assert_int_equal(active, GL_TEXTURE3);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound_texture);
    assert_int_equal(bound_texture, (GLint)texture);
    glGetIntegerv(GL_VIEWPORT, viewport);
    assert_true(viewport[0] == 3 && viewport[1] == 5 && viewport[2] == 77 && viewport[3] == 41);
    assert_false(test_log_contains("light"));
    uint32_t programs = 0, count = listed(context, &programs);
    printf("  the warm-up kept %u GL objects, %u of them programs\n", count, programs);
    assert_true(programs > 0);
    assert_int_equal(count, programs);
    /* A system of the look, created, updated and drawn after it. */
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glActiveTexture(GL_TEXTURE0);
    glDeleteFramebuffers(1, &framebuffer);
    glDeleteTextures(1, &texture);
    plume_system system = {0};
    desc.seed = 4;
    assert_int_equal(plume_system_create(context, &desc, &system), PLUME_OK);
    plume_frame_desc frame = {.dt = 0.05f};
    assert_int_equal(plume_system_update(context, system, &frame), PLUME_OK);
    plume_readback rb = {0};
    assert_int_equal(plume_system_read_back(context, system, &rb), PLUME_OK);
    assert_true(rb.live_count > 0);
    assert_int_equal(plume_system_destroy(context, system), PLUME_OK);
    uint32_t programs_after = 0;
    assert_int_equal(listed(context, &programs_after), programs);
    assert_int_equal(programs_after, programs);
    assert_int_equal(fixture_destroy_context_checked(context), programs); /* each deleted */
}

const struct CMUnitTest warm_tests[] = {
    cmocka_unit_test_setup_teardown(test_warm_refuses_bad_input, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_warm_keeps_programs_and_the_host_state, fixture_setup, fixture_teardown),
};
const size_t warm_test_count = sizeof warm_tests / sizeof warm_tests[0];
