/* The look (since 1.2): blend modes on every draw path against a CPU
 * compositor of general quads, the additive mode's skipped sort, and the
 * low resolutions with an additive part. */
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

#include "look_reference.h"
#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

/* ---- The draws ------------------------------------------------------------ */

static const ref_light NO_LIGHT = {{0}, {0}, {0}};

typedef struct look_path {
    const char *name;
    plume_frame_desc frame; /* path and resolution; the rest is the test's */
    float tolerance;
} look_path;

/* Raster at full resolution, tiled without and with early termination
 * (the tiled target is RGBA16F; termination adds at most its threshold). */
static const look_path FULL_PATHS[] = {
    {"raster", {.draw_path = PLUME_DRAW_PATH_RASTER}, 2e-3f},
    {"tiled", {.draw_path = PLUME_DRAW_PATH_TILED, .disable_early_termination = true}, 2.0f / 255.0f},
    {"tiled, early termination", {.draw_path = PLUME_DRAW_PATH_TILED}, 3.0f / 255.0f},
};
enum { FULL_PATH_COUNT = sizeof FULL_PATHS / sizeof FULL_PATHS[0] };

/* Overlapping squares of several ages (colours and additive parts over
 * life), at random depths, still. */
static plume_system_desc look_desc(uint32_t seed, uint32_t blend_mode) {
    plume_system_desc d = {.capacity = 50, .seed = seed, .blend_mode = blend_mode};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {0.55f, 0.55f, 0.5f}, .rate = 30,
                                         .lifetime = {3, 3}, .size = {0.35f, 0.7f}, .rotation = {0, 3.1f}};
    d.appearance.color_over_life = (plume_gradient){
        2, {{0.0f, {1.0f, 0.7f, 0.2f, 0.9f}}, {0.5f, {0.3f, 0.4f, 0.9f, 0.6f}}}};
    d.additive_over_life = (plume_curve){2, {{0.0f, 1.0f}, {0.4f, 0.0f}}};
    return d;
}

/* `system` updated for the orthographic camera and drawn by `path` over a
 * far depth plane (no fade, every particle passes the depth test). */
/* As draw_look, with the light of `light` (its light_* fields; NULL: none). */
static void draw_look_lit(plume_system system, const look_path *path, const plume_frame_desc *light, float dt,
                          int updates, const float clear[4], float *image) {
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = path->frame;
    if (light) {
        memcpy(frame.light_direction, light->light_direction, sizeof frame.light_direction);
        memcpy(frame.light_color, light->light_color, sizeof frame.light_color);
        memcpy(frame.ambient_color, light->ambient_color, sizeof frame.ambient_color);
    }
    plume_frame_desc timing = make_frame(dt, view, projection);
    frame.dt = timing.dt;
    memcpy(frame.view, timing.view, sizeof frame.view);
    memcpy(frame.projection, timing.projection, sizeof frame.projection);
    frame.disable_culling = true;
    for (int k = 0; k < updates; ++k) assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    GLuint depth = plane_depth_texture(projection, 15.0f);
    frame.depth_texture = depth;
    test_target t = test_target_begin(IMAGE_SIZE, clear);
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    test_target_end(&t, image);
    glDeleteTextures(1, &depth);
}

static void draw_look(plume_system system, const look_path *path, float dt, int updates, const float clear[4],
                      float *image) {
    draw_look_lit(system, path, NULL, dt, updates, clear, image);
}


static void test_blend_modes_match_the_cpu_compositor_on_every_path(void **state) {
    (void)state;
    const float clear[4] = {0.1f, 0.15f, 0.2f, 1.0f};
    uint32_t seed = test_random_u32();
    printf("  seed %u\n", seed);
    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    float *reference[3];
    bool *ambiguous = malloc(sizeof(bool) * IMAGE_SIZE * IMAGE_SIZE);
    assert_true(image && ambiguous);
    for (uint32_t mode = 0; mode < 3; ++mode) {
        reference[mode] = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
        assert_non_null(reference[mode]);
        for (int p = 0; p < FULL_PATH_COUNT; ++p) {
            plume_system_desc desc = look_desc(seed, mode);
            plume_system system = make_system(desc);
            draw_look(system, &FULL_PATHS[p], 1.0f / 15.0f, 20, clear, image);
            plume_readback rb = read_all(fixture_context(), system);
            assert_true(rb.drawn_count >= 20);
            /* Additive light needs no order: the update skipped the sort
             * and drew in slot order. */
            plume_sort_algorithm sorted = plume_system_get_sort_algorithm(fixture_context(), system);
            if (mode == PLUME_BLEND_ADDITIVE) {
                assert_int_equal(sorted, PLUME_SORT_AUTOMATIC);
                for (uint32_t i = 1; i < rb.drawn_count; ++i) assert_true(rb.draw_order[i - 1] < rb.draw_order[i]);
            } else {
                assert_int_not_equal(sorted, PLUME_SORT_AUTOMATIC);
            }
            plume_system_desc resolved = system_desc(fixture_context(), system);
            composite_reference(&resolved, &rb, &NO_LIGHT, clear, reference[mode], ambiguous);
            free_readback(&rb);
            destroy_system(system);
            float worst = largest_difference(image, reference[mode], ambiguous);
            printf("  blend mode %u, %s: largest difference from the CPU compositor %.2f/255 (at most %.1f)\n", mode,
                   FULL_PATHS[p].name, worst * 255.0f, FULL_PATHS[p].tolerance * 255.0f);
            assert_true(worst <= FULL_PATHS[p].tolerance);
        }
    }
    /* The modes differ enough that a path drawing one for another fails. */
    float apart = fminf(largest_difference(reference[0], reference[1], ambiguous),
                        largest_difference(reference[0], reference[2], ambiguous));
    apart = fminf(apart, largest_difference(reference[1], reference[2], ambiguous));
    printf("  the modes' pictures differ by %.2f/255 at least\n", apart * 255.0f);
    assert_true(apart > 0.2f);
    for (int mode = 0; mode < 3; ++mode) free(reference[mode]);
    free(image);
    free(ambiguous);
}

/* ---- Orientations ------------------------------------------------------- */

/* Moving squares (velocities in every direction) in each plume_orientation,
 * drawn by the raster and the tiled path, against the CPU compositor. */
static void test_orientations_match_the_cpu_compositor(void **state) {
    (void)state;
    const float clear[4] = {0.05f, 0.1f, 0.1f, 1.0f};
    uint32_t seed = test_random_u32();
    printf("  seed %u\n", seed);
    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    float *reference = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    bool *ambiguous = malloc(sizeof(bool) * IMAGE_SIZE * IMAGE_SIZE);
    assert_true(image && reference && ambiguous);
    const float axes[5][3] = {{0}, {0}, {0}, {1.0f, 1.0f, 0.3f}, {0.3f, 0.5f, 0.8f}};
    float *camera_facing = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    assert_non_null(camera_facing);
    for (uint32_t mode = 0; mode <= PLUME_ORIENT_WORLD_FACING; ++mode)
        for (int path = 0; path < 2; ++path) {
            plume_system_desc desc = look_desc(seed, PLUME_BLEND_PREMULTIPLIED);
            desc.emitters[0].spread = 3.14159f;
            desc.emitters[0].speed = (plume_range){0.3f, 1.5f};
            desc.emitters[0].size = (plume_range){0.15f, 0.3f};
            desc.orientation = mode;
            memcpy(desc.orientation_axis, axes[mode], sizeof desc.orientation_axis);
            desc.stretch_factor = 1.5f;
            desc.stretch_limits = (plume_range){1.0f, 2.5f};
            plume_system system = make_system(desc);
            draw_look(system, &FULL_PATHS[path], 1.0f / 30.0f, 12, clear, image);
            plume_readback rb = read_all(fixture_context(), system);
            assert_true(rb.drawn_count >= 5);
            plume_system_desc resolved = system_desc(fixture_context(), system);
            composite_reference(&resolved, &rb, &NO_LIGHT, clear, reference, ambiguous);
            free_readback(&rb);
            destroy_system(system);
            float worst = largest_difference(image, reference, ambiguous);
            printf("  orientation %u, %s: largest difference from the CPU compositor %.2f/255 (at most %.1f)\n", mode,
                   FULL_PATHS[path].name, worst * 255.0f, FULL_PATHS[path].tolerance * 255.0f);
            assert_true(worst <= FULL_PATHS[path].tolerance);
            /* The picture is not the camera-facing one (the same particles):
             * each mode moves pixels. Pixel by pixel: quads of one area
             * turned another way can cover as much in all. */
            if (mode == 0 && path == 0) {
                memcpy(camera_facing, image, sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
            } else if (path == 0) {
                int moved = 0;
                for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i) moved += fabsf(image[4 * i] - camera_facing[4 * i]) > 0.1f;
                printf("  orientation %u: %d pixels differ from the camera-facing picture\n", mode, moved);
                assert_true(moved >= 20);
            }
        }
    free(image);
    free(reference);
    free(ambiguous);
    free(camera_facing);
}

static void make_ground_facing(plume_system_desc *d) {
    d->orientation = PLUME_ORIENT_WORLD_FACING;
    d->orientation_axis[1] = 1.0f;
}

static void make_stretched(plume_system_desc *d) {
    d->orientation = PLUME_ORIENT_VELOCITY_STRETCHED;
    d->emitters[0].speed = (plume_range){1.0f, 3.0f};
    d->emitters[0].spread = 3.14159f;
    d->stretch_factor = 1.0f;
    d->stretch_limits = (plume_range){1.0f, 3.0f};
}

/* In perspective, quads that do not face the camera (ground-facing, and
 * stretched along their velocities) with sprites, flipbook frames, an
 * occluder and the soft fade: the tiled path's projective map against the
 * raster path, and the low resolutions. */
static void test_oriented_quads_in_perspective_on_every_path(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    float *raster = render_new_image(), *other = render_new_image();
    const float centre[3] = {0.2f, -0.3f, -6.0f};
    void (*modes[2])(plume_system_desc *) = {make_ground_facing, make_stretched};
    for (int m = 0; m < 2; ++m) {
        plume_system a = render_cloud_with(centre, 2.5f, 1.5f, 250, 17, true, modes[m]);
        render_frame(a, &c, (plume_frame_desc){0}, true, RENDER_WIDTH / 3, render_window_depth(&c, 5.5f), raster);
        assert_int_equal(plume_system_destroy(fixture_context(), a), PLUME_OK);
        assert_true(render_covered_pixels(raster) > RENDER_WIDTH * RENDER_HEIGHT / 10);
        plume_system b = render_cloud_with(centre, 2.5f, 1.5f, 250, 17, true, modes[m]);
        render_frame(b, &c, (plume_frame_desc){.draw_path = PLUME_DRAW_PATH_TILED, .disable_early_termination = true},
                     true, RENDER_WIDTH / 3, render_window_depth(&c, 5.5f), other);
        assert_int_equal(plume_system_destroy(fixture_context(), b), PLUME_OK);
        float largest = render_largest_difference(raster, other);
        double close = render_psnr(raster, other);
        /* The sprite's mip level: the raster path takes it from each 2x2
         * pixel block's differences, the tiled path from the exact
         * derivatives; on quads seen at a slant they differ a little. */
        printf("  %s: tiled against raster, largest difference %.2f/255 (at most 12), PSNR %.1f dB (at least 50)\n",
               m ? "stretched" : "ground-facing", largest * 255.0f, close);
        assert_true(largest <= 12.0f / 255.0f);
        assert_true(close >= 50.0);
        plume_system l = render_cloud_with(centre, 2.5f, 1.5f, 250, 17, true, modes[m]);
        render_frame(l, &c, (plume_frame_desc){.draw_path = PLUME_DRAW_PATH_TILED, .draw_resolution = PLUME_DRAW_HALF},
                     true, RENDER_WIDTH / 3, render_window_depth(&c, 5.5f), other);
        assert_int_equal(plume_system_destroy(fixture_context(), l), PLUME_OK);
        double quality = render_psnr(raster, other);
        printf("  %s: tiled 1/2, PSNR %.1f dB against full-resolution raster (at least 28)\n",
               m ? "stretched" : "ground-facing", quality);
        assert_true(quality >= 28.0);
    }
    free(raster);
    free(other);
}

/* A stretched spark whose centre is outside the view but whose quad reaches
 * into it is drawn: the culling sphere bounds the stretched quad. */
static void test_culling_bounds_the_stretched_quad(void **state) {
    (void)state;
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_system_desc d = {.capacity = 4, .orientation = PLUME_ORIENT_VELOCITY_STRETCHED, .stretch_factor = 1.0f,
                           .stretch_limits = {1.0f, 10.0f}};
    /* At x = 1.2 (the view ends at 1), moving along -x at 9 units/s: a
     * quad 0.1 wide and 1.0 long reaching x = 0.7. */
    d.emitters[0] = (plume_emitter_desc){.position = {1.2f, 0, 0}, .direction = {-1, 0, 0}, .burst_count = 1,
                                         .lifetime = {5, 5}, .speed = {9, 9}, .size = {0.1f, 0.1f}};
    plume_system system = make_system(d);
    plume_frame_desc frame = make_frame(0.001f, view, projection);
    frame.disable_culling = false;
    update(system, &frame);
    plume_readback rb = read_all(fixture_context(), system);
    assert_int_equal(rb.live_count, 1);
    assert_int_equal(rb.drawn_count, 1);
    free_readback(&rb);
    destroy_system(system);
    /* Unstretched it is culled: the test can tell. */
    d.orientation = PLUME_ORIENT_VELOCITY_ALIGNED;
    system = make_system(d);
    update(system, &frame);
    rb = read_all(fixture_context(), system);
    assert_int_equal(rb.live_count, 1);
    assert_int_equal(rb.drawn_count, 0);
    free_readback(&rb);
    destroy_system(system);
}

/* ---- Lighting ---------------------------------------------------------------- */

/* Lit squares (camera-facing and lying in a tilted plane) with an emissive
 * glow over life, on the raster and tiled paths, against the CPU
 * compositor's half-sphere normals, under a sun and under ambient light
 * only; the same system unlit, the sun turned round, or a sun where the
 * frame has none give other pictures (the test can tell). */
static void test_lighting_matches_the_cpu_compositor(void **state) {
    (void)state;
    const float clear[4] = {0.05f, 0.05f, 0.1f, 1.0f};
    uint32_t seed = test_random_u32();
    printf("  seed %u\n", seed);
    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    float *reference = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    float *variant = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    bool *ambiguous = malloc(sizeof(bool) * IMAGE_SIZE * IMAGE_SIZE);
    assert_true(image && reference && variant && ambiguous);
    double length = sqrt(0.6 * 0.6 + 0.8 * 0.8 + 0.9 * 0.9);
    /* A sun, and a frame without a directional light (ambient only, though
     * its colour is set). */
    const plume_frame_desc lights[2] = {{.light_direction = {0.6f, 0.8f, 0.9f}, .light_color = {1.2f, 1.0f, 0.8f},
                                         .ambient_color = {0.15f, 0.2f, 0.3f}},
                                        {.light_color = {1.2f, 1.0f, 0.8f}, .ambient_color = {0.15f, 0.2f, 0.3f}}};
    const ref_light refs[2] = {{{0.6f / length, 0.8f / length, 0.9f / length}, {1.2f, 1.0f, 0.8f}, {0.15f, 0.2f, 0.3f}},
                               {{0, 0, 0}, {1.2f, 1.0f, 0.8f}, {0.15f, 0.2f, 0.3f}}};
    for (int l = 0; l < 2; ++l)
    for (uint32_t orientation = 0; orientation < 2; ++orientation)
        for (int path = 0; path < 2; ++path) {
            const plume_frame_desc light = lights[l];
            const ref_light ref = refs[l];
            plume_system_desc desc = look_desc(seed, PLUME_BLEND_PREMULTIPLIED);
            desc.lit = true;
            desc.emissive_over_life = (plume_gradient){2, {{0.0f, {1.0f, 0.5f, 0.1f, 0.6f}}, {0.3f, {0, 0, 0, 0}}}};
            if (orientation) {
                desc.orientation = PLUME_ORIENT_WORLD_FACING;
                desc.orientation_axis[0] = 0.4f, desc.orientation_axis[1] = -0.3f, desc.orientation_axis[2] = 0.9f;
            }
            plume_system system = make_system(desc);
            draw_look_lit(system, &FULL_PATHS[path], &light, 1.0f / 15.0f, 20, clear, image);
            plume_readback rb = read_all(fixture_context(), system);
            assert_true(rb.drawn_count >= 20);
            plume_system_desc resolved = system_desc(fixture_context(), system);
            composite_reference(&resolved, &rb, &ref, clear, reference, ambiguous);
            int checked = 0;
            for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i) checked += !ambiguous[i];
            printf("  %d of %d pixels checked (the rest within the snapping of an edge or of a turn of the light)\n",
                   checked, IMAGE_SIZE * IMAGE_SIZE);
            assert_true(checked >= IMAGE_SIZE * IMAGE_SIZE / 2);
            float worst = largest_difference(image, reference, ambiguous);
            /* Both paths shade from the snapped corners, so the light
             * moves with the snapping by up to LIGHT_SNAP_AMBIGUITY where
             * it is checked (the rest is ambiguous): that on top of the
             * path's unlit tolerance (NVIDIA's rasteriser: 1.4/255 off at
             * worst where the sphere's rim was checked). */
            float tolerance = FULL_PATHS[path].tolerance + (float)LIGHT_SNAP_AMBIGUITY;
            printf("  lit%s, %s, %s: largest difference from the CPU compositor %.2f/255 (at most %.1f)\n",
                   l ? " (ambient only)" : "", orientation ? "world-facing" : "camera-facing", FULL_PATHS[path].name,
                   worst * 255.0f,
                   tolerance * 255.0f);
            assert_true(worst <= tolerance);
            /* Unlit, or lit from behind: far from this picture. */
            resolved.lit = false;
            composite_reference(&resolved, &rb, &ref, clear, variant, ambiguous);
            assert_true(largest_difference(image, variant, ambiguous) > 0.1f);
            resolved.lit = true;
            ref_light other = ref;
            if (l == 0)
                for (int i = 0; i < 3; ++i) other.direction[i] = -other.direction[i];
            else
                other.direction[2] = 1.0f; /* a light where the frame has none */
            composite_reference(&resolved, &rb, &other, clear, variant, ambiguous);
            assert_true(largest_difference(image, variant, ambiguous) > 0.1f);
            free_readback(&rb);
            destroy_system(system);
        }
    free(image);
    free(reference);
    free(variant);
    free(ambiguous);
}

/* A frame whose light is not finite, or whose colours are negative, is
 * refused with a message. */
static void test_bad_light_is_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_system system = make_system(look_desc(1, PLUME_BLEND_PREMULTIPLIED));
    plume_frame_desc frames[3] = {{.light_direction = {NAN, 0, 1}}, {.light_color = {1, -0.5f, 1}},
                                  {.ambient_color = {INFINITY, 0, 0}}};
    for (int i = 0; i < 3; ++i) {
        int before = test_log_count("light_direction must be finite");
        assert_int_equal(plume_system_draw(fixture_context(), system, &frames[i]), PLUME_ERROR_INVALID_ARGUMENT);
        assert_int_equal(plume_system_update(fixture_context(), system, &frames[i]), PLUME_ERROR_INVALID_ARGUMENT);
        assert_int_equal(test_log_count("light_direction must be finite"), before + 2);
    }
    destroy_system(system);
}

/* ---- Low resolutions ------------------------------------------------------ */

static void make_fire_like(plume_system_desc *d) {
    d->blend_mode = PLUME_BLEND_PREMULTIPLIED_ADDITIVE;
    d->additive_over_life = (plume_curve){2, {{0.0f, 1.0f}, {1.0f, 0.3f}}};
    d->appearance.color_over_life.keys[0].rgba[3] = 0.6f;
}

static void make_lit(plume_system_desc *d) {
    d->lit = true;
    d->emissive_over_life = (plume_gradient){1, {{0.0f, {0.3f, 0.1f, 0.0f, 1.0f}}}};
}

/* PSNR of `b` against `a` over the colour channels, for a peak of a's
 * brightest channel (additive light goes over 1). */
static double psnr_to_peak(const float *a, const float *b) {
    double squared = 0.0, peak = 0.0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i)
        for (int c = 0; c < 3; ++c) {
            double d = (double)a[4 * i + c] - (double)b[4 * i + c];
            squared += d * d;
            peak = fmax(peak, a[4 * i + c]);
        }
    double mean = squared / (3.0 * RENDER_WIDTH * RENDER_HEIGHT);
    return mean > 0.0 ? 10.0 * log10(peak * peak / mean) : 99.0;
}

/* Largest channel difference relative to the brighter of the two (at least
 * 1): the tiled target's half floats round light over 1 in proportion. */
static float largest_relative_difference(const float *a, const float *b) {
    float largest = 0.0f;
    for (int i = 0; i < 4 * RENDER_WIDTH * RENDER_HEIGHT; ++i)
        largest = fmaxf(largest, fabsf(a[i] - b[i]) / fmaxf(1.0f, fmaxf(fabsf(a[i]), fabsf(b[i]))));
    return largest;
}

/* An additive part (fire: young particles wholly additive) and a lit cloud
 * at 1/2 and 1/4 (both paths) against full resolution:
 * as close as the premultiplied cloud of test_lowres.c is (PSNR to the
 * picture's peak); the tiled path at full resolution within 2/255 of the
 * raster path; and the same cloud premultiplied far from both. */
static void test_additive_parts_at_low_resolution(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    float *full = render_new_image(), *other = render_new_image();
    const float centre[3] = {0.0f, 0.0f, -8.0f};
    void (*modes[2])(plume_system_desc *) = {make_fire_like, make_lit};
    const char *names[2] = {"fire", "lit"};
    /* The lit cloud's light: from the upper right, with an ambient term. */
    const plume_frame_desc lights[2] = {{.dt = 0}, {.light_direction = {1, 1, 0.5f}, .light_color = {1, 0.9f, 0.8f},
                                                  .ambient_color = {0.2f, 0.2f, 0.25f}}};
    const uint32_t resolutions[2] = {PLUME_DRAW_HALF, PLUME_DRAW_QUARTER};
    const double least[2] = {30.0, 25.0};
    plume_system plain = render_cloud_with(centre, 3.0f, 1.5f, 300, 9, true, NULL);
    float *premultiplied = render_new_image();
    render_frame(plain, &c, (plume_frame_desc){0}, true, 0, 1.0f, premultiplied);
    assert_int_equal(plume_system_destroy(fixture_context(), plain), PLUME_OK);
    for (int m = 0; m < 2; ++m) {
        plume_system reference = render_cloud_with(centre, 3.0f, 1.5f, 300, 9, true, modes[m]);
        render_frame(reference, &c, lights[m], true, 0, 1.0f, full);
        assert_true(render_covered_pixels(full) > RENDER_WIDTH * RENDER_HEIGHT / 8);
        double wrong = psnr_to_peak(full, premultiplied);
        printf("  %s against the same cloud premultiplied: PSNR %.1f dB\n", names[m], wrong);
        assert_true(wrong < least[1] - 3.0);
        for (int path = 0; path < 2; ++path)
            for (int r = 0; r < 3; ++r) {
                if (path == 0 && r == 0) continue;
                plume_frame_desc frame = lights[m];
                frame.draw_path = path ? PLUME_DRAW_PATH_TILED : PLUME_DRAW_PATH_RASTER;
                frame.draw_resolution = r == 0 ? PLUME_DRAW_FULL : resolutions[r - 1];
                frame.disable_early_termination = true;
                plume_system system = render_cloud_with(centre, 3.0f, 1.5f, 300, 9, true, modes[m]);
                render_frame(system, &c, frame, true, 0, 1.0f, other);
                assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
                if (r == 0) {
                    float largest = largest_relative_difference(full, other);
                    printf("  %s, tiled full: largest difference from raster %.2f/255\n", names[m],
                           largest * 255.0f);
                    assert_true(largest <= 2.0f / 255.0f);
                } else {
                    double quality = psnr_to_peak(full, other);
                    printf("  %s, %s 1/%d: PSNR %.1f dB (at least %.0f)\n", names[m],
                           path ? "tiled" : "raster", r == 1 ? 2 : 4, quality, least[r - 1]);
                    assert_true(quality >= least[r - 1]);
                }
            }
        assert_int_equal(plume_system_destroy(fixture_context(), reference), PLUME_OK);
    }
    free(full);
    free(other);
    free(premultiplied);
}

/* ---- What each look costs the tiled path --------------------------------- */

/* The size of the context's buffer labelled `label` (0: none). */
static GLint64 labelled_buffer_size(const char *label) {
    plume_gl_object objects[256];
    uint32_t count = 0;
    assert_int_equal(plume_context_list_gl_objects(fixture_context(), objects, 256, &count), PLUME_OK);
    assert_true(count <= 256);
    GLint64 size = 0;
    for (uint32_t i = 0; i < count; ++i) {
        char name[64] = {0};
        if (objects[i].type != GL_BUFFER) continue;
        glGetObjectLabel(GL_BUFFER, objects[i].name, sizeof name, NULL, name);
        if (strcmp(name, label) != 0) continue;
        GLint bound = 0;
        glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &bound);
        glBindBuffer(GL_COPY_READ_BUFFER, objects[i].name);
        glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
        glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)bound);
    }
    return size;
}

static void make_emissive(plume_system_desc *d) {
    d->emissive_over_life = (plume_gradient){1, {{0.0f, {0.3f, 0.1f, 0.0f, 1.0f}}}};
}
static void make_additive(plume_system_desc *d) { d->blend_mode = PLUME_BLEND_ADDITIVE; }
static void make_stretched_lit(plume_system_desc *d) {
    make_stretched(d);
    d->lit = true;
}

/* The tiled programs are built for the system's look: the default look's
 * splat is 4 vec4s (the size before the look), and each part of the look
 * adds only what it needs (tiled_common.glsl's layout). */
static void test_each_look_pays_for_its_own_splat(void **state) {
    (void)state;
    const struct {
        const char *name;
        void (*make)(plume_system_desc *);
        uint32_t vec4s;
    } looks[] = {
        {"default", NULL, 4},        {"additive", make_additive, 4}, {"emissive", make_emissive, 5},
        {"lit", make_lit, 5},        {"stretched", make_stretched, 6}, {"stretched, lit", make_stretched_lit, 7},
    };
    const float clear[4] = {0, 0, 0, 1};
    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    assert_non_null(image);
    const look_path *tiled = &FULL_PATHS[1];
    for (size_t i = 0; i < sizeof looks / sizeof looks[0]; ++i) {
        plume_system_desc desc = look_desc(7, PLUME_BLEND_PREMULTIPLIED);
        desc.capacity = 37;
        if (looks[i].make) looks[i].make(&desc);
        plume_system system = make_system(desc);
        draw_look(system, tiled, 1.0f / 15.0f, 3, clear, image);
        GLint64 size = labelled_buffer_size("plume draw: tiled splats");
        printf("  %s: %lld bytes of splats for %u particles\n", looks[i].name, (long long)size, desc.capacity);
        assert_int_equal(size, (GLint64)desc.capacity * 16 * looks[i].vec4s);
        destroy_system(system);
    }
    free(image);
}

const struct CMUnitTest look_tests[] = {
    cmocka_unit_test_setup_teardown(test_each_look_pays_for_its_own_splat, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_blend_modes_match_the_cpu_compositor_on_every_path, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_additive_parts_at_low_resolution, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_orientations_match_the_cpu_compositor, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_oriented_quads_in_perspective_on_every_path, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_culling_bounds_the_stretched_quad, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_lighting_matches_the_cpu_compositor, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bad_light_is_refused, fixture_setup, fixture_teardown),
};
const size_t look_test_count = sizeof look_tests / sizeof look_tests[0];
