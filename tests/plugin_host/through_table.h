/* Included by plume_plugin_host before a test file, so that the file's plume
 * calls go through the table the host got from libplume.so: the same test
 * bodies run once against the static library (plume_tests) and once through
 * the plugin (cglm's trick). The host links no plume code, so a call missing
 * from this list fails to link instead of silently testing something else. */
#ifndef PLUME_THROUGH_TABLE_H
#define PLUME_THROUGH_TABLE_H

#include "plume/plume_plugin.h"

#define PLUME_TESTS_THROUGH_TABLE 1

/* Set by main() before any test runs. */
extern const plume_api *host_api;
extern plume_get_api_fn host_get_api;

#define plume_get_api host_get_api
#define plume_result_string host_api->result_string
#define plume_context_create host_api->context_create
#define plume_context_destroy host_api->context_destroy
#define plume_context_list_gl_objects host_api->context_list_gl_objects
#define plume_sorter_create host_api->sorter_create
#define plume_sorter_destroy host_api->sorter_destroy
#define plume_sorter_get_desc host_api->sorter_get_desc
#define plume_sort host_api->sort
#define plume_sort_indirect host_api->sort_indirect
#define plume_sort_indirect_bounded host_api->sort_indirect_bounded
#define plume_sort_texture host_api->sort_texture
#define plume_sorter_pass_count host_api->sorter_pass_count
#define plume_depth_key host_api->depth_key
#define plume_system_create host_api->system_create
#define plume_system_destroy host_api->system_destroy
#define plume_system_get_desc host_api->system_get_desc
#define plume_system_update host_api->system_update
#define plume_system_draw host_api->system_draw
#define plume_system_reset host_api->system_reset
#define plume_system_set_emitter host_api->system_set_emitter
#define plume_system_set_forces host_api->system_set_forces
#define plume_system_read_back host_api->system_read_back
#define plume_system_set_profiling host_api->system_set_profiling
#define plume_system_get_profile host_api->system_get_profile
#define plume_system_get_frame_profiles host_api->system_get_frame_profiles
#define plume_sorter_algorithm_for host_api->sorter_algorithm_for
#define plume_system_get_sort_algorithm host_api->system_get_sort_algorithm
#define plume_system_set_world host_api->system_set_world
#define plume_draw_group_create host_api->draw_group_create
#define plume_draw_group_destroy host_api->draw_group_destroy
#define plume_draw_group_draw host_api->draw_group_draw
#define plume_draw_group_read_back host_api->draw_group_read_back
#define plume_draw_group_set_profiling host_api->draw_group_set_profiling
#define plume_draw_group_get_profile host_api->draw_group_get_profile
#define plume_system_desc_check host_api->system_desc_check
#define plume_system_set_tiled_options host_api->system_set_tiled_options
#define plume_system_prewarm host_api->system_prewarm
#define plume_system_get_bounds host_api->system_get_bounds
#define plume_system_desc_bounds host_api->system_desc_bounds
#define plume_system_poll_events host_api->system_poll_events
#define plume_system_emit host_api->system_emit
#define plume_system_set_transform host_api->system_set_transform
#define plume_system_set_instances host_api->system_set_instances
#define plume_context_warm_programs host_api->context_warm_programs
#define plume_batch_update host_api->batch_update
#define plume_batch_draw host_api->batch_draw
#define plume_batch_set_profiling host_api->batch_set_profiling
#define plume_batch_get_profile host_api->batch_get_profile
#define plume_system_write_lights host_api->system_write_lights

#endif
