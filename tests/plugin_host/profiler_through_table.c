/* tests/test_profiler.c's tests through the particle system (the public API),
 * their plume calls through the plugin table; the profiler's own tests need
 * the module's internals and run in plume_tests only. */
#include "through_table.h"

#include "../test_profiler.c"
