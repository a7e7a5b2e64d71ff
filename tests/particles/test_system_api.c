/* Several systems and contexts: systems that do not interfere, nothing left
 * behind, a forgotten system freed with its context, stale and foreign
 * handles refused, systems in two GL contexts. */
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
#include "tests.h"

/* ---- Several systems; nothing left behind ---------------------------------------- */

/* System A alone, then A again next to B (created, updated, drawn and
 * destroyed in between): A's particles are the same. */
static void test_two_systems_do_not_interfere(void **state) {
    (void)state;
    enum { STEPS = 60 };
    static reference_run ref;
    make_reference_run(&ref, STEPS);
    plume_system a = make_system(busy_desc(ref.seed));
    plume_system_desc other = overlap_desc(ref.seed);
    other.capacity = 333;
    other.emitters[0].rate = 500;
    plume_system b = make_system(other);
    bool b_alive = true;
    const float clear[4] = {0, 0, 0, 0};
    for (int k = 0; k < STEPS; ++k) {
        plume_frame_desc frame = make_frame(ref.dts[k], ref.view, ref.projection);
        if (b_alive) {
            plume_frame_desc b_frame = make_frame(0.02f, NULL, NULL);
            b_frame.disable_sort = k % 2;
            update(b, &b_frame);
        }
        update(a, &frame);
        test_target t = test_target_begin(IMAGE_SIZE, clear);
        assert_int_equal(plume_system_draw(fixture_context(), a, &frame), PLUME_OK);
        if (b_alive) assert_int_equal(plume_system_draw(fixture_context(), b, &frame), PLUME_OK);
        glDeleteFramebuffers(1, &t.framebuffer);
        glDeleteTextures(1, &t.color);
        glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)t.previous_framebuffer);
        if (b_alive && k == STEPS / 2) {
            plume_readback rb = read_all(fixture_context(), b);
            assert_true(rb.live_count > 0);
            check_slots_partition(&rb, 333, k);
            free_readback(&rb);
            destroy_system(b);
            b_alive = false;
        }
    }
    plume_readback rb = read_all(fixture_context(), a);
    run_result together = result_of(&rb);
    destroy_system(a);
    assert_true(same_run(&ref.alone, &together));
    free(ref.alone.in_draw_order);
    free(together.in_draw_order);
}

/* A system with everything that owns GL objects (texture, profiler queries
 * used in every slot, its sorter) and a counting allocator: the context lists
 * exactly the GL objects its creation and use brought to life, every one of
 * them is gone after destroy (asked with glIs*), and every block is freed. */
static void test_destroy_leaves_no_gl_object_and_no_allocation(void **state) {
    (void)state;
    plume_context *context = fixture_context();
    static test_gl_census before, during, listed, after;
    test_take_gl_census(&before);
    test_allocator_stats stats = {0};
    unsigned char *pixels = flipbook_pixels();
    plume_system_desc desc = busy_desc(5);
    desc.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = 16, .height = 16};
    desc.allocator = test_counting_allocator(&stats);
    plume_system system = make_system(desc);
    assert_int_equal(plume_system_set_profiling(context, system, true), PLUME_OK);
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(0.05f, view, projection);
    const float clear[4] = {0, 0, 0, 0};
    for (int k = 0; k < 6; ++k) { /* more frames than the profiler's ring has slots */
        update(system, &frame);
        test_target t = test_target_begin(IMAGE_SIZE, clear);
        assert_int_equal(plume_system_draw(context, system, &frame), PLUME_OK);
        test_target_end(&t, NULL);
        plume_readback counts = {0}; /* waits for the GPU, so every frame's queries come back */
        assert_int_equal(plume_system_read_back(context, system, &counts), PLUME_OK);
    }
    test_take_gl_census(&during);

    uint32_t total = 0;
    assert_int_equal(plume_context_list_gl_objects(context, NULL, 0, &total), PLUME_OK);
    plume_gl_object *all = malloc(sizeof *all * (total + 1));
    assert_non_null(all);
    assert_int_equal(plume_context_list_gl_objects(context, all, total, &total), PLUME_OK);
    uint32_t kinds[8] = {0};
    memcpy(&listed, &before, sizeof listed);
    for (uint32_t i = 0; i < total; ++i) {
        if (!test_gl_object_alive(all[i])) fail_msg("listed GL object %u (type 0x%04x) is not alive", all[i].name, all[i].type);
        if (all[i].name >= TEST_CENSUS_NAMES) fail_msg("GL name %u is past the census", all[i].name);
        listed.kinds[all[i].name] |= test_census_bit(all[i].type);
        for (int k = 0; k < 8; ++k) kinds[k] += (test_census_bit(all[i].type) >> k) & 1u;
    }
    /* Census bits: buffer, program, shader, query, vertex array, texture,
     * framebuffer, sampler. The system's 6 buffers (the world's event buffer
     * among them), the sorter's 2 and one per profiler slot; 7 programs (the
     * world's two event passes among them) and the sorter's 2 (local sort,
     * merge); 2 queries per stage per slot; 4 samplers (the draw's sprite and
     * depth, the world's depth and vector field). */
    assert_true(kinds[0] >= 6 + 2 + 4 && kinds[1] >= 7 + 2 && kinds[3] == 4 * 2 * PLUME_STAGE_COUNT);
    assert_true(kinds[2] == 0 && kinds[4] == 1 && kinds[5] == 1 && kinds[6] == 0 && kinds[7] == 4);
    test_assert_same_census(&listed, &during, "the context's list and what lived before");

    assert_true(stats.live_blocks >= 3); /* the system, its profiler, its sorter at least */
    destroy_system(system);
    for (uint32_t i = 0; i < total; ++i)
        if (test_gl_object_alive(all[i])) fail_msg("GL object %u (type 0x%04x) outlived its system", all[i].name, all[i].type);
    assert_int_equal(plume_context_list_gl_objects(context, NULL, 0, &total), PLUME_OK);
    assert_int_equal(total, 0);
    test_take_gl_census(&after);
    test_assert_same_census(&before, &after, "after destroy");
    assert_int_equal(stats.live_blocks, 0);
    free(all);
    free(pixels);
}

/* A host that forgets its objects: destroying the context frees a system
 * (its profiler on), the system's own sorter (filed before the system, freed
 * by it) and a host sorter filed after it; one warning for each object the
 * host made, none for the system's sorter; no GL object and no block left. */
static void test_context_destroy_frees_a_forgotten_system(void **state) {
    (void)state;
    test_allocator_stats stats = {0};
    plume_context_desc context_desc = {.logger = test_logger(), .allocator = test_counting_allocator(&stats)};
    plume_context *context = NULL;
    assert_int_equal(plume_context_create(&context_desc, &context), PLUME_OK);
    static test_gl_census before, after;
    test_take_gl_census(&before);
    plume_system_desc desc = busy_desc(9);
    plume_system system;
    assert_int_equal(plume_system_create(context, &desc, &system), PLUME_OK);
    assert_int_equal(plume_system_set_profiling(context, system, true), PLUME_OK);
    plume_frame_desc frame = make_frame(0.05f, NULL, NULL);
    for (int k = 0; k < 2; ++k) assert_int_equal(plume_system_update(context, system, &frame), PLUME_OK);
    plume_sorter_desc sorter_desc = {.capacity = 100};
    plume_sorter sorter;
    assert_int_equal(plume_sorter_create(context, &sorter_desc, &sorter), PLUME_OK);
    assert_true(fixture_destroy_context_checked(context) > 0);
    test_take_gl_census(&after);
    test_assert_same_census(&before, &after, "after destroying the context");
    assert_int_equal(stats.live_blocks, 0);
    char expected[128];
    snprintf(expected, sizeof expected, "a system (handle 0x%016llx) is still alive", (unsigned long long)system.id);
    assert_true(test_log_contains(expected));
    snprintf(expected, sizeof expected, "a sorter (handle 0x%016llx) is still alive", (unsigned long long)sorter.id);
    assert_true(test_log_contains(expected));
    assert_int_equal(test_log_count("is still alive"), 2);
    assert_int_equal(test_log_error_count(), 0);
}

/* Every call that takes a system refuses `system` with INVALID_ARGUMENT, one
 * message each containing `reason` (through the context's logger; a NULL
 * context has none, its messages go to stderr), and writes nothing useful. */
static void assert_system_refused(plume_context *context, plume_system system, const char *reason) {
    int errors_before = test_log_error_count();
    plume_frame_desc frame = make_frame(0.01f, NULL, NULL);
    plume_emitter_desc emitter = {.rate = 10};
    plume_forces forces = {.drag = 1};
    assert_int_equal(plume_system_update(context, system, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_draw(context, system, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_reset(context, system), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_set_emitter(context, system, 0, &emitter), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_set_forces(context, system, &forces), PLUME_ERROR_INVALID_ARGUMENT);
    plume_readback readback;
    memset(&readback, 0, sizeof readback);
    assert_int_equal(plume_system_read_back(context, system, &readback), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_system_set_profiling(context, system, true), PLUME_ERROR_INVALID_ARGUMENT);
    plume_profile profile;
    memset(&profile, 0xAB, sizeof profile);
    assert_int_equal(plume_system_get_profile(context, system, &profile), PLUME_ERROR_INVALID_ARGUMENT);
    assert_false(profile.enabled);
    plume_frame_profile frames[2];
    assert_int_equal(plume_system_get_frame_profiles(context, system, 0, frames, 2), 0);
    plume_system_desc desc;
    memset(&desc, 0xAB, sizeof desc);
    assert_int_equal(plume_system_get_desc(context, system, &desc), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(desc.capacity, 0);
    int calls = 10;
    if (system.id != 0) { /* destroying {0} is a no-op */
        assert_int_equal(plume_system_destroy(context, system), PLUME_ERROR_INVALID_ARGUMENT);
        ++calls;
    }
    if (context) {
        assert_int_equal(test_log_error_count(), errors_before + calls);
        assert_true(test_log_contains(reason));
    }
}

/* Destroyed, foreign, null, garbage and wrong-kind handles are refused by
 * every system call, with a message, and nothing crashes (under
 * config=sanitize also: no freed memory is read). The live systems still
 * work afterwards. */
static void test_destroyed_and_foreign_system_handles_are_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_context *context = fixture_context();
    plume_system_desc desc = {.capacity = 100};
    desc.emitters[0] = (plume_emitter_desc){.rate = 500, .lifetime = {5, 5}};
    plume_system doomed = make_system(desc), copy = doomed; /* handles are values: copies go stale together */
    destroy_system(doomed);
    assert_system_refused(context, copy, "destroyed");
    assert_true(test_log_contains("plume_system_update: system handle 0x"));

    plume_system mine = make_system(desc);
    assert_int_not_equal(mine.id, doomed.id); /* the slot may be reused, the handle is not */
    assert_system_refused(context, doomed, "destroyed");
    plume_context *other = fixture_context_with_another_tag(mine.id);
    plume_system theirs;
    assert_int_equal(plume_system_create(other, &desc, &theirs), PLUME_OK);
    assert_system_refused(context, theirs, "another plume context");
    assert_system_refused(other, mine, "another plume context");
    assert_system_refused(context, (plume_system){0}, "null handle");
    assert_system_refused(NULL, mine, "context is NULL");
    plume_sorter_desc sorter_desc = {.capacity = 10};
    plume_sorter sorter;
    assert_int_equal(plume_sorter_create(context, &sorter_desc, &sorter), PLUME_OK);
    assert_system_refused(context, (plume_system){sorter.id}, "another kind");
    assert_int_equal(plume_sorter_destroy(context, sorter), PLUME_OK);
    uint64_t tag_bits = mine.id & 0xFFFF000000000000ull;
    for (int i = 0; i < 100; ++i) {
        uint64_t id = (uint64_t)test_random_u32() << 32 | test_random_u32();
        if (i % 2) id = tag_bits | (id & 0xFFFFFFFFFFFFull); /* right tag, garbage slot and generation */
        if (id == mine.id || id == 0) continue;
        plume_frame_desc frame = make_frame(0.01f, NULL, NULL);
        assert_int_equal(plume_system_update(context, (plume_system){id}, &frame), PLUME_ERROR_INVALID_ARGUMENT);
    }
    assert_int_equal(plume_system_destroy(context, (plume_system){0}), PLUME_OK); /* a no-op, like free(NULL) */

    /* Both live systems still run. */
    plume_frame_desc frame = make_frame(0.1f, NULL, NULL);
    update(mine, &frame);
    assert_int_equal(plume_system_update(other, theirs, &frame), PLUME_OK);
    plume_readback counts = {0};
    assert_int_equal(plume_system_read_back(context, mine, &counts), PLUME_OK);
    assert_int_equal(counts.live_count, 50);
    memset(&counts, 0, sizeof counts);
    assert_int_equal(plume_system_read_back(other, theirs, &counts), PLUME_OK);
    assert_int_equal(counts.live_count, 50);
    assert_int_equal(plume_system_destroy(other, theirs), PLUME_OK);
    plume_context_destroy(other);
    destroy_system(mine);
}

/* A system per GL context, each with its own plume context (no sharing, so
 * both GL contexts hand out the same buffer and program names), updated and
 * drawn in turn: system A's particles match A run alone, and destroying A in
 * its GL context leaves B, whose GL names are the same numbers, working. */
static void test_two_systems_in_two_gl_contexts(void **state) {
    (void)state;
    enum { STEPS = 24 };
    static reference_run ref;
    make_reference_run(&ref, STEPS);
    headless_gl gl[2];
    plume_context *context[2];
    plume_system system[2];
    plume_system_desc descs[2] = {busy_desc(ref.seed), overlap_desc(ref.seed + 1)};
    descs[1].emitters[0].rate = 400;
    plume_context_desc context_desc = {.logger = test_logger()};
    char error[256];
    for (int i = 0; i < 2; ++i) {
        if (!headless_gl_create(&gl[i], true, NULL, error, sizeof error)) fail_msg("GL context %d: %s", i, error);
        assert_int_equal(plume_context_create(&context_desc, &context[i]), PLUME_OK);
        assert_int_equal(plume_system_create(context[i], &descs[i], &system[i]), PLUME_OK);
    }
    const float clear[4] = {0, 0, 0, 0};
    for (int k = 0; k < STEPS; ++k)
        for (int i = 1; i >= 0; --i) {
            assert_true(headless_gl_make_current(&gl[i]));
            plume_frame_desc frame = make_frame(i == 0 ? ref.dts[k] : 0.02f, ref.view, ref.projection);
            frame.disable_sort = i == 1 && k % 2;
            assert_int_equal(plume_system_update(context[i], system[i], &frame), PLUME_OK);
            test_target t = test_target_begin(16, clear);
            assert_int_equal(plume_system_draw(context[i], system[i], &frame), PLUME_OK);
            test_target_end(&t, NULL);
        }
    assert_true(headless_gl_make_current(&gl[0]));
    plume_readback rb = read_all(context[0], system[0]);
    run_result together = result_of(&rb);
    assert_true(same_run(&ref.alone, &together));

    uint32_t count = 0;
    plume_gl_object objects[64];
    assert_int_equal(plume_context_list_gl_objects(context[0], objects, 64, &count), PLUME_OK);
    assert_true(count > 0 && count <= 64);
    assert_int_equal(plume_system_destroy(context[0], system[0]), PLUME_OK);
    for (uint32_t i = 0; i < count; ++i) assert_false(test_gl_object_alive(objects[i]));
    assert_true(headless_gl_make_current(&gl[1]));
    uint32_t alive_in_b = 0;
    for (uint32_t i = 0; i < count; ++i) alive_in_b += test_gl_object_alive(objects[i]);
    assert_true(alive_in_b > 0); /* the same numbers name B's objects here */
    plume_frame_desc frame = make_frame(0.1f, NULL, NULL);
    assert_int_equal(plume_system_update(context[1], system[1], &frame), PLUME_OK);
    plume_readback counts = {0};
    assert_int_equal(plume_system_read_back(context[1], system[1], &counts), PLUME_OK);
    assert_true(counts.live_count > 0 && counts.live_count + counts.dead_count == descs[1].capacity);
    assert_int_equal(plume_system_destroy(context[1], system[1]), PLUME_OK);
    for (int i = 0; i < 2; ++i) {
        assert_true(headless_gl_make_current(&gl[i]));
        plume_context_destroy(context[i]);
        headless_gl_destroy(&gl[i]);
    }
    test_make_main_context_current();
    free(ref.alone.in_draw_order);
    free(together.in_draw_order);
}

const struct CMUnitTest particle_system_api_tests[] = {
    cmocka_unit_test_setup_teardown(test_two_systems_do_not_interfere, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_destroy_leaves_no_gl_object_and_no_allocation, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_context_destroy_frees_a_forgotten_system, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_destroyed_and_foreign_system_handles_are_refused, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_two_systems_in_two_gl_contexts, fixture_setup, fixture_teardown),
};
const size_t particle_system_api_test_count = sizeof particle_system_api_tests / sizeof particle_system_api_tests[0];
