/* The automatic draw path against a hostile host and over frames
 * (render/fill_probe.c, draw_decide in render/draw.c): the host's own
 * occlusion queries of any of the three kinds (GL_SAMPLES_PASSED,
 * GL_ANY_SAMPLES_PASSED, its conservative variant: one binding point, one
 * of them active at a time) running around the draws, or begun between
 * them, and conditional rendering on the host's query: no GL error, the
 * draw succeeds and the host's query stays the active one; a system drawn
 * under them still goes tiled by its fill once the host's query ends. A
 * steady effect whose bound on the count hovers at the tiled threshold
 * (its window of births gains or loses a frame's births from frame to
 * frame) keeps one path instead of flipping every few frames, a flip a
 * player sees; a puff of large particles that took the path tiled by its
 * fill draws raster again once its particles have died; a draw group's and
 * a batch draw's raster draws are measured as a system's are. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <epoxy/gl.h>

#include "hostile_host.h"
#include "plume/plume_batch.h"
#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { FEW = 400, FRAMES = 17 }; /* FRAMES: past two probes' turns (about one raster draw in 8) */

static const float CENTRE[3] = {0.0f, 0.0f, -8.0f};

/* `frames` updated and drawn frames of a zero (automatic) frame with a
 * depth texture, each finished; the path the last one drew with. */
static uint32_t path_after(plume_system system, int frames) {
    render_camera c = render_make_camera();
    float *image = render_new_image();
    for (int k = 0; k < frames; ++k) {
        render_frame(system, &c, (plume_frame_desc){0}, true, 0, 1.0f, image);
        glFinish();
    }
    free(image);
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
    return profile.draw_path;
}

static const struct {
    GLenum target;
    const char *name;
} HOST_QUERIES[] = {
    {GL_SAMPLES_PASSED, "GL_SAMPLES_PASSED"},
    {GL_ANY_SAMPLES_PASSED, "GL_ANY_SAMPLES_PASSED"},
    {GL_ANY_SAMPLES_PASSED_CONSERVATIVE, "GL_ANY_SAMPLES_PASSED_CONSERVATIVE"},
};

/* Large particles (a fill far over the threshold) drawn through probes'
 * turns under the host's own occlusion query of each kind: no GL error,
 * the host's query still the active one and its result a number; then,
 * the host's query ended, the fill takes the path tiled. */
static void test_fill_probe_under_every_host_occlusion_query(void **state) {
    (void)state;
    for (size_t q = 0; q < sizeof HOST_QUERIES / sizeof HOST_QUERIES[0]; ++q) {
        plume_system large = render_cloud(CENTRE, 1.5f, 6.0f, FEW, 9, false);
        assert_int_equal(plume_system_set_profiling(fixture_context(), large, true), PLUME_OK);
        GLuint host_query = 0, result = 0;
        glGenQueries(1, &host_query);
        glBeginQuery(HOST_QUERIES[q].target, host_query);
        uint32_t under = path_after(large, FRAMES);
        GLint current = 0;
        glGetQueryiv(HOST_QUERIES[q].target, GL_CURRENT_QUERY, &current);
        GLenum error = glGetError();
        glEndQuery(HOST_QUERIES[q].target);
        glGetQueryObjectuiv(host_query, GL_QUERY_RESULT, &result);
        glDeleteQueries(1, &host_query);
        uint32_t after = path_after(large, FRAMES);
        printf("  under the host's %s: %s, then %s; the host's query %s, error 0x%x\n", HOST_QUERIES[q].name,
               under == PLUME_DRAW_PATH_TILED ? "tiled" : "raster", after == PLUME_DRAW_PATH_TILED ? "tiled" : "raster",
               (GLuint)current == host_query ? "still active" : "no longer active", error);
        assert_int_equal(error, GL_NO_ERROR);
        assert_int_equal((GLuint)current, host_query);
        assert_int_equal(under, PLUME_DRAW_PATH_RASTER);
        assert_int_equal(after, PLUME_DRAW_PATH_TILED);
        assert_true(result > 0);
        assert_int_equal(glGetError(), GL_NO_ERROR);
        assert_int_equal(plume_system_destroy(fixture_context(), large), PLUME_OK);
    }
}

/* The host's query begun and ended between frames while the probe's waits
 * for its result, and conditional rendering on the host's query around
 * the draws (a query that passed samples: the draws run): no error, the
 * probe's result still arrives and takes the path tiled. */
static void test_fill_probe_beside_host_queries_between_frames(void **state) {
    (void)state;
    plume_system large = render_cloud(CENTRE, 1.5f, 6.0f, FEW, 9, false);
    assert_int_equal(plume_system_set_profiling(fixture_context(), large, true), PLUME_OK);
    GLuint host_queries[3] = {0}, result = 0; /* a query object keeps the kind it was first begun as */
    glGenQueries(3, host_queries);
    render_camera c = render_make_camera();
    float *image = render_new_image();
    for (int k = 0; k < FRAMES; ++k) {
        GLenum target = HOST_QUERIES[k % 3].target;
        GLuint host_query = host_queries[k % 3];
        glBeginQuery(target, host_query);
        render_frame(large, &c, (plume_frame_desc){0}, true, 0, 1.0f, image);
        glEndQuery(target);
        glGetQueryObjectuiv(host_query, GL_QUERY_RESULT, &result);
        assert_true(result > 0);
        /* Drawn again under the host's condition: the host's intent. */
        glBeginConditionalRender(host_query, GL_QUERY_WAIT);
        render_draw(large, &c, (plume_frame_desc){0}, true, 0, 1.0f, image);
        glEndConditionalRender();
        assert_int_equal(glGetError(), GL_NO_ERROR);
    }
    glDeleteQueries(3, host_queries);
    free(image);
    uint32_t path = path_after(large, FRAMES);
    printf("  between the host's own queries and conditional draws: then %s\n",
           path == PLUME_DRAW_PATH_TILED ? "tiled" : "raster");
    assert_int_equal(path, PLUME_DRAW_PATH_TILED);
    assert_int_equal(plume_system_destroy(fixture_context(), large), PLUME_OK);
}

/* `frames` frames of `dt` jittered by up to a third (seeded), each updated,
 * drawn automatically with a depth texture and finished; into `paths` the
 * path each frame's profile says. Returns how often the path changed. */
static int paths_over_frames(plume_system system, int frames, float dt, uint32_t *paths) {
    render_camera c = render_make_camera();
    float *image = render_new_image();
    int changes = 0;
    for (int k = 0; k < frames; ++k) {
        plume_frame_desc frame = {.dt = dt * test_random_float(0.67f, 1.33f)};
        memcpy(frame.view, c.view, sizeof frame.view);
        memcpy(frame.projection, c.projection, sizeof frame.projection);
        assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
        render_draw(system, &c, (plume_frame_desc){0}, true, 0, 1.0f, image);
        glFinish();
        plume_profile profile;
        assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
        paths[k] = profile.draw_path;
        changes += k > 0 && paths[k - 1] != 0 && paths[k] != paths[k - 1]; /* 0: no frame completed yet */
    }
    free(image);
    return changes;
}

static void print_paths(const char *what, const uint32_t *paths, int frames) {
    printf("  %s: ", what);
    for (int k = 0; k < frames; ++k) putchar(paths[k] == PLUME_DRAW_PATH_TILED ? 'T' : paths[k] ? 'r' : '.');
    putchar('\n');
}

/* About 62 000 small particles a second living 0.25 s: the bound on the
 * drawn count (the births of the frames of the last 0.256 s) is 16 K give or take half a
 * frame's births, around the tiled path's threshold (16384). */
static void steady_at_the_threshold(plume_system_desc *desc) {
    desc->capacity = 20011;
    desc->emitters[0].burst_count = 0;
    desc->emitters[0].rate = 16384.0f / (0.256f + 0.5f / 60.0f);
    /* Every emitter's, the unused ones' too: the bound counts the births
     * within the longest lifetime of any (an unused one's default: 1 s). */
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e) desc->emitters[e].lifetime = (plume_range){0.25f, 0.25f};
}

static void test_automatic_path_keeps_its_choice_at_the_threshold(void **state) {
    (void)state;
    enum { WARM = 20, WATCHED = 30 };
    plume_system steady = render_cloud_with(CENTRE, 4.0f, 0.02f, 20011, test_random_u32(), false,
                                            steady_at_the_threshold);
    assert_int_equal(plume_system_set_profiling(fixture_context(), steady, true), PLUME_OK);
    uint32_t paths[WARM + WATCHED];
    paths_over_frames(steady, WARM, 1.0f / 60.0f, paths); /* past a lifetime: the count steady */
    int changes = paths_over_frames(steady, WATCHED, 1.0f / 60.0f, paths);
    print_paths("a steady 16 K effect, frame by frame (T tiled, r raster, . none yet)", paths, WATCHED);
    printf("  %d changes of path in %d frames (at most 1)\n", changes, WATCHED);
    assert_true(changes <= 1);
    assert_int_equal(plume_system_destroy(fixture_context(), steady), PLUME_OK);
}

/* 400 particles metres across, born at once, living 0.15 s (every
 * emitter's lifetime: see steady_at_the_threshold). */
static void short_puff(plume_system_desc *desc) {
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e) desc->emitters[e].lifetime = (plume_range){0.15f, 0.15f};
}

static void test_automatic_path_leaves_tiled_once_the_fill_is_gone(void **state) {
    (void)state;
    enum { PUFF_FRAMES = 60 };
    plume_system puff = render_cloud_with(CENTRE, 1.5f, 6.0f, FEW, 9, false, short_puff);
    assert_int_equal(plume_system_set_profiling(fixture_context(), puff, true), PLUME_OK);
    uint32_t paths[PUFF_FRAMES];
    paths_over_frames(puff, PUFF_FRAMES, 0.004f, paths); /* 60 frames of 4 ms on average: the puff's life and more */
    print_paths("a puff of large particles living 0.15 s, frames of 4 ms", paths, PUFF_FRAMES);
    bool went_tiled = false;
    for (int k = 0; k < PUFF_FRAMES / 2; ++k) went_tiled = went_tiled || paths[k] == PLUME_DRAW_PATH_TILED;
    assert_true(went_tiled);
    assert_int_equal(paths[PUFF_FRAMES - 1], PLUME_DRAW_PATH_RASTER);
    assert_int_equal(plume_system_destroy(fixture_context(), puff), PLUME_OK);
}

/* A host's target: a colour texture drawn into and a depth texture the
 * frames hand over (not attached), at the far plane. */
typedef struct probe_target {
    GLuint framebuffer, color, depth;
} probe_target;

static probe_target make_target(int width, int height) {
    probe_target t = {0, test_texture_create(GL_RGBA8, width, height),
                      test_texture_create(GL_DEPTH_COMPONENT32F, width, height)};
    const float far = 1.0f;
    glClearTexImage(t.depth, 0, GL_DEPTH_COMPONENT, GL_FLOAT, &far);
    glGenFramebuffers(1, &t.framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.color, 0);
    glViewport(0, 0, width, height);
    return t;
}

static void free_target(probe_target *t) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &t->framebuffer);
    glDeleteTextures(1, &t->color);
    glDeleteTextures(1, &t->depth);
}

/* The camera's automatic frame of `dt`, with the target's depth. */
static plume_frame_desc camera_frame(const probe_target *t, float dt) {
    render_camera c = render_make_camera();
    plume_frame_desc frame = {.dt = dt, .depth_texture = t->depth};
    memcpy(frame.view, c.view, sizeof frame.view);
    memcpy(frame.projection, c.projection, sizeof frame.projection);
    return frame;
}

/* Automatic frames with a depth texture drawn inside a hostile host (its
 * query buffer bound, a canary the probe's result must not land in, and
 * every other state): the probe's queries begun, ended and read leave
 * every value as it was, no occlusion query active, and the path goes
 * tiled by the fill all the same. */
static void test_fill_probe_leaves_a_hostile_host_as_it_found_it(void **state) {
    (void)state;
    enum { SIZE = 64 };
    plume_system large = render_cloud(CENTRE, 1.5f, 6.0f, FEW, 9, false);
    assert_int_equal(plume_system_set_profiling(fixture_context(), large, true), PLUME_OK);
    probe_target target = make_target(SIZE, SIZE);
    host_objects host = make_hostile(SIZE);
    GLint64 before[HOSTILE_MAX_VALUES];
    int count = snapshot(before);
    plume_frame_desc frame = camera_frame(&target, 0.001f);
    for (int k = 0; k < FRAMES; ++k) {
        assert_int_equal(plume_system_update(fixture_context(), large, &frame), PLUME_OK);
        assert_int_equal(plume_system_draw(fixture_context(), large, &frame), PLUME_OK);
        glFinish();
    }
    assert_unchanged(before, count, "automatic draws, the fill probe's queries begun and read");
    for (size_t q = 0; q < sizeof HOST_QUERIES / sizeof HOST_QUERIES[0]; ++q) {
        GLint current = -1;
        glGetQueryiv(HOST_QUERIES[q].target, GL_CURRENT_QUERY, &current);
        assert_int_equal(current, 0);
    }
    end_hostile(&host);
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), large, &profile), PLUME_OK);
    printf("  in a hostile host: %s\n", profile.draw_path == PLUME_DRAW_PATH_TILED ? "tiled" : "raster");
    assert_int_equal(profile.draw_path, PLUME_DRAW_PATH_TILED);
    free_target(&target);
    assert_int_equal(plume_system_destroy(fixture_context(), large), PLUME_OK);
}

/* A system drawn into three viewports a frame (the whole target, a
 * minimised one of 0 x 0, a corner), so the probe's turns fall on each in
 * turn and a result arrives after the viewport it measured changed; then
 * destroyed right after a draw that began a query, its result never read:
 * no GL error, and the fixture finds no GL object left (its queries go
 * with it). */
static void test_fill_probe_across_viewports_and_destroyed_in_flight(void **state) {
    (void)state;
    plume_system large = render_cloud(CENTRE, 1.5f, 6.0f, FEW, 9, false);
    probe_target target = make_target(RENDER_WIDTH, RENDER_HEIGHT);
    static const int VIEWPORTS[3][4] = {{0, 0, RENDER_WIDTH, RENDER_HEIGHT}, {0, 0, 0, 0}, {8, 8, 37, 29}};
    for (int k = 0; k < FRAMES; ++k) {
        plume_frame_desc frame = camera_frame(&target, 0.001f);
        assert_int_equal(plume_system_update(fixture_context(), large, &frame), PLUME_OK);
        for (int v = 0; v < 3; ++v) {
            const int *at = VIEWPORTS[(v + k) % 3];
            glViewport(at[0], at[1], at[2], at[3]); /* 0 x 0: minimised */
            assert_int_equal(plume_system_draw(fixture_context(), large, &frame), PLUME_OK);
        }
        assert_int_equal(glGetError(), GL_NO_ERROR);
    }
    /* A second system's first draw is a probe's turn: begun, then the
     * system destroyed before anything reads its result. */
    plume_system second = render_cloud(CENTRE, 1.5f, 6.0f, FEW, 11, false);
    plume_frame_desc frame = camera_frame(&target, 0.001f);
    assert_int_equal(plume_system_update(fixture_context(), second, &frame), PLUME_OK);
    glViewport(0, 0, RENDER_WIDTH, RENDER_HEIGHT);
    assert_int_equal(plume_system_draw(fixture_context(), second, &frame), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), second), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), large), PLUME_OK);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    free_target(&target);
}

/* Two systems of large particles (each far over the fill threshold, far
 * under the count one) drawn by one draw group, and by batch draws, in
 * automatic frames with a depth texture: the group's raster draw is
 * measured as a system's is and goes tiled; the group's queries are
 * listed and freed with it (the fixture counts GL objects). */
static void test_fill_probe_of_a_group_and_a_batch(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    plume_system systems[2] = {render_cloud(CENTRE, 1.5f, 6.0f, FEW, 9, false),
                               render_cloud(CENTRE, 1.2f, 5.0f, FEW + 7, 13, false)};
    plume_draw_group group;
    plume_draw_group_desc desc = {.systems = systems, .system_count = 2};
    assert_int_equal(plume_draw_group_create(fixture_context(), &desc, &group), PLUME_OK);
    assert_int_equal(plume_draw_group_set_profiling(fixture_context(), group, true), PLUME_OK);
    float *image = render_new_image();
    plume_frame_desc frame = {.dt = 0.001f};
    memcpy(frame.view, c.view, sizeof frame.view);
    memcpy(frame.projection, c.projection, sizeof frame.projection);
    for (int k = 0; k < FRAMES; ++k) {
        for (int i = 0; i < 2; ++i) assert_int_equal(plume_system_update(fixture_context(), systems[i], &frame), PLUME_OK);
        render_draw_group(group, &c, (plume_frame_desc){0}, true, 0, 1.0f, image);
        glFinish();
    }
    plume_profile profile;
    assert_int_equal(plume_draw_group_get_profile(fixture_context(), group, &profile), PLUME_OK);
    printf("  a draw group of two systems of large particles: %s\n",
           profile.draw_path == PLUME_DRAW_PATH_TILED ? "tiled" : "raster");
    assert_int_equal(profile.draw_path, PLUME_DRAW_PATH_TILED);
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    assert_int_equal(plume_batch_set_profiling(fixture_context(), true), PLUME_OK);
    for (int k = 0; k < FRAMES; ++k) {
        assert_int_equal(plume_batch_update(fixture_context(), systems, 2, &frame), PLUME_OK);
        render_draw_batch(systems, 2, &c, (plume_frame_desc){0}, true, image);
        glFinish();
    }
    plume_batch_profile batch;
    assert_int_equal(plume_batch_get_profile(fixture_context(), &batch), PLUME_OK);
    printf("  a batch draw of the two: %s\n", batch.draw.draw_path == PLUME_DRAW_PATH_TILED ? "tiled" : "raster");
    assert_int_equal(batch.draw.draw_path, PLUME_DRAW_PATH_TILED);
    assert_int_equal(plume_batch_set_profiling(fixture_context(), false), PLUME_OK);
    free(image);
    for (int i = 0; i < 2; ++i) assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
}

/* Large particles drawn each frame first through `away` views that look
 * away from them (nothing on screen), then through the camera that sees
 * them (a host's reflection or shadow views before its main view): the
 * camera's draw, the last of each frame and the one its profile shows, is
 * measured too, whatever the number of views, and keeps one path. */
static void test_automatic_path_of_a_system_drawn_through_several_views(void **state) {
    (void)state;
    enum { VIEW_FRAMES = 40 };
    probe_target target = make_target(RENDER_WIDTH, RENDER_HEIGHT);
    mat4 turn = {{-1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, -1, 0}, {0, 0, 0, 1}}; /* half a turn about y */
    for (int away = 1; away <= 2; ++away) {
        plume_system large = render_cloud(CENTRE, 1.5f, 6.0f, FEW, 9, false);
        assert_int_equal(plume_system_set_profiling(fixture_context(), large, true), PLUME_OK);
        uint32_t paths[VIEW_FRAMES];
        int changes = 0;
        for (int k = 0; k < VIEW_FRAMES; ++k) {
            plume_frame_desc frame = camera_frame(&target, 0.001f);
            assert_int_equal(plume_system_update(fixture_context(), large, &frame), PLUME_OK);
            for (int v = 0; v <= away; ++v) {
                plume_frame_desc drawn = frame;
                if (v < away) {
                    /* The frame's matrices are plain floats: cglm's SIMD wants its own alignment. */
                    mat4 view, turned;
                    memcpy(view, frame.view, sizeof view);
                    glm_mat4_mul(turn, view, turned);
                    memcpy(drawn.view, turned, sizeof turned);
                }
                assert_int_equal(plume_system_draw(fixture_context(), large, &drawn), PLUME_OK);
            }
            glFinish();
            plume_profile profile;
            assert_int_equal(plume_system_get_profile(fixture_context(), large, &profile), PLUME_OK);
            paths[k] = profile.draw_path;
            changes += k > 0 && paths[k - 1] != 0 && paths[k] != paths[k - 1]; /* 0: no frame completed yet */
        }
        char what[96];
        snprintf(what, sizeof what, "%d view(s) away, then the one that sees the particles (its path)", away);
        print_paths(what, paths, VIEW_FRAMES);
        assert_int_equal(paths[VIEW_FRAMES - 1], PLUME_DRAW_PATH_TILED);
        assert_true(changes <= 1);
        assert_int_equal(plume_system_destroy(fixture_context(), large), PLUME_OK);
    }
    free_target(&target);
}

const struct CMUnitTest fill_probe_tests[] = {
    cmocka_unit_test_setup_teardown(test_automatic_path_of_a_system_drawn_through_several_views, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_fill_probe_of_a_group_and_a_batch, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_fill_probe_leaves_a_hostile_host_as_it_found_it, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_fill_probe_across_viewports_and_destroyed_in_flight, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_automatic_path_keeps_its_choice_at_the_threshold, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_automatic_path_leaves_tiled_once_the_fill_is_gone, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_fill_probe_under_every_host_occlusion_query, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_fill_probe_beside_host_queries_between_frames, fixture_setup,
                                    fixture_teardown),
};
const size_t fill_probe_test_count = sizeof fill_probe_tests / sizeof fill_probe_tests[0];
