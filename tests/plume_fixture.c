#include "plume_fixture.h"

#include <stdio.h>

#include "test_env.h"

static plume_context *context;

plume_context *fixture_context(void) { return context; }

int fixture_setup(void **state) {
    test_setup(state);
    plume_context_desc desc = {.logger = test_logger()};
    return plume_context_create(&desc, &context) == PLUME_OK ? 0 : -1;
}

int fixture_teardown(void **state) {
    uint32_t left = 0;
    plume_context_list_gl_objects(context, NULL, 0, &left);
    if (left > 0) fprintf(stderr, "the test left objects owning %u GL objects alive in its context\n", left);
    plume_context_destroy(context);
    context = NULL;
    int result = test_teardown(state);
    return left > 0 ? -1 : result;
}
