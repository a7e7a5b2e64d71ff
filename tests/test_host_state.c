/* The module inside a hostile host: one that left a distinctive value in every
 * piece of GL state that could change what a module call means (the contract
 * in plume_particles.h, "GL state contract"). Every call must give the same
 * results as in a clean context, leave that state exactly as it was, and
 * write nothing into the host's objects (canary buffers and textures). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "plume/plume_particles.h"
#include "plume/plume_sort.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { SIZE = 64, CANARY_BYTES = 4096, MAX_VALUES = 256, UPDATES = 3, SORT_PAIRS = 1000 };
static const unsigned char CANARY = 0xA5;
static const float CLEAR[4] = {0.1f, 0.2f, 0.3f, 0.4f};

/* ---- The scene: a deterministic cloud of particles seen from the front ---- */

static plume_system_desc cloud_desc(void) {
    plume_system_desc d = {.capacity = 3000, .seed = 11};
    d.emitters[0] = (plume_emitter_desc){.burst_count = 800, .lifetime = {5, 6}, .shape = PLUME_SHAPE_BOX,
                                         .extents = {1.5f, 1.5f, 1.5f}, .size = {0.2f, 0.5f}};
    d.appearance.color_over_life.key_count = 1;
    d.appearance.color_over_life.keys[0] = (plume_color_key){.time = 0, .rgba = {0.9f, 0.5f, 0.2f, 0.5f}};
    return d;
}

static plume_frame_desc cloud_frame(void) {
    mat4 view, projection;
    glm_lookat((vec3){0, 0, 5}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_ortho(-2, 2, -2, 2, 0.1f, 20, projection);
    plume_frame_desc frame = {.dt = 1.0f / 60.0f};
    memcpy(frame.view, view, sizeof frame.view);
    memcpy(frame.projection, projection, sizeof frame.projection);
    return frame;
}

/* ---- The host's framebuffer: colour 0 for the module, colour 1 a canary ---- */

typedef struct host_target {
    GLuint framebuffer, read_framebuffer, color, canary_color, depth, read_color;
} host_target;

static GLuint make_texture(GLenum format, int size) {
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexStorage2D(GL_TEXTURE_2D, 1, format, size, size);
    glBindTexture(GL_TEXTURE_2D, 0);
    return texture;
}

static host_target make_host_target(bool second_buffer) {
    host_target t = {.color = make_texture(GL_RGBA32F, SIZE), .canary_color = make_texture(GL_RGBA8, SIZE),
                     .depth = make_texture(GL_DEPTH_COMPONENT32F, SIZE), .read_color = make_texture(GL_RGBA8, 4)};
    glGenFramebuffers(1, &t.framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D, t.canary_color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, t.depth, 0);
    const GLenum buffers[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    glDrawBuffers(second_buffer ? 2 : 1, buffers);
    assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    const float canary[4] = {CANARY / 255.0f, CANARY / 255.0f, CANARY / 255.0f, CANARY / 255.0f}, far = 1.0f;
    glClearBufferfv(GL_COLOR, 0, CLEAR);
    if (second_buffer) glClearBufferfv(GL_COLOR, 1, canary);
    glClearBufferfv(GL_DEPTH, 0, &far);
    glGenFramebuffers(1, &t.read_framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, t.read_framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.read_color, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, t.framebuffer);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, t.read_framebuffer);
    glViewport(0, 0, SIZE, SIZE);
    return t;
}

static void free_host_target(host_target *t) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &t->framebuffer);
    glDeleteFramebuffers(1, &t->read_framebuffer);
    GLuint textures[] = {t->color, t->canary_color, t->depth, t->read_color};
    glDeleteTextures(4, textures);
}

/* Texture level 0 as bytes (RGBA8) or floats (RGBA32F), in a clean state. */
static void read_texture(GLuint texture, GLenum type, void *out) {
    glBindTexture(GL_TEXTURE_2D, texture);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, type, out);
    glBindTexture(GL_TEXTURE_2D, 0);
}

/* ---- Everything the host set, as numbers ---- */

static int snapshot(GLint64 *v) {
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
    for (GLuint i = 0; i < 8; ++i) {
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_BINDING, i, &v[n++]);
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, i, &v[n++]);
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, i, &v[n++]);
    }
    assert_true(n <= MAX_VALUES);
    return n;
}

static void assert_unchanged(const GLint64 *before, int count, const char *after_what) {
    GLint64 now[MAX_VALUES];
    assert_int_equal(snapshot(now), count);
    for (int i = 0; i < count; ++i)
        if (now[i] != before[i])
            fail_msg("host GL state value %d changed by %s: %lld became %lld", i, after_what, (long long)before[i],
                     (long long)now[i]);
}

/* ---- The hostile host ---- */

typedef struct host_objects {
    GLuint query_canary, pack_canary, unpack_canary, feedback_canary, image_canary;
    GLuint feedback, feedback_program, pipeline, separable_program, occlusion_query;
    int drawn_width; /* the scissor's: the module draws into x < drawn_width only */
} host_objects;

static GLuint canary_buffer(void) {
    unsigned char bytes[CANARY_BYTES];
    memset(bytes, CANARY, sizeof bytes);
    return test_buffer_create(sizeof bytes, bytes);
}

static void assert_canary_buffer(GLuint buffer, const char *what) {
    unsigned char bytes[CANARY_BYTES];
    test_buffer_read(buffer, 0, sizeof bytes, bytes);
    for (size_t i = 0; i < sizeof bytes; ++i)
        if (bytes[i] != CANARY) fail_msg("the host's %s was written at byte %zu", what, i);
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
    glScissor(0, 0, SIZE / 2, SIZE);
    h->drawn_width = SIZE / 2;
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
static host_objects make_hostile(void) {
    host_objects h = {.query_canary = canary_buffer(), .pack_canary = canary_buffer(),
                      .unpack_canary = canary_buffer(), .feedback_canary = canary_buffer(), .drawn_width = SIZE};
    unsigned char texels[4 * 4 * 4];
    memset(texels, CANARY, sizeof texels);
    h.image_canary = make_texture(GL_RGBA8, 4);
    glBindTexture(GL_TEXTURE_2D, h.image_canary);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glBindTexture(GL_TEXTURE_2D, 0);
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
static void end_hostile(host_objects *h) {
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
    for (size_t i = 0; i < sizeof texels; ++i) assert_int_equal(texels[i], CANARY);

    GLuint buffers[] = {h->query_canary, h->pack_canary, h->unpack_canary, h->feedback_canary};
    glDeleteBuffers(4, buffers);
    glDeleteTextures(1, &h->image_canary);
    glDeleteTransformFeedbacks(1, &h->feedback);
    glDeleteProgram(h->feedback_program);
    glDeleteProgram(h->separable_program);
    glDeleteProgramPipelines(1, &h->pipeline);
    glDeleteQueries(1, &h->occlusion_query);
}

/* ---- The runs ---- */

typedef struct run_result {
    float image[SIZE * SIZE * 4];
    uint32_t live, order[3000], keys[3000];
} run_result;

/* UPDATES updates (the last one under the host's conditional rendering when
 * `conditional` is set) and one draw into the host's target; the image is
 * copied out at once (later calls draw more). */
static plume_system run_cloud(const host_target *target, GLuint image_copy, bool conditional, GLuint query) {
    plume_system system = {0};
    plume_system_desc desc = cloud_desc();
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    plume_frame_desc frame = cloud_frame();
    for (int i = 0; i < UPDATES; ++i) {
        if (conditional && i == UPDATES - 1) glBeginConditionalRender(query, GL_QUERY_WAIT);
        assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
        if (conditional && i == UPDATES - 1) glEndConditionalRender();
    }
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    glCopyImageSubData(target->color, GL_TEXTURE_2D, 0, 0, 0, 0, image_copy, GL_TEXTURE_2D, 0, 0, 0, 0, SIZE, SIZE, 1);
    return system;
}

static void read_run(plume_system system, GLuint image_copy, run_result *out) {
    read_texture(image_copy, GL_FLOAT, out->image);
    plume_readback rb = {.draw_order = out->order, .draw_keys = out->keys};
    assert_int_equal(plume_system_read_back(fixture_context(), system, &rb), PLUME_OK);
    out->live = rb.live_count;
}

static void test_every_call_inside_a_hostile_host(void **state) {
    (void)state;
    run_result *clean = calloc(1, sizeof *clean), *hostile = calloc(1, sizeof *hostile);
    assert_non_null(clean);
    assert_non_null(hostile);

    /* The same cloud in a clean context: what every result must equal. */
    host_target target = make_host_target(false);
    GLuint copy = make_texture(GL_RGBA32F, SIZE);
    plume_system reference = run_cloud(&target, copy, false, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    read_run(reference, copy, clean);
    assert_int_equal(plume_system_destroy(fixture_context(), reference), PLUME_OK);
    free_host_target(&target);
    assert_true(clean->live > 500);

    target = make_host_target(true);
    GLuint scene_depth = make_texture(GL_DEPTH_COMPONENT32F, SIZE);
    const float far = 1.0f;
    glClearTexImage(scene_depth, 0, GL_DEPTH_COMPONENT, GL_FLOAT, &far);
    host_objects host = make_hostile();
    GLint64 before[MAX_VALUES];
    int count = snapshot(before);

    plume_system system = run_cloud(&target, copy, true, host.occlusion_query);
    assert_unchanged(before, count, "create, update under conditional rendering, draw");
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    assert_unchanged(before, count, "set_profiling");
    plume_frame_desc frame = cloud_frame();
    frame.dt = 0.0f; /* the particles stay as the clean run left them */
    for (int i = 0; i < 4; ++i) { /* from the second frame on, the profiler reads queries */
        assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
        glFinish();
    }
    assert_unchanged(before, count, "profiled updates");
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
    assert_true(profile.enabled);
    assert_true(profile.frame > 0);
    assert_int_equal(profile.live_count, clean->live);
    plume_readback rb = {.draw_order = hostile->order, .draw_keys = hostile->keys};
    assert_int_equal(plume_system_read_back(fixture_context(), system, &rb), PLUME_OK);
    assert_unchanged(before, count, "get_profile, read_back");
    /* Simulated and sorted as in the clean context, the last update under
     * conditional rendering included. */
    assert_int_equal(rb.live_count, clean->live);
    assert_memory_equal(hostile->order, clean->order, sizeof(uint32_t) * clean->live);
    assert_memory_equal(hostile->keys, clean->keys, sizeof(uint32_t) * clean->live);
    plume_emitter_desc emitter = {.rate = 5, .lifetime = {1, 2}};
    assert_int_equal(plume_system_set_emitter(fixture_context(), system, 3, &emitter), PLUME_OK);
    plume_forces forces = {.drag = 0.5f};
    assert_int_equal(plume_system_set_forces(fixture_context(), system, &forces), PLUME_OK);
    assert_unchanged(before, count, "set_emitter, set_forces");
    /* The low-resolution path binds framebuffers, viewport, depth state and a
     * third texture unit of its own. */
    frame.depth_texture = scene_depth;
    frame.draw_resolution = PLUME_DRAW_HALF;
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    assert_unchanged(before, count, "a draw at half resolution");
    frame.depth_texture = 0;
    frame.draw_resolution = PLUME_DRAW_FULL;

    plume_sorter sorter = {0};
    plume_sorter_desc sorter_desc = {.capacity = SORT_PAIRS};
    assert_int_equal(plume_sorter_create(fixture_context(), &sorter_desc, &sorter), PLUME_OK);
    uint32_t pairs[2 * SORT_PAIRS], pair_count = SORT_PAIRS;
    for (uint32_t i = 0; i < SORT_PAIRS; ++i) pairs[2 * i] = test_random_below(64), pairs[2 * i + 1] = i;
    GLuint direct = test_buffer_create(sizeof pairs, pairs), indirect = test_buffer_create(sizeof pairs, pairs);
    GLuint count_buffer = test_buffer_create(sizeof pair_count, &pair_count);
    assert_int_equal(plume_sort(fixture_context(), sorter, direct, SORT_PAIRS), PLUME_OK);
    assert_int_equal(plume_sort_indirect(fixture_context(), sorter, indirect, count_buffer, 0), PLUME_OK);
    assert_unchanged(before, count, "sorter_create, sort, sort_indirect");

    /* Transform feedback running (not paused): refused, nothing done. */
    if (host.feedback_program) {
        test_log_expect_errors();
        glBindProgramPipeline(0);
        glUseProgram(host.feedback_program);
        glResumeTransformFeedback();
        GLint64 running[MAX_VALUES];
        int running_count = snapshot(running);
        assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_ERROR_HOST_STATE);
        assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_ERROR_HOST_STATE);
        assert_int_equal(plume_sort(fixture_context(), sorter, direct, SORT_PAIRS), PLUME_ERROR_HOST_STATE);
        assert_int_equal(plume_system_reset(fixture_context(), system), PLUME_ERROR_HOST_STATE);
        assert_true(test_log_contains("transform feedback is active and not paused"));
        assert_unchanged(running, running_count, "calls refused under running transform feedback");
        glPauseTransformFeedback();
        glUseProgram(0);
        glBindProgramPipeline(host.pipeline);
        assert_unchanged(before, count, "the host pausing its transform feedback again");
    }

    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target.framebuffer);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, target.read_framebuffer);
    assert_int_equal(plume_system_reset(fixture_context(), system), PLUME_OK);
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
    assert_unchanged(before, count, "reset, sorter_destroy");

    end_hostile(&host);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    /* Read after the reset: the copy was taken before it. */
    read_texture(copy, GL_FLOAT, hostile->image);
    unsigned char *canary = malloc(4 * SIZE * SIZE);
    assert_non_null(canary);
    read_texture(target.canary_color, GL_UNSIGNED_BYTE, canary);
    for (int i = 0; i < 4 * SIZE * SIZE; ++i)
        if (canary[i] != CANARY) fail_msg("the module wrote draw buffer 1 (byte %d)", i);
    free(canary);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);

    /* The draw: the scissored left half as in the clean context (draws under
     * conditional rendering were not involved), the right half untouched. */
    int covered = 0;
    for (int y = 0; y < SIZE; ++y)
        for (int x = 0; x < SIZE; ++x)
            for (int c = 0; c < 4; ++c) {
                size_t i = 4 * ((size_t)y * SIZE + x) + c;
                float expected = x < host.drawn_width ? clean->image[i] : CLEAR[c];
                if (x < host.drawn_width && clean->image[i] != CLEAR[c]) ++covered;
                if (hostile->image[i] < expected - 1e-5f || hostile->image[i] > expected + 1e-5f)
                    fail_msg("pixel (%d, %d) channel %d is %f; the clean context drew %f", x, y, c,
                             hostile->image[i], expected);
            }
    assert_true(covered > 100); /* the particles reach the scissored half */

    /* The sorts, against a CPU order (keys below 64: many ties, by value). */
    uint32_t sorted[2 * SORT_PAIRS];
    for (int which = 0; which < 2; ++which) {
        test_buffer_read(which ? indirect : direct, 0, sizeof sorted, sorted);
        for (uint32_t i = 1; i < SORT_PAIRS; ++i) {
            bool ordered = sorted[2 * i - 2] < sorted[2 * i] ||
                           (sorted[2 * i - 2] == sorted[2 * i] && sorted[2 * i - 1] < sorted[2 * i + 1]);
            if (!ordered) fail_msg("%s sort out of order at %u", which ? "indirect" : "direct", i);
        }
    }
    GLuint buffers[] = {direct, indirect, count_buffer};
    glDeleteBuffers(3, buffers);
    glDeleteTextures(1, &copy);
    glDeleteTextures(1, &scene_depth);
    free_host_target(&target);
    free(clean);
    free(hostile);
}

const struct CMUnitTest host_state_tests[] = {
    cmocka_unit_test_setup_teardown(test_every_call_inside_a_hostile_host, fixture_setup, fixture_teardown),
};
const size_t host_state_test_count = sizeof host_state_tests / sizeof host_state_tests[0];
