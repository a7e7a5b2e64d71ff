/* The lab's core entries (lab/plume_lab.h). Lab builds only. */
#ifdef PLUME_LAB
#include "plume_internal.h"
#include "plume_lab.h"

#include <stdio.h>
#include <string.h>

plume_result plume_lab_build_compute_program(const plume_context *context, const char *label, const char *source,
                                             const char *defines, uint32_t *out_program) {
    const char *const sources[] = {source}, *const names[] = {label};
    return plume_build_program_from_sources(plume_context_env(context), label, GL_COMPUTE_SHADER, sources, names, 1,
                                            defines ? defines : "", out_program);
}

uint64_t plume_lab_program_builds(const plume_context *context) {
    return plume_program_cache_builds(plume_context_programs(context));
}

void plume_lab_poison_new_buffers(plume_context *context, uint32_t seed) {
    if (context) plume_context_lab_env(context)->new_buffer_poison = seed;
}
/* The probe's setting: a mode letter ('f': glFinish, 'b':
 * glMemoryBarrier(GL_ALL_BARRIER_BITS)), ':' and comma-separated patterns,
 * each matched against a dispatch's source file or a sync point's name
 * ("all" matches everything). */
static char lab_sync_spec[256];

void plume_lab_sync(const char *spec) {
    snprintf(lab_sync_spec, sizeof lab_sync_spec, "%s", spec ? spec : "");
}

static void lab_sync_if_named(const char *name) {
    if (!lab_sync_spec[0] || lab_sync_spec[1] != ':') return;
    const char *p = lab_sync_spec + 2;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char pattern[64];
        snprintf(pattern, sizeof pattern, "%.*s", (int)(n < 63 ? n : 63), p);
        if (strcmp(pattern, "all") == 0 || (pattern[0] && strstr(name, pattern))) {
            if (lab_sync_spec[0] == 'f') glFinish();
            else glMemoryBarrier(GL_ALL_BARRIER_BITS);
            return;
        }
        p += n + (end ? 1 : 0);
    }
}

#undef glDispatchCompute
void plume_lab_dispatch_compute(unsigned x, unsigned y, unsigned z, const char *file) {
    epoxy_glDispatchCompute(x, y, z);
    lab_sync_if_named(file);
}

void plume_lab_sync_point(const char *where) { lab_sync_if_named(where); }
#else
/* ISO C wants something in a translation unit. */
typedef int core_lab_is_lab_only;
#endif
