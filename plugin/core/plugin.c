/* The plugin entry point: version negotiation and the function table
 * (plume_plugin.h). The table is constant data, not state. */
#include "plume/plume_plugin.h"
#include "plume_internal.h"

static const plume_api api_table = {
    .size = sizeof(plume_api),
    .version_major = PLUME_ABI_MAJOR,
    .version_minor = PLUME_ABI_MINOR,
    /* since 1.0 */
    .result_string = plume_result_string,
    .context_create = plume_context_create,
    .context_destroy = plume_context_destroy,
    .context_list_gl_objects = plume_context_list_gl_objects,
    .sorter_create = plume_sorter_create,
    .sorter_destroy = plume_sorter_destroy,
    .sorter_get_desc = plume_sorter_get_desc,
    .sort = plume_sort,
    .sort_indirect = plume_sort_indirect,
    .sort_indirect_bounded = plume_sort_indirect_bounded,
    .sorter_pass_count = plume_sorter_pass_count,
    .depth_key = plume_depth_key,
    .system_create = plume_system_create,
    .system_destroy = plume_system_destroy,
    .system_get_desc = plume_system_get_desc,
    .system_update = plume_system_update,
    .system_draw = plume_system_draw,
    .system_reset = plume_system_reset,
    .system_set_emitter = plume_system_set_emitter,
    .system_set_forces = plume_system_set_forces,
    .system_read_back = plume_system_read_back,
    .system_set_profiling = plume_system_set_profiling,
    .system_get_profile = plume_system_get_profile,
    .system_get_frame_profiles = plume_system_get_frame_profiles,
};

plume_result plume_get_api(uint32_t requested_major, uint32_t requested_minor, const plume_logger *logger,
                           const plume_api **out_api) {
    plume_env env;
    plume_env_init(&env, logger, NULL);
    if (out_api) *out_api = NULL;
    if (!out_api) {
        plume_log(&env, PLUME_LOG_ERROR, "plume_get_api: out_api must not be NULL");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (requested_major != PLUME_ABI_MAJOR) {
        plume_log(&env, PLUME_LOG_ERROR,
                  "plume_get_api: the host asks for plume ABI %u.%u; this library implements %d.%d, another major "
                  "version (build the host against this library's headers, or load libplume.so.%u)",
                  requested_major, requested_minor, PLUME_ABI_MAJOR, PLUME_ABI_MINOR, requested_major);
        return PLUME_ERROR_VERSION;
    }
    if (requested_minor > PLUME_ABI_MINOR) {
        plume_log(&env, PLUME_LOG_ERROR,
                  "plume_get_api: the host asks for plume ABI %u.%u; this library implements %d.%d, which lacks "
                  "what %u.%u added (update the library, or ask for %d.%d and check PLUME_API_HAS)",
                  requested_major, requested_minor, PLUME_ABI_MAJOR, PLUME_ABI_MINOR, requested_major,
                  requested_minor, PLUME_ABI_MAJOR, PLUME_ABI_MINOR);
        return PLUME_ERROR_VERSION;
    }
    *out_api = &api_table;
    return PLUME_OK;
}
