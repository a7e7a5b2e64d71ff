/* Trails (plume_trail_desc, since 1.3): a straight trail, a curved one
 * (the Catmull-Rom curve between recorded points), one crossing itself in
 * front of and behind itself, one through a cloud of the system's own
 * sprites (order), a slot reused after a death (the trail starts again),
 * at full and half resolution, against the CPU's trails
 * (tests/support/trail_reference.c), each at full resolution drawn by the
 * raster and the tiled path (tests/support/trail_run.c); the descriptor's
 * refusals. */
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
#include "test_env.h"
#include "tests.h"
#include "trail_reference.h"
#include "trail_run.h"

static void test_a_straight_trail_matches_the_cpu(void **state) {
    (void)state;
    plume_system_desc d = trail_desc(8, 0.12f);
    d.emitters[0] = trail_mover((float[3]){0.8f, 0.25f, 0.0f}, 0.2f);
    trail_run r = trail_run_begin(d);
    trail_emit_at(r.system, 0, -0.8f, -0.3f, 0.0f);
    for (int k = 0; k < 30; ++k) {
        trail_step(&r);
        if (k == 6) trail_compare("straight_growing", &r, false);
    }
    trail_compare("straight_full", &r, false);
    trail_run_end(&r);
}

/* Thrown up and falling back (gravity): between the recorded points the
 * strip follows the curve, not the chords. */
static void test_a_curved_trail_matches_the_cpu(void **state) {
    (void)state;
    plume_system_desc d = trail_desc(6, 0.15f);
    d.forces.gravity[1] = -4.0f;
    d.emitters[0] = trail_mover((float[3]){0.9f, 2.2f, 0.0f}, 0.16f);
    trail_run r = trail_run_begin(d);
    trail_emit_at(r.system, 0, -0.7f, -0.6f, 0.0f);
    for (int k = 0; k < 17; ++k) trail_step(&r);
    trail_compare("curved", &r, false);
    trail_run_end(&r);
}


/* A long trail between two attractors, its path out of any plane: seen from
 * the camera it crosses itself, in front of itself and behind. */
static void test_a_trail_crossing_itself_blends_in_order(void **state) {
    (void)state;
    plume_system_desc d = trail_desc(100, 0.06f);
    d.trail.width_over_length = (plume_curve){0};
    d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {1, 1, 1, 0.65f}}}};
    d.trail.color_over_length = (plume_gradient){2, {{0.0f, {1, 0.9f, 0.2f, 1}}, {1.0f, {0.2f, 0.4f, 1, 1}}}};
    d.trail.hide_particles = true;
    d.forces.gravity[1] = -1.5f;
    d.world.attractors[0] = (plume_attractor_desc){.kind = PLUME_ATTRACTOR_POINT, .position = {0, 0.2f, 0},
                                                   .strength = 3.0f};
    d.emitters[0] = trail_mover((float[3]){0.0f, 0.5f, 1.3f}, 0.1f);
    trail_run r = trail_run_begin(d);
    trail_emit_at(r.system, 0, 0.5f, -0.2f, 0.0f);
    for (int k = 0; k < 110; ++k) trail_step(&r);
    trail_compare("crossing", &r, true);
    trail_run_end(&r);
}

/* A spark's trail through a cloud of the system's own squares: segments
 * and squares in one order. */
static void test_a_trail_through_a_sprite_cloud_blends_in_order(void **state) {
    (void)state;
    uint32_t seed = test_random_u32();
    printf("  seed %u\n", seed);
    trail_run r = trail_spark_through_a_cloud(seed);
    trail_compare("cloud", &r, true);
    trail_run_end(&r);
}

/* One slot: a particle dies, the next born there starts its own trail (no
 * segment back to the dead one's points). */
static void test_a_reused_slot_starts_a_new_trail(void **state) {
    (void)state;
    plume_system_desc d = trail_desc(10, 0.12f);
    d.capacity = 1;
    d.emitters[0] = trail_mover((float[3]){1.0f, 0.0f, 0.0f}, 0.15f);
    d.emitters[0].lifetime = (plume_range){0.6f, 0.6f};
    d.emitters[1] = trail_mover((float[3]){-1.0f, 0.0f, 0.0f}, 0.15f);
    trail_run r = trail_run_begin(d);
    trail_emit_at(r.system, 0, -0.8f, 0.5f, 0.0f);
    for (int k = 0; k < 14; ++k) trail_step(&r);
    trail_emit_at(r.system, 1, 0.8f, -0.5f, 0.0f);
    for (int k = 0; k < 8; ++k) trail_step(&r);
    trail_compare("reused", &r, false);
    /* Between the two particles' rows (y = 0.5 and -0.5: rows 48 and 16)
     * nothing: a trail joined to the dead particle's points would cross. */
    int between = trail_covered_rows(r.pictures.image, 22, 42);
    printf("  pixels between the dead particle's row and the new one's: %d\n", between);
    assert_int_equal(between, 0);
    trail_run_end(&r);
}

/* At half resolution the wrapper draws the r.trails as any path: the same
 * strip, its edges softened by the upsample. */
static void test_trails_at_half_resolution(void **state) {
    (void)state;
    plume_system_desc d = trail_desc(8, 0.12f);
    d.emitters[0] = trail_mover((float[3]){0.8f, 0.25f, 0.0f}, 0.3f);
    trail_run r = trail_run_begin(d);
    trail_emit_at(r.system, 0, -0.8f, -0.3f, 0.0f);
    for (int k = 0; k < 24; ++k) trail_step(&r);
    trail_compare("half_full", &r, false);
    trail_draw_image(r.system, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_HALF, r.pictures.unsorted);
    double full = 0, half = 0;
    for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i) {
        full += r.pictures.image[4 * i] - TRAIL_CLEAR[0];
        half += r.pictures.unsorted[4 * i] - TRAIL_CLEAR[0];
    }
    printf("  red over the background: full %.2f, half %.2f\n", full, half);
    assert_true(full > 10.0 && fabs(half - full) < 0.15 * full);
    trail_run_end(&r);
}

/* Each bad trail field refused, naming it; a system asked for nothing. */
static void test_bad_trails_are_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_system_desc good = trail_desc(8, 0.1f);
    assert_int_equal(plume_system_desc_check(&good, NULL), PLUME_OK);
    const struct {
        plume_trail_desc trail;
        uint32_t sort_mode, columns;
        const char *field;
    } bad[] = {
        {{.points = 1, .spacing = 0.1f}, 0, 0, "trail.points"},
        {{.points = PLUME_MAX_TRAIL_POINTS + 1, .spacing = 0.1f}, 0, 0, "trail.points"},
        {{.points = 8, .spacing = 0.0f}, 0, 0, "trail.spacing"},
        {{.points = 8, .spacing = -1.0f}, 0, 0, "trail.spacing"},
        {{.points = 8, .spacing = NAN}, 0, 0, "trail.spacing"},
        {{.points = 8, .spacing = INFINITY}, 0, 0, "trail.spacing"},
        {{.points = 8, .spacing = 0.1f, .spacing_mode = 2}, 0, 0, "trail.spacing_mode"},
        {{.points = 8, .spacing = 0.1f, .uv_mode = 2}, 0, 0, "trail.uv_mode"},
        {{.points = 8, .spacing = 0.1f, .uv_mode = PLUME_TRAIL_UV_TILE}, 0, 2, "trail.uv_mode"},
        {{.points = 8, .spacing = 0.1f, .uv_tile_length = -1.0f}, 0, 0, "trail.uv_tile_length"},
        {{.points = 8, .spacing = 0.1f, .width_over_length = {1, {{2.0f, 1.0f}}}}, 0, 0, "trail.width_over_length"},
        {{.points = 3, .spacing = 0.1f, .ribbon = true}, 0, 0, "trail.points"},
        {{.points = 2, .spacing = 0.1f, .ribbon = true, .spacing_mode = PLUME_TRAIL_SPACING_DISTANCE}, 0, 0,
         "trail.spacing_mode"},
        {{.points = 8, .spacing = 0.1f}, PLUME_SORT_MODE_OLDEST_FIRST, 0, "sort_mode"},
        {{.points = 8, .spacing = 0.1f}, PLUME_SORT_MODE_YOUNGEST_FIRST, 0, "sort_mode"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        plume_system_desc d = trail_desc(8, 0.1f);
        d.logger = test_logger();
        d.trail = bad[i].trail;
        d.sort_mode = bad[i].sort_mode;
        if (bad[i].columns) d.appearance.texture = (plume_texture_desc){.pixels = (unsigned char[16]){0},
                                                                       .width = 2, .height = 1, .columns = 2};
        plume_system system = {0};
        int messages = test_log_count(bad[i].field);
        assert_int_equal(plume_system_desc_check(&d, NULL), PLUME_ERROR_INVALID_ARGUMENT);
        assert_int_equal(plume_system_create(fixture_context(), &d, &system), PLUME_ERROR_INVALID_ARGUMENT);
        printf("  case %zu: %s refused\n", i, bad[i].field);
        assert_int_equal(system.id, 0);
        assert_int_equal(test_log_count(bad[i].field), messages + 2);
    }
    /* The fragment path (GL 3.3) has no trails: refused by name. */
    plume_system_desc fragment = trail_desc(8, 0.1f);
    fragment.logger = test_logger();
    fragment.path = PLUME_PATH_FRAGMENT;
    plume_system system = {0};
    int messages = test_log_count("trail.points needs the compute path");
    assert_int_equal(plume_system_create(fixture_context(), &fragment, &system), PLUME_ERROR_GL_UNSUPPORTED);
    assert_int_equal(system.id, 0);
    assert_int_equal(test_log_count("trail.points needs the compute path"), messages + 1);
}



/* Ribbons: an emitter swaying sideways while its particles rise, joined in
 * emission order; particles of random lifetimes die out of turn and the
 * ribbon breaks there (lifetimes from 0.4 s over 3 s: a run in which none
 * has died yet is about one in a million). */
static void test_a_ribbon_breaks_where_a_particle_died(void **state) {
    (void)state;
    uint32_t seed = test_random_u32();
    printf("  seed %u\n", seed);
    plume_system_desc d = {.capacity = 64, .seed = seed};
    d.trail = (plume_trail_desc){.points = 2, .spacing = 0.15f, .ribbon = true, .hide_particles = true};
    /* Lifetimes under the run's length: the first particles have died. */
    d.emitters[0] = (plume_emitter_desc){.rate = 10, .lifetime = {0.4f, 2.5f}, .direction = {0, 1, 0},
                                         .speed = {0.5f, 0.5f}, .size = {0.12f, 0.12f}};
    d.appearance.size_over_life = (plume_curve){2, {{0.0f, 1.0f}, {1.0f, 0.2f}}};
    d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {0.4f, 0.9f, 1.0f, 0.7f}}}};
    trail_run r = trail_run_begin(d);
    for (int k = 0; k < 60; ++k) {
        plume_transform placement = {.position = {0.5f * sinf(0.15f * (float)k), -0.9f, 0.0f}};
        assert_int_equal(plume_system_set_transform(fixture_context(), r.system, &placement, k == 0), PLUME_OK);
        trail_step(&r);
    }
    plume_readback rb = read_all(fixture_context(), r.system);
    uint32_t breaks = 0, joins = 0;
    for (uint32_t i = 0; i < rb.drawn_count; ++i) {
        const plume_particle *q = &rb.particles[rb.draw_order[i]];
        if (q->id > 0 && !find_by_id(&rb, q->id - 1)) ++breaks;
        else if (q->id > 0) ++joins;
    }
    free_readback(&rb);
    printf("  %u joins, %u breaks at dead particles\n", joins, breaks);
    assert_true(breaks > 0 && joins > 5);
    trail_compare("ribbon", &r, false);
    trail_run_end(&r);
}

/* Bytes in every buffer of the context (plume_context_list_gl_objects). */
static double context_buffer_bytes(void) {
    plume_gl_object objects[512];
    uint32_t count = 0;
    assert_int_equal(plume_context_list_gl_objects(fixture_context(), objects, 512, &count), PLUME_OK);
    assert_true(count <= 512);
    double bytes = 0;
    GLint bound = 0;
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &bound);
    for (uint32_t i = 0; i < count; ++i) {
        if (objects[i].type != GL_BUFFER) continue;
        GLint64 size = 0;
        glBindBuffer(GL_COPY_READ_BUFFER, objects[i].name);
        glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
        bytes += (double)size;
    }
    glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)bound);
    return bytes;
}

/* The memory plume_look.h states: capacity x (16 K + 8 E) bytes and the
 * sorter's scratch of about 17 E a particle at 24 key bits (the system's
 * buffers after an update, with and without the trail). */
static void test_trail_memory_is_as_stated(void **state) {
    (void)state;
    const uint32_t capacity = 3001, points = 16, entries = 16;
    plume_system_desc d = trail_desc(points, 0.1f);
    d.capacity = capacity;
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(0.05f, view, projection);
    double before = context_buffer_bytes();
    plume_system plain_system = make_system((plume_system_desc){.capacity = capacity});
    update(plain_system, &frame);
    double plain = context_buffer_bytes() - before;
    destroy_system(plain_system);
    plume_system system = make_system(d);
    update(system, &frame);
    double trail = context_buffer_bytes() - before - plain;
    double stated = (double)capacity * (16 * points + 8 * entries), sorter = (double)capacity * entries * 17;
    printf("  %u particles of %u points: %.0f bytes for the trails; stated %.0f and about %.0f for the sort\n",
           capacity, points, trail, stated, sorter);
    assert_true(trail >= stated && trail <= stated + 1.1 * sorter);
    destroy_system(system);
}

const struct CMUnitTest trails_tests[] = {
    cmocka_unit_test_setup_teardown(test_a_straight_trail_matches_the_cpu, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_curved_trail_matches_the_cpu, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_trail_crossing_itself_blends_in_order, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_trail_through_a_sprite_cloud_blends_in_order, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_reused_slot_starts_a_new_trail, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_trails_at_half_resolution, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_ribbon_breaks_where_a_particle_died, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bad_trails_are_refused, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_trail_memory_is_as_stated, fixture_setup, fixture_teardown),
};
const size_t trails_test_count = sizeof trails_tests / sizeof trails_tests[0];
