/* Each test file's table; tests/main.c (static library) and
 * tests/plugin_host/main.c (plugin table) run them as one cmocka group. */
#ifndef PLUME_TESTS_H
#define PLUME_TESTS_H

#include <stddef.h>

struct CMUnitTest;
extern const struct CMUnitTest sort_tests[];
extern const size_t sort_test_count;
extern const struct CMUnitTest particle_tests[];
extern const size_t particle_test_count;
extern const struct CMUnitTest profiler_tests[];
extern const size_t profiler_test_count;
extern const struct CMUnitTest context_tests[];
extern const size_t context_test_count;
extern const struct CMUnitTest abi_tests[];
extern const size_t abi_test_count;
extern const struct CMUnitTest lowres_tests[];
extern const size_t lowres_test_count;
extern const struct CMUnitTest culling_tests[];
extern const size_t culling_test_count;
extern const struct CMUnitTest host_state_tests[];
extern const size_t host_state_test_count;
extern const struct CMUnitTest demo_tests[];
extern const size_t demo_test_count;

typedef struct test_table {
    const struct CMUnitTest *tests;
    const size_t *count;
} test_table;

/* Runs the tables as one group named `group` (one summary at the end);
 * `filter` is cmocka's test-name glob, or NULL. Returns the exit status. */
int run_test_tables(const char *group, const test_table *tables, size_t table_count, const char *filter);

#endif
