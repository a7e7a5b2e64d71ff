/* See hostile_host.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hostile_host.h"
#include "test_env.h"

const unsigned char HOSTILE_CANARY = 0xA5;

/* Texture level 0 as bytes (RGBA8) or floats (RGBA32F), in a clean state. */
void read_texture(GLuint texture, GLenum type, void *out) {
    glBindTexture(GL_TEXTURE_2D, texture);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, type, out);
    glBindTexture(GL_TEXTURE_2D, 0);
}

/* ---- Everything the host set, as numbers ---- */

int snapshot(GLint64 *v) {
    int n = 0;
    const GLenum singles[] = {
        GL_CURRENT_PROGRAM, GL_PROGRAM_PIPELINE_BINDING, GL_QUERY_BUFFER_BINDING, GL_PIXEL_PACK_BUFFER_BINDING,
        GL_PIXEL_UNPACK_BUFFER_BINDING, GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_PIXELS,
        GL_PACK_SKIP_ROWS, GL_PACK_SWAP_BYTES, GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_PIXELS,
        GL_UNPACK_SKIP_ROWS, GL_UNPACK_SWAP_BYTES, GL_UNPACK_LSB_FIRST, GL_DRAW_FRAMEBUFFER_BINDING,
        GL_READ_FRAMEBUFFER_BINDING, GL_READ_BUFFER, GL_DRAW_BUFFER0, GL_DRAW_BUFFER1,
        GL_TRANSFORM_FEEDBACK_BINDING, GL_TRANSFORM_FEEDBACK_ACTIVE, GL_TRANSFORM_FEEDBACK_PAUSED,
        GL_ACTIVE_TEXTURE, GL_STENCIL_FUNC, GL_STENCIL_WRITEMASK, GL_STENCIL_VALUE_MASK, GL_STENCIL_REF,
        GL_DEPTH_FUNC, GL_DEPTH_WRITEMASK, GL_LOGIC_OP_MODE, GL_POLYGON_OFFSET_FACTOR, GL_POLYGON_OFFSET_UNITS,
        GL_PRIMITIVE_RESTART_INDEX, GL_VERTEX_ARRAY_BINDING, GL_DRAW_INDIRECT_BUFFER_BINDING,
        GL_DISPATCH_INDIRECT_BUFFER_BINDING, GL_COPY_READ_BUFFER_BINDING, GL_COPY_WRITE_BUFFER_BINDING,
        GL_SHADER_STORAGE_BUFFER_BINDING, GL_ARRAY_BUFFER_BINDING, GL_UNIFORM_BUFFER_BINDING,
        GL_ATOMIC_COUNTER_BUFFER_BINDING, GL_TEXTURE_BINDING_2D, GL_SAMPLER_BINDING};
    for (size_t i = 0; i < sizeof singles / sizeof singles[0]; ++i) glGetInteger64v(singles[i], &v[n++]);
    GLint64 quad[4];
    const GLenum quads[] = {GL_SCISSOR_BOX, GL_VIEWPORT, GL_POLYGON_MODE};
    for (size_t i = 0; i < sizeof quads / sizeof quads[0]; ++i) {
        memset(quad, 0, sizeof quad);
        glGetInteger64v(quads[i], quad);
        for (int k = 0; k < 4; ++k) v[n++] = quad[k];
    }
    float coverage = 0.0f;
    glGetFloatv(GL_SAMPLE_COVERAGE_VALUE, &coverage);
    v[n++] = (GLint64)(coverage * 1000.0f);
    const GLenum capabilities[] = {
        GL_RASTERIZER_DISCARD, GL_FRAMEBUFFER_SRGB, GL_PRIMITIVE_RESTART, GL_PRIMITIVE_RESTART_FIXED_INDEX,
        GL_STENCIL_TEST, GL_SCISSOR_TEST, GL_SAMPLE_MASK, GL_SAMPLE_ALPHA_TO_COVERAGE, GL_SAMPLE_ALPHA_TO_ONE,
        GL_SAMPLE_COVERAGE, GL_DEPTH_CLAMP, GL_COLOR_LOGIC_OP, GL_POLYGON_OFFSET_FILL, GL_CULL_FACE,
        GL_DEPTH_TEST, GL_DITHER, GL_MULTISAMPLE, GL_PROGRAM_POINT_SIZE, GL_DEBUG_OUTPUT_SYNCHRONOUS};
    for (size_t i = 0; i < sizeof capabilities / sizeof capabilities[0]; ++i) v[n++] = glIsEnabled(capabilities[i]);
    for (GLenum i = 0; i < 8; ++i) v[n++] = glIsEnabled(GL_CLIP_DISTANCE0 + i);
    for (GLuint buffer = 0; buffer < 2; ++buffer) {
        GLboolean mask[4];
        glGetBooleani_v(GL_COLOR_WRITEMASK, buffer, mask);
        for (int k = 0; k < 4; ++k) v[n++] = mask[k];
        v[n++] = glIsEnabledi(GL_BLEND, buffer);
        const GLenum blend[] = {GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB, GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA,
                                GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA};
        for (size_t k = 0; k < sizeof blend / sizeof blend[0]; ++k) glGetInteger64i_v(blend[k], buffer, &v[n++]);
    }
    glGetInteger64i_v(GL_SAMPLE_MASK_VALUE, 0, &v[n++]);
    const GLenum image[] = {GL_IMAGE_BINDING_NAME, GL_IMAGE_BINDING_ACCESS, GL_IMAGE_BINDING_FORMAT};
    for (size_t k = 0; k < sizeof image / sizeof image[0]; ++k) glGetInteger64i_v(image[k], 0, &v[n++]);
    /* The texture units the module binds (its draws', its simulate's, the
     * fragment path's particle textures: units 0 .. 5). */
    GLint active = 0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    for (GLenum unit = 0; unit < 6; ++unit) {
        glActiveTexture(GL_TEXTURE0 + unit);
        glGetInteger64v(GL_TEXTURE_BINDING_2D, &v[n++]);
        glGetInteger64v(GL_TEXTURE_BINDING_3D, &v[n++]);
        glGetInteger64v(GL_TEXTURE_BINDING_2D_ARRAY, &v[n++]);
        glGetInteger64v(GL_SAMPLER_BINDING, &v[n++]);
    }
    glActiveTexture((GLenum)active);
    for (GLuint i = 0; i < 9; ++i) { /* 8: the spawn batches', saved only by the calls that bind it */
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_BINDING, i, &v[n++]);
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, i, &v[n++]);
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, i, &v[n++]);
    }
    assert_true(n <= HOSTILE_MAX_VALUES);
    return n;
}

void assert_unchanged(const GLint64 *before, int count, const char *after_what) {
    GLint64 now[HOSTILE_MAX_VALUES];
    assert_int_equal(snapshot(now), count);
    for (int i = 0; i < count; ++i)
        if (now[i] != before[i])
            fail_msg("host GL state value %d changed by %s: %lld became %lld", i, after_what, (long long)before[i],
                     (long long)now[i]);
}

/* ---- The hostile host ---- */


static GLuint canary_buffer(void) {
    unsigned char bytes[HOSTILE_CANARY_BYTES];
    memset(bytes, HOSTILE_CANARY, sizeof bytes);
    return test_buffer_create(sizeof bytes, bytes);
}

static void assert_canary_buffer(GLuint buffer, const char *what) {
    unsigned char bytes[HOSTILE_CANARY_BYTES];
    test_buffer_read(buffer, 0, sizeof bytes, bytes);
    for (size_t i = 0; i < sizeof bytes; ++i)
        if (bytes[i] != HOSTILE_CANARY) fail_msg("the host's %s was written at byte %zu", what, i);
}

static GLuint link_feedback_program(void) {
    const char *source = "#version 430 core\nout float captured;\nvoid main() { captured = 1.0; gl_Position = vec4(0.0); }\n";
    GLuint shader = glCreateShader(GL_VERTEX_SHADER), program = glCreateProgram();
    glShaderSource(shader, 1, &source, NULL);
    glCompileShader(shader);
    glAttachShader(program, shader);
    const char *varying = "captured";
    glTransformFeedbackVaryings(program, 1, &varying, GL_INTERLEAVED_ATTRIBS);
    glLinkProgram(program);
    glDeleteShader(shader);
    GLint linked = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    assert_true(linked);
    return program;
}

/* ---- Each piece of hostile state, set on its own ---- */

static void set_transform_feedback(host_objects *h) {
    h->feedback_program = link_feedback_program();
    glGenTransformFeedbacks(1, &h->feedback);
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, h->feedback);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, h->feedback_canary);
    glUseProgram(h->feedback_program);
    glBeginTransformFeedback(GL_POINTS);
    glPauseTransformFeedback();
    glUseProgram(0);
}

static void set_program_pipeline(host_objects *h) {
    const char *separable = "#version 430 core\nout gl_PerVertex { vec4 gl_Position; };\n"
                            "void main() { gl_Position = vec4(0.0); }\n";
    h->separable_program = glCreateShaderProgramv(GL_VERTEX_SHADER, 1, &separable);
    glGenProgramPipelines(1, &h->pipeline);
    glUseProgramStages(h->pipeline, GL_VERTEX_SHADER_BIT, h->separable_program);
    glUseProgram(0);
    glBindProgramPipeline(h->pipeline);
}

static void set_buffers_and_pixel_store(host_objects *h) {
    glBindBuffer(GL_QUERY_BUFFER, h->query_canary);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, h->pack_canary);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, h->unpack_canary);
    const GLint values[][2] = {{GL_PACK_ALIGNMENT, 2},     {GL_PACK_ROW_LENGTH, 7},    {GL_PACK_SKIP_PIXELS, 3},
                               {GL_PACK_SKIP_ROWS, 5},     {GL_PACK_SWAP_BYTES, 1},    {GL_UNPACK_ALIGNMENT, 8},
                               {GL_UNPACK_ROW_LENGTH, 9},  {GL_UNPACK_SKIP_PIXELS, 1}, {GL_UNPACK_SKIP_ROWS, 2},
                               {GL_UNPACK_SWAP_BYTES, 1},  {GL_UNPACK_LSB_FIRST, 1}};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; ++i) glPixelStorei((GLenum)values[i][0], values[i][1]);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
}

static void set_rasterizer_discard(host_objects *h) {
    (void)h;
    glEnable(GL_RASTERIZER_DISCARD);
}

static void set_framebuffer_srgb(host_objects *h) {
    (void)h;
    glEnable(GL_FRAMEBUFFER_SRGB);
}

static void set_clip_distances(host_objects *h) {
    (void)h;
    for (GLenum i = 0; i < 8; ++i) glEnable(GL_CLIP_DISTANCE0 + i);
}

static void set_primitive_restart(host_objects *h) {
    (void)h;
    glEnable(GL_PRIMITIVE_RESTART);
    glPrimitiveRestartIndex(3);
}

static void set_polygon_state(host_objects *h) {
    (void)h;
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(4.0f, 1000.0f);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_FRONT_AND_BACK);
}

static void set_depth_clamp_and_logic_op(host_objects *h) {
    (void)h;
    glEnable(GL_DEPTH_CLAMP);
    glEnable(GL_COLOR_LOGIC_OP);
    glLogicOp(GL_XOR);
}

static void set_masks_and_tests(host_objects *h) {
    glColorMaski(0, GL_FALSE, GL_TRUE, GL_FALSE, GL_FALSE);
    glColorMaski(1, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_NEVER, 5, 0x0F);
    glStencilMask(0x3C);
    /* The scissor is honoured: the module draws into the left half only. */
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, h->size / 2, h->size);
    h->drawn_width = h->size / 2;
}

static void set_multisample(host_objects *h) {
    (void)h;
    glEnable(GL_SAMPLE_MASK);
    glSampleMaski(0, 0);
    glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE);
    glEnable(GL_SAMPLE_ALPHA_TO_ONE);
    glEnable(GL_SAMPLE_COVERAGE);
    glSampleCoverage(0.25f, GL_TRUE);
}

static void set_blend_and_units(host_objects *h) {
    glEnablei(GL_BLEND, 1);
    glBlendFuncSeparatei(1, GL_DST_COLOR, GL_SRC_ALPHA, GL_ONE, GL_ZERO);
    glBlendEquationSeparatei(1, GL_MAX, GL_FUNC_SUBTRACT);
    glDisablei(GL_BLEND, 0);
    glBlendFuncSeparatei(0, GL_ZERO, GL_SRC_COLOR, GL_CONSTANT_ALPHA, GL_ONE);
    glBindImageTexture(0, h->image_canary, 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA8);
    for (GLenum unit = 0; unit < 2; ++unit) {
        glActiveTexture(GL_TEXTURE0 + unit);
        glBindTexture(GL_TEXTURE_3D, h->volume);
    }
    for (GLenum unit = 0; unit < 3; ++unit) {
        glActiveTexture(GL_TEXTURE0 + unit);
        glBindTexture(GL_TEXTURE_2D_ARRAY, h->layers);
    }
    glActiveTexture(GL_TEXTURE5);
}

typedef struct hostile_item {
    const char *name;
    void (*set)(host_objects *h);
} hostile_item;

static const hostile_item HOSTILE_ITEMS[] = {
    {"transform feedback (paused)", set_transform_feedback},
    {"program pipeline", set_program_pipeline},
    {"query, pack and unpack buffers, pixel store", set_buffers_and_pixel_store},
    {"rasterizer discard", set_rasterizer_discard},
    {"GL_FRAMEBUFFER_SRGB", set_framebuffer_srgb},
    {"clip distances", set_clip_distances},
    {"primitive restart", set_primitive_restart},
    {"polygon mode, offset and culling", set_polygon_state},
    {"depth clamp, logic op", set_depth_clamp_and_logic_op},
    {"masks, stencil, scissor", set_masks_and_tests},
    {"multisample", set_multisample},
    {"blend state, image unit, texture unit", set_blend_and_units},
};
enum { HOSTILE_ITEM_COUNT = sizeof HOSTILE_ITEMS / sizeof HOSTILE_ITEMS[0] };

/* Sets a distinctive value everywhere (PLUME_TEST_HOSTILE_ONLY=N: item N
 * alone, to find which one a driver trips over); transform feedback is left
 * active and paused (the state the module can work under). */
host_objects make_hostile(int size) {
    host_objects h = {.query_canary = canary_buffer(), .pack_canary = canary_buffer(),
                      .unpack_canary = canary_buffer(), .feedback_canary = canary_buffer(), .size = size,
                      .drawn_width = size};
    unsigned char texels[4 * 4 * 4];
    memset(texels, HOSTILE_CANARY, sizeof texels);
    h.image_canary = test_texture_create(GL_RGBA8, 4, 4);
    glBindTexture(GL_TEXTURE_2D, h.image_canary);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glBindTexture(GL_TEXTURE_2D, 0);
    glGenTextures(1, &h.volume);
    glBindTexture(GL_TEXTURE_3D, h.volume);
    glTexStorage3D(GL_TEXTURE_3D, 1, GL_RGBA8, 2, 2, 2);
    glBindTexture(GL_TEXTURE_3D, 0);
    glGenTextures(1, &h.layers);
    glBindTexture(GL_TEXTURE_2D_ARRAY, h.layers);
    glTexStorage3D(GL_TEXTURE_2D_ARRAY, 1, GL_RGBA8, 2, 2, 2);
    glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
    /* An occlusion query that passed nothing: conditional rendering on it
     * discards draws (the host's intent). */
    glGenQueries(1, &h.occlusion_query);
    glBeginQuery(GL_ANY_SAMPLES_PASSED, h.occlusion_query);
    glEndQuery(GL_ANY_SAMPLES_PASSED);
    const char *only = getenv("PLUME_TEST_HOSTILE_ONLY");
    for (int i = 0; i < HOSTILE_ITEM_COUNT; ++i) {
        if (only && atoi(only) != i) continue;
        printf("  hostile: %s\n", HOSTILE_ITEMS[i].name);
        HOSTILE_ITEMS[i].set(&h);
    }
    return h;
}

/* Back to GL's defaults, then checks that nothing of the host's was written. */
void end_hostile(host_objects *h) {
    glDisable(GL_RASTERIZER_DISCARD);
    glDisable(GL_FRAMEBUFFER_SRGB);
    for (GLenum i = 0; i < 8; ++i) glDisable(GL_CLIP_DISTANCE0 + i);
    glDisable(GL_PRIMITIVE_RESTART);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDisable(GL_STENCIL_TEST);
    glStencilFunc(GL_ALWAYS, 0, 0xFF);
    glStencilMask(0xFF);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_SAMPLE_MASK);
    glSampleMaski(0, ~0u);
    glDisable(GL_SAMPLE_ALPHA_TO_COVERAGE);
    glDisable(GL_SAMPLE_ALPHA_TO_ONE);
    glDisable(GL_SAMPLE_COVERAGE);
    glSampleCoverage(1.0f, GL_FALSE);
    glDisable(GL_DEPTH_CLAMP);
    glDisable(GL_COLOR_LOGIC_OP);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(0.0f, 0.0f);
    glDisable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glDisable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ZERO);
    glBlendEquation(GL_FUNC_ADD);
    glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_READ_ONLY, GL_R8);
    for (GLenum unit = 0; unit < 3; ++unit) {
        glActiveTexture(GL_TEXTURE0 + unit);
        glBindTexture(GL_TEXTURE_3D, 0);
        glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
    }
    glActiveTexture(GL_TEXTURE0);
    const GLint defaults[][2] = {{GL_PACK_ALIGNMENT, 4},     {GL_PACK_ROW_LENGTH, 0},    {GL_PACK_SKIP_PIXELS, 0},
                                 {GL_PACK_SKIP_ROWS, 0},     {GL_PACK_SWAP_BYTES, 0},    {GL_UNPACK_ALIGNMENT, 4},
                                 {GL_UNPACK_ROW_LENGTH, 0},  {GL_UNPACK_SKIP_PIXELS, 0}, {GL_UNPACK_SKIP_ROWS, 0},
                                 {GL_UNPACK_SWAP_BYTES, 0},  {GL_UNPACK_LSB_FIRST, 0}};
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; ++i)
        glPixelStorei((GLenum)defaults[i][0], defaults[i][1]);
    glBindBuffer(GL_QUERY_BUFFER, 0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    /* Resuming needs the host's program back: the module restored it. */
    glBindProgramPipeline(0);
    if (h->feedback_program) {
        glUseProgram(h->feedback_program);
        glResumeTransformFeedback();
        glEndTransformFeedback();
        glUseProgram(0);
    }
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
    assert_int_equal(glGetError(), GL_NO_ERROR);

    assert_canary_buffer(h->query_canary, "query buffer");
    assert_canary_buffer(h->pack_canary, "pixel pack buffer");
    assert_canary_buffer(h->unpack_canary, "pixel unpack buffer");
    assert_canary_buffer(h->feedback_canary, "transform feedback buffer");
    unsigned char texels[4 * 4 * 4];
    read_texture(h->image_canary, GL_UNSIGNED_BYTE, texels);
    for (size_t i = 0; i < sizeof texels; ++i) assert_int_equal(texels[i], HOSTILE_CANARY);

    GLuint buffers[] = {h->query_canary, h->pack_canary, h->unpack_canary, h->feedback_canary};
    glDeleteBuffers(4, buffers);
    glDeleteTextures(1, &h->image_canary);
    glDeleteTextures(1, &h->volume);
    glDeleteTextures(1, &h->layers);
    glDeleteTransformFeedbacks(1, &h->feedback);
    glDeleteProgram(h->feedback_program);
    glDeleteProgram(h->separable_program);
    glDeleteProgramPipelines(1, &h->pipeline);
    glDeleteQueries(1, &h->occlusion_query);
}
