/* The test suites against the static library (plume_plugin_host runs the same
 * suites through the plugin table).
 * Usage: plume_tests [name-glob]   (cmocka's test filter, e.g. "*indirect*") */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "test_env.h"
#include "tests.h"

int main(int argc, char **argv) {
    const test_table tables[] = {
        {sort_tests, &sort_test_count},
        {particle_tests, &particle_test_count},
        {profiler_tests, &profiler_test_count},
        {context_tests, &context_test_count},
        {abi_tests, &abi_test_count},
        {culling_tests, &culling_test_count},
        {lowres_tests, &lowres_test_count},
        {host_state_tests, &host_state_test_count},
        {demo_tests, &demo_test_count},
    };
    test_env_init();
    return run_test_tables("plume", tables, sizeof tables / sizeof tables[0], argc > 1 ? argv[1] : NULL);
}
