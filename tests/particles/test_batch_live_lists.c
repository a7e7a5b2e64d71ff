/* A batch's live lists wait in its table's scratch until something reads
 * them (particles_settle_live_list, issue #36): systems whose lists are
 * not sorted (additive blending, PLUME_SORT_MODE_NONE, a frame with
 * disable_sort) read by every other reader each step, against twins
 * updated one by one (read back: every live slot, the draw order and
 * keys, the dead list; the bounds; events to the CPU): a readback right
 * after the batch, a second batch in the same frame over the same scratch
 * (other systems), a second batch that grows the scratch (its buffer
 * remade while the first's lists wait), plume_system_update alone after a
 * batch, a pending system destroyed and another made in its block, and a
 * context destroyed with lists waiting. Seeded (printed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <epoxy/gl.h>

#include "particle_fixture.h"
#include "plume/plume_batch.h"
#include "plume/plume_prewarm.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { SYSTEMS = 7, STEPS = 7 };

/* System `k`: lists never sorted (additive, or sort mode none) or sorted
 * (kept by the sort only where the frame asks for it), events to the CPU on
 * one, capacities no power of two, one past the first scratch (64 KiB:
 * 8192 pairs) with another. */
static plume_system_desc live_list_desc(int k, uint32_t seed) {
    static const uint32_t capacities[SYSTEMS] = {777, 1501, 509, 5003, 4099, 1023, 333};
    plume_system_desc d = busy_desc(seed + 7u * (uint32_t)k);
    d.capacity = capacities[k];
    d.emitters[0].rate = 400.0f + 300.0f * (float)k;
    if (k % 3 == 0) d.blend_mode = PLUME_BLEND_ADDITIVE;
    if (k % 3 == 1) d.sort_mode = PLUME_SORT_MODE_NONE;
    if (k == 2) d.cpu_events = (plume_cpu_events_desc){.kinds = PLUME_PARTICLE_EVENT_DEATH, .budget = 300};
    return d;
}

static plume_system create_in(plume_context *context, plume_system_desc desc) {
    plume_system system = {0};
    assert_int_equal(plume_system_create(context, &desc, &system), PLUME_OK);
    return system;
}

static void assert_same_bounds(plume_system a, plume_system b, const char *which) {
    plume_bounds ba, bb;
    assert_int_equal(plume_system_get_bounds(fixture_context(), a, &ba), PLUME_OK);
    assert_int_equal(plume_system_get_bounds(fixture_context(), b, &bb), PLUME_OK);
    if (memcmp(&ba, &bb, sizeof ba) != 0) fail_msg("%s: the bounds differ", which);
}

/* Every system against its twin. */
static void assert_twins(const plume_system *batched, const plume_system *twins, int count, int step,
                         const char *after) {
    for (int k = 0; k < count; ++k) {
        char which[96];
        snprintf(which, sizeof which, "step %d, %s, system %d", step, after, k);
        assert_same_live_particles(fixture_context(), batched[k], fixture_context(), twins[k], which);
        assert_same_bounds(batched[k], twins[k], which);
    }
}

static void update_twins(const plume_system *twins, int count, const plume_frame_desc *frame) {
    for (int k = 0; k < count; ++k) assert_int_equal(plume_system_update(fixture_context(), twins[k], frame), PLUME_OK);
}

static void test_batch_live_lists_read_by_every_reader(void **state) {
    (void)state;
    if (compute_path_forced_off("a batch updates compute-path systems only")) return;
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    plume_context *context = fixture_context();
    plume_system batched[SYSTEMS], twins[SYSTEMS];
    for (int k = 0; k < SYSTEMS; ++k) {
        batched[k] = create_in(context, live_list_desc(k, seed));
        twins[k] = create_in(context, live_list_desc(k, seed));
    }
    mat4 view, projection;
    random_camera(view, projection);
    /* Small ones first: their batch's scratch is the first size, the large
     * ones' batch grows it while the small ones' lists wait. */
    static const int ORDER[SYSTEMS] = {0, 1, 2, 5, 6, 3, 4};
    plume_system small[5], large[2];
    for (int step = 0; step < STEPS; ++step) {
        plume_frame_desc frame = make_frame(test_random_float(0.01f, 0.05f), view, projection);
        frame.disable_sort = step % 2 == 1;
        for (int i = 0; i < 5; ++i) small[i] = batched[ORDER[i]];
        for (int i = 0; i < 2; ++i) large[i] = batched[ORDER[5 + i]];
        update_twins(twins, SYSTEMS, &frame);
        switch (step % 4) {
        case 0: /* one batch, read at once */
            assert_int_equal(plume_batch_update(context, batched, SYSTEMS, &frame), PLUME_OK);
            break;
        case 1: /* two batches in one frame, the second growing the scratch */
            assert_int_equal(plume_batch_update(context, small, 5, &frame), PLUME_OK);
            assert_int_equal(plume_batch_update(context, large, 2, &frame), PLUME_OK);
            break;
        case 2: /* a batch, then one of its systems updated alone (its twin too) */
            assert_int_equal(plume_batch_update(context, batched, SYSTEMS, &frame), PLUME_OK);
            assert_int_equal(plume_system_update(context, batched[0], &frame), PLUME_OK);
            assert_int_equal(plume_system_update(context, twins[0], &frame), PLUME_OK);
            break;
        default: /* a waiting system destroyed, another made in its block, all batched */
            assert_int_equal(plume_batch_update(context, batched, SYSTEMS, &frame), PLUME_OK);
            destroy_system(batched[6]);
            destroy_system(twins[6]);
            batched[6] = create_in(context, live_list_desc(6, seed + (uint32_t)step));
            twins[6] = create_in(context, live_list_desc(6, seed + (uint32_t)step));
            update_twins(twins + 6, 1, &frame);
            assert_int_equal(plume_batch_update(context, batched + 6, 1, &frame), PLUME_OK);
            update_twins(twins, 6, &frame);
            assert_int_equal(plume_batch_update(context, batched, 6, &frame), PLUME_OK);
            break;
        }
        assert_twins(batched, twins, SYSTEMS, step, "read after the batches");
        assert_same_events(context, batched[2], twins[2]);
    }
    printf("  %d systems, %d steps: every reader saw each batched system's list as its twin's\n", SYSTEMS, STEPS);
    for (int k = 0; k < SYSTEMS; ++k) {
        destroy_system(batched[k]);
        destroy_system(twins[k]);
    }
}

/* A context of its own destroyed while batched lists wait in its table's
 * scratch (its systems still alive: destroyed with it, said): no GL error,
 * and a fresh context's batch afterwards reads its own lists. */
static void test_context_destroyed_with_batched_lists_waiting(void **state) {
    (void)state;
    if (compute_path_forced_off("a batch updates compute-path systems only")) return;
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    plume_context_desc context_desc = {.logger = test_logger()};
    plume_context *own = NULL;
    assert_int_equal(plume_context_create(&context_desc, &own), PLUME_OK);
    static test_gl_census before, after;
    test_take_gl_census(&before);
    plume_system systems[3];
    for (int k = 0; k < 3; ++k) systems[k] = create_in(own, live_list_desc(3 * k, seed)); /* additive: unsorted */
    plume_frame_desc frame = make_frame(0.03f, NULL, NULL);
    for (int step = 0; step < 2; ++step) assert_int_equal(plume_batch_update(own, systems, 3, &frame), PLUME_OK);
    assert_true(fixture_destroy_context_checked(own) > 0);
    test_take_gl_census(&after);
    test_assert_same_census(&before, &after, "after destroying a context with batched lists waiting");
    assert_int_equal(test_log_count("is still alive"), 3);
    assert_int_equal(test_log_error_count(), 0);
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

const struct CMUnitTest batch_live_list_tests[] = {
    cmocka_unit_test_setup_teardown(test_batch_live_lists_read_by_every_reader, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_context_destroyed_with_batched_lists_waiting, fixture_setup,
                                    fixture_teardown),
};
const size_t batch_live_list_test_count = sizeof batch_live_list_tests / sizeof batch_live_list_tests[0];
