/* Each test file's table; tests/main.c (static library) and
 * tests/plugin_host/main.c (plugin table) run them as one cmocka group. */
#ifndef PLUME_TESTS_H
#define PLUME_TESTS_H

#include <stddef.h>

struct CMUnitTest;

/* Every test file's table, in the order plume_tests runs them, each with 1
 * where plume_plugin_host also runs it through the plugin table (the files
 * that use the public API only, or compile their internal tests out there)
 * and 0 where it reaches into the module. X(name, through_table) declares
 * name_tests and name_test_count. */
#define PLUME_TEST_TABLES(X)                                                                                           \
    X(sort_order, 1)                                                                                                   \
    X(sort_api, 1)                                                                                                     \
    X(sort_fragment, 1)                                                                                                \
    X(particle_emission, 1)                                                                                            \
    X(particle_spawn, 1)                                                                                               \
    X(particle_order, 1)                                                                                               \
    X(particle_images, 1)                                                                                              \
    X(particle_descriptors, 1)                                                                                         \
    X(particle_system_api, 1)                                                                                          \
    X(particle_gl_state, 1)                                                                                            \
    X(particle_fragment, 0)                                                                                            \
    X(particle_prewarm_bounds, 1)                                                                                      \
    X(batch, 1)                                                                                                        \
    X(batch_live_list, 1)                                                                                              \
    X(particle_pool, 0)                                                                                                \
    X(profile_statistics, 0)                                                                                           \
    X(profile_ring, 0)                                                                                                 \
    X(profile_system, 1)                                                                                               \
    X(context, 1)                                                                                                      \
    X(no_context, 1)                                                                                                   \
    X(threads, 1)                                                                                                      \
    X(gl_answers, 0)                                                                                                   \
    X(abi, 1)                                                                                                          \
    X(shader, 0)                                                                                                       \
    X(culling, 1)                                                                                                      \
    X(lowres, 1)                                                                                                       \
    X(tiled, 1)                                                                                                        \
    X(tiled_entries, 1)                                                                                                \
    X(screen_memory, 0)                                                                                                \
    X(look, 1)                                                                                                         \
    X(self_shadow, 1)                                                                                                  \
    X(particle_lights, 1)                                                                                              \
    X(flipbook_motion, 1)                                                                                              \
    X(draw_group, 1)                                                                                                   \
    X(draw_group_tiled, 1)                                                                                             \
    X(draw_automatic, 1)                                                                                               \
    X(fill_probe, 1)                                                                                                   \
    X(program_cache, 0)                                                                                                \
    X(warm, 1)                                                                                                         \
    X(trails, 1)                                                                                                       \
    X(trails_tiled, 1)                                                                                                 \
    X(host_inputs, 1)                                                                                                  \
    X(host_depth, 1)                                                                                                   \
    X(host_state, 1)                                                                                                   \
    X(host_texture, 1)                                                                                                 \
    X(world_collisions, 1)                                                                                             \
    X(world_forces, 1)                                                                                                 \
    X(world_events, 1)                                                                                                 \
    X(world_descriptors, 1)                                                                                            \
    X(world_cpu_events, 1)                                                                                             \
    X(demo, 0)                                                                                                         \
    X(steady_state, 0)                                                                                                 \
    X(compositor_knobs, 0)                                                                                             \
    X(sprite_cover, 0)                                                                                                 \
    X(tiled_host_blend, 0)                                                                                             \
    X(effect_format, 0)                                                                                                \
    X(effect_fuzz, 0)                                                                                                  \
    X(effect_reload, 0)                                                                                                \
    X(effect_checks, 0)                                                                                                \
    X(sort_gles, 0)                                                                                                    \
    X(mesh_spin, 0)                                                                                                    \
    X(meshes, 1)                                                                                                       \
    X(effect_obj, 0)                                                                                                   \
    X(particle_gles, 0)                                                                                                \
    X(upload_rings, 0)                                                                                                 \
    X(mesh_draw_speedups, 0)                                                                                           \
    X(effect_meshes, 0)                                                                                                \
    X(mesh_lod, 0)                                                                                                     \
    X(mesh_compute, 0)                                                                                                 \
    X(mesh_compute_host, 0)                                                                                            \
    X(batch_draw, 1)                                                                                                   \
    X(batch_draw_table, 0)                                                                                             \
    X(batch_profile, 1)                                                                                                \
    X(trail_groups, 1)                                                                                                 \
    X(trail_subdivisions, 0)                                                                                           \
    X(effect_group, 0)

#define PLUME_DECLARE_TEST_TABLE(name, through_table)                                                                  \
    extern const struct CMUnitTest name##_tests[];                                                                     \
    extern const size_t name##_test_count;
PLUME_TEST_TABLES(PLUME_DECLARE_TEST_TABLE)

/* test_table initialisers: every table, or those run through the plugin. */
#define PLUME_TEST_TABLE_ENTRY(name, through_table) {name##_tests, &name##_test_count},
#define PLUME_PLUGIN_TABLE_ENTRY(name, through_table) PLUME_PLUGIN_TABLE_ENTRY_##through_table(name)
#define PLUME_PLUGIN_TABLE_ENTRY_1(name) {name##_tests, &name##_test_count},
#define PLUME_PLUGIN_TABLE_ENTRY_0(name)

typedef struct test_table {
    const struct CMUnitTest *tests;
    const size_t *count;
} test_table;

/* Runs the tables as one group named `group` (one summary at the end);
 * `filter` is cmocka's test-name glob, or NULL. Returns the exit status. */
int run_test_tables(const char *group, const test_table *tables, size_t table_count, const char *filter);

#endif
