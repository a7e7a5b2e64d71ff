/* The test suites against the static library (plume_plugin_host runs the same
 * suites through the plugin table).
 * Usage: plume_tests [name-glob]   (cmocka's test filter, e.g. "*indirect*"),
 *        plume_tests glob,glob,...  (the tests matching any of them) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "test_env.h"
#include "tests.h"

int main(int argc, char **argv) {
    const test_table tables[] = {PLUME_TEST_TABLES(PLUME_TEST_TABLE_ENTRY)};
    test_env_init();
    return run_test_tables("plume", tables, sizeof tables / sizeof tables[0], argc > 1 ? argv[1] : NULL);
}
