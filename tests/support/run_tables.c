/* Merges test tables into one cmocka group. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "tests.h"

int run_test_tables(const char *group, const test_table *tables, size_t table_count, const char *filter) {
    size_t total = 0;
    for (size_t t = 0; t < table_count; ++t) total += *tables[t].count;
    struct CMUnitTest *all = malloc(sizeof *all * total);
    if (!all) return 1;
    size_t n = 0;
    for (size_t t = 0; t < table_count; ++t)
        for (size_t i = 0; i < *tables[t].count; ++i) all[n++] = tables[t].tests[i];
    if (filter) cmocka_set_test_filter(filter);
    int failed = _cmocka_run_group_tests(group, all, n, NULL, NULL);
    free(all);
    return failed ? 1 : 0;
}
