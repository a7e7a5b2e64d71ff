#include "plume_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "plume/plume_sort.h"
#ifndef PLUME_TESTS_THROUGH_TABLE
#include "plume_lab.h"
#endif
#include "test_env.h"

static plume_context *context;

plume_context *fixture_context(void) { return context; }

/* Every buffer the module makes starts as seeded noise rather than the
 * driver's zeroes (llvmpipe zeroes new memory, NVIDIA does not): a pass that
 * reads what no pass wrote fails here, on every driver. */
static void poison_new_buffers(plume_context *fresh) {
#ifdef PLUME_TESTS_THROUGH_TABLE
    (void)fresh; /* the shipped library has no laboratory */
#else
    plume_lab_poison_new_buffers(fresh, (uint32_t)(test_seed() ^ test_seed() >> 32) | 1u);
#endif
}

int fixture_setup(void **state) {
    test_setup(state);
    plume_context_desc desc = {.logger = test_logger()};
    if (plume_context_create(&desc, &context) != PLUME_OK) return -1;
    poison_new_buffers(context);
    return 0;
}

bool fixture_depth_convention_changed;

int fixture_teardown(void **state) {
    /* A depth-convention test that failed midway leaves no reversed depth. */
    if (fixture_depth_convention_changed) {
        glClipControl(GL_LOWER_LEFT, GL_NEGATIVE_ONE_TO_ONE);
        glClearDepth(1.0);
        glDepthFunc(GL_LESS);
        fixture_depth_convention_changed = false;
    }
    uint32_t left = 0;
    plume_context_list_gl_objects(context, NULL, 0, &left);
    if (left > 0) fprintf(stderr, "the test left objects owning %u GL objects alive in its context\n", left);
    plume_context_destroy(context);
    context = NULL;
    int result = test_teardown(state);
    return left > 0 ? -1 : result;
}

plume_context *fixture_context_with_another_tag(uint64_t id) {
    plume_context_desc desc = {.logger = test_logger()};
    plume_sorter_desc probe_desc = {.capacity = 2};
    for (int attempt = 0; attempt < 8; ++attempt) {
        plume_context *other = NULL;
        assert_int_equal(plume_context_create(&desc, &other), PLUME_OK);
        poison_new_buffers(other);
        plume_sorter probe; /* any handle of the context shows its tag */
        assert_int_equal(plume_sorter_create(other, &probe_desc, &probe), PLUME_OK);
        assert_int_equal(plume_sorter_destroy(other, probe), PLUME_OK);
        if (probe.id >> 48 != id >> 48) return other;
        plume_context_destroy(other);
    }
    fail_msg("eight contexts in a row had the same tag");
    return NULL;
}

uint32_t fixture_destroy_context_checked(plume_context *doomed) {
    plume_gl_object objects[256];
    uint32_t count = 0;
    assert_int_equal(plume_context_list_gl_objects(doomed, objects, 256, &count), PLUME_OK);
    assert_true(count <= 256);
    plume_context_destroy(doomed);
    for (uint32_t i = 0; i < count; ++i)
        if (test_gl_object_alive(objects[i]))
            fail_msg("GL object %u (type 0x%04x) outlived its context", objects[i].name, objects[i].type);
    return count;
}
