/* What the module asks of the GL in a frame, and what it does when the GL's
 * answers turn bad:
 * - after its first frame a system's update and draw read no strings from
 *   the GL (the version, ES or not, the extensions are the context's, asked
 *   once): on a threaded driver each glGetString waits for the driver's
 *   thread, and a scope that asked them in its loops made a small system's
 *   frame five times slower on NVIDIA;
 * - a context lost to a GPU reset (GL_CONTEXT_LOST from every glGetError):
 *   every call returns an error whose message says so, creation makes
 *   nothing, and destroy frees what it can once the host is done.
 * The GL is the driver's, watched and bent through libepoxy's pointers
 * (tests/support/gl_spy.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "gl_spy.h"
#include "particle_fixture.h"
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

static const float CENTRE[3] = {0.0f, 0.0f, -6.0f};

static plume_frame_desc frame_on(uint32_t draw_path, uint32_t resolution) {
    plume_frame_desc frame = make_frame(0.001f, NULL, NULL);
    frame.draw_path = draw_path;
    frame.draw_resolution = resolution;
    return frame;
}

static void test_a_frame_reads_no_strings_from_the_gl(void **state) {
    (void)state;
    static const struct {
        uint32_t path, resolution;
        const char *name;
    } PATHS[] = {{PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, "raster"},
                 {PLUME_DRAW_PATH_RASTER, PLUME_DRAW_HALF, "raster 1/2"},
                 {PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, "tiled"}};
    render_camera camera = render_make_camera();
    float *image = render_new_image();
    int failures = 0;
    for (size_t i = 0; i < sizeof PATHS / sizeof PATHS[0]; ++i) {
        plume_system system = render_cloud(CENTRE, 1.5f, 0.4f, 300, (uint32_t)test_random_u32(), true);
        plume_frame_desc frame = frame_on(PATHS[i].path, PATHS[i].resolution);
        render_frame(system, &camera, frame, true, 0, 1.0f, image); /* the first: programs, capabilities */
        spy_install();
        render_frame(system, &camera, frame, true, 0, 1.0f, image);
        long strings = spy.get_strings;
        spy_remove();
        printf("  %s: %ld strings read in a frame's update and draw\n", PATHS[i].name, strings);
        failures += strings != 0;
        destroy_system(system);
    }
    free(image);
    assert_int_equal(failures, 0);
}

static void test_a_lost_context_gives_clear_errors(void **state) {
    (void)state;
    plume_context *context = fixture_context();
    plume_system system = render_cloud(CENTRE, 1.5f, 0.4f, 200, (uint32_t)test_random_u32(), false);
    render_camera camera = render_make_camera();
    plume_frame_desc frame = make_frame(0.001f, camera.view, camera.projection);
    frame.draw_path = PLUME_DRAW_PATH_RASTER;
    frame.viewport_size[0] = RENDER_WIDTH;
    frame.viewport_size[1] = RENDER_HEIGHT;
    uint32_t objects_before = 0;
    assert_int_equal(plume_context_list_gl_objects(context, NULL, 0, &objects_before), PLUME_OK);
    test_log_expect_errors();
    spy_install();
    spy.context_lost = true;
    glViewport(0, 0, RENDER_WIDTH, RENDER_HEIGHT);
    plume_result update = plume_system_update(context, system, &frame);
    int lost_messages = test_log_count("lost to a GPU reset");
    plume_result draw = plume_system_draw(context, system, &frame);
    int lost_after_draw = test_log_count("lost to a GPU reset");
    plume_system_desc desc = {.capacity = 64, .emitters[0] = {.rate = 10, .lifetime = {1, 2}}};
    plume_system another = {0};
    plume_result create = plume_system_create(context, &desc, &another);
    spy.context_lost = false;
    spy_remove();
    uint32_t objects_after = 0;
    assert_int_equal(plume_context_list_gl_objects(context, NULL, 0, &objects_after), PLUME_OK);
    printf("  lost: update %s, draw %s, create %s; GL objects %u before, %u after\n", plume_result_string(update),
           plume_result_string(draw), plume_result_string(create), objects_before, objects_after);
    assert_int_equal(update, PLUME_ERROR_GL);
    assert_true(lost_messages > 0);
    assert_int_equal(draw, PLUME_ERROR_GL);
    assert_true(lost_after_draw > lost_messages);
    assert_int_not_equal(create, PLUME_OK);
    assert_int_equal(objects_after, objects_before); /* nothing half made */
    /* The host is done with the lost context: destroy frees what it holds. */
    assert_int_equal(plume_system_destroy(context, system), PLUME_OK);
}

const struct CMUnitTest gl_answers_tests[] = {
    cmocka_unit_test_setup_teardown(test_a_frame_reads_no_strings_from_the_gl, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_lost_context_gives_clear_errors, fixture_setup, fixture_teardown),
};
const size_t gl_answers_test_count = sizeof gl_answers_tests / sizeof gl_answers_tests[0];
