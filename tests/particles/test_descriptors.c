/* The system's descriptors: bad ones and bad calls refused cleanly with
 * nothing changed, zero fields taking the documented defaults. */
#define _DEFAULT_SOURCE 1 /* mkstemp, mkstemps */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "headless_gl.h"
#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume/plume_sort.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "test_platform.h"
#include "tests.h"

static void *malloc_for_partial_allocator_test(size_t size, void *user) {
    (void)user;
    return malloc(size);
}

/* ---- Bad input ---------------------------------------------------------------- */

/* Bad case `which` applied to a valid descriptor; false past the last case. */
static bool make_bad_desc(int which, plume_system_desc *d, plume_result *expected, const char **message,
                          const char *missing_path, const char *not_an_image, const void *pixels) {
    static const unsigned char few_pixels[4 * 4 * 4];
    *expected = PLUME_ERROR_INVALID_ARGUMENT;
    GLint64 block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    switch (which) {
    case 0: d->capacity = 0, *message = "capacity is 0"; break;
    case 1: d->capacity = 0xFFFFFFFFu, *message = "over this GL's limit"; break;
    case 2: d->capacity = (uint32_t)(block / 32 + 1), *message = "over this GL's limit"; break; /* 32 bytes of motion */
    case 3: d->emitters[0].lifetime = (plume_range){-1, 1}, *message = "emitters[0].lifetime"; break;
    case 4: d->emitters[0].lifetime = (plume_range){2, 1}, *message = "min 2 over max 1"; break;
    case 5: d->emitters[0].lifetime = (plume_range){NAN, 1}, *message = "emitters[0].lifetime must be finite"; break;
    case 6: d->emitters[0].rate = NAN, *message = "emitters[0].rate"; break;
    case 7: d->emitters[3].rate = -5, *message = "emitters[3].rate"; break;
    case 8: d->forces.gravity[1] = NAN, *message = "forces.gravity"; break;
    case 9: d->forces.drag = -1, *message = "forces.drag"; break;
    case 10: d->forces.turbulence_scale = INFINITY, *message = "forces.turbulence_scale"; break;
    case 11: d->emitters[2].spread = 4, *message = "emitters[2].spread"; break;
    case 12: d->emitters[0].size = (plume_range){0, 0.5f}, *message = "emitters[0].size"; break;
    case 13: d->emitters[7].shape = (plume_emitter_shape)7, *message = "emitters[7].shape"; break;
    case 14: d->emitters[0].extents[2] = -1, *message = "emitters[0].extents"; break;
    case 15: d->appearance.size_over_life = (plume_curve){2, {{0.5f, 1}, {0.2f, 1}}}, *message = "appearance.size_over_life"; break;
    case 16: d->appearance.opacity_over_life.key_count = 9, *message = "appearance.opacity_over_life has 9 keys"; break;
    case 17: d->appearance.color_over_life = (plume_gradient){1, {{0, {2, 0, 0, 1}}}}, *message = "color_over_life"; break;
    case 18: d->appearance.texture.path = missing_path, *expected = PLUME_ERROR_IO, *message = "cannot open texture file"; break;
    case 19: d->appearance.texture.path = not_an_image, *expected = PLUME_ERROR_IO, *message = "not an image"; break;
    case 20:
        d->appearance.texture = (plume_texture_desc){.path = not_an_image, .pixels = pixels, .width = 16, .height = 16};
        *message = "both a path and pixels";
        break;
    case 21: d->appearance.texture = (plume_texture_desc){.pixels = pixels}, *message = "zero width or height"; break;
    case 22:
        d->appearance.texture = (plume_texture_desc){.pixels = few_pixels, .width = 4, .height = 4, .columns = 5};
        *message = "flipbook";
        break;
    case 23: d->appearance.soft_fade_distance = -1, *message = "appearance.soft_fade_distance"; break;
    case 24: d->emitters[4].spin = (plume_range){0, INFINITY}, *message = "emitters[4].spin"; break;
    case 25: d->emitters[0].direction[0] = NAN, *message = "emitters[0].direction"; break;
    case 26: d->blend_mode = 3, *message = "blend_mode is not a plume_blend_mode"; break;
    case 27:
        d->blend_mode = PLUME_BLEND_PREMULTIPLIED_ADDITIVE;
        d->additive_over_life = (plume_curve){2, {{0, 1}, {1, 1.5f}}};
        *message = "additive_over_life has a value over 1";
        break;
    case 28: d->orientation = 5, *message = "orientation is not a plume_orientation"; break;
    case 29: d->orientation = PLUME_ORIENT_WORLD_FACING, *message = "orientation_axis is zero"; break;
    case 30: d->stretch_factor = -1, *message = "stretch_factor"; break;
    case 31: d->stretch_limits = (plume_range){2, 1}, *message = "stretch_limits has min 2 over max 1"; break;
    case 32: d->orientation_axis[2] = NAN, *message = "orientation_axis must be finite"; break;
    case 33: d->sort_mode = 5, *message = "sort_mode is not a plume_sort_mode"; break;
    case 34:
        d->emissive_over_life = (plume_gradient){1, {{0, {0.5f, 0.5f, -1, 1}}}};
        *message = "emissive_over_life has a colour outside 0 .. 1";
        break;
    case 35: d->sort_key_bits = 15, *message = "sort_key_bits is outside 16 .. 32"; break;
    case 36: d->sort_key_bits = 33, *message = "sort_key_bits is outside 16 .. 32"; break;
    default: return false;
    }
    return true;
}

/* plume_system_desc_check refuses what create refuses without the GL: the
 * same result and message; the cases that need the GL's limits or the
 * texture's file or pixels pass it. */
static void assert_desc_check_agrees(int which, const plume_system_desc *desc, plume_result expected,
                                     const char *message) {
    bool needs_create = expected != PLUME_ERROR_INVALID_ARGUMENT || strstr(message, "GL's limit") ||
                        strstr(message, "flipbook");
    plume_system_desc checked = *desc;
    checked.logger = test_logger();
    int errors_before = test_log_error_count();
    plume_result result = plume_system_desc_check(&checked, NULL);
    if (needs_create ? result != PLUME_OK
                     : result != expected || test_log_error_count() != errors_before + 1 ||
                           test_log_count("plume_system_desc_check: ") == 0)
        fail_msg("case %d: plume_system_desc_check gave %s (create: %s, \"%s\")", which, plume_result_string(result),
                 plume_result_string(expected), message);
}

static void test_bad_descriptors_are_refused_cleanly(void **state) {
    (void)state;
    test_log_expect_errors();
    char not_an_image[4096];
    test_temporary_file(not_an_image, sizeof not_an_image, "plume_not_an_image_", "");
    FILE *text = fopen(not_an_image, "wb");
    assert_non_null(text);
    assert_true(fwrite("just text\n", 1, 10, text) == 10);
    fclose(text);
    unsigned char *pixels = flipbook_pixels();
    static test_gl_census before, now;
    test_take_gl_census(&before);
    int cases = 0;
    for (int which = 0;; ++which) {
        test_allocator_stats stats = {0};
        plume_system_desc desc = overlap_desc(1);
        plume_result expected;
        const char *message = NULL;
        if (!make_bad_desc(which, &desc, &expected, &message, "/tmp/plume/no/such/file.png", not_an_image, pixels))
            break;
        desc.allocator = test_counting_allocator(&stats);
        int errors_before = test_log_error_count();
        plume_system system = {0xABABABABABABABABull}; /* must be reset to {0} */
        plume_result result = plume_system_create(fixture_context(), &desc, &system);
        if (result != expected || system.id != 0 || !test_log_contains(message) ||
            test_log_error_count() == errors_before)
            fail_msg("case %d: result %s (expected %s), handle 0x%llx, message \"%s\" %s", which,
                     plume_result_string(result), plume_result_string(expected), (unsigned long long)system.id,
                     message, test_log_contains(message) ? "logged" : "missing");
        if (stats.live_blocks != 0) fail_msg("case %d: %ld blocks leaked", which, stats.live_blocks);
        assert_desc_check_agrees(which, &desc, expected, message);
        uint32_t filed = 0;
        assert_int_equal(plume_context_list_gl_objects(fixture_context(), NULL, 0, &filed), PLUME_OK);
        if (filed != 0) fail_msg("case %d: %u GL objects left filed in the context", which, filed);
        ++cases;
    }
    assert_true(cases >= 25);
    /* A partial allocator and null pointers. */
    plume_system_desc desc = overlap_desc(1);
    desc.allocator.allocate = malloc_for_partial_allocator_test;
    plume_system system = {0};
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("allocator"));
    assert_int_equal(plume_system_create(fixture_context(), NULL, &system), PLUME_ERROR_INVALID_ARGUMENT);
    desc.allocator = (plume_allocator){0};
    assert_int_equal(plume_system_create(fixture_context(), &desc, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_create(NULL, &desc, &system), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(system.id, 0);
    plume_system_desc resolved;
    memset(&resolved, 0xAB, sizeof resolved);
    assert_int_equal(plume_system_desc_check(NULL, &resolved), PLUME_ERROR_INVALID_ARGUMENT);
    desc.allocator.allocate = malloc_for_partial_allocator_test;
    desc.logger = test_logger();
    assert_int_equal(plume_system_desc_check(&desc, &resolved), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(resolved.capacity, 0); /* zeroed on an error */
    /* Whatever any case made is gone (asked of the GL, not of the module). */
    test_take_gl_census(&now);
    test_assert_same_census(&before, &now, "after the refused descriptors");
    remove(not_an_image);
    free(pixels);
}

/* Calls with bad arguments on a live system: an error and a message, and the
 * system is unchanged (same particles after, same emitter). */
static void test_bad_calls_change_nothing(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_system system = make_system(busy_desc(test_random_u32()));
    plume_frame_desc frame = make_frame(0.02f, NULL, NULL);
    for (int k = 0; k < 10; ++k) update(system, &frame);
    plume_readback before = read_all(fixture_context(), system);

    const float bad_dts[] = {-0.01f, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad_dts / sizeof bad_dts[0]; ++i) {
        plume_frame_desc bad = make_frame(bad_dts[i], NULL, NULL);
        assert_int_equal(plume_system_update(fixture_context(), system, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    }
    assert_true(test_log_contains("dt is"));
    plume_frame_desc bad_matrix = make_frame(0.01f, NULL, NULL);
    bad_matrix.view[5] = NAN;
    assert_int_equal(plume_system_update(fixture_context(), system, &bad_matrix), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_draw(fixture_context(), system, &bad_matrix), PLUME_ERROR_INVALID_ARGUMENT);
    plume_frame_desc bad_texture = make_frame(0.0f, NULL, NULL);
    bad_texture.depth_texture = 987654;
    assert_int_equal(plume_system_draw(fixture_context(), system, &bad_texture), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("is not a texture"));
    assert_int_equal(plume_system_update(fixture_context(), system, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_draw(fixture_context(), system, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_read_back(fixture_context(), system, NULL), PLUME_ERROR_INVALID_ARGUMENT);

    plume_system_desc desc_before = system_desc(fixture_context(), system);
    plume_emitter_desc emitter = desc_before.emitters[0];
    assert_int_equal(plume_system_set_emitter(fixture_context(), system, PLUME_MAX_EMITTERS, &emitter), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_set_emitter(fixture_context(), system, 0, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    emitter.rate = NAN;
    assert_int_equal(plume_system_set_emitter(fixture_context(), system, 0, &emitter), PLUME_ERROR_INVALID_ARGUMENT);
    plume_forces forces = desc_before.forces;
    forces.drag = NAN;
    assert_int_equal(plume_system_set_forces(fixture_context(), system, &forces), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_set_forces(fixture_context(), system, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    plume_system_desc desc_after = system_desc(fixture_context(), system);
    assert_memory_equal(&desc_before, &desc_after, sizeof desc_before);

    plume_readback after = read_all(fixture_context(), system);
    assert_int_equal(after.live_count, before.live_count);
    assert_int_equal(after.emitted_total, before.emitted_total);
    for (uint32_t i = 0; i < before.live_count; ++i)
        assert_memory_equal(&before.particles[before.draw_order[i]], &after.particles[after.draw_order[i]],
                            sizeof(plume_particle));
    free_readback(&before);
    free_readback(&after);
    destroy_system(system);
}

/* ---- Defaults ------------------------------------------------------------------- */

static void test_zero_descriptor_fields_take_documented_defaults(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 10};
    desc.emitters[0].rate = 5;
    plume_system system = make_system(desc);
    plume_system_desc d = system_desc(fixture_context(), system);
    const plume_emitter_desc *e = &d.emitters[0];
    assert_int_equal(e->shape, PLUME_SHAPE_POINT);
    assert_true(e->direction[0] == 0 && e->direction[1] == 1 && e->direction[2] == 0);
    assert_true(e->lifetime.min == 1.0f && e->lifetime.max == 1.0f);
    assert_true(e->size.min == 0.1f && e->size.max == 0.1f);
    assert_true(e->speed.min == 0.0f && e->spread == 0.0f);
    assert_true(d.forces.turbulence_scale == 1.0f && d.forces.drag == 0.0f);
    assert_true(d.appearance.soft_fade_distance == 0.5f);
    assert_int_equal(d.appearance.size_over_life.key_count, 1);
    assert_true(d.appearance.size_over_life.keys[0].value == 1.0f);
    assert_int_equal(d.appearance.color_over_life.key_count, 1);
    assert_true(d.appearance.color_over_life.keys[0].rgba[3] == 1.0f);
    assert_true(d.appearance.texture.columns == 1 && d.appearance.texture.rows == 1);
    assert_null(d.appearance.texture.path);
    /* plume_system_desc_check fills in the same defaults, with no GL call. */
    plume_system_desc checked;
    assert_int_equal(plume_system_desc_check(&desc, &checked), PLUME_OK);
    assert_memory_equal(checked.emitters, d.emitters, sizeof d.emitters);
    assert_memory_equal(&checked.forces, &d.forces, sizeof d.forces);
    assert_memory_equal(&checked.appearance.size_over_life, &d.appearance.size_over_life, sizeof(plume_curve));
    assert_memory_equal(&checked.appearance.color_over_life, &d.appearance.color_over_life, sizeof(plume_gradient));
    assert_memory_equal(&checked.world, &d.world, sizeof d.world);
    assert_true(checked.appearance.soft_fade_distance == d.appearance.soft_fade_distance);
    assert_true(checked.stretch_limits.min == d.stretch_limits.min && checked.stretch_limits.max == d.stretch_limits.max);
    assert_int_equal(checked.sort_key_bits, d.sort_key_bits);
    assert_int_equal(checked.appearance.texture.columns, 1);
    /* The defaults act: 5 particles a second, alive 1 s, 0.1 wide, at rest. */
    plume_frame_desc frame = make_frame(0.25f, NULL, NULL); /* zero matrices: identity */
    for (int k = 0; k < 8; ++k) update(system, &frame);
    plume_readback rb = read_all(fixture_context(), system);
    assert_int_equal(rb.emitted_total, 10);
    /* Emitted per update: 1 1 1 2 1 1 1 2. Alive: ages below 1.0, the last
     * three updates' 1 + 1 + 2 (the 2 of age exactly 1.0 died). */
    assert_int_equal(rb.live_count, 4);
    for (uint32_t i = 0; i < rb.live_count; ++i) {
        const plume_particle *p = &rb.particles[rb.draw_order[i]];
        assert_true(p->size == 0.1f && p->lifetime == 1.0f);
        assert_true(p->position[0] == 0 && p->position[1] == 0 && p->position[2] == 0);
    }
    free_readback(&rb);
    destroy_system(system);
}

const struct CMUnitTest particle_descriptors_tests[] = {
    cmocka_unit_test_setup_teardown(test_bad_descriptors_are_refused_cleanly, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bad_calls_change_nothing, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_zero_descriptor_fields_take_documented_defaults, fixture_setup, fixture_teardown),
};
const size_t particle_descriptors_test_count = sizeof particle_descriptors_tests / sizeof particle_descriptors_tests[0];
