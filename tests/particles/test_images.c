/* Pictures against a CPU reference: compositing and the need for the sort,
 * soft particles, flipbook frames and blending, rotation and spin. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include "look_reference.h"
#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume/plume_sort.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "test_platform.h"
#include "tests.h"

/* ---- Images ------------------------------------------------------------------ */

typedef struct sprite_ref {
    uint32_t key, slot;           /* the system's read-back sort key, and the particle's slot */
    double x0, x1, y0, y1;        /* window pixels */
    double rgba[4];               /* premultiplied */
} sprite_ref;

/* The system's order: keys ascending (depths falling), ties by slot. The
 * keys hold the depth's top sort_key_bits only; tests/particles/test_order.c
 * checks them against the CPU's depths. */
static int sprite_order(const void *a, const void *b) {
    const sprite_ref *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* Composites the read-back particles as solid squares, back to front in
 * the system's order (keys, then slots), for the orthographic camera of the image tests
 * (view: eye at z = 5 looking down -z; 2 world units across the image).
 * ambiguous[pixel] marks pixel centres closer to a square's edge than the
 * rasteriser's vertex snapping (2^-GL_SUBPIXEL_BITS px, plus float slack),
 * where coverage may go either way. */
static void composite_sprites(const plume_readback *rb, const plume_appearance *look, uint32_t sort_key_bits,
                              const float clear[4], float *rgba, bool *ambiguous) {
    sprite_ref *sprites = malloc(sizeof(sprite_ref) * (rb->live_count + 1));
    assert_non_null(sprites);
    const double pixels_per_unit = IMAGE_SIZE / 2.0;
    GLint subpixel_bits = 4; /* the least GL allows */
    glGetIntegerv(GL_SUBPIXEL_BITS, &subpixel_bits);
    const double snap = ldexp(1.0, -subpixel_bits) + 1e-4;
    for (uint32_t i = 0; i < rb->live_count; ++i) {
        const plume_particle *p = &rb->particles[rb->draw_order[i]];
        double life = p->age / p->lifetime;
        life = life < 0 ? 0 : life > 1 ? 1 : life;
        double half = 0.5 * p->size * curve_at(&look->size_over_life, life) * pixels_per_unit;
        double cx = (p->position[0] + 1.0) * pixels_per_unit, cy = (p->position[1] + 1.0) * pixels_per_unit;
        sprite_ref *s = &sprites[i];
        assert_key_is_depth(rb->draw_keys[i], 5.0 - p->position[2], sort_key_bits);
        *s = (sprite_ref){.key = rb->draw_keys[i], .slot = rb->draw_order[i], .x0 = cx - half, .x1 = cx + half, .y0 = cy - half, .y1 = cy + half};
        double color[4];
        gradient_at(&look->color_over_life, life, color);
        double alpha = color[3] * curve_at(&look->opacity_over_life, life);
        for (int c = 0; c < 3; ++c) s->rgba[c] = color[c] * alpha;
        s->rgba[3] = alpha;
    }
    qsort(sprites, rb->live_count, sizeof(sprite_ref), sprite_order);
    for (int y = 0; y < IMAGE_SIZE; ++y)
        for (int x = 0; x < IMAGE_SIZE; ++x) {
            double px = x + 0.5, py = y + 0.5, out[4] = {clear[0], clear[1], clear[2], clear[3]};
            bool edge = false;
            for (uint32_t i = 0; i < rb->live_count; ++i) {
                const sprite_ref *s = &sprites[i];
                if (fabs(px - s->x0) < snap || fabs(px - s->x1) < snap || fabs(py - s->y0) < snap || fabs(py - s->y1) < snap)
                    edge = true;
                if (px <= s->x0 || px >= s->x1 || py <= s->y0 || py >= s->y1) continue;
                for (int c = 0; c < 4; ++c) out[c] = s->rgba[c] + out[c] * (1.0 - s->rgba[3]);
            }
            for (int c = 0; c < 4; ++c) rgba[4 * (y * IMAGE_SIZE + x) + c] = (float)out[c];
            ambiguous[y * IMAGE_SIZE + x] = edge;
        }
    free(sprites);
}



typedef struct image_compare {
    float worst;          /* largest channel difference off the ambiguous pixels */
    int differing;        /* pixels with a channel off by more than the tolerance */
    int covered;          /* pixels the reference changed from the clear colour */
} image_compare;

static image_compare compare_images(const float *image, const float *reference, const bool *ambiguous,
                                    const float clear[4], float tolerance) {
    image_compare result = {0};
    for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i) {
        bool changed = false, differs = false;
        for (int c = 0; c < 4; ++c) {
            changed = changed || fabsf(reference[4 * i + c] - clear[c]) > 1e-4f;
            float d = fabsf(image[4 * i + c] - reference[4 * i + c]);
            if (!ambiguous[i] && d > result.worst) result.worst = d;
            differs = differs || d > tolerance;
        }
        result.covered += changed;
        result.differing += differs && !ambiguous[i];
    }
    return result;
}

static void test_image_matches_cpu_compositing_and_needs_the_sort(void **state) {
    (void)state;
    const float clear[4] = {0.1f, 0.15f, 0.2f, 1.0f};
    mat4 view, projection;
    ortho_camera(view, projection);
    uint32_t seed = test_random_u32();
    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    float *reference = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    bool *ambiguous = malloc(sizeof(bool) * IMAGE_SIZE * IMAGE_SIZE);
    assert_true(image && reference && ambiguous);
    image_compare results[2];
    for (int sorted = 1; sorted >= 0; --sorted) {
        plume_system_desc desc = overlap_desc(seed);
        plume_system system = make_system(desc);
        plume_frame_desc frame = make_frame(1.0f / 15.0f, view, projection);
        frame.disable_sort = !sorted;
        for (int k = 0; k < 30; ++k) update(system, &frame);
        test_target t = test_target_begin(IMAGE_SIZE, clear);
        assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
        test_target_end(&t, image);
        plume_readback rb = read_all(fixture_context(), system);
        assert_true(rb.live_count >= 20);
        check_slots_partition(&rb, 64, 0);
        plume_system_desc resolved = system_desc(fixture_context(), system);
        composite_sprites(&rb, &resolved.appearance, resolved.sort_key_bits, clear, reference, ambiguous);
        free_readback(&rb);
        destroy_system(system);
        results[sorted] = compare_images(image, reference, ambiguous, clear, 2e-3f);
        printf("  image (%s): %d pixels covered, %d differ from the CPU reference, worst %.4f\n",
               sorted ? "sorted" : "unsorted", results[sorted].covered, results[sorted].differing,
               results[sorted].worst);
    }
    assert_true(results[1].covered > 400);
    assert_int_equal(results[1].differing, 0);
    /* Unsorted (emission order: front to back here), the same particles
     * composite visibly wrong. */
    assert_true(results[0].differing > 100);
    assert_true(results[0].worst > 0.1f);
    free(image);
    free(reference);
    free(ambiguous);
}

/* One particle of `size` at the origin, alive for a long time, in constant
 * colour `rgba`: the building block of the pixel-level tests below. */
static plume_system_desc single_particle_desc(float size, const float rgba[4]) {
    plume_system_desc desc = {.capacity = 3};
    desc.emitters[1] = (plume_emitter_desc){.burst_count = 1, .lifetime = {4, 4}, .size = {size, size}};
    desc.appearance.color_over_life = (plume_gradient){1, {{0.0f, {rgba[0], rgba[1], rgba[2], rgba[3]}}}};
    return desc;
}

static void pixel_at(const float *image, int x, int y, float out[4]) {
    memcpy(out, &image[4 * (y * IMAGE_SIZE + x)], sizeof(float) * 4);
}

static void assert_pixel(const float *image, int x, int y, const float expected[4], float tolerance, const char *what) {
    float got[4];
    pixel_at(image, x, y, got);
    for (int c = 0; c < 4; ++c)
        if (fabsf(got[c] - expected[c]) > tolerance)
            fail_msg("%s: pixel (%d, %d) is (%.4f %.4f %.4f %.4f), expected (%.4f %.4f %.4f %.4f)", what, x, y, got[0],
                     got[1], got[2], got[3], expected[0], expected[1], expected[2], expected[3]);
}

/* ---- Soft particles ---------------------------------------------------------- */


/* The particle sits at view depth 5; a scene plane d behind it fades it to
 * alpha * clamp(d / 0.5, 0, 1) (default fade distance), for an orthographic
 * and a perspective camera (whose depth is not linear), with the host's
 * depth in the GL's default convention or reversed (clip control 0..1, the
 * projections' depth reversed, the perspective one's far plane infinite). */
static void soft_particles_fade_against_scene_depth(bool reversed) {
    const float white[4] = {1, 1, 1, 0.8f}, clear[4] = {0, 0, 0, 0};
    set_host_depth_convention(reversed);
    plume_system system = make_system(single_particle_desc(1.0f, white));
    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    assert_non_null(image);
    for (int perspective = 0; perspective < 2; ++perspective) {
        mat4 view, projection;
        ortho_camera(view, projection);
        if (perspective) glm_perspective(1.0f, 1.0f, 0.5f, 50.0f, projection);
        if (reversed && perspective) infinite_reversed_perspective(1.0f, 1.0f, 0.5f, projection);
        else if (reversed) reverse_projection_depth(projection);
        plume_frame_desc frame = make_frame(0.25f, view, projection);
        update(system, &frame);
        const float planes[] = {7.0f, 5.25f, 5.1f, 4.9f};
        for (int i = 0; i <= 4; ++i) {
            GLuint depth = i < 4 ? plane_depth_texture(projection, planes[i]) : 0;
            frame.depth_texture = depth;
            if (i == 1) frame.viewport_size[0] = frame.viewport_size[1] = IMAGE_SIZE; /* given, not queried */
            test_target t = test_target_begin(IMAGE_SIZE, clear);
            assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
            test_target_end(&t, image);
            glDeleteTextures(1, &depth);
            float fade = i < 4 ? glm_clamp((planes[i] - 5.0f) / 0.5f, 0.0f, 1.0f) : 1.0f;
            float a = 0.8f * fade, expected[4] = {a, a, a, a};
            char what[64];
            snprintf(what, sizeof what, "%s%s, plane %g", reversed ? "reversed " : "",
                     perspective ? "perspective" : "orthographic", i < 4 ? planes[i] : 0.0);
            assert_pixel(image, IMAGE_SIZE / 2, IMAGE_SIZE / 2, expected, 2e-3f, what);
        }
    }
    free(image);
    destroy_system(system);
    set_host_depth_convention(false);
}

static void test_soft_particles_fade_against_scene_depth(void **state) {
    (void)state;
    soft_particles_fade_against_scene_depth(false);
}

static void test_soft_particles_fade_against_reversed_scene_depth(void **state) {
    (void)state;
    soft_particles_fade_against_scene_depth(true);
}

/* ---- Sprites: texture orientation, flipbook frames, frame blending --------- */


static void test_flipbook_frames_by_age_with_blending(void **state) {
    (void)state;
    const float white[4] = {1, 1, 1, 1}, clear[4] = {0, 0, 0, 0};
    /* Premultiplied frames as the module stores them (alpha 128 rounds to 128). */
    const float h = 128.0f / 255.0f;
    const float frames[4][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {h, h, h, h}};
    unsigned char *pixels = flipbook_pixels();
    char path[4096];
    test_temporary_file(path, sizeof path, "plume_flipbook_", ".png");
    assert_true(stbi_write_png(path, 16, 16, 4, pixels, 16 * 4) != 0);

    mat4 view, projection;
    ortho_camera(view, projection);
    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    assert_non_null(image);
    /* Ages 0.5, 1.5, 2.5, 3.75 of a 4 s life over 4 frames: frame 0.5 (red to
     * green), 1.5, 2.5, 3.75 (the last frame holds). */
    const float steps[] = {0.5f, 1.0f, 1.0f, 1.25f};
    const int first[] = {0, 1, 2, 3}, next[] = {1, 2, 3, 3};
    const float mix_by_age[] = {0.5f, 0.5f, 0.5f, 0.0f};
    for (int variant = 0; variant < 3; ++variant) { /* pixels + blend, file + blend, pixels without blend */
        plume_system_desc desc = single_particle_desc(1.5f, white);
        plume_texture_desc *texture = &desc.appearance.texture;
        *texture = (plume_texture_desc){.columns = 2, .rows = 2, .disable_frame_blend = variant == 2};
        if (variant == 1) texture->path = path;
        else *texture = (plume_texture_desc){.pixels = pixels, .width = 16, .height = 16, .columns = 2, .rows = 2,
                                             .disable_frame_blend = variant == 2};
        plume_system system = make_system(desc);
        assert_int_equal(system_desc(fixture_context(), system).appearance.texture.width, 16);
        for (int k = 0; k < 4; ++k) {
            plume_frame_desc frame = make_frame(steps[k], view, projection);
            update(system, &frame);
            test_target t = test_target_begin(IMAGE_SIZE, clear);
            assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
            test_target_end(&t, image);
            float f = variant == 2 ? 0.0f : mix_by_age[k], expected[4];
            for (int c = 0; c < 4; ++c) expected[c] = frames[first[k]][c] * (1 - f) + frames[next[k]][c] * f;
            char what[64];
            snprintf(what, sizeof what, "variant %d, step %d", variant, k);
            assert_pixel(image, IMAGE_SIZE / 2, IMAGE_SIZE / 2, expected, 3e-3f, what);
        }
        destroy_system(system);
    }
    /* Orientation: the top-left quarter of the quad shows the frame's
     * top-left texels; with one frame (no flipbook) the quad's top-left is red
     * and its bottom-right white. */
    plume_system_desc desc = single_particle_desc(1.5f, white);
    desc.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = 16, .height = 16};
    plume_system system = make_system(desc);
    plume_frame_desc frame = make_frame(0.5f, view, projection);
    update(system, &frame);
    test_target t = test_target_begin(IMAGE_SIZE, clear);
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    test_target_end(&t, image);
    /* The quad spans 48 px around the centre; rows of the image go up. */
    assert_pixel(image, IMAGE_SIZE / 2 - 12, IMAGE_SIZE / 2 + 12, frames[0], 3e-3f, "top left");
    assert_pixel(image, IMAGE_SIZE / 2 + 12, IMAGE_SIZE / 2 + 12, frames[1], 3e-3f, "top right");
    assert_pixel(image, IMAGE_SIZE / 2 - 12, IMAGE_SIZE / 2 - 12, frames[2], 3e-3f, "bottom left");
    assert_pixel(image, IMAGE_SIZE / 2 + 12, IMAGE_SIZE / 2 - 12, frames[3], 3e-3f, "bottom right");
    destroy_system(system);
    remove(path);
    free(pixels);
    free(image);
}

/* Spin pi/4 per second for 1 s turns the square into a diamond: a corner of
 * the upright square is left, a point past its side along an axis is covered. */
static void test_rotation_and_spin_turn_the_quad(void **state) {
    (void)state;
    const float white[4] = {1, 1, 1, 1}, clear[4] = {0, 0, 0, 0}, none[4] = {0, 0, 0, 0};
    mat4 view, projection;
    ortho_camera(view, projection);
    float *image = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    assert_non_null(image);
    for (int spinning = 0; spinning < 2; ++spinning) {
        plume_system_desc desc = single_particle_desc(1.0f, white); /* 32 px wide */
        if (spinning) desc.emitters[1].spin = (plume_range){GLM_PI_4f, GLM_PI_4f};
        plume_system system = make_system(desc);
        plume_frame_desc frame = make_frame(0.5f, view, projection);
        update(system, &frame);
        update(system, &frame);
        plume_readback rb = read_all(fixture_context(), system);
        assert_int_equal(rb.live_count, 1);
        assert_float_equal(rb.particles[rb.draw_order[0]].rotation, spinning ? GLM_PI_4f : 0.0f, 1e-6);
        free_readback(&rb);
        test_target t = test_target_begin(IMAGE_SIZE, clear);
        assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
        test_target_end(&t, image);
        const int c = IMAGE_SIZE / 2;
        assert_pixel(image, c + 13, c + 13, spinning ? none : white, 1e-4f, "near the square's corner");
        assert_pixel(image, c + 20, c, spinning ? white : none, 1e-4f, "past the square's side");
        destroy_system(system);
    }
    free(image);
}

const struct CMUnitTest particle_images_tests[] = {
    cmocka_unit_test_setup_teardown(test_image_matches_cpu_compositing_and_needs_the_sort, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_soft_particles_fade_against_scene_depth, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_soft_particles_fade_against_reversed_scene_depth, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_flipbook_frames_by_age_with_blending, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_rotation_and_spin_turn_the_quad, fixture_setup, fixture_teardown),
};
const size_t particle_images_test_count = sizeof particle_images_tests / sizeof particle_images_tests[0];
