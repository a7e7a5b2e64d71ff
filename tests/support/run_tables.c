/* Merges test tables into one cmocka group. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "test_platform.h"
#include "tests.h"
#include <string.h>

/* True when `name` matches one of the comma-separated globs of `list`. */
static int matches_any(const char *name, const char *list) {
    char glob[256];
    while (*list) {
        size_t length = strcspn(list, ",");
        if (length < sizeof glob) {
            memcpy(glob, list, length);
            glob[length] = '\0';
            if (test_glob_match(glob, name)) return 1;
        }
        list += length;
        if (*list == ',') ++list;
    }
    return 0;
}

int run_test_tables(const char *group, const test_table *tables, size_t table_count, const char *filter) {
    size_t total = 0;
    for (size_t t = 0; t < table_count; ++t) total += *tables[t].count;
    struct CMUnitTest *all = malloc(sizeof *all * total);
    if (!all) return 1;
    size_t n = 0;
    /* A list "a,b*,c" runs the tests matching any of its globs in one group
     * (one process, one GL context); a single glob is cmocka's filter. */
    bool list = filter && strchr(filter, ',');
    for (size_t t = 0; t < table_count; ++t)
        for (size_t i = 0; i < *tables[t].count; ++i)
            if (!list || matches_any(tables[t].tests[i].name, filter)) all[n++] = tables[t].tests[i];
    if (filter && !list) cmocka_set_test_filter(filter);
    int failed = _cmocka_run_group_tests(group, all, n, NULL, NULL);
    free(all);
    return failed ? 1 : 0;
}
