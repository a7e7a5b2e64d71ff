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

/* PLUME_TEST_SHARD="i/n" (0 <= i < n): this process runs the i-th of n
 * shares of the selected tests, every n-th from the i-th, so n processes
 * share the suite (tools/run.sh, tests/run_together.sh); neighbouring
 * tests, often of the same weight, go to different processes. 0 when the
 * variable is unset, 1 when it names a share, -1 (reported) when it is
 * malformed. */
static int test_shard(size_t *index, size_t *count) {
    const char *shard = getenv("PLUME_TEST_SHARD");
    if (!shard || !*shard) return 0;
    char *end = NULL;
    unsigned long i = strtoul(shard, &end, 10), n = 0;
    if (end && *end == '/') n = strtoul(end + 1, &end, 10);
    if (!end || *end || n == 0 || i >= n) {
        print_error("PLUME_TEST_SHARD=%s is not i/n with 0 <= i < n\n", shard);
        return -1;
    }
    *index = i;
    *count = n;
    return 1;
}

int run_test_tables(const char *group, const test_table *tables, size_t table_count, const char *filter) {
    size_t shard = 0, shards = 1;
    int sharded = test_shard(&shard, &shards);
    if (sharded < 0) return 1;
    size_t total = 0;
    for (size_t t = 0; t < table_count; ++t) total += *tables[t].count;
    struct CMUnitTest *all = malloc(sizeof *all * total);
    if (!all) return 1;
    size_t n = 0, selected = 0;
    /* A list "a,b*,c" runs the tests matching any of its globs in one group
     * (one process, one GL context); a single glob is cmocka's filter,
     * unless the tests are sharded (the shares are counted over the tests
     * the glob selects). */
    bool list = filter && (strchr(filter, ',') || sharded);
    for (size_t t = 0; t < table_count; ++t)
        for (size_t i = 0; i < *tables[t].count; ++i)
            if (!list || matches_any(tables[t].tests[i].name, filter))
                if (selected++ % shards == shard) all[n++] = tables[t].tests[i];
    if (filter && !list) cmocka_set_test_filter(filter);
    int failed = _cmocka_run_group_tests(group, all, n, NULL, NULL);
    free(all);
    return failed ? 1 : 0;
}
