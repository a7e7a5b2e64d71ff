/* The tiled path blending onto the host's colour texture itself, in compute
 * (an RGBA16F draw buffer: the composite at full resolution, the depth-aware
 * upsample at 1/2 and 1/4; render/draw.c draw_find_host_colour) instead of a
 * raster pass: the same picture as the pass (the lab's raster_blend knob, the
 * baseline) and as the raster path, for tiles of one chunk and of several
 * (the resolve writes those); the host's scissor and a viewport's corner
 * respected at full and 1/2 resolution; the host's conditional rendering
 * obeyed (a query that passed nothing: the frame keeps its background, as
 * with the pass, and the next draw is right); the passes where the draw
 * buffer is another format. Each test asks the lab which way the draw
 * blended. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cmocka.h>
#include <epoxy/gl.h>

#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "plume_lab.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { WIDTH = RENDER_WIDTH, HEIGHT = RENDER_HEIGHT };
/* RGBA16F keeps 11 bits: the pass rounds the composite's colour to them
 * before it blends, the composite blending itself does not. */
static const float SAME_AS_PASS = 1.0f / 255.0f;
static const float TOLERANCE = 2.0f / 255.0f;
static const float CENTRE[3] = {0.3f, -0.2f, -6.0f};

/* The background as an RGBA16F frame holds it (rounded to 11 bits). */
static bool background_channel(float got, int k) { return fabsf(got - RENDER_BACKGROUND[k]) <= 1e-3f; }

static int teardown(void **state) {
    render_set_host_frame(0, 0, NULL, NULL);
    return fixture_teardown(state);
}

/* A cloud drawn tiled; `raster_blend`: with the blend pass; `chunk_entries`
 * (0: the default) small enough that the cloud's tiles take several chunks. */
static plume_system cloud(uint32_t seed, bool raster_blend, uint32_t chunk_entries) {
    plume_system system = render_cloud(CENTRE, 2.5f, 1.5f, 777, seed, true);
    assert_int_equal(
        plume_lab_tiled_configure(fixture_context(), system, 0, 0, false, PLUME_SORT_AUTOMATIC, chunk_entries),
        PLUME_OK);
    plume_lab_tiled_knobs knobs = {.raster_blend = raster_blend};
    assert_int_equal(plume_lab_tiled_set_knobs(fixture_context(), system, &knobs), PLUME_OK);
    return system;
}

static bool blended_onto_host(plume_system system) {
    bool onto = false;
    assert_int_equal(plume_lab_tiled_blended_onto_host(fixture_context(), system, &onto), PLUME_OK);
    return onto;
}

static void destroy(plume_system system) {
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

/* The cloud of `seed` drawn at `resolution` into an RGBA16F host frame
 * (behind an occluder at a third of it) three ways: tiled, blending onto the
 * host's colour (`onto`); tiled with the pass (`pass`); raster (`raster`). */
static void draw_three_ways(uint32_t seed, uint32_t chunk_entries, plume_draw_resolution resolution, float *onto,
                            float *pass, float *raster) {
    render_camera c = render_make_camera();
    float occluder = render_window_depth(&c, 5.5f);
    plume_frame_desc tiled = render_tiled_frame(resolution, false, 0.0f);
    plume_frame_desc raster_frame = {.draw_path = PLUME_DRAW_PATH_RASTER, .draw_resolution = resolution};
    plume_system systems[3] = {cloud(seed, false, chunk_entries), cloud(seed, true, chunk_entries),
                               render_cloud(CENTRE, 2.5f, 1.5f, 777, seed, true)};
    render_set_host_frame(GL_RGBA16F, 0, NULL, NULL);
    render_frame(systems[0], &c, tiled, true, WIDTH / 3, occluder, onto);
    render_frame(systems[1], &c, tiled, true, WIDTH / 3, occluder, pass);
    render_frame(systems[2], &c, raster_frame, true, WIDTH / 3, occluder, raster);
    assert_true(blended_onto_host(systems[0]));
    assert_false(blended_onto_host(systems[1]));
    for (int i = 0; i < 3; ++i) destroy(systems[i]);
}

static void check_three_ways(uint32_t chunk_entries, plume_draw_resolution resolution) {
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u, chunk entries %u, 1/%d resolution\n", seed, chunk_entries, 1 << resolution);
    float *onto = render_new_image(), *pass = render_new_image(), *raster = render_new_image();
    draw_three_ways(seed, chunk_entries, resolution, onto, pass, raster);
    assert_true(render_covered_pixels(onto) > WIDTH * HEIGHT / 8);
    float from_pass = render_largest_difference(onto, pass), from_raster = 0.0f;
    int over = 0;
    bool within = render_within_tiled_bound(raster, onto, TOLERANCE, &from_raster, &over);
    double quality = render_psnr(raster, onto);
    printf("  onto the host's colour: %.2f/255 from the pass's picture (at most %.0f/255), %.2f/255 from raster's "
           "(%d pixels over 2/255, PSNR %.1f dB)\n",
           from_pass * 255.0f, SAME_AS_PASS * 255.0f, from_raster * 255.0f, over, quality);
    assert_true(from_pass <= SAME_AS_PASS);
    /* At a lowered resolution the raster path rounds its target to 16 bits
     * at every particle's blend, the tiled path once: a few pixels of a
     * seed differ by up to 4/255 (so do the tiled and raster paths' with
     * the pass), which test_tiled.c bounds by PSNR too. */
    if (resolution == PLUME_DRAW_FULL) assert_true(within);
    else assert_true(quality >= 40.0);
    free(onto);
    free(pass);
    free(raster);
}

static void test_tiled_blends_onto_an_rgba16f_host_colour_as_the_pass_does(void **state) {
    (void)state;
    check_three_ways(0, PLUME_DRAW_FULL);
}

/* At 1/2 and 1/4 the depth-aware upsample blends onto the host's colour in
 * compute, as its raster pass would. */
static void test_tiled_upsample_onto_an_rgba16f_host_colour_as_the_pass_does(void **state) {
    (void)state;
    check_three_ways(0, PLUME_DRAW_HALF);
    check_three_ways(0, PLUME_DRAW_QUARTER);
}

/* Chunks of 16 entries: the cloud's busy tiles take several, which the
 * resolve combines and writes onto the host's colour. */
static void test_tiled_blend_onto_the_host_through_the_resolve(void **state) {
    (void)state;
    check_three_ways(16, PLUME_DRAW_FULL);
}

enum { SCISSOR_X = 40, SCISSOR_Y = 20, SCISSOR_WIDTH = 50, SCISSOR_HEIGHT = 40 };

static void scissor_on(void) {
    glEnable(GL_SCISSOR_TEST);
    glScissor(SCISSOR_X, SCISSOR_Y, SCISSOR_WIDTH, SCISSOR_HEIGHT);
}

static void scissor_off(void) { glDisable(GL_SCISSOR_TEST); }

static bool inside_scissor(int x, int y) {
    return x >= SCISSOR_X && x < SCISSOR_X + SCISSOR_WIDTH && y >= SCISSOR_Y && y < SCISSOR_Y + SCISSOR_HEIGHT;
}

/* Under the host's scissor: the scissored pixels as without it, the others
 * the background, both ways of blending, at `resolution`. */
static void check_scissor(plume_draw_resolution resolution) {
    render_camera c = render_make_camera();
    plume_frame_desc tiled = render_tiled_frame(resolution, false, 0.0f);
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u, 1/%d resolution\n", seed, 1 << resolution);
    float *whole = render_new_image(), *scissored = render_new_image(), *pass = render_new_image();
    plume_system onto = cloud(seed, false, 0), baseline = cloud(seed, true, 0);
    render_set_host_frame(GL_RGBA16F, 0, NULL, NULL);
    render_frame(onto, &c, tiled, true, 0, 1.0f, whole);
    render_set_host_frame(GL_RGBA16F, 0, scissor_on, scissor_off);
    render_draw(onto, &c, tiled, true, 0, 1.0f, scissored);
    assert_true(blended_onto_host(onto));
    render_frame(baseline, &c, tiled, true, 0, 1.0f, pass);
    int inside_covered = 0, wrong = 0;
    for (int y = 0; y < HEIGHT; ++y)
        for (int x = 0; x < WIDTH; ++x) {
            const float *got = &scissored[4 * (y * WIDTH + x)], *full = &whole[4 * (y * WIDTH + x)];
            const float *by_pass = &pass[4 * (y * WIDTH + x)];
            for (int k = 0; k < 4; ++k) {
                bool right = inside_scissor(x, y) ? got[k] == full[k] : background_channel(got[k], k);
                if (!right || fabsf(got[k] - by_pass[k]) > SAME_AS_PASS) ++wrong;
            }
            if (inside_scissor(x, y) && fabsf(full[0] - RENDER_BACKGROUND[0]) > 0.05f) ++inside_covered;
        }
    printf("  %d covered pixels inside the scissor; %d channels wrong\n", inside_covered, wrong);
    assert_true(inside_covered > SCISSOR_WIDTH * SCISSOR_HEIGHT / 4);
    assert_int_equal(wrong, 0);
    destroy(onto);
    destroy(baseline);
    free(whole);
    free(scissored);
    free(pass);
}

static void test_tiled_blend_onto_the_host_keeps_to_the_scissor(void **state) {
    (void)state;
    check_scissor(PLUME_DRAW_FULL);
    check_scissor(PLUME_DRAW_HALF);
}

/* Drawn into a viewport off the frame's corner: the same picture as the
 * pass's there, and the background outside it, at `resolution`. */
static void check_viewport(plume_draw_resolution resolution) {
    const int viewport[4] = {24, 16, 80, 64};
    render_camera c = render_make_camera();
    plume_frame_desc tiled = render_tiled_frame(resolution, false, 0.0f);
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u, 1/%d resolution\n", seed, 1 << resolution);
    float *onto = render_new_image(), *pass = render_new_image();
    plume_system systems[2] = {cloud(seed, false, 0), cloud(seed, true, 0)};
    render_set_host_frame(GL_RGBA16F, 0, NULL, NULL);
    for (int i = 0; i < 2; ++i) render_frame(systems[i], &c, tiled, true, 0, 1.0f, onto);
    render_draw_many(&systems[0], 1, &c, &tiled, viewport, onto);
    render_draw_many(&systems[1], 1, &c, &tiled, viewport, pass);
    assert_true(blended_onto_host(systems[0]));
    int outside_changed = 0, covered = 0;
    for (int y = 0; y < HEIGHT; ++y)
        for (int x = 0; x < WIDTH; ++x) {
            bool inside = x >= viewport[0] && x < viewport[0] + viewport[2] && y >= viewport[1] &&
                          y < viewport[1] + viewport[3];
            const float *p = &onto[4 * (y * WIDTH + x)];
            if (!inside)
                for (int k = 0; k < 4; ++k) outside_changed += !background_channel(p[k], k);
            else covered += fabsf(p[0] - RENDER_BACKGROUND[0]) > 0.05f;
        }
    float largest = render_largest_difference(onto, pass);
    printf("  %d covered pixels in the viewport, %d outside it changed; %.2f/255 from the pass's picture\n",
           covered, outside_changed, largest * 255.0f);
    assert_true(covered > viewport[2] * viewport[3] / 8);
    assert_int_equal(outside_changed, 0);
    assert_true(largest <= SAME_AS_PASS);
    for (int i = 0; i < 2; ++i) destroy(systems[i]);
    free(onto);
    free(pass);
}

static void test_tiled_blend_onto_the_host_in_a_viewport(void **state) {
    (void)state;
    check_viewport(PLUME_DRAW_FULL);
    check_viewport(PLUME_DRAW_HALF);
}

static GLuint nothing_passed;

/* Conditional rendering on an occlusion query that passed nothing: the
 * host means the draw to be discarded. */
static void conditional_on(void) { glBeginConditionalRender(nothing_passed, GL_QUERY_WAIT); }
static void conditional_off(void) { glEndConditionalRender(); }

static void test_tiled_blend_onto_the_host_obeys_conditional_rendering(void **state) {
    (void)state;
    glGenQueries(1, &nothing_passed);
    glBeginQuery(GL_ANY_SAMPLES_PASSED, nothing_passed);
    glEndQuery(GL_ANY_SAMPLES_PASSED);
    render_camera c = render_make_camera();
    float *drawn = render_new_image(), *discarded = render_new_image();
    const char *names[3] = {"one chunk a tile", "chunks of 16", "1/2 resolution (the upsample)"};
    plume_system systems[3] = {cloud(7, false, 0), cloud(7, false, 16), cloud(7, false, 0)};
    for (int i = 0; i < 3; ++i) {
        plume_frame_desc tiled = render_tiled_frame(i == 2 ? PLUME_DRAW_HALF : PLUME_DRAW_FULL, false, 0.0f);
        render_set_host_frame(GL_RGBA16F, 0, NULL, NULL);
        render_frame(systems[i], &c, tiled, true, 0, 1.0f, drawn);
        render_set_host_frame(GL_RGBA16F, 0, conditional_on, conditional_off);
        render_draw(systems[i], &c, tiled, true, 0, 1.0f, discarded);
        assert_true(blended_onto_host(systems[i]));
        int changed = 0;
        for (int p = 0; p < WIDTH * HEIGHT; ++p)
            for (int k = 0; k < 4; ++k) changed += !background_channel(discarded[4 * p + k], k);
        printf("  %s: %d covered pixels drawn, %d channels changed under the discarding condition\n", names[i],
               render_covered_pixels(drawn), changed);
        assert_true(render_covered_pixels(drawn) > WIDTH * HEIGHT / 8);
        assert_int_equal(changed, 0);
        /* Drawn again without the condition: the same picture (the
         * discarded draw left nothing stale, such as the entry sort's digit
         * counts). */
        render_set_host_frame(GL_RGBA16F, 0, NULL, NULL);
        render_draw(systems[i], &c, tiled, true, 0, 1.0f, discarded);
        assert_true(render_largest_difference(discarded, drawn) <= 1.0f / 255.0f);
        destroy(systems[i]);
    }
    glDeleteQueries(1, &nothing_passed);
    free(drawn);
    free(discarded);
}

/* The host's colour texture (draw buffer 0 of the bound framebuffer). */
static GLuint host_colour_texture(void) {
    GLint name = 0;
    glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                          GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
    return (GLuint)name;
}

/* A base level past the level drawn into: a framebuffer renders into it,
 * an image unit cannot take it. */
static void base_level_past(void) { glTextureParameteri(host_colour_texture(), GL_TEXTURE_BASE_LEVEL, 1); }
static void base_level_back(void) { glTextureParameteri(host_colour_texture(), GL_TEXTURE_BASE_LEVEL, 0); }

/* Another draw buffer format (the fixture's RGBA32F) keeps the passes, at
 * full and 1/2 resolution; an RGBA16F one takes the compute blends at both,
 * unless an image unit cannot take the level drawn into (the particles would
 * vanish). */
static void test_tiled_keeps_the_pass_elsewhere(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    float *image = render_new_image();
    plume_system system = cloud(11, false, 0);
    render_frame(system, &c, render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f), true, 0, 1.0f, image);
    assert_false(blended_onto_host(system));
    assert_true(render_covered_pixels(image) > WIDTH * HEIGHT / 8);
    render_draw(system, &c, render_tiled_frame(PLUME_DRAW_HALF, false, 0.0f), true, 0, 1.0f, image);
    assert_false(blended_onto_host(system));
    render_set_host_frame(GL_RGBA16F, 0, NULL, NULL);
    render_draw(system, &c, render_tiled_frame(PLUME_DRAW_HALF, false, 0.0f), true, 0, 1.0f, image);
    assert_true(blended_onto_host(system));
    render_draw(system, &c, render_tiled_frame(PLUME_DRAW_FULL, false, 0.0f), true, 0, 1.0f, image);
    assert_true(blended_onto_host(system));
    int covered = render_covered_pixels(image);
    render_set_host_frame(GL_RGBA16F, 2, base_level_past, base_level_back);
    for (uint32_t resolution = PLUME_DRAW_FULL; resolution <= PLUME_DRAW_HALF; ++resolution) {
        render_draw(system, &c, render_tiled_frame(resolution, false, 0.0f), true, 0, 1.0f, image);
        assert_false(blended_onto_host(system));
        printf("  1/%d resolution, base level past the level drawn: %d covered pixels (%d blending in compute at "
               "full resolution)\n",
               1 << resolution, render_covered_pixels(image), covered);
        assert_true(render_covered_pixels(image) > covered * 9 / 10);
    }
    destroy(system);
    free(image);
}

const struct CMUnitTest tiled_host_blend_tests[] = {
    cmocka_unit_test_setup_teardown(test_tiled_blends_onto_an_rgba16f_host_colour_as_the_pass_does, fixture_setup,
                                    teardown),
    cmocka_unit_test_setup_teardown(test_tiled_upsample_onto_an_rgba16f_host_colour_as_the_pass_does, fixture_setup,
                                    teardown),
    cmocka_unit_test_setup_teardown(test_tiled_blend_onto_the_host_through_the_resolve, fixture_setup, teardown),
    cmocka_unit_test_setup_teardown(test_tiled_blend_onto_the_host_keeps_to_the_scissor, fixture_setup, teardown),
    cmocka_unit_test_setup_teardown(test_tiled_blend_onto_the_host_in_a_viewport, fixture_setup, teardown),
    cmocka_unit_test_setup_teardown(test_tiled_blend_onto_the_host_obeys_conditional_rendering, fixture_setup,
                                    teardown),
    cmocka_unit_test_setup_teardown(test_tiled_keeps_the_pass_elsewhere, fixture_setup, teardown),
};
const size_t tiled_host_blend_test_count = sizeof tiled_host_blend_tests / sizeof tiled_host_blend_tests[0];
