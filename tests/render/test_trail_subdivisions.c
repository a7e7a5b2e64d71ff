/* Trails' segments drawn as only as many quads as their curve on the screen
 * needs (render/trail_curve.glsl's trail_subdivisions: 1, 2 or 4 by the
 * curve's deviation from its chord in pixels): a fast straight trail (3
 * pixels a segment, as the trail benchmark's) at one quad a segment and a
 * tight curl at four, each read back through the lab's count of the tiled
 * draw's quads that drew, each picture (raster and tiled, and the two side
 * by side in a draw group at every resolution) against the CPU's; a swarm
 * of sparks orbiting an attractor whose segments' deviations cover the
 * thresholds (one on a circle: four quads a segment at any seed), against
 * the CPU's at any seed (a segment within rounding of a threshold is
 * ambiguous there); and the CPU's rule itself on a curve built to lie on
 * a threshold. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "look_reference.h"
#include "particle_fixture.h"
#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "plume_lab.h"
#include "shared/plume_gpu_layout.h"
#include "test_env.h"
#include "tests.h"
#include "trail_run.h"

/* Segments by the quads of each that drew in the system's last tiled draw
 * (plume_lab_trail_tiled_quads_drawn), drawn now at full resolution. */
static void tiled_quads_drawn(trail_run *r, uint32_t pairs[PLUME_TRAIL_SUBDIVISIONS + 1]) {
    trail_draw_image(r->system, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, r->pictures.image);
    assert_int_equal(plume_lab_trail_tiled_quads_drawn(fixture_context(), r->system, pairs), PLUME_OK);
}

/* A fast spark flying straight across the top: a point every update, 2.9
 * pixels apart. */
static trail_run straight_run(void) {
    plume_system_desc d = trail_desc(16, 0.05f);
    d.trail.hide_particles = true;
    d.emitters[0] = trail_mover((float[3]){1.8f, 0.0f, 0.0f}, 0.2f);
    trail_run r = trail_run_begin(d);
    trail_emit_at(r.system, 0, -0.9f, 0.75f, 0.0f);
    return r;
}

/* A spark circling a point attractor (some 35 pixels across), a point
 * every 8 updates: a fifth of a turn a segment, whose curve strays some 3
 * pixels from its chord (the end segments, whose far neighbour is their
 * near one mirrored, about half that). */
static trail_run curl_run(void) {
    const float radius = 0.55f, speed = 1.65f, centre[2] = {0.1f, -0.25f};
    plume_system_desc d = trail_desc(6, 0.38f);
    d.trail.hide_particles = true;
    d.trail.width_over_length = (plume_curve){0};
    d.world.attractors[0] = (plume_attractor_desc){.kind = PLUME_ATTRACTOR_POINT,
                                                   .position = {centre[0], centre[1], 0.0f},
                                                   .strength = speed * speed / radius};
    d.emitters[0] = trail_mover((float[3]){0.0f, speed, 0.0f}, 0.16f);
    d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {0.3f, 0.8f, 1.0f, 0.8f}}}};
    trail_run r = trail_run_begin(d);
    trail_emit_at(r.system, 0, centre[0] + radius, centre[1], 0.0f);
    return r;
}

/* The straight trail draws one quad a segment, the curl four; each picture
 * is the CPU's (which decides the same), the curl's unlike its chords'
 * (the comparison sees a polyline), and the two side by side in a draw
 * group too. */
static void test_a_straight_trail_draws_one_quad_a_segment_and_a_curl_four(void **state) {
    (void)state;
    trail_run runs[2] = {straight_run(), curl_run()};
    for (int k = 0; k < 42; ++k)
        for (int i = 0; i < 2; ++i)
            if (i == 1 || k < 18) trail_step(&runs[i]);
    trail_compare("subdivided_straight", &runs[0], false);
    trail_compare("subdivided_curl", &runs[1], false);
    uint32_t straight[PLUME_TRAIL_SUBDIVISIONS + 1], curl[PLUME_TRAIL_SUBDIVISIONS + 1];
    tiled_quads_drawn(&runs[0], straight);
    tiled_quads_drawn(&runs[1], curl);
    printf("  segments by quads drawn (0 1 2 3 4): straight %u %u %u %u %u, curl %u %u %u %u %u\n", straight[0],
           straight[1], straight[2], straight[3], straight[4], curl[0], curl[1], curl[2], curl[3], curl[4]);
    assert_true(straight[1] >= 10);
    assert_int_equal(straight[2] + straight[3] + straight[4], 0);
    /* Its inner segments at four; the end ones, flatter (the newest one
     * grows from nothing), at fewer or four. */
    assert_true(curl[4] >= 3);
    assert_true(curl[1] + curl[2] <= 2 && curl[3] == 0);
    /* The curl as chords (one quad a segment) would show: the comparison
     * with the CPU's curve would fail. */
    trail_pictures *p = &runs[1].pictures;
    plume_system_desc d = system_desc(fixture_context(), runs[1].system);
    plume_readback rb = read_all(fixture_context(), runs[1].system);
    composite_trails(&d, &rb, runs[1].trails, true, TRAIL_CLEAR, p->reference, p->ambiguous);
    composite_trails_as(&d, &rb, runs[1].trails, true, 1, TRAIL_CLEAR, p->unsorted, p->unsorted_ambiguous);
    free_readback(&rb);
    for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i) p->ambiguous[i] = p->ambiguous[i] || p->unsorted_ambiguous[i];
    float chords = largest_difference(p->reference, p->unsorted, p->ambiguous);
    printf("  the curl drawn as its chords differs from its curve by %.1f/255\n", chords * 255.0f);
    assert_true(chords > 40.0f / 255.0f);

    const plume_system systems[2] = {runs[0].system, runs[1].system};
    const ref_trail *trails[2] = {runs[0].trails, runs[1].trails};
    plume_draw_group_desc desc = {.systems = systems, .system_count = 2};
    plume_draw_group group;
    assert_int_equal(plume_draw_group_create(fixture_context(), &desc, &group), PLUME_OK);
    trail_group_compare("subdivided_side_by_side", group, systems, trails, 2, &runs[0].pictures, false);
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    trail_run_end(&runs[1]);
    trail_run_end(&runs[0]);
}

/* Sparks thrown every way round a point attractor, a point every 9
 * updates: segments of every curvature (their deviations from 0 to some 3
 * pixels), a few a seed within rounding of a threshold, where the GPU may
 * decide either way (the CPU's picture leaves their pixels out). Raster and
 * tiled, at full resolution, against the CPU's at any seed. */
static void test_trail_sparks_of_every_curvature_match_the_cpu(void **state) {
    (void)state;
    uint32_t seed = test_random_u32();
    printf("  seed %u\n", seed);
    plume_system_desc d = trail_desc(5, 0.45f);
    d.seed = seed;
    d.capacity = 25;
    d.trail.hide_particles = true;
    const float pull = 4.0f, radius = 0.55f;
    d.world.attractors[0] = (plume_attractor_desc){.kind = PLUME_ATTRACTOR_POINT, .strength = pull};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {0.6f, 0.6f, 0.1f},
                                         .lifetime = {20, 20}, .speed = {0.6f, 1.6f},
                                         .direction = {0.0f, 1.0f, 0.0f}, .spread = 3.14f, .size = {0.03f, 0.06f}};
    /* And one spark on a circle, as the curl above (a fifth of a turn a
     * segment): a segment of four quads whatever the seed. */
    d.emitters[1] = trail_mover((float[3]){0.0f, sqrtf(pull * radius), 0.0f}, 0.04f);
    trail_run r = trail_run_begin(d);
    plume_emit_desc swarm = {.emitter = 0, .count = 24};
    assert_int_equal(plume_system_emit(fixture_context(), r.system, &swarm), PLUME_OK);
    trail_emit_at(r.system, 1, radius, 0.0f, 0.0f);
    for (int k = 0; k < 40; ++k) trail_step(&r);
    trail_compare("subdivided_swarm", &r, false);
    uint32_t pairs[PLUME_TRAIL_SUBDIVISIONS + 1];
    tiled_quads_drawn(&r, pairs);
    printf("  segments by quads drawn (0 1 2 3 4): %u %u %u %u %u\n", pairs[0], pairs[1], pairs[2], pairs[3],
           pairs[4]);
    assert_true(pairs[1] > 0 && pairs[2] > 0 && pairs[4] > 0);
    trail_run_end(&r);
}

/* The CPU's rule on a curve whose deviation lies on each threshold: unsure,
 * and flipped to the other side; a little way off, sure. */
static void test_the_cpu_trail_rule_marks_a_segment_on_a_threshold_unsure(void **state) {
    (void)state;
    const double thresholds[2] = {PLUME_GPU_TRAIL_ONE_QUAD_PIXELS, PLUME_GPU_TRAIL_TWO_QUADS_PIXELS};
    const uint32_t below[2] = {1, 2}, above[2] = {2, PLUME_TRAIL_SUBDIVISIONS};
    for (int k = 0; k < 2; ++k)
        for (int off = -1; off <= 1; ++off) {
            /* A bow of height h over a chord (the neighbours mirrored
             * across it): the deviation grows with h; found by bisection. */
            double low = 0.0, high = 2.0, want = thresholds[k] + off * 0.1, points[4][3];
            for (int step = 0; step < 60; ++step) {
                double h = 0.5 * (low + high);
                const double bow[4][3] = {{-0.5, -h, 0}, {-0.2, 0, 0}, {0.2, 0, 0}, {0.5, -h, 0}};
                memcpy(points, bow, sizeof points);
                if (reference_segment_deviation(points) < want) low = h;
                else high = h;
            }
            ref_subdivisions plain = {0}, flipped = {.flip_unsure = true};
            uint32_t quads = reference_segment_quads(points, &plain);
            uint32_t other = reference_segment_quads(points, &flipped);
            printf("  deviation %.4f px: %u quads (unsure %u), flipped %u\n", reference_segment_deviation(points),
                   quads, plain.unsure, other);
            if (off == 0) {
                assert_int_equal(plain.unsure, 1);
                assert_true((quads == below[k] && other == above[k]) || (quads == above[k] && other == below[k]));
            } else {
                assert_int_equal(plain.unsure, 0);
                assert_int_equal(quads, off < 0 ? below[k] : above[k]);
                assert_int_equal(other, quads);
            }
        }
}

const struct CMUnitTest trail_subdivisions_tests[] = {
    cmocka_unit_test_setup_teardown(test_a_straight_trail_draws_one_quad_a_segment_and_a_curl_four, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_trail_sparks_of_every_curvature_match_the_cpu, fixture_setup, fixture_teardown),
    cmocka_unit_test(test_the_cpu_trail_rule_marks_a_segment_on_a_threshold_unsure),
};
const size_t trail_subdivisions_test_count = sizeof trail_subdivisions_tests / sizeof trail_subdivisions_tests[0];
