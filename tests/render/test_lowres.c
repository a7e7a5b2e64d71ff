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

#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { WIDTH = RENDER_WIDTH, HEIGHT = RENDER_HEIGHT };
#define BACKGROUND RENDER_BACKGROUND

static plume_system cloud(const float centre[3], float extent, float size, uint32_t count, uint32_t seed) {
    return render_cloud(centre, extent, size, count, seed, false);
}

/* One update, then a draw at `resolution` into a fresh host frame. */
static void render(plume_system system, const render_camera *c, uint32_t resolution, bool with_depth,
                   int occluder_width, float occluder_depth, float *rgba) {
    render_frame(system, c, (plume_frame_desc){.draw_resolution = resolution}, with_depth, occluder_width,
                 occluder_depth, rgba);
}

static void test_low_resolution_is_close_to_full_resolution(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -8.0f};
    float *full = render_new_image(), *low = render_new_image();
    /* PSNR each path must reach on this scene (measured on llvmpipe:
     * printed below; the thresholds leave a margin). */
    const uint32_t resolutions[2] = {PLUME_DRAW_HALF, PLUME_DRAW_QUARTER};
    const double least[2] = {30.0, 25.0};
    for (int r = 0; r < 2; ++r) {
        plume_system a = cloud(centre, 3.0f, 1.5f, 400, 5), b = cloud(centre, 3.0f, 1.5f, 400, 5);
        render(a, &c, PLUME_DRAW_FULL, true, 0, 1.0f, full);
        render(b, &c, resolutions[r], true, 0, 1.0f, low);
        assert_true(render_covered_pixels(full) > WIDTH * HEIGHT / 8);
        double quality = render_psnr(full, low);
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
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -10.0f}; /* the cloud straddles x = 0: the edge */
    float occluder = render_window_depth(&c, 4.0f);
    float *full = render_new_image(), *low = render_new_image();
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

static void hard_edges(plume_system_desc *desc) { desc->appearance.soft_fade_distance = 1e-4f; }

/* A host in the reversed depth convention (clip control 0..1, depth cleared
 * to 0, GEQUAL, an infinite reversed projection) sees the image of the
 * default convention at every resolution, on the raster and the tiled path
 * (kept here: test_tiled.c is full): the same occluder's edge (depth test,
 * downsample), the same soft fade, the same upsample; with the soft fade
 * and without it (a fade distance of 1e-4), so that the depth test and the
 * upsample are seen alone. Every case is drawn before any is asserted. */
static void test_reversed_depth_draws_the_same_image(void **state) {
    (void)state;
    const float centre[3] = {0.0f, 0.0f, -10.0f};
    float *standard = render_new_image(), *reversed = render_new_image();
    const uint32_t resolutions[3] = {PLUME_DRAW_FULL, PLUME_DRAW_HALF, PLUME_DRAW_QUARTER};
    const uint32_t paths[2] = {PLUME_DRAW_PATH_RASTER, PLUME_DRAW_PATH_TILED};
    int differing = 0;
    for (int soft = 1; soft >= 0; --soft)
        for (int p = 0; p < 2; ++p)
            for (int r = 0; r < 3; ++r) {
                for (int convention = 0; convention < 2; ++convention) {
                    set_host_depth_convention(convention == 1);
                    render_camera c = convention == 1 ? render_make_reversed_camera() : render_make_camera();
                    plume_system system = render_cloud_with(centre, 4.0f, 2.0f, 300, 9, false, soft ? NULL : hard_edges);
                    plume_frame_desc frame = {.draw_resolution = resolutions[r], .draw_path = paths[p]};
                    render_frame(system, &c, frame, true, WIDTH / 2, render_window_depth(&c, 8.0f),
                                 convention == 1 ? reversed : standard);
                    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
                }
                set_host_depth_convention(false);
                float largest = render_largest_difference(standard, reversed);
                printf("  %s path, resolution %u, %s: reversed depth differs by at most %.4f\n",
                       p ? "tiled" : "raster", resolutions[r], soft ? "soft" : "hard edges", largest);
                assert_true(render_covered_pixels(standard) > WIDTH * HEIGHT / 8);
                differing += largest > 2.0f / 255.0f;
            }
    assert_int_equal(differing, 0);
    free(standard);
    free(reversed);
}

static void test_low_resolution_without_depth_draws_at_full_resolution(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -8.0f};
    float *full = render_new_image(), *low = render_new_image();
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

/* Pixels of `image` in columns [x0, x1) that show particles. */
static int shown_in_columns(const float *image, int x0, int x1) {
    int shown = 0;
    for (int y = 0; y < HEIGHT; ++y)
        for (int x = x0; x < x1; ++x) shown += fabsf(image[4 * (y * WIDTH + x)] - RENDER_BACKGROUND[0]) > 0.05f;
    return shown;
}

/* One system drawn tiled, at full resolution and at 1/2, while the host
 * changes its depth function from draw to draw (the composite is built for
 * each function it meets: tiled.c), an occluder in front of the cloud over
 * the left half. GL_LESS shows the right half only; GL_NEVER nothing;
 * GL_GREATER nothing either (on the right the cloud is in front of the
 * scene, on the left the soft fade hides what is behind it); GL_ALWAYS the
 * right half (the left faded); GL_LESS again the first picture. */
static void test_tiled_draw_follows_the_host_depth_function(void **state) {
    (void)state;
    const float centre[3] = {0.0f, 0.0f, -10.0f};
    float *first = render_new_image(), *image = render_new_image();
    const uint32_t resolutions[2] = {PLUME_DRAW_FULL, PLUME_DRAW_HALF};
    for (int r = 0; r < 2; ++r) {
        render_camera c = render_make_camera();
        plume_system system = render_cloud_with(centre, 4.0f, 2.0f, 300, 11, false, hard_edges);
        plume_frame_desc frame = {.draw_resolution = resolutions[r], .draw_path = PLUME_DRAW_PATH_TILED};
        const GLenum functions[5] = {GL_LESS, GL_NEVER, GL_GREATER, GL_ALWAYS, GL_LESS};
        for (int f = 0; f < 5; ++f) {
            glDepthFunc(functions[f]);
            if (f == 0) render_frame(system, &c, frame, true, WIDTH / 2, render_window_depth(&c, 8.0f), first);
            else render_draw(system, &c, frame, true, WIDTH / 2, render_window_depth(&c, 8.0f), image);
            const float *drawn = f == 0 ? first : image;
            /* A band either side of the occluder's edge is left out: at 1/2 the upsample may blur it. */
            int left = shown_in_columns(drawn, 0, WIDTH / 2 - 4), right = shown_in_columns(drawn, WIDTH / 2 + 4, WIDTH);
            printf("  resolution %u, depth function 0x%04x: %d pixels left of the edge, %d right\n", resolutions[r],
                   functions[f], left, right);
            bool right_expected = functions[f] == GL_ALWAYS || functions[f] == GL_LESS;
            assert_int_equal(left, 0);
            assert_true(right_expected ? right > 100 : right == 0);
        }
        float again = render_largest_difference(first, image);
        printf("  resolution %u: GL_LESS again differs by %.4f\n", resolutions[r], again);
        assert_true(again < 1e-6f);
        glDepthFunc(GL_LESS);
        assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    }
    free(first);
    free(image);
}

const struct CMUnitTest lowres_tests[] = {
    cmocka_unit_test_setup_teardown(test_low_resolution_is_close_to_full_resolution, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_no_halo_at_a_depth_edge, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_reversed_depth_draws_the_same_image, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_tiled_draw_follows_the_host_depth_function, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_low_resolution_without_depth_draws_at_full_resolution, fixture_setup,
                                    fixture_teardown),
};
const size_t lowres_test_count = sizeof lowres_tests / sizeof lowres_tests[0];
