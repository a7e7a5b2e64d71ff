/* The plugin ABI: version negotiation, the table's layout, and (in
 * plume_plugin_host, which compiles this file again with plume_get_api being
 * the function dlsym found) that the shared library exports nothing else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plume/plume_plugin.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

#ifdef PLUME_TESTS_THROUGH_TABLE
#include <dlfcn.h>
#endif

static const plume_api *granted_api(uint32_t major, uint32_t minor) {
    plume_logger logger = test_logger();
    const plume_api *api = NULL;
    assert_int_equal(plume_get_api(major, minor, &logger, &api), PLUME_OK);
    assert_non_null(api);
    return api;
}

static void assert_refused(uint32_t major, uint32_t minor, const char *asked, const char *reason) {
    plume_logger logger = test_logger();
    const plume_api *api = (const plume_api *)&logger; /* poison: a refusal must clear it */
    int errors_before = test_log_error_count();
    assert_int_equal(plume_get_api(major, minor, &logger, &api), PLUME_ERROR_VERSION);
    assert_null(api);
    assert_int_equal(test_log_error_count(), errors_before + 1);
    assert_true(test_log_contains(asked));
    assert_true(test_log_contains(reason));
}

static void test_version_of_the_headers_is_granted(void **state) {
    (void)state;
    const plume_api *api = granted_api(PLUME_ABI_MAJOR, PLUME_ABI_MINOR);
    assert_int_equal(api->size, sizeof(plume_api));
    assert_int_equal(api->version_major, PLUME_ABI_MAJOR);
    assert_int_equal(api->version_minor, PLUME_ABI_MINOR);
    assert_int_equal(api->reserved, 0);
    /* Every older minor of the same major gets a table of the same layout
     * (its functions read that minor's structs: test_abi_minor.c). */
    for (uint32_t minor = PLUME_ABI_MINOR; minor-- > 0;) {
        const plume_api *older = granted_api(PLUME_ABI_MAJOR, minor);
        assert_int_equal(older->size, api->size);
        assert_int_equal(older->version_minor, PLUME_ABI_MINOR);
        assert_ptr_equal(older->sort, api->sort);
    }
    assert_string_equal(api->result_string(PLUME_ERROR_VERSION), "PLUME_ERROR_VERSION");
    assert_string_equal(plume_result_string(PLUME_ERROR_VERSION), "PLUME_ERROR_VERSION");
}

static void test_other_majors_and_newer_minors_are_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    char asked[64], offered[64];
    snprintf(offered, sizeof offered, "this library implements %d.%d", PLUME_ABI_MAJOR, PLUME_ABI_MINOR);
    snprintf(asked, sizeof asked, "asks for plume ABI %d.0", PLUME_ABI_MAJOR + 1);
    assert_refused(PLUME_ABI_MAJOR + 1, 0, asked, "another major version");
    assert_true(test_log_contains(offered));
    snprintf(asked, sizeof asked, "load libplume.so.%d", PLUME_ABI_MAJOR + 1);
    assert_true(test_log_contains(asked));
    snprintf(asked, sizeof asked, "asks for plume ABI %d.9", PLUME_ABI_MAJOR - 1);
    assert_refused(PLUME_ABI_MAJOR - 1, 9, asked, "another major version");
    assert_refused(UINT32_MAX, 0, "asks for plume ABI 4294967295.0", "another major version");
    snprintf(asked, sizeof asked, "asks for plume ABI %d.%d", PLUME_ABI_MAJOR, PLUME_ABI_MINOR + 1);
    assert_refused(PLUME_ABI_MAJOR, PLUME_ABI_MINOR + 1, asked, "which lacks");
    snprintf(asked, sizeof asked, "asks for plume ABI %d.4294967295", PLUME_ABI_MAJOR);
    assert_refused(PLUME_ABI_MAJOR, UINT32_MAX, asked, "which lacks");

    plume_logger logger = test_logger();
    assert_int_equal(plume_get_api(PLUME_ABI_MAJOR, PLUME_ABI_MINOR, &logger, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("out_api must not be NULL"));
}

/* The 1.0 fields, in their frozen order, right after the 16-byte header:
 * inserting, removing or reordering one fails here; appending does not. */
static void test_table_layout_is_frozen(void **state) {
    (void)state;
    const size_t v1_0[] = {
        offsetof(plume_api, result_string),   offsetof(plume_api, context_create),
        offsetof(plume_api, context_destroy), offsetof(plume_api, context_list_gl_objects),
        offsetof(plume_api, sorter_create),   offsetof(plume_api, sorter_destroy),
        offsetof(plume_api, sorter_get_desc), offsetof(plume_api, sort),
        offsetof(plume_api, sort_indirect),   offsetof(plume_api, sort_indirect_bounded),
        offsetof(plume_api, sorter_pass_count), offsetof(plume_api, depth_key),
        offsetof(plume_api, system_create),   offsetof(plume_api, system_destroy),
        offsetof(plume_api, system_get_desc), offsetof(plume_api, system_update),
        offsetof(plume_api, system_draw),     offsetof(plume_api, system_reset),
        offsetof(plume_api, system_set_emitter), offsetof(plume_api, system_set_forces),
        offsetof(plume_api, system_read_back), offsetof(plume_api, system_set_profiling),
        offsetof(plume_api, system_get_profile), offsetof(plume_api, system_get_frame_profiles),
    };
    assert_int_equal(offsetof(plume_api, size), 0);
    assert_int_equal(offsetof(plume_api, version_major), 4);
    assert_int_equal(offsetof(plume_api, version_minor), 8);
    for (size_t i = 0; i < sizeof v1_0 / sizeof v1_0[0]; ++i) assert_int_equal(v1_0[i], 16 + i * sizeof(void (*)(void)));
    assert_true(sizeof(plume_api) >= 16 + sizeof v1_0 / sizeof v1_0[0] * sizeof(void (*)(void)));

    /* Every field is filled in. */
    const plume_api *api = granted_api(PLUME_ABI_MAJOR, 0);
    const unsigned char *bytes = (const unsigned char *)api;
    for (size_t i = 0; i < sizeof v1_0 / sizeof v1_0[0]; ++i) {
        void (*field)(void) = NULL;
        memcpy(&field, bytes + v1_0[i], sizeof field);
        if (!field) fail_msg("field %zu of the 1.0 table is NULL", i);
    }

    /* PLUME_API_HAS reads the library's size, not the host's sizeof. */
    assert_true(PLUME_API_HAS(api, depth_key));
    assert_true(PLUME_API_HAS(api, system_get_frame_profiles));
    plume_api older = *api;
    older.size = (uint32_t)offsetof(plume_api, system_create);
    assert_true(PLUME_API_HAS(&older, depth_key));
    assert_false(PLUME_API_HAS(&older, system_create));
    assert_false(PLUME_API_HAS(&older, system_get_frame_profiles));
}

#ifndef PLUME_TESTS_THROUGH_TABLE
/* The static library's table holds the very functions it links directly. */
static void test_static_table_holds_the_plain_functions(void **state) {
    (void)state;
    const plume_api *api = granted_api(PLUME_ABI_MAJOR, PLUME_ABI_MINOR);
    assert_true(api->result_string == plume_result_string);
    assert_true(api->context_create == plume_context_create);
    assert_true(api->context_destroy == plume_context_destroy);
    assert_true(api->context_list_gl_objects == plume_context_list_gl_objects);
    assert_true(api->sorter_create == plume_sorter_create);
    assert_true(api->sorter_destroy == plume_sorter_destroy);
    assert_true(api->sorter_get_desc == plume_sorter_get_desc);
    assert_true(api->sort == plume_sort);
    assert_true(api->sort_indirect == plume_sort_indirect);
    assert_true(api->sort_indirect_bounded == plume_sort_indirect_bounded);
    assert_true(api->sorter_pass_count == plume_sorter_pass_count);
    assert_true(api->depth_key == plume_depth_key);
    assert_true(api->system_create == plume_system_create);
    assert_true(api->system_destroy == plume_system_destroy);
    assert_true(api->system_get_desc == plume_system_get_desc);
    assert_true(api->system_update == plume_system_update);
    assert_true(api->system_draw == plume_system_draw);
    assert_true(api->system_reset == plume_system_reset);
    assert_true(api->system_set_emitter == plume_system_set_emitter);
    assert_true(api->system_set_forces == plume_system_set_forces);
    assert_true(api->system_read_back == plume_system_read_back);
    assert_true(api->system_set_profiling == plume_system_set_profiling);
    assert_true(api->system_get_profile == plume_system_get_profile);
    assert_true(api->system_get_frame_profiles == plume_system_get_frame_profiles);
    assert_true(api->sorter_algorithm_for == plume_sorter_algorithm_for);
    assert_true(api->system_get_sort_algorithm == plume_system_get_sort_algorithm);
    assert_true(api->draw_group_create == plume_draw_group_create);
    assert_true(api->draw_group_destroy == plume_draw_group_destroy);
    assert_true(api->draw_group_draw == plume_draw_group_draw);
    assert_true(api->draw_group_read_back == plume_draw_group_read_back);
    assert_true(api->sort_texture == plume_sort_texture);
    assert_true(api->draw_group_set_profiling == plume_draw_group_set_profiling);
    assert_true(api->draw_group_get_profile == plume_draw_group_get_profile);
    assert_true(api->system_desc_check == plume_system_desc_check);
    assert_true(api->system_set_tiled_options == plume_system_set_tiled_options);
    assert_true(api->system_emit == plume_system_emit);
    assert_true(api->system_set_transform == plume_system_set_transform);
    assert_true(api->system_set_instances == plume_system_set_instances);
    assert_true(api->context_warm_programs == plume_context_warm_programs);
    assert_true(api->batch_update == plume_batch_update);
    assert_true(api->batch_draw == plume_batch_draw);
    assert_true(api->system_write_lights == plume_system_write_lights);
}
#else
extern void *host_library;

/* libplume.so exports plume_get_api and none of the functions behind it, nor
 * the module's internals. */
static void test_shared_library_exports_only_the_entry_point(void **state) {
    (void)state;
    static const char *hidden[] = {
        "plume_result_string", "plume_context_create", "plume_context_destroy", "plume_context_list_gl_objects",
        "plume_sorter_create", "plume_sorter_destroy", "plume_sorter_get_desc",  "plume_sort",
        "plume_sort_indirect", "plume_sort_indirect_bounded", "plume_sorter_pass_count", "plume_depth_key", "plume_log",
        "plume_alloc",         "plume_env_init",        "plume_build_program",   "plume_context_lookup",
        "plume_gl_scope_begin", "plume_embedded_shaders", "plume_system_create", "plume_system_update",
        "plume_system_get_frame_profiles", "profiler_create", "plume_particles_resolve_desc", "stbi_load_from_memory",
    };
    assert_non_null(dlsym(host_library, PLUME_GET_API_SYMBOL));
    for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; ++i)
        if (dlsym(host_library, hidden[i])) fail_msg("libplume.so exports %s", hidden[i]);
}
#endif

/* A host built before 1.2 has a plume_system_desc that ends before
 * blend_mode: through its table the library reads and writes only that
 * much (the bytes after it, here poison, are another object of the host's),
 * and its systems take the look's defaults. */
static void test_hosts_before_1_2_keep_their_system_desc(void **state) {
    (void)state;
    const size_t prefix = offsetof(plume_system_desc, blend_mode);
    unsigned char *memory = malloc(sizeof(plume_system_desc));
    assert_non_null(memory);
    for (uint32_t minor = 0; minor < 2; ++minor) {
        const plume_api *api = granted_api(PLUME_ABI_MAJOR, minor);
        memset(memory, 0xAB, sizeof(plume_system_desc));
        plume_system_desc desc = {.capacity = 16};
        desc.emitters[0] = (plume_emitter_desc){.rate = 10};
        memcpy(memory, &desc, prefix);
        plume_system system = {0};
        assert_int_equal(api->system_create(fixture_context(), (const plume_system_desc *)memory, &system), PLUME_OK);
        memset(memory, 0xCD, sizeof(plume_system_desc));
        assert_int_equal(api->system_get_desc(fixture_context(), system, (plume_system_desc *)memory), PLUME_OK);
        plume_system_desc back;
        memcpy(&back, memory, prefix);
        assert_int_equal(back.capacity, 16);
        for (size_t i = prefix; i < sizeof(plume_system_desc); ++i)
            if (memory[i] != 0xCD) fail_msg("1.%u: get_desc wrote byte %zu past the host's struct", minor, i);
        /* The defaults of the look, through the current table. */
        const plume_api *current = granted_api(PLUME_ABI_MAJOR, PLUME_ABI_MINOR);
        assert_int_equal(current->system_get_desc(fixture_context(), system, &back), PLUME_OK);
        assert_int_equal(back.blend_mode, PLUME_BLEND_PREMULTIPLIED);
        assert_int_equal(back.orientation, PLUME_ORIENT_CAMERA_FACING);
        assert_int_equal(back.sort_mode, PLUME_SORT_MODE_VIEW_DEPTH);
        assert_int_equal(back.sort_key_bits, 32); /* the whole key, as before 1.2 */
        assert_int_equal(api->system_destroy(fixture_context(), system), PLUME_OK);
    }
    free(memory);
}

const struct CMUnitTest abi_tests[] = {
    cmocka_unit_test_setup_teardown(test_hosts_before_1_2_keep_their_system_desc, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_version_of_the_headers_is_granted, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_other_majors_and_newer_minors_are_refused, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_table_layout_is_frozen, fixture_setup, fixture_teardown),
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_static_table_holds_the_plain_functions, fixture_setup, fixture_teardown),
#else
    cmocka_unit_test_setup_teardown(test_shared_library_exports_only_the_entry_point, fixture_setup,
                                    fixture_teardown),
#endif
};
const size_t abi_test_count = sizeof abi_tests / sizeof abi_tests[0];
