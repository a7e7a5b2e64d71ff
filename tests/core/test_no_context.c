/* No GL context current on the calling thread (a host's classic mistake):
 * every entry point that touches the GL refuses with
 * PLUME_ERROR_GL_UNSUPPORTED and "CALLER: no GL context is current on this
 * thread", and never aborts. Each call runs in a forked child, on a thread of
 * its own (where no context is current), so that an abort inside the GL
 * loader fails the test instead of ending the runner; the child never touches
 * the GL itself. Skipped where there is no fork (Windows). plume_plugin_host
 * compiles this file again with every plume call routed through the plugin
 * table. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "particle_fixture.h"
#include "plume/plume_draw_group.h"
#include "plume/plume_sort.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "test_platform.h"
#include "tests.h"

/* What the calls work on, made in the parent where the context is current. */
typedef struct scene {
    plume_context *context;
    plume_system system;
    plume_sorter sorter;
    plume_draw_group group;
    GLuint pairs, count, depth;
} scene;

typedef plume_result (*scene_call)(const scene *s);

typedef struct child_run {
    const scene *scene;
    scene_call call;
    const char *caller;
    plume_result result;
} child_run;

static void *run_call(void *argument) {
    child_run *run = argument;
    run->result = run->call(run->scene);
    return NULL;
}

/* The child's part: the call on a thread of its own; 0 when refused as it
 * should be, 1 when it did not return PLUME_ERROR_GL_UNSUPPORTED, 2 when it
 * did not log why, 3 when there was no thread. */
static int call_on_a_thread(void *argument) {
    child_run *run = argument;
    pthread_t thread;
    if (pthread_create(&thread, NULL, run_call, run) != 0 || pthread_join(thread, NULL) != 0) return 3;
    char expected[160];
    snprintf(expected, sizeof expected, "%s: no GL context is current on this thread", run->caller);
    return run->result != PLUME_ERROR_GL_UNSUPPORTED ? 1 : !test_log_contains(expected) ? 2 : 0;
}

/* Runs `call` in a child process on a thread with no current GL context;
 * true when it returned PLUME_ERROR_GL_UNSUPPORTED and logged
 * "`caller`: no GL context is current on this thread". */
static bool refused_without_context(const scene *s, scene_call call, const char *caller) {
    child_run run = {s, call, caller, PLUME_OK};
    test_child_outcome outcome;
    assert_true(test_run_in_child(call_on_a_thread, &run, &outcome));
    if (outcome.signal)
        print_error("%s without a current context: the process died of signal %d\n", caller, outcome.signal);
    else if (outcome.code != 0)
        print_error("%s without a current context: %s\n", caller,
                    outcome.code == 1 ? "did not return PLUME_ERROR_GL_UNSUPPORTED"
                                      : "did not log that no GL context is current");
    return outcome.code == 0;
}

static plume_frame_desc plain_frame(const scene *s) {
    plume_frame_desc frame = make_frame(1.0f / 60.0f, NULL, NULL);
    frame.viewport_size[0] = frame.viewport_size[1] = 64;
    frame.depth_texture = s->depth; /* asked of the GL before anything else is */
    return frame;
}

static plume_result call_system_create(const scene *s) {
    plume_system_desc desc = busy_desc(1);
    plume_system system;
    return plume_system_create(s->context, &desc, &system);
}
static plume_result call_sorter_create(const scene *s) {
    plume_sorter_desc desc = {.capacity = 64};
    plume_sorter sorter;
    return plume_sorter_create(s->context, &desc, &sorter);
}
static plume_result call_draw_group_create(const scene *s) {
    plume_draw_group_desc desc = {.systems = &s->system, .system_count = 1};
    plume_draw_group group;
    return plume_draw_group_create(s->context, &desc, &group);
}
static plume_result call_system_update(const scene *s) {
    plume_frame_desc frame = plain_frame(s);
    return plume_system_update(s->context, s->system, &frame);
}
static plume_result call_system_draw(const scene *s) {
    plume_frame_desc frame = plain_frame(s);
    return plume_system_draw(s->context, s->system, &frame);
}
static plume_result call_system_reset(const scene *s) { return plume_system_reset(s->context, s->system); }
static plume_result call_system_set_emitter(const scene *s) {
    plume_system_desc desc = busy_desc(2);
    return plume_system_set_emitter(s->context, s->system, 0, &desc.emitters[0]);
}
static plume_result call_system_set_world(const scene *s) {
    plume_world world = {0};
    return plume_system_set_world(s->context, s->system, &world);
}
static plume_result call_system_read_back(const scene *s) {
    plume_readback readback = {0};
    return plume_system_read_back(s->context, s->system, &readback);
}
static plume_result call_system_set_profiling(const scene *s) {
    return plume_system_set_profiling(s->context, s->system, true);
}
static plume_result call_system_destroy(const scene *s) { return plume_system_destroy(s->context, s->system); }
static plume_result call_sort(const scene *s) { return plume_sort(s->context, s->sorter, s->pairs, 64); }
static plume_result call_sort_indirect(const scene *s) {
    return plume_sort_indirect(s->context, s->sorter, s->pairs, s->count, 0);
}
static plume_result call_sort_indirect_bounded(const scene *s) {
    return plume_sort_indirect_bounded(s->context, s->sorter, s->pairs, 64, s->count, 0);
}
static plume_result call_sorter_destroy(const scene *s) { return plume_sorter_destroy(s->context, s->sorter); }
static plume_result call_draw_group_draw(const scene *s) {
    plume_frame_desc frame = plain_frame(s);
    return plume_draw_group_draw(s->context, s->group, &frame);
}
static plume_result call_draw_group_read_back(const scene *s) {
    plume_draw_group_entry entries[4];
    uint32_t count = 0;
    return plume_draw_group_read_back(s->context, s->group, entries, 4, &count);
}
static plume_result call_draw_group_set_profiling(const scene *s) {
    return plume_draw_group_set_profiling(s->context, s->group, true);
}
static plume_result call_draw_group_destroy(const scene *s) {
    return plume_draw_group_destroy(s->context, s->group);
}
/* Refused as a whole: its objects' GL objects cannot be deleted here. */
static plume_result call_context_destroy(const scene *s) {
    plume_context_destroy(s->context);
    plume_system_desc desc;
    return plume_system_get_desc(s->context, s->system, &desc) == PLUME_OK ? PLUME_ERROR_GL_UNSUPPORTED : PLUME_OK;
}
/* What touches no GL goes on working, and a refused destroy leaves the
 * object alive. */
static plume_result call_cpu_side(const scene *s) {
    plume_system_desc desc;
    plume_sorter_desc sorter_desc;
    plume_profile profile;
    plume_forces forces = {0};
    if (plume_system_destroy(s->context, s->system) != PLUME_ERROR_GL_UNSUPPORTED ||
        plume_system_get_desc(s->context, s->system, &desc) != PLUME_OK ||
        plume_sorter_get_desc(s->context, s->sorter, &sorter_desc) != PLUME_OK ||
        plume_system_set_forces(s->context, s->system, &forces) != PLUME_OK ||
        plume_system_get_profile(s->context, s->system, &profile) != PLUME_OK ||
        plume_sorter_pass_count(s->context, s->sorter, 64) == 0)
        return PLUME_OK;
    return PLUME_ERROR_GL_UNSUPPORTED;
}

static void test_every_entry_point_refuses_without_a_context(void **state) {
    (void)state;
    if (!test_has_child_processes()) {
        print_message("no fork() here (Windows): an abort in a call without a context would end the runner, "
                      "so this test needs child processes; skipped\n");
        skip();
    }
    test_log_expect_errors();
    scene s = {.context = fixture_context()};
    s.system = make_system(busy_desc(7));
    plume_sorter_desc sorter_desc = {.capacity = 64, .path = test_forced_path()};
    assert_int_equal(plume_sorter_create(s.context, &sorter_desc, &s.sorter), PLUME_OK);
    plume_draw_group_desc group_desc = {.systems = &s.system, .system_count = 1};
    bool groups = plume_draw_group_create(s.context, &group_desc, &s.group) == PLUME_OK; /* compute path only */
    s.pairs = test_buffer_create(8 * 64, NULL);
    uint32_t count = 64;
    s.count = test_buffer_create(sizeof count, &count);
    s.depth = test_texture_create(GL_DEPTH_COMPONENT32F, 64, 64);

    static const struct {
        scene_call call;
        const char *caller;
        bool needs_group;
    } CALLS[] = {
        {call_system_create, "plume_system_create", false},
        {call_sorter_create, "plume_sorter_create", false},
        {call_draw_group_create, "plume_draw_group_create", false},
        {call_system_update, "plume_system_update", false},
        {call_system_draw, "plume_system_draw", false},
        {call_system_reset, "plume_system_reset", false},
        {call_system_set_emitter, "plume_system_set_emitter", false},
        {call_system_set_world, "plume_system_set_world", false},
        {call_system_read_back, "plume_system_read_back", false},
        {call_system_set_profiling, "plume_system_set_profiling", false},
        {call_system_destroy, "plume_system_destroy", false},
        {call_sort, "plume_sort", false},
        {call_sort_indirect, "plume_sort_indirect", false},
        {call_sort_indirect_bounded, "plume_sort_indirect", false}, /* its messages' name */
        {call_sorter_destroy, "plume_sorter_destroy", false},
        {call_draw_group_draw, "plume_draw_group_draw", true},
        {call_draw_group_read_back, "plume_draw_group_read_back", true},
        {call_draw_group_set_profiling, "plume_draw_group_set_profiling", true},
        {call_draw_group_destroy, "plume_draw_group_destroy", true},
        {call_context_destroy, "plume_context_destroy", false},
        {call_cpu_side, "plume_system_destroy", false},
    };
    int failures = 0;
    for (size_t i = 0; i < sizeof CALLS / sizeof CALLS[0]; ++i)
        if (groups || !CALLS[i].needs_group) failures += !refused_without_context(&s, CALLS[i].call, CALLS[i].caller);
    assert_int_equal(failures, 0);

    /* Nothing above changed the parent: its objects still work here. */
    plume_frame_desc frame = make_frame(1.0f / 60.0f, NULL, NULL);
    assert_int_equal(plume_system_update(s.context, s.system, &frame), PLUME_OK);
    if (groups) assert_int_equal(plume_draw_group_destroy(s.context, s.group), PLUME_OK);
    assert_int_equal(plume_sorter_destroy(s.context, s.sorter), PLUME_OK);
    destroy_system(s.system);
    GLuint buffers[] = {s.pairs, s.count};
    glDeleteBuffers(2, buffers);
    glDeleteTextures(1, &s.depth);
}

const struct CMUnitTest no_context_tests[] = {
    cmocka_unit_test_setup_teardown(test_every_entry_point_refuses_without_a_context, fixture_setup,
                                    fixture_teardown),
};
const size_t no_context_test_count = sizeof no_context_tests / sizeof no_context_tests[0];
