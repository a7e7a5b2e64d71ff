/* plume_plugin_host: a stand-in engine that loads libplume.so with dlopen,
 * negotiates the ABI version and runs the test suites through the table it
 * gets (the suites' files are compiled here a second time, see
 * through_table.h). It links no plume code.
 * Usage: plume_plugin_host [name-glob]
 * The library: $PLUME_PLUGIN, else ../lib/libplume.so beside this program. */
#define _DEFAULT_SOURCE
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "plume/plume_plugin.h"

#include "test_env.h"
#include "tests.h"

const plume_api *host_api;
plume_get_api_fn host_get_api;
void *host_library;

static void library_path(char *path, size_t size) {
    const char *chosen = getenv("PLUME_PLUGIN");
    if (chosen) {
        snprintf(path, size, "%s", chosen);
        return;
    }
    char program[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
    program[length > 0 ? length : 0] = '\0';
    snprintf(path, size, "%s/../lib/libplume.so", length > 0 ? dirname(program) : ".");
}

int main(int argc, char **argv) {
    char path[PATH_MAX + 32];
    library_path(path, sizeof path);
    host_library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!host_library) {
        fprintf(stderr, "cannot load the plugin: %s\n", dlerror());
        return 1;
    }
    /* POSIX's way to turn dlsym's object pointer into a function pointer. */
    *(void **)&host_get_api = dlsym(host_library, PLUME_GET_API_SYMBOL);
    if (!host_get_api) {
        fprintf(stderr, "%s has no %s: %s\n", path, PLUME_GET_API_SYMBOL, dlerror());
        return 1;
    }
    plume_result result = host_get_api(PLUME_ABI_MAJOR, PLUME_ABI_MINOR, NULL, &host_api);
    if (result != PLUME_OK) {
        fprintf(stderr, "%s refused ABI %d.%d\n", path, PLUME_ABI_MAJOR, PLUME_ABI_MINOR);
        return 1;
    }
    printf("plugin: %s, ABI %u.%u, table of %u bytes\n", path, host_api->version_major, host_api->version_minor,
           host_api->size);
    test_env_init();
    const test_table tables[] = {PLUME_TEST_TABLES(PLUME_PLUGIN_TABLE_ENTRY)};
    int status = run_test_tables("plume through the plugin table", tables, sizeof tables / sizeof tables[0],
                                 argc > 1 ? argv[1] : NULL);
    dlclose(host_library);
    return status;
}
