/* Integration example: plume loaded at run time. Compiled with the headers
 * only (pkg-config --cflags plume) and -ldl; no plume code is linked.
 * usage: load_plugin PATH_OF_libplume.so.1 */
#include <dlfcn.h>
#include <plume/plume_plugin.h>
#include <stdio.h>

#include "example_pairs.h"
#include "example_system.h"
#include "headless_gl.h"

static void log_to_stderr(plume_log_level level, const char *message, void *user) {
    fprintf(stderr, "[%s] plume (level %d): %s\n", (const char *)user, (int)level, message);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH_OF_libplume.so.1\n", argv[0]);
        return 2;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
    plume_get_api_fn get_api;
    *(void **)&get_api = dlsym(library, PLUME_GET_API_SYMBOL);
    plume_logger logger = {log_to_stderr, "example host"};
    const plume_api *plume = NULL;
    if (!get_api || get_api(PLUME_ABI_MAJOR, PLUME_ABI_MINOR, &logger, &plume) != PLUME_OK) return 1;
    /* A newer major is refused, with the reason sent to the logger. */
    const plume_api *newer = NULL;
    if (get_api(PLUME_ABI_MAJOR + 1, 0, &logger, &newer) != PLUME_ERROR_VERSION || newer) return 1;

    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "no GL context: %s\n", error);
        return 1;
    }
    plume_context_desc context_desc = {.logger = logger};
    plume_context *context = NULL;
    if (plume->context_create(&context_desc, &context) != PLUME_OK) return 1;
    plume_sorter_desc desc = {.capacity = 10000};
    plume_sorter sorter;
    if (plume->sorter_create(context, &desc, &sorter) != PLUME_OK) return 1;

    uint32_t count = 9999;
    GLuint pairs = example_pairs_create(count, 54321);
    plume_result result = plume->sort(context, sorter, pairs, count);
    bool sorted = result == PLUME_OK && example_pairs_sorted(pairs, count);
    printf("plugin %u.%u: sort -> %s, %u pairs %s\n", plume->version_major, plume->version_minor,
           plume->result_string(result), count, sorted ? "sorted" : "NOT SORTED");

    glDeleteBuffers(1, &pairs);
    plume->sorter_destroy(context, sorter);
    /* The handle is stale now: refused with a message, not a crash. */
    bool refused = plume->sort(context, sorter, pairs, count) == PLUME_ERROR_INVALID_ARGUMENT;

    /* Two particle systems, a few frames each (an engine also draws after
     * each update, into its framebuffer), then their live counts read back. */
    plume_system_desc system_desc = example_system_desc();
    plume_system systems[2];
    for (int i = 0; i < 2; ++i)
        if (plume->system_create(context, &system_desc, &systems[i]) != PLUME_OK) return 1;
    plume_frame_desc frame = example_frame();
    result = PLUME_OK;
    for (int k = 0; k < 10 && result == PLUME_OK; ++k)
        for (int i = 0; i < 2 && result == PLUME_OK; ++i) result = plume->system_update(context, systems[i], &frame);
    bool alive = result == PLUME_OK;
    for (int i = 0; i < 2; ++i) {
        plume_readback counts = {0};
        alive = alive && plume->system_read_back(context, systems[i], &counts) == PLUME_OK &&
                counts.live_count == EXAMPLE_BURST;
        plume->system_destroy(context, systems[i]);
    }
    printf("plugin: two systems updated -> %s, %s\n", plume->result_string(result),
           alive ? "every particle alive" : "WRONG live counts");
    plume->context_destroy(context);
    headless_gl_destroy(&gl);
    dlclose(library);
    return sorted && refused && alive ? 0 : 1;
}
