/* Draw groups (plume_draw_group.h, since 1.2): several systems in one
 * back-to-front order. Interleaved systems drawn by a group match the CPU
 * compositor of all their quads in one order, and drawn one system after the
 * other do not; the order read back; the low resolutions; the GL state
 * contract in a hostile host (all on the same systems: each system and
 * group made costs its shader compiles, most of a test's time on
 * llvmpipe); sprites from the texture array; bad input refused with
 * messages. */
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

#include "hostile_host.h"
#include "look_reference.h"
#include "particle_fixture.h"
#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { PIXELS = IMAGE_SIZE * IMAGE_SIZE };


/* Squares at random depths in one box, still: smoke (premultiplied, lit),
 * fire (an additive part over life) and sparks (additive, stretched). The
 * three fill the same volume, so their particles interleave in depth. */
static plume_system_desc interleaved_desc(uint32_t seed, int kind) {
    plume_system_desc d = {.capacity = 40 + 7 * (uint32_t)kind, .seed = seed + (uint32_t)kind};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {0.55f, 0.55f, 0.5f}, .rate = 20,
                                         .lifetime = {4, 4}, .size = {0.3f, 0.6f}, .rotation = {0, 3.1f}};
    if (kind == 0) {
        d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {0.35f, 0.4f, 0.5f, 0.8f}}}};
        d.lit = true;
    } else if (kind == 1) {
        d.blend_mode = PLUME_BLEND_PREMULTIPLIED_ADDITIVE;
        d.appearance.color_over_life = (plume_gradient){2, {{0.0f, {1.0f, 0.6f, 0.1f, 0.9f}}, {1.0f, {0.6f, 0.2f, 0.1f, 0.7f}}}};
        d.additive_over_life = (plume_curve){2, {{0.0f, 1.0f}, {0.3f, 0.0f}}};
    } else {
        d.blend_mode = PLUME_BLEND_ADDITIVE;
        d.orientation = PLUME_ORIENT_VELOCITY_STRETCHED;
        d.emitters[0].speed = (plume_range){0.05f, 0.1f};
        d.emitters[0].spread = 3.14159f;
        d.emitters[0].size = (plume_range){0.1f, 0.2f};
        d.stretch_factor = 20.0f;
        d.stretch_limits = (plume_range){1.0f, 3.0f};
        d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {1.0f, 0.9f, 0.5f, 0.6f}}}};
    }
    return d;
}

/* The orthographic camera of particle_fixture, with a light. */
static plume_frame_desc camera_frame(float dt) {
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(dt, view, projection);
    const float direction[3] = {0.5f, 0.7f, 0.8f}, color[3] = {1.1f, 1.0f, 0.8f}, ambient[3] = {0.2f, 0.2f, 0.3f};
    memcpy(frame.light_direction, direction, sizeof direction);
    memcpy(frame.light_color, color, sizeof color);
    memcpy(frame.ambient_color, ambient, sizeof ambient);
    return frame;
}

static ref_light camera_light(void) {
    const plume_frame_desc frame = camera_frame(0);
    ref_light light = {{0}, {1.1, 1.0, 0.8}, {0.2, 0.2, 0.3}};
    double length = 0.0;
    for (int i = 0; i < 3; ++i) length += (double)frame.light_direction[i] * frame.light_direction[i];
    for (int i = 0; i < 3; ++i) light.direction[i] = frame.light_direction[i] / sqrt(length);
    return light;
}

static plume_draw_group make_group(const plume_system *systems, uint32_t count, uint32_t sort_mode) {
    plume_draw_group_desc desc = {.systems = systems, .system_count = count, .sort_mode = sort_mode};
    plume_draw_group group;
    assert_int_equal(plume_draw_group_create(fixture_context(), &desc, &group), PLUME_OK);
    assert_true(group.id != 0);
    return group;
}

/* Every system updated `updates` times by `frame`. */
static void update_all(const plume_system *systems, uint32_t count, const plume_frame_desc *frame, int updates) {
    for (int k = 0; k < updates; ++k)
        for (uint32_t i = 0; i < count; ++i) update(systems[i], frame);
}

/* Into a fresh target over `clear`: the group's draw, or (group.id 0) each
 * system's own draw in turn. */
static void draw_into(plume_draw_group group, const plume_system *systems, uint32_t count,
                      const plume_frame_desc *frame, const float clear[4], float *image) {
    test_target t = test_target_begin(IMAGE_SIZE, clear);
    if (group.id)
        assert_int_equal(plume_draw_group_draw(fixture_context(), group, frame), PLUME_OK);
    else
        for (uint32_t i = 0; i < count; ++i)
            assert_int_equal(plume_system_draw(fixture_context(), systems[i], frame), PLUME_OK);
    test_target_end(&t, image);
}

/* The systems' drawn particles as reference quads, system by system (each
 * in its own order if `each_sorted`), *count of them; the readbacks freed. */
static ref_quad *quads_of(const plume_system *systems, uint32_t count, const ref_light *light, uint32_t *out_count,
                          uint32_t *firsts) {
    ref_quad *quads = NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; ++i) {
        plume_readback rb = read_all(fixture_context(), systems[i]);
        plume_system_desc d = system_desc(fixture_context(), systems[i]);
        quads = realloc(quads, sizeof(ref_quad) * (n + rb.drawn_count + 1));
        assert_non_null(quads);
        firsts[i] = n;
        for (uint32_t k = 0; k < rb.drawn_count; ++k) {
            quads[n] = reference_quad(&d, &rb.particles[rb.draw_order[k]], rb.draw_order[k], light);
            quads[n].key = rb.draw_keys[k];
            if (d.sort_mode == PLUME_SORT_MODE_VIEW_DEPTH) assert_key_is_depth(quads[n].key, quads[n].depth, d.sort_key_bits);
            quads[n++].system = i;
        }
        free_readback(&rb);
    }
    firsts[count] = n;
    *out_count = n;
    return quads;
}

/* The group's last order read back and checked against the systems'
 * readbacks: every drawn particle of every system once (and none that is
 * not drawn), keys ascending, equal keys by system and then slot, each key
 * its particle's view depth (or distance to `eye`) as plume_depth_key gives
 * it, to within the float rounding of the two computations; the entries
 * past the count untouched. Returns how many were drawn. */
static uint32_t check_order(plume_draw_group group, const plume_system *systems, uint32_t count, const mat4 view,
                            bool by_distance) {
    plume_readback rb[3];
    unsigned char *seen[3];
    uint32_t drawn = 0, live = 0;
    for (uint32_t s = 0; s < count; ++s) {
        rb[s] = read_all(fixture_context(), systems[s]);
        seen[s] = calloc(system_desc(fixture_context(), systems[s]).capacity, 1);
        for (uint32_t i = 0; i < rb[s].drawn_count; ++i) seen[s][rb[s].draw_order[i]] = 1;
        drawn += rb[s].drawn_count;
        live += rb[s].live_count;
    }
    uint32_t room = drawn + 8, got = 0;
    plume_draw_group_entry *entries = malloc(sizeof *entries * room);
    memset(entries, POISON_BYTE, sizeof *entries * room);
    assert_int_equal(plume_draw_group_read_back(fixture_context(), group, entries, room, &got), PLUME_OK);
    assert_int_equal(got, drawn);
    const unsigned char *past = (const unsigned char *)&entries[drawn];
    for (size_t b = 0; b < sizeof *entries * 8; ++b) assert_int_equal(past[b], POISON_BYTE);
    mat4 inverse;
    glm_mat4_inv((vec4 *)view, inverse);
    uint32_t largest_step = 0;
    for (uint32_t i = 0; i < drawn; ++i) {
        const plume_draw_group_entry *e = &entries[i];
        assert_true(e->system_index < count);
        assert_int_equal(seen[e->system_index][e->slot], 1);
        seen[e->system_index][e->slot] = 2;
        if (i > 0) {
            const plume_draw_group_entry *p = &entries[i - 1];
            assert_true(p->key <= e->key);
            if (p->key == e->key)
                assert_true(p->system_index < e->system_index ||
                            (p->system_index == e->system_index && p->slot < e->slot));
        }
        float *position = rb[e->system_index].particles[e->slot].position;
        vec4 world = {position[0], position[1], position[2], 1.0f}, in_view;
        glm_mat4_mulv((vec4 *)view, world, in_view);
        float measure = by_distance ? glm_vec3_distance(position, inverse[3]) : -in_view[2];
        uint32_t expected = plume_depth_key(measure, PLUME_ORDER_DESCENDING);
        uint32_t step = expected > e->key ? expected - e->key : e->key - expected;
        largest_step = step > largest_step ? step : largest_step;
    }
    printf("  order (%s): %u drawn of %u live, keys within %u steps of the CPU's (at most 8)\n",
           by_distance ? "distance" : "view depth", drawn, live, largest_step);
    assert_true(largest_step <= 8);
    for (uint32_t s = 0; s < count; ++s) {
        free(seen[s]);
        free_readback(&rb[s]);
    }
    free(entries);
    return drawn;
}

/* PSNR of `b` against `a` over the colour channels (peak 1). */
static double psnr(const float *a, const float *b) {
    double squared = 0.0;
    for (int i = 0; i < 4 * PIXELS; ++i)
        if (i % 4 != 3) squared += ((double)a[i] - b[i]) * ((double)a[i] - b[i]);
    double mean = squared / (3.0 * PIXELS);
    return mean > 0.0 ? 10.0 * log10(1.0 / mean) : 99.0;
}

/* Three interleaved systems (premultiplied and lit, an additive part,
 * additive and stretched), one group of them, then:
 *   - the group's picture is the CPU compositor's of all quads in one
 *     far-to-near order; the systems' own draws, one after the other, give
 *     the compositor's picture of the systems in turn, far from the group's
 *     (the test can tell them apart);
 *   - the order read back, under a camera that culls some particles;
 *   - at 1/2 and 1/4 against the frame's depth, close to full resolution;
 *     without a depth texture, full resolution and one warning;
 *   - in a hostile host (every piece of state the contract names set,
 *     a 2D array texture on the units the group binds): a second group
 *     (one system, ordered by distance) created, drawn at full and half
 *     resolution, read back and destroyed leaves it all as it was, and
 *     draws what it draws in a clean context; its distance order checked. */
static void test_draw_group_interleaved_systems(void **state) {
    (void)state;
    const float clear[4] = {0.05f, 0.08f, 0.1f, 1.0f};
    uint32_t seed = test_random_u32();
    printf("  seed %u\n", seed);
    plume_system systems[3];
    for (int k = 0; k < 3; ++k) systems[k] = make_system(interleaved_desc(seed, k));
    plume_frame_desc frame = camera_frame(1.0f / 10.0f);
    update_all(systems, 3, &frame, 12);
    plume_draw_group group = make_group(systems, 3, PLUME_SORT_MODE_VIEW_DEPTH);
    float *joint = malloc(sizeof(float) * 4 * PIXELS), *separate = malloc(sizeof(float) * 4 * PIXELS);
    float *reference = malloc(sizeof(float) * 4 * PIXELS), *one_by_one = malloc(sizeof(float) * 4 * PIXELS);
    bool *ambiguous = malloc(PIXELS), *ambiguous_too = malloc(PIXELS);
    assert_true(joint && separate && reference && one_by_one && ambiguous && ambiguous_too);
    draw_into(group, systems, 3, &frame, clear, joint);
    draw_into((plume_draw_group){0}, systems, 3, &frame, clear, separate);

    ref_light light = camera_light();
    uint32_t count, firsts[4];
    ref_quad *quads = quads_of(systems, 3, &light, &count, firsts);
    assert_true(firsts[1] >= 10 && firsts[2] - firsts[1] >= 10 && count - firsts[2] >= 10);
    /* The systems in turn, each in its own order (the sparks do not sort: by
     * slot, which changes nothing for light that only adds); the group far
     * to near by whole float depths. */
    for (int k = 0; k < 3; ++k)
        qsort(quads + firsts[k], firsts[k + 1] - firsts[k], sizeof(ref_quad), by_key_then_slot);
    composite_quads(quads, count, &light, clear, one_by_one, ambiguous_too);
    qsort(quads, count, sizeof(ref_quad), far_first_then_slot);
    composite_quads(quads, count, &light, clear, reference, ambiguous);
    mark_float_tie_orders(quads, count, &light, clear, reference, ambiguous);
    for (int i = 0; i < PIXELS; ++i) ambiguous[i] = ambiguous[i] || ambiguous_too[i];
    free(quads);
    float group_error = largest_difference(joint, reference, ambiguous);
    float separate_error = largest_difference(separate, reference, ambiguous);
    float separate_own = largest_difference(separate, one_by_one, ambiguous);
    printf("  %u particles of 3 systems: the group against the CPU compositor %.2f/255 (at most 0.5); the\n"
           "  separate draws against it %.1f/255 (over 25), against the systems in turn %.2f/255 (at most 0.5)\n",
           count, group_error * 255.0f, separate_error * 255.0f, separate_own * 255.0f);
    assert_true(group_error <= 0.5f / 255.0f);
    assert_true(separate_own <= 0.5f / 255.0f);
    assert_true(separate_error > 25.0f / 255.0f);

    /* The order, under a narrower view that culls (a still update). */
    plume_frame_desc narrow = camera_frame(0.0f);
    mat4 view, projection;
    ortho_camera(view, projection);
    glm_ortho(0.35f, 0.45f, 0.35f, 0.45f, 0.1f, 20.0f, projection);
    memcpy(narrow.projection, projection, sizeof narrow.projection);
    narrow.disable_culling = false;
    update_all(systems, 3, &narrow, 1);
    draw_into(group, systems, 3, &narrow, clear, separate);
    uint32_t drawn = check_order(group, systems, 3, view, false);
    assert_true(drawn < count && drawn >= 5);
    update_all(systems, 3, &frame, 1);

    /* Low resolutions. */
    ortho_camera(view, projection);
    GLuint depth = plane_depth_texture(projection, 15.0f);
    frame.dt = 0.0f;
    frame.depth_texture = depth;
    draw_into(group, systems, 3, &frame, clear, reference);
    /* Nothing drawn at all would be this far from it. */
    for (int i = 0; i < 4 * PIXELS; ++i) joint[i] = clear[i % 4];
    double blank = psnr(reference, joint);
    const uint32_t resolutions[2] = {PLUME_DRAW_HALF, PLUME_DRAW_QUARTER};
    const double least[2] = {blank + 6.0, blank + 4.0};
    for (int r = 0; r < 2; ++r) {
        frame.draw_resolution = resolutions[r];
        draw_into(group, systems, 3, &frame, clear, joint);
        double quality = psnr(reference, joint);
        printf("  1/%d: PSNR %.1f dB against full resolution (at least %.1f; nothing drawn: %.1f)\n", 2 << r,
               quality, least[r], blank);
        assert_true(quality >= least[r] && quality < 90.0);
    }
    /* Every depth convention a host may render in gives the default
     * convention's picture, at full resolution and 1/4: clip control's
     * -1..1 or 0..1, each standard (LESS, cleared to 1) or reversed (GEQUAL,
     * cleared to 0, the projection's depth reversed), the plane's depth in
     * it; a plane just behind the particles (view depth 5), so that the soft
     * fade shows. */
    static const char *const CONVENTIONS[4] = {"-1..1", "0..1 reversed", "0..1", "-1..1 reversed"};
    for (int r = 0; r < 2; ++r) {
        for (int convention = 0; convention < 4; ++convention) {
            bool zero_to_one = convention == 1 || convention == 2, reversed = convention == 1 || convention == 3;
            set_host_depth_mode(zero_to_one, reversed);
            plume_frame_desc near = frame;
            near.draw_resolution = r ? PLUME_DRAW_QUARTER : PLUME_DRAW_FULL;
            convert_projection_depth(projection, zero_to_one, reversed);
            memcpy(near.projection, projection, sizeof near.projection);
            GLuint plane = plane_depth_texture(projection, 5.3f);
            near.depth_texture = plane;
            draw_into(group, systems, 3, &near, clear, convention == 0 ? joint : separate);
            glDeleteTextures(1, &plane);
            ortho_camera(view, projection);
            set_host_depth_convention(false);
            if (convention == 0) continue;
            printf("  depth %s at 1/%d: PSNR %.1f dB against the default convention\n", CONVENTIONS[convention],
                   r ? 4 : 1, psnr(joint, separate));
            assert_true(psnr(joint, separate) >= 60.0);
        }
    }

    /* The group's profile: off, nothing; on, its draws (here at 1/4, with
     * the low resolution's draw stages) timed as its sort and draw stages,
     * the drawn count and the sort's size those of the read-back order. */
    plume_profile profile;
    assert_int_equal(plume_draw_group_get_profile(fixture_context(), group, &profile), PLUME_OK);
    assert_false(profile.enabled);
    assert_int_equal(profile.stages[PLUME_STAGE_DRAW].samples, 0);
    assert_int_equal(plume_draw_group_set_profiling(fixture_context(), group, true), PLUME_OK);
    enum { PROFILED = 6 };
    for (int k = 0; k < PROFILED; ++k) draw_into(group, systems, 3, &frame, clear, joint);
    glFinish();
    draw_into(group, systems, 3, &frame, clear, joint); /* collects the finished draws */
    assert_int_equal(plume_draw_group_get_profile(fixture_context(), group, &profile), PLUME_OK);
    uint32_t group_drawn = 0;
    assert_int_equal(plume_draw_group_read_back(fixture_context(), group, NULL, 0, &group_drawn), PLUME_OK);
    printf("  profiled: draw %u of the group, %u samples, sort %.3f ms, draw %.3f ms (upsample %.3f), %u drawn\n",
           (unsigned)profile.frame, profile.stages[PLUME_STAGE_DRAW].samples, profile.stages[PLUME_STAGE_SORT].mean_ms,
           profile.stages[PLUME_STAGE_DRAW].mean_ms, profile.draw_stages[PLUME_DRAW_STAGE_UPSAMPLE].mean_ms,
           profile.drawn_count);
    assert_true(profile.enabled);
    assert_true(profile.frame >= PROFILED);
    assert_int_equal(profile.drawn_count, group_drawn);
    uint32_t padded = 1;
    while (padded < group_drawn) padded *= 2;
    assert_int_equal(profile.sort_padded_count, group_drawn < 2 ? 0 : padded);
    assert_int_equal(profile.stages[PLUME_STAGE_SIMULATE].samples, 0);
    assert_int_equal(profile.stages[PLUME_STAGE_UPDATE].samples, 0);
    if (profile.timer_available) {
        assert_true(profile.stages[PLUME_STAGE_SORT].samples >= PROFILED);
        assert_true(profile.stages[PLUME_STAGE_DRAW].samples >= PROFILED);
        assert_true(profile.draw_stages[PLUME_DRAW_STAGE_DOWNSAMPLE].samples >= PROFILED);
        assert_true(profile.draw_stages[PLUME_DRAW_STAGE_UPSAMPLE].samples >= PROFILED);
        assert_int_equal(profile.draw_stages[PLUME_DRAW_STAGE_COMPOSITE].samples, 0);
        assert_true(profile.stages[PLUME_STAGE_DRAW].mean_ms > 0.0);
    }
    assert_int_equal(plume_draw_group_set_profiling(fixture_context(), group, false), PLUME_OK);
    frame.depth_texture = 0;
    frame.draw_resolution = PLUME_DRAW_HALF;
    for (int k = 0; k < 2; ++k) draw_into(group, systems, 3, &frame, clear, joint);
    assert_int_equal(test_log_count("a low draw_resolution needs the frame's depth_texture"), 1);
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);

    /* A hostile host. */
    frame.draw_resolution = PLUME_DRAW_FULL;
    test_target t = test_target_begin(IMAGE_SIZE, clear);
    host_objects host = make_hostile(IMAGE_SIZE);
    GLint64 before[HOSTILE_MAX_VALUES];
    int values = snapshot(before);
    group = make_group(systems, 1, PLUME_SORT_MODE_DISTANCE);
    assert_unchanged(before, values, "plume_draw_group_create");
    /* Profiled: its queries and readback buffers bind only what the scope restores. */
    assert_int_equal(plume_draw_group_set_profiling(fixture_context(), group, true), PLUME_OK);
    assert_unchanged(before, values, "plume_draw_group_set_profiling");
    assert_int_equal(plume_draw_group_draw(fixture_context(), group, &frame), PLUME_OK);
    assert_unchanged(before, values, "plume_draw_group_draw");
    uint32_t read = 0;
    assert_int_equal(plume_draw_group_read_back(fixture_context(), group, NULL, 0, &read), PLUME_OK);
    assert_unchanged(before, values, "plume_draw_group_read_back");
    end_hostile(&host);
    test_target_end(&t, separate);
    draw_into(group, systems, 1, &frame, clear, joint);
    /* The host's scissor kept the draw to x < drawn_width. */
    float largest = 0.0f;
    int covered = 0;
    for (int i = 0; i < 4 * PIXELS; ++i) {
        int x = (i / 4) % IMAGE_SIZE;
        float expected = x < host.drawn_width ? joint[i] : clear[i % 4];
        covered += x < host.drawn_width && joint[i] != clear[i % 4];
        largest = fmaxf(largest, fabsf(expected - separate[i]));
    }
    printf("  the hostile host's picture against a clean context's: %.2f/255 (at most 1), %d values drawn\n",
           largest * 255.0f, covered);
    assert_true(largest <= 1.0f / 255.0f);
    assert_true(covered > 100);
    assert_int_equal(check_order(group, systems, 1, view, true), read);
    frame.depth_texture = depth;
    frame.draw_resolution = PLUME_DRAW_HALF;
    t = test_target_begin(IMAGE_SIZE, clear);
    host = make_hostile(IMAGE_SIZE);
    values = snapshot(before);
    assert_int_equal(plume_draw_group_draw(fixture_context(), group, &frame), PLUME_OK);
    assert_unchanged(before, values, "plume_draw_group_draw at half resolution");
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    assert_unchanged(before, values, "plume_draw_group_destroy");
    end_hostile(&host);
    test_target_end(&t, separate);

    glDeleteTextures(1, &depth);
    for (int k = 0; k < 3; ++k) destroy_system(systems[k]);
    free(joint);
    free(separate);
    free(reference);
    free(one_by_one);
    free(ambiguous);
    free(ambiguous_too);
}

/* A flipbook sprite of `size` x `size` pixels, 2 x 2 frames, each frame a
 * different colour with a soft round alpha, straight RGBA8. */
static unsigned char *tinted_flipbook(uint32_t size, uint32_t tint) {
    unsigned char *pixels = malloc((size_t)size * size * 4);
    assert_non_null(pixels);
    for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x) {
            uint32_t frame = (y >= size / 2) * 2 + (x >= size / 2);
            float u = ((float)(x % (size / 2)) + 0.5f) / (float)(size / 2) * 2.0f - 1.0f;
            float v = ((float)(y % (size / 2)) + 0.5f) / (float)(size / 2) * 2.0f - 1.0f;
            float alpha = fmaxf(0.0f, 1.0f - (u * u + v * v));
            unsigned char *p = pixels + 4 * ((size_t)y * size + x);
            p[0] = (unsigned char)(60 * frame + 40 * tint);
            p[1] = (unsigned char)(200 - 50 * frame);
            p[2] = (unsigned char)(90 + 80 * tint);
            p[3] = (unsigned char)(255.0f * alpha);
        }
    return pixels;
}

/* Systems with sprites (flipbooks of one size, different pictures) and one
 * without, apart on screen, the one without first in the group (so layers
 * and system indices differ): the group's picture is the systems' own
 * draws' (each system's sprite and frames from its layer of the array), and
 * a sprite of another size is refused. */
static void test_draw_group_sprites_come_from_each_systems_layer(void **state) {
    (void)state;
    const float clear[4] = {0.2f, 0.1f, 0.1f, 1.0f};
    unsigned char *pixels[2] = {tinted_flipbook(32, 0), tinted_flipbook(32, 1)};
    plume_system systems[3];
    for (int k = 0; k < 3; ++k) {
        plume_system_desc d = {.capacity = 30, .seed = 5 + (uint32_t)k};
        d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .position = {-0.6f + 0.6f * (float)k, 0, 0},
                                             .extents = {0.15f, 0.6f, 0.4f}, .rate = 10, .lifetime = {3, 3},
                                             .size = {0.2f, 0.3f}};
        if (k < 2)
            d.appearance.texture = (plume_texture_desc){.pixels = pixels[k], .width = 32, .height = 32,
                                                        .columns = 2, .rows = 2};
        systems[k] = make_system(d);
    }
    plume_frame_desc frame = camera_frame(1.0f / 10.0f);
    update_all(systems, 3, &frame, 15);
    plume_system grouped[3] = {systems[2], systems[0], systems[1]};
    plume_draw_group group = make_group(grouped, 3, PLUME_SORT_MODE_VIEW_DEPTH);
    float *joint = malloc(sizeof(float) * 4 * PIXELS), *separate = malloc(sizeof(float) * 4 * PIXELS);
    assert_true(joint && separate);
    draw_into(group, grouped, 3, &frame, clear, joint);
    draw_into((plume_draw_group){0}, systems, 3, &frame, clear, separate);
    float largest = 0.0f, signal = 0.0f;
    for (int i = 0; i < 4 * PIXELS; ++i) {
        largest = fmaxf(largest, fabsf(joint[i] - separate[i]));
        signal = fmaxf(signal, fabsf(separate[i] - clear[i % 4]));
    }
    printf("  sprites: the group against the systems' own draws %.2f/255 (at most 1); the sprites move pixels by "
           "%.0f/255\n", largest * 255.0f, signal * 255.0f);
    assert_true(largest <= 1.0f / 255.0f);
    assert_true(signal > 0.3f);
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);

    test_log_expect_errors();
    unsigned char *small = tinted_flipbook(16, 0);
    plume_system_desc d = {.capacity = 8};
    d.appearance.texture = (plume_texture_desc){.pixels = small, .width = 16, .height = 16};
    plume_system other = make_system(d);
    plume_system mixed[2] = {systems[0], other};
    plume_draw_group_desc desc = {.systems = mixed, .system_count = 2};
    plume_draw_group refused = {7};
    assert_int_equal(plume_draw_group_create(fixture_context(), &desc, &refused), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(refused.id == 0);
    assert_true(test_log_contains("systems[0]'s sprite is 32x32 and systems[1]'s 16x16"));
    destroy_system(other);
    free(small);
    for (int k = 0; k < 3; ++k) destroy_system(systems[k]);
    free(pixels[0]);
    free(pixels[1]);
    free(joint);
    free(separate);
}

/* Each refusal returns its code, logs its message and changes nothing. */
static void expect_create_refused(const plume_draw_group_desc *desc, const char *message) {
    int before = test_log_count(message);
    plume_draw_group group = {99};
    assert_int_equal(plume_draw_group_create(fixture_context(), desc, &group), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(group.id == 0);
    if (test_log_count(message) != before + 1) fail_msg("no message \"%s\"", message);
}

static void test_draw_group_bad_input_is_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_system mine = make_system(interleaved_desc(1, 0));
    plume_system pair[2] = {mine, mine};
    plume_draw_group group;
    plume_draw_group_desc desc = {.systems = &mine, .system_count = 1};
    assert_int_equal(plume_draw_group_create(NULL, &desc, &group), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_draw_group_create(fixture_context(), NULL, &group), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_draw_group_create(fixture_context(), &desc, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    expect_create_refused(&(plume_draw_group_desc){.system_count = 2}, "systems must not be NULL");
    expect_create_refused(&(plume_draw_group_desc){.systems = pair}, "system_count is 0; it must be 1 .. 16");
    expect_create_refused(&(plume_draw_group_desc){.systems = pair, .system_count = 17},
                          "system_count is 17; it must be 1 .. 16");
    expect_create_refused(&(plume_draw_group_desc){.systems = &mine, .system_count = 1,
                                                   .sort_mode = PLUME_SORT_MODE_OLDEST_FIRST},
                          "sort_mode 2: a group orders by view depth (0) or distance to the eye (1) only");
    expect_create_refused(&(plume_draw_group_desc){.systems = pair, .system_count = 2},
                          "systems[0] and systems[1] are the same system");
    plume_system garbage[2] = {mine, {0x1234567}};
    expect_create_refused(&(plume_draw_group_desc){.systems = garbage, .system_count = 2},
                          "systems[1] is not a live system of this context");
    /* A system of another context, alone or beside one of this context,
     * and the other context cannot group this one's. */
    plume_context *other = fixture_context_with_another_tag(mine.id);
    plume_system_desc d = interleaved_desc(2, 0);
    d.logger = test_logger();
    plume_system foreign;
    assert_int_equal(plume_system_create(other, &d, &foreign), PLUME_OK);
    plume_system mixed[2] = {mine, foreign};
    expect_create_refused(&(plume_draw_group_desc){.systems = mixed, .system_count = 2},
                          "systems[1] is not a live system of this context");
    expect_create_refused(&(plume_draw_group_desc){.systems = &foreign, .system_count = 1},
                          "systems[0] is not a live system of this context");
    plume_draw_group group_there = {5};
    assert_int_equal(plume_draw_group_create(other, &(plume_draw_group_desc){.systems = mixed, .system_count = 2},
                                             &group_there),
                     PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(group_there.id == 0);
    /* A group left alive is freed with its context, its sorter too. */
    assert_int_equal(plume_draw_group_create(other, &(plume_draw_group_desc){.systems = &foreign, .system_count = 1},
                                             &group_there),
                     PLUME_OK);
    assert_true(fixture_destroy_context_checked(other) > 10);

    /* The draw: a bad group, no frame, no draw path, a bad frame. */
    group = make_group(&mine, 1, PLUME_SORT_MODE_VIEW_DEPTH);
    plume_frame_desc frame = camera_frame(0);
    assert_int_equal(plume_draw_group_draw(NULL, group, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_draw_group_draw(fixture_context(), (plume_draw_group){0x777}, &frame),
                     PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_draw_group_draw(fixture_context(), group, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_draw_group_draw: frame must not be NULL"));
    frame.draw_path = 77;
    assert_int_equal(plume_draw_group_draw(fixture_context(), group, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("draw_path 77 is not a plume_draw_path"));
    frame.draw_path = PLUME_DRAW_PATH_RASTER;
    frame.view[3] = NAN;
    assert_int_equal(plume_draw_group_draw(fixture_context(), group, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    frame.view[3] = 0.0f;
    frame.depth_texture = 4242;
    assert_int_equal(plume_draw_group_draw(fixture_context(), group, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_draw_group_draw: depth_texture 4242 is not a texture"));
    frame.depth_texture = 0;
    /* Read back: no count pointer, entries NULL with room. */
    uint32_t count;
    assert_int_equal(plume_draw_group_read_back(fixture_context(), group, NULL, 0, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_draw_group_read_back(fixture_context(), group, NULL, 4, &count),
                     PLUME_ERROR_INVALID_ARGUMENT);
    /* Profiling: a bad group, no record (a record is zeroed on refusal). */
    plume_profile profile;
    memset(&profile, 0xAB, sizeof profile);
    assert_int_equal(plume_draw_group_get_profile(fixture_context(), (plume_draw_group){0x777}, &profile),
                     PLUME_ERROR_INVALID_ARGUMENT);
    assert_false(profile.enabled);
    assert_int_equal(profile.frame, 0);
    assert_int_equal(plume_draw_group_get_profile(fixture_context(), group, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_draw_group_get_profile: out must not be NULL"));
    assert_int_equal(plume_draw_group_set_profiling(NULL, group, true), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_draw_group_set_profiling(fixture_context(), (plume_draw_group){0x777}, true),
                     PLUME_ERROR_INVALID_ARGUMENT);
    /* A system destroyed under its group: the draw says which. */
    destroy_system(mine);
    assert_int_equal(plume_draw_group_draw(fixture_context(), group, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_draw_group_draw: the group's system 0 was destroyed"));
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_draw_group_destroy(fixture_context(), (plume_draw_group){0}), PLUME_OK);
}

const struct CMUnitTest draw_group_tests[] = {
    cmocka_unit_test_setup_teardown(test_draw_group_interleaved_systems, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_draw_group_sprites_come_from_each_systems_layer, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_draw_group_bad_input_is_refused, fixture_setup, fixture_teardown),
};
const size_t draw_group_test_count = sizeof draw_group_tests / sizeof draw_group_tests[0];
