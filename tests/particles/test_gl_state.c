/* Every particle call restores the GL state it touches (the host's values
 * are unusual everywhere the module binds something). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume/plume_sort.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

/* ---- GL state ---------------------------------------------------------------------- */

enum { STATE_VALUES = 128 };

/* Everything the module might touch, as integers. */
static int snapshot_gl_state(GLint64 *v) {
    int n = 0;
    const GLenum singles[] = {GL_CURRENT_PROGRAM, GL_SHADER_STORAGE_BUFFER_BINDING, GL_DISPATCH_INDIRECT_BUFFER_BINDING,
                              GL_DRAW_INDIRECT_BUFFER_BINDING, GL_COPY_READ_BUFFER_BINDING,
                              GL_COPY_WRITE_BUFFER_BINDING, GL_PIXEL_UNPACK_BUFFER_BINDING, GL_UNPACK_ALIGNMENT,
                              GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_PIXELS, GL_UNPACK_SKIP_ROWS,
                              GL_VERTEX_ARRAY_BINDING, GL_ARRAY_BUFFER_BINDING, GL_ELEMENT_ARRAY_BUFFER_BINDING,
                              GL_UNIFORM_BUFFER_BINDING, GL_ACTIVE_TEXTURE, GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB,
                              GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA, GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA,
                              GL_DEPTH_FUNC, GL_DEPTH_WRITEMASK, GL_DRAW_FRAMEBUFFER_BINDING,
                              GL_READ_FRAMEBUFFER_BINDING};
    for (size_t i = 0; i < sizeof singles / sizeof singles[0]; ++i) glGetInteger64v(singles[i], &v[n++]);
    const GLenum capabilities[] = {GL_BLEND, GL_DEPTH_TEST, GL_CULL_FACE, GL_SCISSOR_TEST, GL_DEBUG_OUTPUT_SYNCHRONOUS};
    for (size_t i = 0; i < sizeof capabilities / sizeof capabilities[0]; ++i) v[n++] = glIsEnabled(capabilities[i]);
    for (GLuint i = 0; i < 8; ++i) {
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_BINDING, i, &v[n++]);
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, i, &v[n++]);
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, i, &v[n++]);
    }
    GLint active = 0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    for (GLuint unit = 0; unit < 4; ++unit) {
        glActiveTexture(GL_TEXTURE0 + unit);
        glGetInteger64v(GL_TEXTURE_BINDING_2D, &v[n++]);
        glGetInteger64v(GL_SAMPLER_BINDING, &v[n++]);
    }
    glActiveTexture((GLenum)active);
    GLint viewport[4];
    glGetIntegerv(GL_VIEWPORT, viewport);
    for (int i = 0; i < 4; ++i) v[n++] = viewport[i];
    void *callback = NULL, *user = NULL;
    glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION, &callback);
    glGetPointerv(GL_DEBUG_CALLBACK_USER_PARAM, &user);
    v[n++] = (GLint64)(intptr_t)callback;
    v[n++] = (GLint64)(intptr_t)user;
    assert_true(n <= STATE_VALUES);
    return n;
}

static void assert_state_unchanged(const GLint64 *before, int count, const char *after_what) {
    GLint64 now[STATE_VALUES];
    int n = snapshot_gl_state(now);
    assert_int_equal(n, count);
    for (int i = 0; i < n; ++i)
        if (now[i] != before[i])
            fail_msg("GL state value %d changed by %s: %lld became %lld", i, after_what, (long long)before[i],
                     (long long)now[i]);
}

static void test_particle_calls_restore_gl_state(void **state) {
    (void)state;
    mat4 view, projection;
    ortho_camera(view, projection);
    GLuint depth = plane_depth_texture(projection, 6.0f);
    /* A host with unusual state everywhere the module might touch. */
    GLint alignment = 0;
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
    GLuint buffers[14];
    for (int i = 0; i < 14; ++i) buffers[i] = test_buffer_create(4096, NULL);
    for (GLuint i = 0; i < 8; ++i) {
        if (i % 2) glBindBufferRange(GL_SHADER_STORAGE_BUFFER, i, buffers[i], alignment, 512);
        else glBindBufferBase(GL_SHADER_STORAGE_BUFFER, i, buffers[i]);
    }
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[8]);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, buffers[9]);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, buffers[10]);
    glBindBuffer(GL_COPY_READ_BUFFER, buffers[11]);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffers[12]);
    GLuint host_vao = 0;
    glGenVertexArrays(1, &host_vao);
    glBindVertexArray(host_vao);
    const char *source = "#version 430 core\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
    GLuint shader = glCreateShader(GL_COMPUTE_SHADER), program = glCreateProgram();
    glShaderSource(shader, 1, &source, NULL);
    glCompileShader(shader);
    glAttachShader(program, shader);
    glLinkProgram(program);
    glUseProgram(program);
    GLuint textures[4], samplers[4];
    glGenTextures(4, textures);
    glGenSamplers(4, samplers);
    for (GLuint unit = 0; unit < 4; ++unit) {
        glActiveTexture(GL_TEXTURE0 + unit);
        glBindTexture(GL_TEXTURE_2D, textures[unit]);
        glBindSampler(unit, samplers[unit]);
    }
    glActiveTexture(GL_TEXTURE3);
    glDisable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_DST_COLOR, GL_ZERO, GL_CONSTANT_ALPHA);
    glBlendEquationSeparate(GL_FUNC_REVERSE_SUBTRACT, GL_MAX);
    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_GEQUAL);
    glEnable(GL_CULL_FACE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 3);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffers[13]);
    const float clear[4] = {0, 0, 0, 0};
    test_target t = test_target_begin(IMAGE_SIZE, clear);

    GLint64 before[STATE_VALUES];
    int count = snapshot_gl_state(before);
    unsigned char *pixels = flipbook_pixels();
    plume_system_desc desc = overlap_desc(3);
    desc.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = 16, .height = 16, .columns = 2};
    plume_system system = make_system(desc);
    assert_state_unchanged(before, count, "create");
    plume_frame_desc frame = make_frame(0.1f, view, projection);
    frame.depth_texture = depth;
    update(system, &frame);
    assert_state_unchanged(before, count, "update");
    frame.disable_sort = true;
    update(system, &frame);
    assert_state_unchanged(before, count, "update without sorting");
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    assert_state_unchanged(before, count, "draw");
    plume_readback rb = read_all(fixture_context(), system);
    free_readback(&rb);
    assert_state_unchanged(before, count, "read_back");
    plume_emitter_desc emitter = {.rate = 3};
    assert_int_equal(plume_system_set_emitter(fixture_context(), system, 2, &emitter), PLUME_OK);
    assert_state_unchanged(before, count, "set_emitter");
    assert_int_equal(plume_system_reset(fixture_context(), system), PLUME_OK);
    assert_state_unchanged(before, count, "reset");
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    assert_state_unchanged(before, count, "set_profiling (on)");
    frame.disable_sort = false;
    for (int k = 0; k < 3; ++k) { /* the second frame on reads the first one's results */
        update(system, &frame);
        assert_state_unchanged(before, count, "update, profiled");
        assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
        assert_state_unchanged(before, count, "draw, profiled");
        glFinish();
    }
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
    assert_true(profile.enabled);
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, false), PLUME_OK);
    assert_state_unchanged(before, count, "set_profiling (off)");
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    update(system, &frame);
    destroy_system(system); /* profiling on, a frame in flight */
    assert_state_unchanged(before, count, "destroy");

    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    test_target_end(&t, image);
    free(image);
    free(pixels);
    glDeleteTextures(1, &depth);
    glUseProgram(0);
    glDeleteProgram(program);
    glDeleteShader(shader);
    glBindVertexArray(0);
    glDeleteVertexArrays(1, &host_vao);
    glDeleteTextures(4, textures);
    glDeleteSamplers(4, samplers);
    glDeleteBuffers(14, buffers);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glBlendFunc(GL_ONE, GL_ZERO);
    glBlendEquation(GL_FUNC_ADD);
    glDepthFunc(GL_LESS);
    glDisable(GL_CULL_FACE);
    glActiveTexture(GL_TEXTURE0);
}

const struct CMUnitTest particle_gl_state_tests[] = {
    cmocka_unit_test_setup_teardown(test_particle_calls_restore_gl_state, fixture_setup, fixture_teardown),
};
const size_t particle_gl_state_test_count = sizeof particle_gl_state_tests / sizeof particle_gl_state_tests[0];
