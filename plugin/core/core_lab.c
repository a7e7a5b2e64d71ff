/* The lab's core entries (lab/plume_lab.h). Lab builds only. */
#ifdef PLUME_LAB
#include "plume_internal.h"
#include "plume_lab.h"

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
#else
/* ISO C wants something in a translation unit. */
typedef int core_lab_is_lab_only;
#endif
