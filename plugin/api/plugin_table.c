/* The plugin entry point: version negotiation and the function tables
 * (plume_plugin.h). The tables are constant data, not state. The top floor of
 * plugin/: the one file that names every part's public functions. */
#include <string.h>

#include "core/plume_internal.h"
#include "plume/plume_plugin.h"

/* ---- Hosts built against an older minor ------------------------------------
 * Their structs end before the first field a later minor added: the library
 * reads and writes only that much of them, through these adapters in the
 * table such a host is given, and keeps the older minor's behaviour where a
 * later one changed a default. */

/* Bytes of `type` a host has up to `first_new_field` (what it reads and
 * writes); its stride in arrays rounds that up to the type's alignment. */
#define PREFIX(type, first_new_field) offsetof(type, first_new_field)
#define STRIDE(type, first_new_field) \
    ((PREFIX(type, first_new_field) + _Alignof(type) - 1) / _Alignof(type) * _Alignof(type))

/* Every older host's zero draw_path is the raster path (1.3 made zero
 * automatic). */
static plume_frame_desc frame_from_prefix(const plume_frame_desc *frame, size_t prefix) {
    plume_frame_desc full = {0};
    if (frame) memcpy(&full, frame, prefix);
    if (full.draw_path == PLUME_DRAW_PATH_DEFAULT) full.draw_path = PLUME_DRAW_PATH_RASTER;
    return full;
}

static plume_result get_profile_prefix(const plume_context *context, plume_system system, plume_profile *out,
                                       size_t prefix) {
    plume_profile full;
    plume_result result = plume_system_get_profile(context, system, out ? &full : NULL);
    if (out) memcpy(out, &full, prefix);
    return result;
}

static uint32_t get_frame_profiles_prefix(const plume_context *context, plume_system system, uint64_t first_frame,
                                          plume_frame_profile *out, uint32_t max, size_t prefix, size_t stride) {
    if (!out) return plume_system_get_frame_profiles(context, system, first_frame, NULL, max);
    uint32_t written = 0;
    plume_frame_profile one;
    while (written < max && plume_system_get_frame_profiles(context, system, first_frame, &one, 1) == 1) {
        memcpy((char *)out + written * stride, &one, prefix);
        first_frame = one.frame + 1;
        ++written;
    }
    return written;
}

/* 1.0: no culling (its projection was only "reserved for culling"). */
static plume_frame_desc frame_from_1_0(const plume_frame_desc *frame) {
    plume_frame_desc full = frame_from_prefix(frame, PREFIX(plume_frame_desc, disable_culling));
    full.disable_culling = true;
    return full;
}

static plume_result system_update_1_0(plume_context *context, plume_system system, const plume_frame_desc *frame) {
    plume_frame_desc full = frame_from_1_0(frame);
    return plume_system_update(context, system, frame ? &full : NULL);
}

static plume_result system_draw_1_0(plume_context *context, plume_system system, const plume_frame_desc *frame) {
    plume_frame_desc full = frame_from_1_0(frame);
    return plume_system_draw(context, system, frame ? &full : NULL);
}

static plume_result system_read_back_1_0(plume_context *context, plume_system system, plume_readback *readback) {
    plume_readback full = {0};
    if (readback) memcpy(&full, readback, PREFIX(plume_readback, drawn_count));
    plume_result result = plume_system_read_back(context, system, readback ? &full : NULL);
    if (readback) memcpy(readback, &full, PREFIX(plume_readback, drawn_count));
    return result;
}

static plume_result system_get_profile_1_0(const plume_context *context, plume_system system, plume_profile *out) {
    return get_profile_prefix(context, system, out, PREFIX(plume_profile, drawn_count));
}

static uint32_t system_get_frame_profiles_1_0(const plume_context *context, plume_system system,
                                              uint64_t first_frame, plume_frame_profile *out, uint32_t max) {
    return get_frame_profiles_prefix(context, system, first_frame, out, max, PREFIX(plume_frame_profile, drawn_count),
                                     STRIDE(plume_frame_profile, drawn_count));
}

/* 1.1: the raster draw path. */
static plume_result system_update_1_1(plume_context *context, plume_system system, const plume_frame_desc *frame) {
    plume_frame_desc full = frame_from_prefix(frame, PREFIX(plume_frame_desc, draw_path));
    return plume_system_update(context, system, frame ? &full : NULL);
}

static plume_result system_draw_1_1(plume_context *context, plume_system system, const plume_frame_desc *frame) {
    plume_frame_desc full = frame_from_prefix(frame, PREFIX(plume_frame_desc, draw_path));
    return plume_system_draw(context, system, frame ? &full : NULL);
}

static plume_result system_get_profile_1_1(const plume_context *context, plume_system system, plume_profile *out) {
    return get_profile_prefix(context, system, out, PREFIX(plume_profile, tiled_entries));
}

static uint32_t system_get_frame_profiles_1_1(const plume_context *context, plume_system system,
                                              uint64_t first_frame, plume_frame_profile *out, uint32_t max) {
    return get_frame_profiles_prefix(context, system, first_frame, out, max,
                                     PREFIX(plume_frame_profile, tiled_entries),
                                     STRIDE(plume_frame_profile, tiled_entries));
}

/* 1.2: the frame without draw_quality, zero the raster path; the profile
 * without draw_path and draw_resolution. */
static plume_result system_update_1_2(plume_context *context, plume_system system, const plume_frame_desc *frame) {
    plume_frame_desc full = frame_from_prefix(frame, PREFIX(plume_frame_desc, draw_quality));
    return plume_system_update(context, system, frame ? &full : NULL);
}

static plume_result system_draw_1_2(plume_context *context, plume_system system, const plume_frame_desc *frame) {
    plume_frame_desc full = frame_from_prefix(frame, PREFIX(plume_frame_desc, draw_quality));
    return plume_system_draw(context, system, frame ? &full : NULL);
}

static plume_result draw_group_draw_1_2(plume_context *context, plume_draw_group group,
                                        const plume_frame_desc *frame) {
    plume_frame_desc full = frame_from_prefix(frame, PREFIX(plume_frame_desc, draw_quality));
    return plume_draw_group_draw(context, group, frame ? &full : NULL);
}

static plume_result system_get_profile_1_2(const plume_context *context, plume_system system, plume_profile *out) {
    return get_profile_prefix(context, system, out, PREFIX(plume_profile, draw_path));
}

static plume_result draw_group_get_profile_1_2(const plume_context *context, plume_draw_group group,
                                               plume_profile *out) {
    plume_profile full;
    plume_result result = plume_draw_group_get_profile(context, group, out ? &full : NULL);
    if (out) memcpy(out, &full, PREFIX(plume_profile, draw_path));
    return result;
}

/* ---- Hosts built before 1.2 ----------------------------------------------
 * Their plume_sorter_desc ends before algorithm: the library reads and writes
 * only that much of it, and their sorters take the defaults (automatic, 32
 * key bits, the path automatic). */

static plume_result sorter_create_before_1_2(plume_context *context, const plume_sorter_desc *desc,
                                             plume_sorter *out_sorter) {
    plume_sorter_desc full = {0};
    if (desc) memcpy(&full, desc, PREFIX(plume_sorter_desc, algorithm));
    return plume_sorter_create(context, desc ? &full : NULL, out_sorter);
}

static plume_result sorter_get_desc_before_1_2(const plume_context *context, plume_sorter sorter,
                                               plume_sorter_desc *out_desc) {
    plume_sorter_desc full;
    plume_result result = plume_sorter_get_desc(context, sorter, out_desc ? &full : NULL);
    if (out_desc) memcpy(out_desc, &full, PREFIX(plume_sorter_desc, algorithm));
    return result;
}

/* A host's plume_system_desc of `prefix` bytes over `full` (the fields it
 * lacks: their defaults for its minor), and read back at that size. */
static plume_result system_create_prefix(plume_context *context, const plume_system_desc *desc,
                                         plume_system *out_system, plume_system_desc full, size_t prefix) {
    if (desc) memcpy(&full, desc, prefix);
    return plume_system_create(context, desc ? &full : NULL, out_system);
}

static plume_result system_get_desc_prefix(const plume_context *context, plume_system system,
                                           plume_system_desc *out_desc, size_t prefix) {
    plume_system_desc full;
    plume_result result = plume_system_get_desc(context, system, out_desc ? &full : NULL);
    if (out_desc) memcpy(out_desc, &full, prefix);
    return result;
}

/* 1.0 and 1.1: plume_system_desc ends before blend_mode (the look): their
 * systems take its defaults (premultiplied, camera-facing, view depth,
 * unlit; no world, the path automatic) but sort by the whole key, as they
 * did. */
static plume_result system_create_before_1_2(plume_context *context, const plume_system_desc *desc,
                                             plume_system *out_system) {
    return system_create_prefix(context, desc, out_system, (plume_system_desc){.sort_key_bits = 32},
                                PREFIX(plume_system_desc, blend_mode));
}

static plume_result system_get_desc_before_1_2(const plume_context *context, plume_system system,
                                               plume_system_desc *out_desc) {
    return system_get_desc_prefix(context, system, out_desc, PREFIX(plume_system_desc, blend_mode));
}

/* 1.2: plume_system_desc ends before prewarm_time (1.3's fields, each
 * zero by default, follow it). */
static plume_result system_create_1_2(plume_context *context, const plume_system_desc *desc, plume_system *out_system) {
    return system_create_prefix(context, desc, out_system, (plume_system_desc){0},
                                PREFIX(plume_system_desc, prewarm_time));
}

static plume_result system_get_desc_1_2(const plume_context *context, plume_system system,
                                        plume_system_desc *out_desc) {
    return system_get_desc_prefix(context, system, out_desc, PREFIX(plume_system_desc, prewarm_time));
}

/* The 1.0 functions whose arguments every minor reads alike. */
#define API_1_0_FUNCTIONS \
    .result_string = plume_result_string, .context_create = plume_context_create, \
    .context_destroy = plume_context_destroy, .context_list_gl_objects = plume_context_list_gl_objects, \
    .sorter_destroy = plume_sorter_destroy, .sort = plume_sort, .sort_indirect = plume_sort_indirect, \
    .sort_indirect_bounded = plume_sort_indirect_bounded, .sorter_pass_count = plume_sorter_pass_count, \
    .depth_key = plume_depth_key, .system_destroy = plume_system_destroy, .system_reset = plume_system_reset, \
    .system_set_emitter = plume_system_set_emitter, .system_set_forces = plume_system_set_forces, \
    .system_set_profiling = plume_system_set_profiling

/* For hosts that asked for 1.0. */
static const plume_api api_table_1_0 = {
    .size = sizeof(plume_api),
    .version_major = PLUME_ABI_MAJOR,
    .version_minor = PLUME_ABI_MINOR,
    API_1_0_FUNCTIONS,
    .sorter_create = sorter_create_before_1_2,
    .sorter_get_desc = sorter_get_desc_before_1_2,
    .system_create = system_create_before_1_2,
    .system_get_desc = system_get_desc_before_1_2,
    .system_update = system_update_1_0,
    .system_draw = system_draw_1_0,
    .system_read_back = system_read_back_1_0,
    .system_get_profile = system_get_profile_1_0,
    .system_get_frame_profiles = system_get_frame_profiles_1_0,
};

/* For hosts that asked for 1.1. */
static const plume_api api_table_1_1 = {
    .size = sizeof(plume_api),
    .version_major = PLUME_ABI_MAJOR,
    .version_minor = PLUME_ABI_MINOR,
    API_1_0_FUNCTIONS,
    .sorter_create = sorter_create_before_1_2,
    .sorter_get_desc = sorter_get_desc_before_1_2,
    .system_create = system_create_before_1_2,
    .system_get_desc = system_get_desc_before_1_2,
    .system_update = system_update_1_1,
    .system_draw = system_draw_1_1,
    .system_read_back = plume_system_read_back,
    .system_get_profile = system_get_profile_1_1,
    .system_get_frame_profiles = system_get_frame_profiles_1_1,
};

/* The functions hosts of 1.2 on get alike (a 1.2 host calls none of those added later). */
#define API_1_2_FUNCTIONS \
    .system_read_back = plume_system_read_back, \
    .system_get_frame_profiles = plume_system_get_frame_profiles, \
    .sorter_create = plume_sorter_create, \
    .sorter_get_desc = plume_sorter_get_desc, \
    .sorter_algorithm_for = plume_sorter_algorithm_for, \
    .system_get_sort_algorithm = plume_system_get_sort_algorithm, \
    .system_set_world = plume_system_set_world, \
    .draw_group_create = plume_draw_group_create, \
    .draw_group_destroy = plume_draw_group_destroy, \
    .draw_group_read_back = plume_draw_group_read_back, \
    .sort_texture = plume_sort_texture, \
    .draw_group_set_profiling = plume_draw_group_set_profiling, \
    .system_desc_check = plume_system_desc_check, \
    .system_set_tiled_options = plume_system_set_tiled_options, \
    .system_prewarm = plume_system_prewarm, \
    .system_get_bounds = plume_system_get_bounds, \
    .system_desc_bounds = plume_system_desc_bounds, \
    .system_poll_events = plume_system_poll_events, \
    .system_emit = plume_system_emit, \
    .system_set_transform = plume_system_set_transform, \
    .system_set_instances = plume_system_set_instances, \
    .context_warm_programs = plume_context_warm_programs, \
    .batch_update = plume_batch_update, \
    .batch_draw = plume_batch_draw, \
    .system_write_lights = plume_system_write_lights, \
    .batch_set_profiling = plume_batch_set_profiling, \
    .batch_get_profile = plume_batch_get_profile

/* For hosts that asked for 1.2. */
static const plume_api api_table_1_2 = {
    .size = sizeof(plume_api),
    .version_major = PLUME_ABI_MAJOR,
    .version_minor = PLUME_ABI_MINOR,
    API_1_0_FUNCTIONS,
    API_1_2_FUNCTIONS,
    .system_create = system_create_1_2,
    .system_get_desc = system_get_desc_1_2,
    .system_update = system_update_1_2,
    .system_draw = system_draw_1_2,
    .system_get_profile = system_get_profile_1_2,
    .draw_group_draw = draw_group_draw_1_2,
    .draw_group_get_profile = draw_group_get_profile_1_2,
};

/* The current table. */
static const plume_api api_table = {
    .size = sizeof(plume_api),
    .version_major = PLUME_ABI_MAJOR,
    .version_minor = PLUME_ABI_MINOR,
    API_1_0_FUNCTIONS,
    API_1_2_FUNCTIONS,
    .system_create = plume_system_create,
    .system_get_desc = plume_system_get_desc,
    .system_update = plume_system_update,
    .system_draw = plume_system_draw,
    .system_get_profile = plume_system_get_profile,
    .draw_group_draw = plume_draw_group_draw,
    .draw_group_get_profile = plume_draw_group_get_profile,
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
    *out_api = requested_minor == 0   ? &api_table_1_0
               : requested_minor == 1 ? &api_table_1_1
               : requested_minor == 2 ? &api_table_1_2
                                      : &api_table;
    return PLUME_OK;
}
