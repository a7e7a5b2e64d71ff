/* The module inside a hostile host: one that left a distinctive value in every
 * piece of GL state that could change what a module call means (the contract
 * in docs/host-gl-state.md); the compute path's calls, then
 * the fragment path's sorts. Every call must give the same
 * results as in a clean context, leave that state exactly as it was, and
 * write nothing into the host's objects (canary buffers and textures). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "plume/plume_particles.h"
#include "plume/plume_sort.h"
#include "hostile_host.h"
#include "plume_fixture.h"
#ifndef PLUME_TESTS_THROUGH_TABLE
#include "plume_lab.h"
#endif
#include "sort_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { SIZE = 64, UPDATES = 3, SORT_PAIRS = 1000 };
static const float CLEAR[4] = {0.1f, 0.2f, 0.3f, 0.4f};

/* ---- The scene: a deterministic cloud of particles seen from the front ---- */

static plume_system_desc cloud_desc(void) {
    plume_system_desc d = {.capacity = 3000, .seed = 11};
    d.emitters[0] = (plume_emitter_desc){.burst_count = 800, .lifetime = {5, 6}, .shape = PLUME_SHAPE_BOX,
                                         .extents = {1.5f, 1.5f, 1.5f}, .size = {0.2f, 0.5f}};
    d.appearance.color_over_life.key_count = 1;
    d.appearance.color_over_life.keys[0] = (plume_color_key){.time = 0, .rgba = {0.9f, 0.5f, 0.2f, 0.5f}};
    return d;
}

static plume_frame_desc cloud_frame(void) {
    mat4 view, projection;
    glm_lookat((vec3){0, 0, 5}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_ortho(-2, 2, -2, 2, 0.1f, 20, projection);
    plume_frame_desc frame = {.dt = 1.0f / 60.0f};
    memcpy(frame.view, view, sizeof frame.view);
    memcpy(frame.projection, projection, sizeof frame.projection);
    return frame;
}

/* ---- The host's framebuffer: colour 0 for the module, colour 1 a canary ---- */

typedef struct host_target {
    GLuint framebuffer, read_framebuffer, color, canary_color, depth, read_color;
} host_target;


static host_target make_host_target(bool second_buffer) {
    host_target t = {.color = test_texture_create(GL_RGBA32F, SIZE, SIZE),
                     .canary_color = test_texture_create(GL_RGBA8, SIZE, SIZE),
                     .depth = test_texture_create(GL_DEPTH_COMPONENT32F, SIZE, SIZE),
                     .read_color = test_texture_create(GL_RGBA8, 4, 4)};
    glGenFramebuffers(1, &t.framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D, t.canary_color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, t.depth, 0);
    const GLenum buffers[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    glDrawBuffers(second_buffer ? 2 : 1, buffers);
    assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    const float c = HOSTILE_CANARY / 255.0f, canary[4] = {c, c, c, c}, far = 1.0f;
    glClearBufferfv(GL_COLOR, 0, CLEAR);
    if (second_buffer) glClearBufferfv(GL_COLOR, 1, canary);
    glClearBufferfv(GL_DEPTH, 0, &far);
    glGenFramebuffers(1, &t.read_framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, t.read_framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.read_color, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, t.framebuffer);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, t.read_framebuffer);
    glViewport(0, 0, SIZE, SIZE);
    return t;
}

static void free_host_target(host_target *t) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &t->framebuffer);
    glDeleteFramebuffers(1, &t->read_framebuffer);
    GLuint textures[] = {t->color, t->canary_color, t->depth, t->read_color};
    glDeleteTextures(4, textures);
}

/* ---- The runs ---- */

typedef struct run_result {
    float image[SIZE * SIZE * 4];
    uint32_t live, order[3000], keys[3000];
} run_result;

/* UPDATES updates (the last one under the host's conditional rendering when
 * `conditional` is set) and one draw into the host's target; the image is
 * copied out at once (later calls draw more). */
static plume_system run_cloud(const host_target *target, GLuint image_copy, bool conditional, GLuint query) {
    plume_system system = {0};
    plume_system_desc desc = cloud_desc();
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    plume_frame_desc frame = cloud_frame();
    for (int i = 0; i < UPDATES; ++i) {
        if (conditional && i == UPDATES - 1) glBeginConditionalRender(query, GL_QUERY_WAIT);
        assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
        if (conditional && i == UPDATES - 1) glEndConditionalRender();
    }
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    glCopyImageSubData(target->color, GL_TEXTURE_2D, 0, 0, 0, 0, image_copy, GL_TEXTURE_2D, 0, 0, 0, 0, SIZE, SIZE, 1);
    return system;
}

static void read_run(plume_system system, GLuint image_copy, run_result *out) {
    read_texture(image_copy, GL_FLOAT, out->image);
    plume_readback rb = {.draw_order = out->order, .draw_keys = out->keys};
    assert_int_equal(plume_system_read_back(fixture_context(), system, &rb), PLUME_OK);
    out->live = rb.live_count;
}

/* A system reporting deaths to the CPU: its updates copy into readbacks, its
 * polls check their fences (and, read by copy, bind the copy buffer); the
 * host's copy buffers are bound to names of its own meanwhile (the
 * system's destruction would unbind its own names, hiding a leak). */
static void poll_events_in_host(plume_frame_desc frame) {
    GLuint host_buffers[2];
    glGenBuffers(2, host_buffers);
    glBindBuffer(GL_COPY_READ_BUFFER, host_buffers[0]);
    glBindBuffer(GL_COPY_WRITE_BUFFER, host_buffers[1]);
    GLint64 before[HOSTILE_MAX_VALUES];
    int count = snapshot(before);
    plume_system_desc desc = {.capacity = 300, .cpu_events = {.kinds = PLUME_PARTICLE_EVENT_DEATH}};
    desc.emitters[0] = (plume_emitter_desc){.rate = 2000, .lifetime = {0.02f, 0.05f}};
    for (int by_copy = 0; by_copy < 2; ++by_copy) {
#ifdef PLUME_TESTS_THROUGH_TABLE
        if (by_copy) break; /* the lab's knob is the static library's */
#else
        plume_lab_cpu_events_read_by_copy(by_copy);
#endif
        plume_system events;
        assert_int_equal(plume_system_create(fixture_context(), &desc, &events), PLUME_OK);
        plume_particle_event received[64];
        plume_event_poll_info info;
        uint32_t delivered = 0;
        for (int i = 0; i < 4; ++i) {
            assert_int_equal(plume_system_update(fixture_context(), events, &frame), PLUME_OK);
            glFinish();
            assert_int_equal(plume_system_poll_events(fixture_context(), events, received, 64, &info), PLUME_OK);
            delivered += info.delivered;
        }
        assert_true(delivered > 0);
        assert_unchanged(before, count, by_copy ? "updates and polls reading events by copy" : "updates and polls");
        assert_int_equal(plume_system_destroy(fixture_context(), events), PLUME_OK);
    }
#ifndef PLUME_TESTS_THROUGH_TABLE
    plume_lab_cpu_events_read_by_copy(false);
#endif
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glDeleteBuffers(2, host_buffers);
}

static void test_every_call_inside_a_hostile_host(void **state) {
    (void)state;
    run_result *clean = calloc(1, sizeof *clean), *hostile = calloc(1, sizeof *hostile);
    assert_non_null(clean);
    assert_non_null(hostile);

    /* The same cloud in a clean context: what every result must equal. */
    host_target target = make_host_target(false);
    GLuint copy = test_texture_create(GL_RGBA32F, SIZE, SIZE);
    plume_system reference = run_cloud(&target, copy, false, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    read_run(reference, copy, clean);
    assert_int_equal(plume_system_destroy(fixture_context(), reference), PLUME_OK);
    free_host_target(&target);
    assert_true(clean->live > 500);

    target = make_host_target(true);
    GLuint scene_depth = test_texture_create(GL_DEPTH_COMPONENT32F, SIZE, SIZE);
    const float far = 1.0f;
    glClearTexImage(scene_depth, 0, GL_DEPTH_COMPONENT, GL_FLOAT, &far);
    GLuint field = 0; /* the world's vector field */
    glGenTextures(1, &field);
    glBindTexture(GL_TEXTURE_3D, field);
    const float up[4] = {0, 1, 0, 0};
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA32F, 1, 1, 1, 0, GL_RGBA, GL_FLOAT, up);
    glBindTexture(GL_TEXTURE_3D, 0);
    host_objects host = make_hostile(SIZE);
    GLint64 before[HOSTILE_MAX_VALUES];
    int count = snapshot(before);

    plume_system system = run_cloud(&target, copy, true, host.occlusion_query);
    assert_unchanged(before, count, "create, update under conditional rendering, draw");
    assert_int_equal(plume_system_set_profiling(fixture_context(), system, true), PLUME_OK);
    assert_unchanged(before, count, "set_profiling");
    plume_frame_desc frame = cloud_frame();
    frame.dt = 0.0f; /* the particles stay as the clean run left them */
    for (int i = 0; i < 4; ++i) { /* from the second frame on, the profiler reads queries */
        assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
        glFinish();
    }
    assert_unchanged(before, count, "profiled updates");
    plume_profile profile;
    assert_int_equal(plume_system_get_profile(fixture_context(), system, &profile), PLUME_OK);
    assert_true(profile.enabled);
    assert_true(profile.frame > 0);
    assert_int_equal(profile.live_count, clean->live);
    plume_readback rb = {.draw_order = hostile->order, .draw_keys = hostile->keys};
    assert_int_equal(plume_system_read_back(fixture_context(), system, &rb), PLUME_OK);
    assert_unchanged(before, count, "get_profile, read_back");
    /* Simulated and sorted as in the clean context. The cloud is frozen (no
     * speed, no force, all born by the first update), so the last update,
     * which the condition discards on the GPU, changes nothing shown here;
     * what a discarded sort leaves for the next is test_sort_api.c's. */
    assert_int_equal(rb.live_count, clean->live);
    assert_memory_equal(hostile->order, clean->order, sizeof(uint32_t) * clean->live);
    assert_memory_equal(hostile->keys, clean->keys, sizeof(uint32_t) * clean->live);
    plume_emitter_desc emitter = {.rate = 5, .lifetime = {1, 2}};
    assert_int_equal(plume_system_set_emitter(fixture_context(), system, 3, &emitter), PLUME_OK);
    plume_forces forces = {.drag = 0.5f};
    assert_int_equal(plume_system_set_forces(fixture_context(), system, &forces), PLUME_OK);
    assert_unchanged(before, count, "set_emitter, set_forces");
    /* The world: colliders, depth collision (the scene depth on unit 0), a
     * vector field (a 3D texture on unit 1) and events, through
     * set_world and an update that moves the particles. */
    plume_world world = {
        .colliders[0] = {.shape = PLUME_COLLIDER_PLANE, .position = {0, -1, 0}, .collision = {.restitution = 0.5f}},
        .depth_collision = {.enabled = true},
        .attractors[0] = {.kind = PLUME_ATTRACTOR_VORTEX, .strength = 1},
        .vector_field = {.texture = field, .bounds_min = {-2, -2, -2}, .bounds_max = {2, 2, 2}},
        .events[0] = {.trigger = PLUME_EVENT_COLLISION, .target_emitter = 3},
    };
    assert_int_equal(plume_system_set_world(fixture_context(), system, &world), PLUME_OK);
    assert_unchanged(before, count, "set_world");
    plume_frame_desc world_frame = cloud_frame();
    world_frame.depth_texture = scene_depth;
    for (int i = 0; i < 3; ++i) assert_int_equal(plume_system_update(fixture_context(), system, &world_frame), PLUME_OK);
    assert_unchanged(before, count, "updates with collisions, depth collision, a vector field and events");
    assert_int_equal(plume_batch_update(fixture_context(), &system, 1, &world_frame), PLUME_OK);
    assert_int_equal(plume_batch_update(fixture_context(), NULL, 0, &world_frame), PLUME_OK);
    assert_unchanged(before, count, "batch updates (a list, every live system) with the world");
    assert_int_equal(plume_system_set_world(fixture_context(), system, &(plume_world){0}), PLUME_OK);
    glDeleteTextures(1, &field);
    /* The low-resolution path binds framebuffers, viewport, depth state and a
     * third texture unit of its own. */
    frame.depth_texture = scene_depth;
    frame.draw_resolution = PLUME_DRAW_HALF;
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    assert_unchanged(before, count, "a draw at half resolution");
    /* The tiled path binds image unit 0, the copy buffers and the dispatch-
     * indirect buffer besides, and sorts through a second sorter. */
    frame.draw_path = PLUME_DRAW_PATH_TILED;
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    assert_unchanged(before, count, "a tiled draw at half resolution");
    frame.draw_resolution = PLUME_DRAW_FULL;
    for (int i = 0; i < 2; ++i) { /* the second reads the first's entry count back */
        assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
        glFinish();
    }
    assert_unchanged(before, count, "tiled draws at full resolution");
    /* Onto an RGBA16F colour texture the tiled path blends in compute,
     * reading and writing it through image unit 0, where the hostile host
     * bound its canary: at full and half resolution, nothing of the host's
     * changes, and the particles reach the texture. */
    GLuint colour16 = 0, framebuffer16 = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &colour16);
    glTextureStorage2D(colour16, 1, GL_RGBA16F, SIZE, SIZE);
    glClearTexImage(colour16, 0, GL_RGBA, GL_FLOAT, CLEAR);
    glCreateFramebuffers(1, &framebuffer16);
    glNamedFramebufferTexture(framebuffer16, GL_COLOR_ATTACHMENT0, colour16, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer16);
    GLint64 onto16[HOSTILE_MAX_VALUES];
    int count16 = snapshot(onto16);
    for (int half = 0; half < 2; ++half) {
        frame.draw_resolution = half ? PLUME_DRAW_HALF : PLUME_DRAW_FULL;
        assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
#ifndef PLUME_TESTS_THROUGH_TABLE
        bool onto = false;
        assert_int_equal(plume_lab_tiled_blended_onto_host(fixture_context(), system, &onto), PLUME_OK);
        assert_true(onto);
#endif
        assert_unchanged(onto16, count16, "tiled draws blending onto an RGBA16F colour in compute");
    }
    frame.draw_resolution = PLUME_DRAW_FULL;
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target.framebuffer);
    glDeleteFramebuffers(1, &framebuffer16);
    assert_unchanged(before, count, "tiled draws onto an RGBA16F colour, the host's framebuffer bound again");
    frame.draw_path = PLUME_DRAW_PATH_RASTER;
    frame.depth_texture = 0;
    poll_events_in_host(cloud_frame());
    assert_unchanged(before, count, "create, updates and polls of a system with events to the CPU");

    plume_sorter sorter = {0};
    plume_sorter_desc sorter_desc = {.capacity = SORT_PAIRS};
    assert_int_equal(plume_sorter_create(fixture_context(), &sorter_desc, &sorter), PLUME_OK);
    uint32_t pairs[2 * SORT_PAIRS], pair_count = SORT_PAIRS;
    for (uint32_t i = 0; i < SORT_PAIRS; ++i) pairs[2 * i] = test_random_below(64), pairs[2 * i + 1] = i;
    GLuint direct = test_buffer_create(sizeof pairs, pairs), indirect = test_buffer_create(sizeof pairs, pairs);
    GLuint count_buffer = test_buffer_create(sizeof pair_count, &pair_count);
    assert_int_equal(plume_sort(fixture_context(), sorter, direct, SORT_PAIRS), PLUME_OK);
    assert_int_equal(plume_sort_indirect(fixture_context(), sorter, indirect, count_buffer, 0), PLUME_OK);
    assert_unchanged(before, count, "sorter_create, sort, sort_indirect");

    /* Transform feedback running (not paused): refused, nothing done. */
    if (host.feedback_program) {
        test_log_expect_errors();
        glBindProgramPipeline(0);
        glUseProgram(host.feedback_program);
        glResumeTransformFeedback();
        GLint64 running[HOSTILE_MAX_VALUES];
        int running_count = snapshot(running);
        assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_ERROR_HOST_STATE);
        assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_ERROR_HOST_STATE);
        assert_int_equal(plume_sort(fixture_context(), sorter, direct, SORT_PAIRS), PLUME_ERROR_HOST_STATE);
        assert_int_equal(plume_system_reset(fixture_context(), system), PLUME_ERROR_HOST_STATE);
        assert_true(test_log_contains("transform feedback is active and not paused"));
        assert_unchanged(running, running_count, "calls refused under running transform feedback");
        glPauseTransformFeedback();
        glUseProgram(0);
        glBindProgramPipeline(host.pipeline);
        assert_unchanged(before, count, "the host pausing its transform feedback again");
    }

    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target.framebuffer);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, target.read_framebuffer);
    assert_int_equal(plume_system_reset(fixture_context(), system), PLUME_OK);
    assert_int_equal(plume_sorter_destroy(fixture_context(), sorter), PLUME_OK);
    assert_unchanged(before, count, "reset, sorter_destroy");

    end_hostile(&host);
    /* Read once the host's pack buffer is unbound. */
    float *onto_pixels = malloc(sizeof(float) * 4 * SIZE * SIZE);
    assert_non_null(onto_pixels);
    glGetTextureImage(colour16, 0, GL_RGBA, GL_FLOAT, (GLsizei)(sizeof(float) * 4 * SIZE * SIZE), onto_pixels);
    glDeleteTextures(1, &colour16);
    int drawn16 = 0;
    for (int i = 0; i < SIZE * SIZE; ++i) drawn16 += onto_pixels[4 * i] > CLEAR[0] + 0.01f;
    free(onto_pixels);
    printf("  onto an RGBA16F colour in compute: %d pixels drawn\n", drawn16);
    assert_true(drawn16 > 100); /* the scissored half's cloud (the clean run covers as many) */
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    /* Read after the reset: the copy was taken before it. */
    read_texture(copy, GL_FLOAT, hostile->image);
    unsigned char *canary = malloc(4 * SIZE * SIZE);
    assert_non_null(canary);
    read_texture(target.canary_color, GL_UNSIGNED_BYTE, canary);
    for (int i = 0; i < 4 * SIZE * SIZE; ++i)
        if (canary[i] != HOSTILE_CANARY) fail_msg("the module wrote draw buffer 1 (byte %d)", i);
    free(canary);
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);

    /* The draw: the scissored left half as in the clean context (draws under
     * conditional rendering were not involved), the right half untouched. */
    int covered = 0;
    for (int y = 0; y < SIZE; ++y)
        for (int x = 0; x < SIZE; ++x)
            for (int c = 0; c < 4; ++c) {
                size_t i = 4 * ((size_t)y * SIZE + x) + c;
                float expected = x < host.drawn_width ? clean->image[i] : CLEAR[c];
                if (x < host.drawn_width && clean->image[i] != CLEAR[c]) ++covered;
                if (hostile->image[i] < expected - 1e-5f || hostile->image[i] > expected + 1e-5f)
                    fail_msg("pixel (%d, %d) channel %d is %f; the clean context drew %f", x, y, c,
                             hostile->image[i], expected);
            }
    assert_true(covered > 100); /* the particles reach the scissored half */

    /* The sorts, against a CPU order (keys below 64: many ties, by value). */
    uint32_t sorted[2 * SORT_PAIRS];
    for (int which = 0; which < 2; ++which) {
        test_buffer_read(which ? indirect : direct, 0, sizeof sorted, sorted);
        for (uint32_t i = 1; i < SORT_PAIRS; ++i) {
            bool ordered = sorted[2 * i - 2] < sorted[2 * i] ||
                           (sorted[2 * i - 2] == sorted[2 * i] && sorted[2 * i - 1] < sorted[2 * i + 1]);
            if (!ordered) fail_msg("%s sort out of order at %u", which ? "indirect" : "direct", i);
        }
    }
    GLuint buffers[] = {direct, indirect, count_buffer};
    glDeleteBuffers(3, buffers);
    glDeleteTextures(1, &copy);
    glDeleteTextures(1, &scene_depth);
    free_host_target(&target);
    free(clean);
    free(hostile);
}

/* The fragment path's sorts and particle system inside a hostile host
 * (tests/support/hostile_host.c: its
 * transform feedback paused on its own object over a canary buffer,
 * rasterizer discard, primitive restart, clip distances, pixel buffers and
 * more): every value the host set stays, none of its objects is written, the
 * sorts' results are qsort's and the system's particles and order those of a
 * clean context. The hostile state needs GL 4.3 (its programs); on
 * a 3.3 context the sorts run in a clean one. */
static void test_fragment_sorts_inside_a_hostile_host(void **state) {
    (void)state;
    enum { COUNT = 3000, WIDTH = 70, BOUND = COUNT + 60, GPU_COUNT = COUNT - 7 };
    plume_context *context = fixture_context();
    plume_sorter_desc desc = {.capacity = BOUND, .path = PLUME_PATH_FRAGMENT};
    plume_sorter sorter = {0};
    assert_int_equal(plume_sorter_create(context, &desc, &sorter), PLUME_OK);
    pair *input = random_pairs(COUNT, 2), *data = malloc(sizeof(pair) * BOUND), *out = malloc(sizeof(pair) * BOUND);
    assert_non_null(data);
    assert_non_null(out);
    for (uint32_t i = 0; i < BOUND; ++i) data[i] = i < COUNT ? input[i] : POISON;
    GLuint texture = 0; /* WIDTH a row, the rest poisoned */
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32UI, WIDTH, COUNT / WIDTH + 1, 0, GL_RG_INTEGER, GL_UNSIGNED_INT, data);
    glBindTexture(GL_TEXTURE_2D, 0);
    GLuint direct = test_buffer_create(sizeof(pair) * BOUND, data), bounded = test_buffer_create(sizeof(pair) * BOUND, data);
    uint32_t words[4] = {9, GPU_COUNT, 9, 9};
    GLuint count_buffer = test_buffer_create(sizeof words, words);
    /* A particle system on the fragment path, first in a clean context. */
    plume_system_desc system_desc = cloud_desc();
    system_desc.path = PLUME_PATH_FRAGMENT;
    plume_frame_desc frame = cloud_frame();
    plume_system systems[2] = {{0}, {0}};
    static uint32_t orders[2][3000], keys[2][3000];
    plume_readback readbacks[2] = {{.draw_order = orders[0], .draw_keys = keys[0]},
                                   {.draw_order = orders[1], .draw_keys = keys[1]}};
    assert_int_equal(plume_system_create(context, &system_desc, &systems[0]), PLUME_OK);
    for (int i = 0; i < UPDATES; ++i) assert_int_equal(plume_system_update(context, systems[0], &frame), PLUME_OK);
    assert_int_equal(plume_system_read_back(context, systems[0], &readbacks[0]), PLUME_OK);
    bool hostile = epoxy_gl_version() >= 43;
    host_target target = make_host_target(true); /* the host's framebuffers bound */
    host_objects host;
    GLint64 before[HOSTILE_MAX_VALUES];
    int values = 0;
    if (hostile) {
        host = make_hostile(16);
        values = snapshot(before);
    } else {
        printf("  GL %d.%d: no hostile host (it needs GL 4.3)\n", epoxy_gl_version() / 10, epoxy_gl_version() % 10);
    }
    assert_int_equal(plume_sort_texture(context, sorter, texture, COUNT), PLUME_OK);
    assert_int_equal(plume_sort(context, sorter, direct, COUNT), PLUME_OK);
    assert_int_equal(plume_sort_indirect_bounded(context, sorter, bounded, count_buffer, 4, BOUND), PLUME_OK);
    assert_int_equal(plume_system_create(context, &system_desc, &systems[1]), PLUME_OK);
    for (int i = 0; i < UPDATES; ++i) assert_int_equal(plume_system_update(context, systems[1], &frame), PLUME_OK);
    assert_int_equal(plume_system_draw(context, systems[1], &frame), PLUME_OK);
    assert_int_equal(plume_system_read_back(context, systems[1], &readbacks[1]), PLUME_OK);
    if (hostile) {
        assert_unchanged(before, values, "the fragment path's sorts, and its system's create, updates, draw, read_back");
        end_hostile(&host);
    }
    pair *expected = malloc(sizeof(pair) * COUNT);
    assert_non_null(expected);
    for (int which = 0; which < 3; ++which) {
        uint32_t count = which == 2 ? GPU_COUNT : COUNT;
        memcpy(expected, which == 2 ? data : input, sizeof(pair) * count);
        qsort(expected, count, sizeof(pair), compare_pairs);
        if (which == 0) {
            glBindTexture(GL_TEXTURE_2D, texture);
            glPixelStorei(GL_PACK_ALIGNMENT, 4);
            glGetTexImage(GL_TEXTURE_2D, 0, GL_RG_INTEGER, GL_UNSIGNED_INT, out);
            glBindTexture(GL_TEXTURE_2D, 0);
        } else {
            test_buffer_read(which == 1 ? direct : bounded, 0, sizeof(pair) * BOUND, out);
        }
        for (uint32_t i = 0; i < count; ++i)
            if (out[i].key != expected[i].key || out[i].value != expected[i].value)
                fail_msg("sort %d in a hostile host: pair %u is {%08x, %u}, expected {%08x, %u}", which, i, out[i].key,
                         out[i].value, expected[i].key, expected[i].value);
        for (uint32_t i = count; which > 0 && i < BOUND; ++i)
            if (memcmp(&out[i], &data[i], sizeof(pair)) != 0)
                fail_msg("sort %d in a hostile host wrote pair %u, past the count %u", which, i, count);
    }
    free_host_target(&target);
    /* Simulated and sorted as in the clean context. */
    assert_true(readbacks[0].live_count > 500);
    assert_int_equal(readbacks[1].live_count, readbacks[0].live_count);
    assert_int_equal(readbacks[1].drawn_count, readbacks[0].drawn_count);
    assert_memory_equal(orders[1], orders[0], sizeof(uint32_t) * readbacks[0].drawn_count);
    assert_memory_equal(keys[1], keys[0], sizeof(uint32_t) * readbacks[0].drawn_count);
    for (int k = 0; k < 2; ++k) assert_int_equal(plume_system_destroy(context, systems[k]), PLUME_OK);
    GLuint buffers[] = {direct, bounded, count_buffer};
    glDeleteBuffers(3, buffers);
    glDeleteTextures(1, &texture);
    free(input);
    free(data);
    free(out);
    free(expected);
    plume_sorter_destroy(context, sorter);
}

const struct CMUnitTest host_state_tests[] = {
    cmocka_unit_test_setup_teardown(test_every_call_inside_a_hostile_host, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_fragment_sorts_inside_a_hostile_host, fixture_setup, fixture_teardown),
};
const size_t host_state_test_count = sizeof host_state_tests / sizeof host_state_tests[0];
