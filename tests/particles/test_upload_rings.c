/* The data the CPU gives the GPU passes (each update's spawn table, local
 * space's instance motions, the emitters after plume_system_set_emitter)
 * is never written into a buffer that a dispatch issued earlier may still
 * read, unless a fence placed after that dispatch has signalled: NVIDIA's
 * driver (580) let an update in flight read the next update's table, so
 * that the same operations gave other particles from run to run
 * (notes/soak.md). The GL spy numbers every dispatch and the buffers on its
 * storage bindings, and counts each write into one of those buffers before
 * glFinish or a fence after the dispatch: llvmpipe, which never overlaps a
 * dispatch with what follows, shows the pattern that races elsewhere. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <epoxy/gl.h>

#include "gl_spy.h"
#include "particle_fixture.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

/* A system that uses every upload: two emitters, local space with a moving
 * placement and instances, a world with an event route. */
static plume_system_desc uploading_desc(uint32_t seed) {
    plume_system_desc d = busy_desc(seed);
    d.capacity = 1777;
    d.simulation_space = PLUME_SPACE_LOCAL;
    d.inherit_velocity = 0.5f;
    d.world.events[0] = (plume_event_route_desc){.trigger = PLUME_EVENT_DEATH, .count = 1, .target_emitter = 6};
    d.world.event_capacity = 500;
    return d;
}

static void test_uploads_never_rewrite_what_a_dispatch_in_flight_reads(void **state) {
    (void)state;
    if (compute_path_forced_off("no dispatches, no upload rings")) return;
    plume_context *context = fixture_context();
    uint32_t seed = test_random_u32();
    plume_system a = make_system(uploading_desc(seed)), b = make_system(uploading_desc(seed + 1));
    plume_instance_desc instances[3] = {{.enabled = true},
                                        {.enabled = true, .transform = {.position = {1, 0, 0}}},
                                        {.enabled = true, .transform = {.position = {0, 1, 0}}}};
    assert_int_equal(plume_system_set_instances(context, b, 0, 3, instances), PLUME_OK);
    mat4 view, projection;
    random_camera(view, projection);
    glFinish(); /* what creation did is done */
    spy_install();
    for (int step = 0; step < 9; ++step) {
        plume_transform moved = {.position = {0.05f * (float)step, 0, 0}};
        assert_int_equal(plume_system_set_transform(context, a, &moved, false), PLUME_OK);
        if (step % 3 == 1) {
            plume_emitter_desc emitter = uploading_desc(seed).emitters[0];
            emitter.rate = 300.0f + 50.0f * (float)step;
            assert_int_equal(plume_system_set_emitter(context, a, 0, &emitter), PLUME_OK);
        }
        plume_frame_desc frame = make_frame(test_random_float(0.01f, 0.05f), view, projection);
        assert_int_equal(plume_system_update(context, a, &frame), PLUME_OK);
        assert_int_equal(plume_system_update(context, b, &frame), PLUME_OK);
    }
    assert_int_equal(plume_system_prewarm(context, a, 0.5f), PLUME_OK); /* steps back to back */
    spy_remove();
    destroy_system(a);
    destroy_system(b);
    if (spy.rewrites_in_flight != 0)
        fail_msg("%ld writes into buffers that unfinished dispatches may read (the last into buffer %u, \"%s\")",
                 spy.rewrites_in_flight, spy.last_rewritten, spy.last_rewritten_label);
}

const struct CMUnitTest upload_rings_tests[] = {
    cmocka_unit_test_setup_teardown(test_uploads_never_rewrite_what_a_dispatch_in_flight_reads, fixture_setup,
                                    fixture_teardown),
};
const size_t upload_rings_test_count = sizeof upload_rings_tests / sizeof upload_rings_tests[0];
