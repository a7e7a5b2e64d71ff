/* Smooth flipbooks: a frame halfway between two flipbook frames is the CPU's
 * cross-fade of them (tests/support/look_reference.c), plainly and slid
 * along a motion-vector texture (plume_flipbook_motion), on the raster and
 * tiled paths; a motion texture the sprite cannot use is refused with a
 * message naming the field. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#ifndef PLUME_TESTS_THROUGH_TABLE
#include "core/plume_internal.h"
#endif
#include "look_reference.h"
#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

/* Frames of 23 x 23 pixels (not a power of two), 2 x 2 of them, drawn
 * magnified on a 48-pixel quad (level 0, bilinear). */
enum { FRAME = 23, COLUMNS = 2, ROWS = 2, ATLAS_W = FRAME * COLUMNS, ATLAS_H = FRAME * ROWS, QUAD_PX = 48 };
static const double MOTION_STRENGTH = 0.25;

/* Frame k: a soft blob whose centre moves by `step` (in frames) a frame,
 * over a smooth seeded tint, opaque (alpha 255: premultiplying keeps it).
 * The motion: that step plus a seeded swirl, the bytes of
 * plume_flipbook_motion. */
static void make_flipbook(unsigned char *sprite, unsigned char *motion) {
    const double step[2] = {test_random_float(0.08f, 0.15f), test_random_float(-0.12f, -0.06f)};
    const double swirl = test_random_float(-0.05f, 0.05f), phase = test_random_float(0.0f, 6.0f);
    for (uint32_t y = 0; y < ATLAS_H; ++y)
        for (uint32_t x = 0; x < ATLAS_W; ++x) {
            uint32_t frame = (y / FRAME) * COLUMNS + x / FRAME;
            double s = (x % FRAME + 0.5) / FRAME, t = (y % FRAME + 0.5) / FRAME;
            double cx = 0.35 + step[0] * frame, cy = 0.6 + step[1] * frame;
            double d2 = ((s - cx) * (s - cx) + (t - cy) * (t - cy)) / (0.18 * 0.18);
            double blob = exp(-d2);
            unsigned char *p = sprite + 4 * ((size_t)y * ATLAS_W + x);
            p[0] = (unsigned char)lround(255.0 * (0.2 + 0.8 * blob));
            p[1] = (unsigned char)lround(255.0 * (0.5 + 0.4 * sin(phase + 5.0 * s) * blob));
            p[2] = (unsigned char)lround(255.0 * (0.3 + 0.3 * cos(phase + 4.0 * t)));
            p[3] = 255;
            double m[2] = {step[0] + swirl * (t - 0.5), step[1] - swirl * (s - 0.5)};
            unsigned char *q = motion + 4 * ((size_t)y * ATLAS_W + x);
            for (int i = 0; i < 2; ++i) q[i] = (unsigned char)lround(128.0 + 127.0 * m[i] / MOTION_STRENGTH);
            q[2] = 0, q[3] = 255;
        }
}

static plume_system_desc flipbook_desc(const unsigned char *sprite, const unsigned char *motion) {
    plume_system_desc desc = {.capacity = 3};
    desc.emitters[1] = (plume_emitter_desc){.burst_count = 1, .lifetime = {4, 4}, .size = {1.5f, 1.5f}};
    desc.appearance.texture = (plume_texture_desc){
        .pixels = sprite, .width = ATLAS_W, .height = ATLAS_H, .columns = COLUMNS, .rows = ROWS};
    if (motion)
        desc.flipbook_motion = (plume_flipbook_motion){
            .pixels = motion, .width = ATLAS_W, .height = ATLAS_H, .strength = (float)MOTION_STRENGTH};
    return desc;
}

/* The system's draw for `frame` into a fresh target cleared to transparent,
 * read back into `image` (poisoned first, so pixels left unwritten show). */
static void draw_into(plume_system system, const plume_frame_desc *frame, float *image) {
    const float clear[4] = {0, 0, 0, 0};
    memset(image, POISON_BYTE, sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    test_target t = test_target_begin(IMAGE_SIZE, clear);
    assert_int_equal(plume_system_draw(fixture_context(), system, frame), PLUME_OK);
    test_target_end(&t, image);
}

/* Largest channel difference of the drawn quad (a pixel away from its edges)
 * from the CPU's frames `frame` .. `frame + 1` at blend 0.5; `plain_change`
 * gets the largest difference of the CPU's slid picture from its plain
 * cross-fade (the motion must matter). */
static double compare_with_cpu(const float *image, const ref_flipbook *book, uint32_t frame, double *plain_change) {
    const int low = (IMAGE_SIZE - QUAD_PX) / 2;
    double worst = 0.0;
    *plain_change = 0.0;
    ref_flipbook plain = *book;
    plain.motion = NULL;
    for (int y = low + 1; y < low + QUAD_PX - 1; ++y)
        for (int x = low + 1; x < low + QUAD_PX - 1; ++x) {
            /* Image rows go up; t runs down from the sprite's top. */
            const double st[2] = {(x + 0.5 - low) / QUAD_PX, 1.0 - (y + 0.5 - low) / QUAD_PX};
            double expected[4], cross_fade[4];
            flipbook_texel(book, frame, frame + 1, 0.5, st, expected);
            flipbook_texel(&plain, frame, frame + 1, 0.5, st, cross_fade);
            const float *got = &image[4 * (y * IMAGE_SIZE + x)];
            for (int c = 0; c < 4; ++c) {
                double d = fabs(got[c] - expected[c]);
                if (d > worst) worst = d;
                if (fabs(expected[c] - cross_fade[c]) > *plain_change) *plain_change = fabs(expected[c] - cross_fade[c]);
            }
        }
    return worst;
}

/* Ages 0.5 and 1.5 of a 4 s life over 4 frames: halfway from frame 0 to 1,
 * then from 1 to 2. */
static void test_halfway_frames_match_the_cpu_blend(void **state) {
    (void)state;
    unsigned char *sprite = malloc(4 * ATLAS_W * ATLAS_H), *motion = malloc(4 * ATLAS_W * ATLAS_H);
    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    assert_true(sprite && motion && image);
    make_flipbook(sprite, motion);
    mat4 view, projection;
    ortho_camera(view, projection);
    for (int variant = 0; variant < 4; ++variant) { /* {plain, motion} x {raster, tiled} */
        bool moving = variant & 1, tiled = variant >> 1;
        plume_system system = make_system(flipbook_desc(sprite, moving ? motion : NULL));
        plume_system_desc got = system_desc(fixture_context(), system);
        assert_null(got.flipbook_motion.pixels);
        assert_int_equal(got.flipbook_motion.width, moving ? ATLAS_W : 0);
        const ref_flipbook book = {sprite, moving ? motion : NULL, ATLAS_W, ATLAS_H, COLUMNS, ROWS, MOTION_STRENGTH};
        const float steps[] = {0.5f, 1.0f};
        for (uint32_t k = 0; k < 2; ++k) {
            plume_frame_desc frame = make_frame(steps[k], view, projection);
            frame.draw_path = tiled ? PLUME_DRAW_PATH_TILED : PLUME_DRAW_PATH_RASTER;
            update(system, &frame);
            draw_into(system, &frame, image);
            double plain_change = 0.0, worst = compare_with_cpu(image, &book, k, &plain_change);
            if (worst > 4.0 / 255.0)
                fail_msg("%s%s, frames %u .. %u halfway: off the CPU's blend by %.4f (seed %llu)",
                         moving ? "motion" : "plain", tiled ? " tiled" : "", k, k + 1, worst,
                         (unsigned long long)test_seed());
            if (moving && plain_change < 0.05)
                fail_msg("frames %u .. %u: the motion changes the picture by only %.4f", k, k + 1, plain_change);
        }
        destroy_system(system);
    }
    free(sprite);
    free(motion);
    free(image);
}

/* Minified, the motion is read at the level the sprite is: frames of 95
 * texels (an odd atlas width, its RG8 rows unaligned) drawn 24 pixels
 * across, about level 2, under a motion that alternates texel by texel
 * between a full slide one way and the other. Its level 0 scrambles the
 * picture; the levels the sprite reads average it to nearly none. So the
 * slid picture stays near the plain cross-fade on both paths, and the
 * raster and tiled paths, reading the same level, agree. */
static void test_minified_motion_is_read_at_the_sprites_level(void **state) {
    (void)state;
    enum { BIG_FRAME = 95, BIG_ROWS = 2, BIG_W = BIG_FRAME, BIG_H = BIG_FRAME * BIG_ROWS, SMALL_PX = 24 };
    unsigned char *sprite = malloc(4 * BIG_W * BIG_H), *motion = malloc(4 * BIG_W * BIG_H);
    float *images[2][2]; /* [moving][tiled] */
    for (int i = 0; i < 4; ++i) images[i / 2][i % 2] = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    assert_true(sprite && motion && images[1][1]);
    const double phase = test_random_float(0.0f, 6.0f), drift = test_random_float(0.1f, 0.2f);
    for (uint32_t y = 0; y < BIG_H; ++y)
        for (uint32_t x = 0; x < BIG_W; ++x) {
            uint32_t frame = y / BIG_FRAME;
            double s = (x + 0.5) / BIG_FRAME, t = (y % BIG_FRAME + 0.5) / BIG_FRAME;
            double blob = exp(-((s - 0.5 - drift * frame) * (s - 0.5 - drift * frame) + (t - 0.5) * (t - 0.5)) /
                              (0.2 * 0.2));
            unsigned char *p = sprite + 4 * ((size_t)y * BIG_W + x);
            p[0] = (unsigned char)lround(255.0 * (0.1 + 0.9 * blob));
            p[1] = (unsigned char)lround(255.0 * (0.5 + 0.45 * sin(phase + 9.0 * s)));
            p[2] = (unsigned char)lround(255.0 * (0.5 + 0.45 * cos(phase + 7.0 * t)));
            p[3] = 255;
            unsigned char *q = motion + 4 * ((size_t)y * BIG_W + x);
            q[0] = q[1] = (x + y) % 2 ? 1 : 255;
            q[2] = 0, q[3] = 255;
        }
    mat4 view, projection;
    ortho_camera(view, projection);
    for (int variant = 0; variant < 4; ++variant) {
        int moving = variant >> 1, tiled = variant & 1;
        plume_system_desc desc = flipbook_desc(sprite, NULL);
        desc.emitters[1].size = (plume_range){1.5f * SMALL_PX / QUAD_PX, 1.5f * SMALL_PX / QUAD_PX};
        desc.appearance.texture = (plume_texture_desc){
            .pixels = sprite, .width = BIG_W, .height = BIG_H, .columns = 1, .rows = BIG_ROWS};
        desc.emitters[1].lifetime = (plume_range){2.0f, 2.0f};
        if (moving)
            desc.flipbook_motion = (plume_flipbook_motion){
                .pixels = motion, .width = BIG_W, .height = BIG_H, .strength = (float)MOTION_STRENGTH};
        plume_system system = make_system(desc);
        plume_frame_desc frame = make_frame(0.5f, view, projection); /* halfway from frame 0 to 1 */
        frame.draw_path = tiled ? PLUME_DRAW_PATH_TILED : PLUME_DRAW_PATH_RASTER;
        update(system, &frame);
        draw_into(system, &frame, images[moving][tiled]);
        destroy_system(system);
    }
    /* The quad's pixels a pixel in from its edges. */
    const int low = (IMAGE_SIZE - SMALL_PX) / 2;
    double paths = 0.0, slide[2] = {0.0, 0.0}, covered = 1.0;
    for (int y = low + 1; y < low + SMALL_PX - 1; ++y)
        for (int x = low + 1; x < low + SMALL_PX - 1; ++x)
            for (int c = 0; c < 4; ++c) {
                size_t at = 4 * ((size_t)y * IMAGE_SIZE + x) + (size_t)c;
                paths = fmax(paths, fabs(images[1][1][at] - images[1][0][at]));
                for (int k = 0; k < 2; ++k) slide[k] = fmax(slide[k], fabs(images[1][k][at] - images[0][k][at]));
                if (c == 3) covered = fmin(covered, images[0][0][at]);
            }
    printf("  minified: tiled %.2f/255 from raster; the slide moves raster %.2f/255, tiled %.2f/255 from the plain "
           "cross-fade\n",
           paths * 255.0, slide[0] * 255.0, slide[1] * 255.0);
    /* Read at level 0 the slide (a quarter frame either way, texel by
     * texel) moves the picture by a tenth and more. */
    assert_true(covered > 0.99);
    assert_true(slide[0] < 12.0 / 255.0 && slide[1] < 12.0 / 255.0);
    assert_true(paths < 4.0 / 255.0);
    free(sprite);
    free(motion);
    for (int i = 0; i < 4; ++i) free(images[i / 2][i % 2]);
}

/* Each refusal logs one message naming flipbook_motion and makes nothing. */
static void test_motion_the_sprite_cannot_use_is_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    unsigned char *sprite = calloc(4, ATLAS_W * ATLAS_H), *motion = calloc(4, (ATLAS_W + 1) * ATLAS_H);
    assert_true(sprite && motion);
    struct {
        const char *what, *message;
    } cases[] = {
        {"one frame", "without a flipbook"},
        {"no sprite", "without a sprite"},
        {"frames not blended", "disable_frame_blend"},
        {"a wider image", "must be the sprite's size"},
        {"a negative strength", "flipbook_motion.strength"},
        {"two sources", "more than one of path, pixels and host_texture"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        plume_system_desc desc = flipbook_desc(sprite, motion);
        if (i == 0) desc.appearance.texture.columns = desc.appearance.texture.rows = 1;
        if (i == 1) desc.appearance.texture = (plume_texture_desc){0};
        if (i == 2) desc.appearance.texture.disable_frame_blend = true;
        if (i == 3) desc.flipbook_motion.width = ATLAS_W + 1;
        if (i == 4) desc.flipbook_motion.strength = -1.0f;
        if (i == 5) desc.flipbook_motion.path = "motion.png";
        int errors = test_log_error_count();
        plume_system system = {0};
        assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_ERROR_INVALID_ARGUMENT);
        assert_int_equal(system.id, 0);
        if (!test_log_contains(cases[i].message) || test_log_error_count() != errors + 1)
            fail_msg("%s: expected one message with '%s'", cases[i].what, cases[i].message);
    }
    free(sprite);
    free(motion);
}


#ifndef PLUME_TESTS_THROUGH_TABLE /* build shaders of the module's own */
/* A compute program of 64 invocations a workgroup that includes `include`
 * and runs `statement` with i its invocation, `inputs` (uvec4) on binding 0
 * and `outputs` (uvec4) on binding 1. */
static GLuint build_test_body(const char *label, const char *include, const char *statement) {
    char body[1024];
    snprintf(body, sizeof body,
             "#include \"%s\"\n"
             "layout(local_size_x = 64) in;\n"
             "layout(std430, binding = 0) buffer Inputs { uvec4 inputs[]; };\n"
             "layout(std430, binding = 1) buffer Outputs { uvec4 outputs[]; };\n"
             "void main() { uint i = gl_GlobalInvocationID.x; %s }\n",
             include, statement);
    plume_env env;
    plume_logger logger = test_logger();
    assert_int_equal(plume_env_init(&env, &logger, NULL), PLUME_OK);
    const char *names[] = {"test_body.comp"}, *source = body;
    GLuint program = 0;
    assert_int_equal(plume_build_program_from_sources(&env, label, GL_COMPUTE_SHADER, &source, names, 1, "", &program),
                     PLUME_OK);
    return program;
}

/* The shaders' flipbook_cell (a frame's column and row without an integer
 * division) against C's division: seeded frames below 2^24 and column
 * counts up to 70000, the frames just before and at a row's start, which a
 * rounded reciprocal gets wrong first; the reciprocal as the module passes
 * it (the CPU's 1.0f / columns). */
static void test_flipbook_cell_matches_integer_division(void **state) {
    (void)state;
    GLuint program =
        build_test_body("flipbook cell test", "render/flipbook_cell.glsl",
                        "outputs[i] = uvec4(flipbook_cell(inputs[i].x, inputs[i].y, uintBitsToFloat(inputs[i].z)), 0u, 0u);");
    enum { COUNT = 64 * 4096 };
    uint32_t(*input)[4] = malloc(sizeof *input * COUNT), (*cells)[4] = malloc(sizeof *cells * COUNT);
    assert_non_null(input);
    assert_non_null(cells);
    for (uint32_t i = 0; i < COUNT; ++i) {
        uint32_t columns = i % 7 == 0 ? 1u + i / 7 % 64 : 1u + test_random_u32() % 70000u;
        uint32_t row = test_random_u32() % ((1u << 24) / columns);
        uint32_t frame = i % 3 == 0 ? test_random_u32() % (1u << 24) : row * columns - (i % 3 == 1 && row > 0);
        float column_width = 1.0f / (float)columns;
        input[i][0] = frame;
        input[i][1] = columns;
        memcpy(&input[i][2], &column_width, sizeof column_width);
        input[i][3] = 0;
        for (int c = 0; c < 4; ++c) cells[i][c] = 0xDEADBEEFu; /* poison */
    }
    GLuint frames_buffer = test_buffer_create(sizeof *input * COUNT, input);
    GLuint cells_buffer = test_buffer_create(sizeof *cells * COUNT, cells);
    glUseProgram(program);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, frames_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, cells_buffer);
    glDispatchCompute(COUNT / 64, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    test_buffer_read(cells_buffer, 0, sizeof *cells * COUNT, cells);
    for (uint32_t i = 0; i < COUNT; ++i) {
        uint32_t frame = input[i][0], columns = input[i][1];
        if (cells[i][0] != frame % columns || cells[i][1] != frame / columns)
            fail_msg("frame %u of %u columns: the shader says column %u row %u, C says %u, %u (seed %llu)", frame,
                     columns, cells[i][0], cells[i][1], frame % columns, frame / columns,
                     (unsigned long long)test_seed());
    }
    glUseProgram(0);
    glDeleteProgram(program);
    GLuint buffers[] = {frames_buffer, cells_buffer};
    glDeleteBuffers(2, buffers);
    free(input);
    free(cells);
}

/* The tiled path's frames word (frames_word, frames_word_cell) gives back
 * each frame's cell: as packed cells in atlases of up to 256 columns and
 * rows, as frame indices beyond, on either side of that edge. */
static void test_frames_word_gives_back_the_cells(void **state) {
    (void)state;
    GLuint program = build_test_body("frames word test", "render/particle_appearance.glsl",
                                     "uint word = frames_word(inputs[i].x, inputs[i].y);\n"
                                     "outputs[i] = uvec4(frames_word_cell(word, 0u), frames_word_cell(word, 1u));");
    enum { COUNT = 64 * 64 };
    static const uint32_t books[][2] = {{1, 2}, {3, 5}, {7, 1}, {256, 256}, {257, 1}, {1, 257}, {300, 200}, {1000, 65}};
    uint32_t(*pairs)[4] = malloc(sizeof *pairs * COUNT), (*cells)[4] = malloc(sizeof *cells * COUNT);
    assert_true(pairs && cells);
    GLuint pairs_buffer = test_buffer_create(sizeof *pairs * COUNT, NULL);
    GLuint cells_buffer = test_buffer_create(sizeof *cells * COUNT, NULL);
    glUseProgram(program);
    glUniform1i(glGetUniformLocation(program, "u_sprite_is_array"), 0);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, pairs_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, cells_buffer);
    for (size_t b = 0; b < sizeof books / sizeof books[0]; ++b) {
        uint32_t columns = books[b][0], rows = books[b][1], frames = columns * rows;
        frames = frames > 65536u ? 65536u : frames; /* the word holds 16 bits a frame */
        glUniform2ui(glGetUniformLocation(program, "u_flipbook"), columns, rows);
        glUniform2f(glGetUniformLocation(program, "u_flipbook_cell"), 1.0f / (float)columns, 1.0f / (float)rows);
        for (uint32_t i = 0; i < COUNT; ++i) {
            pairs[i][0] = i < 4 ? (i & 1) * (frames - 1) : test_random_u32() % frames;
            pairs[i][1] = i < 4 ? (i >> 1) * (frames - 1) : test_random_u32() % frames;
            pairs[i][2] = pairs[i][3] = 0;
            for (int c = 0; c < 4; ++c) cells[i][c] = 0xDEADBEEFu; /* poison */
        }
        test_buffer_write(pairs_buffer, 0, sizeof *pairs * COUNT, pairs);
        test_buffer_write(cells_buffer, 0, sizeof *cells * COUNT, cells);
        glDispatchCompute(COUNT / 64, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        test_buffer_read(cells_buffer, 0, sizeof *cells * COUNT, cells);
        for (uint32_t i = 0; i < COUNT; ++i)
            for (int which = 0; which < 2; ++which) {
                uint32_t frame = pairs[i][which];
                if (cells[i][2 * which] != frame % columns || cells[i][2 * which + 1] != frame / columns)
                    fail_msg("a %u x %u atlas, frame %u: column %u row %u back, expected %u, %u (seed %llu)", columns,
                             rows, frame, cells[i][2 * which], cells[i][2 * which + 1], frame % columns,
                             frame / columns, (unsigned long long)test_seed());
            }
    }
    glUseProgram(0);
    glDeleteProgram(program);
    GLuint buffers[] = {pairs_buffer, cells_buffer};
    glDeleteBuffers(2, buffers);
    free(pairs);
    free(cells);
}
#endif

const struct CMUnitTest flipbook_motion_tests[] = {
    cmocka_unit_test_setup_teardown(test_halfway_frames_match_the_cpu_blend, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_minified_motion_is_read_at_the_sprites_level, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_motion_the_sprite_cannot_use_is_refused, fixture_setup, fixture_teardown),
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_flipbook_cell_matches_integer_division, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_frames_word_gives_back_the_cells, fixture_setup, fixture_teardown),
#endif
};
const size_t flipbook_motion_test_count = sizeof flipbook_motion_tests / sizeof flipbook_motion_tests[0];
