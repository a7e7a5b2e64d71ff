/* Each test file's table; tests/main.c runs them all as one cmocka group. */
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
extern const struct CMUnitTest demo_tests[];
extern const size_t demo_test_count;

#endif
