/* Integration example: plume linked statically (pkg-config plume) or compiled
 * in from its sources; the plain functions are called by name.
 * The headless EGL context stands in for the engine's own GL context. */
#include <plume/plume_particles.h>
#include <plume/plume_sort.h>
#include <stdio.h>

#include "example_pairs.h"
#include "example_system.h"
#include "headless_gl.h"

int main(void) {
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "no GL context: %s\n", error);
        return 1;
    }
    plume_context *context = NULL;
    if (plume_context_create(NULL, &context) != PLUME_OK) return 1; /* defaults: stderr, malloc */
    plume_sorter_desc desc = {.capacity = 10000};
    plume_sorter sorter;
    if (plume_sorter_create(context, &desc, &sorter) != PLUME_OK) return 1;

    uint32_t count = 9999;
    GLuint pairs = example_pairs_create(count, 12345);
    plume_result result = plume_sort(context, sorter, pairs, count);
    bool sorted = result == PLUME_OK && example_pairs_sorted(pairs, count);
    printf("static: plume_sort -> %s, %u pairs %s\n", plume_result_string(result), count,
           sorted ? "sorted" : "NOT SORTED");

    glDeleteBuffers(1, &pairs);
    plume_sorter_destroy(context, sorter);

    /* A particle system: a few frames (an engine also draws after each
     * update, into its framebuffer), then the live count read back. */
    plume_system_desc system_desc = example_system_desc();
    plume_system system;
    if (plume_system_create(context, &system_desc, &system) != PLUME_OK) return 1;
    plume_frame_desc frame = example_frame();
    result = PLUME_OK;
    for (int k = 0; k < 10 && result == PLUME_OK; ++k) result = plume_system_update(context, system, &frame);
    plume_readback counts = {0};
    if (result == PLUME_OK) result = plume_system_read_back(context, system, &counts);
    bool alive = result == PLUME_OK && counts.live_count == EXAMPLE_BURST;
    printf("static: plume_system_update -> %s, %u particles alive\n", plume_result_string(result), counts.live_count);
    plume_system_destroy(context, system);
    plume_context_destroy(context);
    headless_gl_destroy(&gl);
    return sorted && alive ? 0 : 1;
}
