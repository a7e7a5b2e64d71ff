/* Runs every test table as one cmocka group, so the run ends with one summary.
 * Usage: plume_tests [name-glob]   (cmocka's test filter, e.g. "*indirect*") */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_env.h"
#include "tests.h"

typedef struct test_table {
    const struct CMUnitTest *tests;
    const size_t *count;
} test_table;

int main(int argc, char **argv) {
    const test_table tables[] = {{sort_tests, &sort_test_count},
                                 {particle_tests, &particle_test_count},
                                 {profiler_tests, &profiler_test_count},
                                 {demo_tests, &demo_test_count}};
    size_t total = 0;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; ++t) total += *tables[t].count;
    struct CMUnitTest *all = malloc(sizeof *all * total);
    if (!all) return 1;
    size_t n = 0;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; ++t)
        for (size_t i = 0; i < *tables[t].count; ++i) all[n++] = tables[t].tests[i];
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    test_env_init();
    int failed = _cmocka_run_group_tests("plume", all, n, NULL, NULL);
    free(all);
    return failed ? 1 : 0;
}
