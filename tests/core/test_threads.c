/* Several GL contexts on several threads at once, each with its own plume
 * context and systems: each thread creates, updates, draws and reads back
 * its systems concurrently with the others, and every thread's particles and
 * image equal those of the same work done alone on the test's own thread.
 * The module keeps no process-wide mutable state, so nothing is shared
 * between the threads but the GL driver. Threads never call cmocka (its
 * failures jump back into the test's own thread): they report, the test
 * checks. plume_plugin_host compiles this file again with every plume call
 * routed through the plugin table. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "headless_gl.h"
#include "particle_fixture.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { THREADS = 3, SYSTEMS_PER_THREAD = 2, STEPS = 24, FRAME_SIZE = 64 };

/* One thread's work and what it gave. */
typedef struct thread_work {
    const headless_gl *gl; /* made current on the thread; NULL: the one current already */
    uint32_t first_seed;
    uint32_t path;                 /* a plume_gpu_path */
    char failure[256];             /* empty: every call succeeded */
    int logged_errors;
    uint64_t particles_checksum;   /* every system's particles in draw order, and counts */
    uint64_t image_checksum;       /* the image of every draw */
    uint32_t live_total;
} thread_work;

static void count_errors(plume_log_level level, const char *message, void *user) {
    (void)message;
    if (level == PLUME_LOG_ERROR) ++((thread_work *)user)->logged_errors;
}

static uint64_t fnv1a(uint64_t hash, const void *bytes, size_t size) {
    const unsigned char *b = bytes;
    for (size_t i = 0; i < size; ++i) hash = (hash ^ b[i]) * 0x100000001B3ull;
    return hash;
}

static bool failed(thread_work *w, plume_result result, const char *what) {
    if (result == PLUME_OK) return false;
    if (!w->failure[0]) snprintf(w->failure, sizeof w->failure, "%s: %s", what, plume_result_string(result));
    return true;
}

static void camera(plume_frame_desc *frame) {
    /* Looks down -z from z = 6 (column-major), a 60 degree frustum from 0.5 to 50. */
    static const float view[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -6, 1};
    const float f = 1.7320508f, near = 0.5f, far = 50.0f;
    const float projection[16] = {f, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1,
                                  0, 0, 2 * far * near / (near - far), 0};
    memcpy(frame->view, view, sizeof view);
    memcpy(frame->projection, projection, sizeof projection);
    frame->viewport_size[0] = frame->viewport_size[1] = FRAME_SIZE;
}

static void read_back_into_checksum(thread_work *w, plume_context *context, plume_system system, uint32_t capacity) {
    plume_readback rb = {.particles = calloc(capacity, sizeof(plume_particle)),
                         .draw_order = calloc(capacity, sizeof(uint32_t)),
                         .draw_keys = calloc(capacity, sizeof(uint32_t)),
                         .dead_slots = calloc(capacity, sizeof(uint32_t))};
    if (!rb.particles || !rb.draw_order || !rb.draw_keys || !rb.dead_slots)
        snprintf(w->failure, sizeof w->failure, "out of memory");
    else if (!failed(w, plume_system_read_back(context, system, &rb), "plume_system_read_back")) {
        w->particles_checksum = fnv1a(w->particles_checksum, &rb.live_count, sizeof rb.live_count);
        w->particles_checksum = fnv1a(w->particles_checksum, &rb.emitted_total, sizeof rb.emitted_total);
        for (uint32_t i = 0; i < rb.live_count && i < capacity; ++i)
            w->particles_checksum =
                fnv1a(w->particles_checksum, &rb.particles[rb.draw_order[i] % capacity], sizeof(plume_particle));
        w->live_total += rb.live_count;
    }
    free(rb.particles);
    free(rb.draw_order);
    free(rb.draw_keys);
    free(rb.dead_slots);
}

static void *run_work(void *argument) {
    thread_work *w = argument;
    if (w->gl && !headless_gl_make_current(w->gl)) {
        snprintf(w->failure, sizeof w->failure, "eglMakeCurrent failed");
        return NULL;
    }
    plume_context_desc context_desc = {.logger = {count_errors, w}};
    plume_context *context = NULL;
    plume_system systems[SYSTEMS_PER_THREAD] = {{0}};
    if (failed(w, plume_context_create(&context_desc, &context), "plume_context_create")) return NULL;
    for (int i = 0; i < SYSTEMS_PER_THREAD; ++i) {
        plume_system_desc desc = busy_desc(w->first_seed + (uint32_t)i);
        desc.path = w->path;
        failed(w, plume_system_create(context, &desc, &systems[i]), "plume_system_create");
    }
    GLuint color = 0, framebuffer = 0;
    glGenTextures(1, &color);
    glBindTexture(GL_TEXTURE_2D, color);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, FRAME_SIZE, FRAME_SIZE);
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    glViewport(0, 0, FRAME_SIZE, FRAME_SIZE);
    unsigned char *image = malloc(FRAME_SIZE * FRAME_SIZE * 4);
    if (!image) snprintf(w->failure, sizeof w->failure, "out of memory");
    for (int step = 0; step < STEPS && !w->failure[0]; ++step) {
        glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        plume_frame_desc frame = {.dt = 1.0f / 60.0f};
        camera(&frame);
        for (int i = 0; i < SYSTEMS_PER_THREAD; ++i) {
            failed(w, plume_system_update(context, systems[i], &frame), "plume_system_update");
            failed(w, plume_system_draw(context, systems[i], &frame), "plume_system_draw");
        }
        glReadPixels(0, 0, FRAME_SIZE, FRAME_SIZE, GL_RGBA, GL_UNSIGNED_BYTE, image);
        w->image_checksum = fnv1a(w->image_checksum, image, FRAME_SIZE * FRAME_SIZE * 4);
    }
    free(image);
    for (int i = 0; i < SYSTEMS_PER_THREAD && !w->failure[0]; ++i)
        read_back_into_checksum(w, context, systems[i], busy_desc(0).capacity);
    if (glGetError() != GL_NO_ERROR && !w->failure[0]) snprintf(w->failure, sizeof w->failure, "a GL error");
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &framebuffer);
    glDeleteTextures(1, &color);
    for (int i = 0; i < SYSTEMS_PER_THREAD; ++i) failed(w, plume_system_destroy(context, systems[i]), "destroy");
    plume_context_destroy(context);
    if (w->gl) headless_gl_release_current(w->gl);
    return NULL;
}

static void test_contexts_on_threads_match_the_same_work_alone(void **state) {
    (void)state;
    thread_work alone[THREADS], together[THREADS];
    for (int t = 0; t < THREADS; ++t) {
        alone[t] = (thread_work){.first_seed = 100 + 10 * (uint32_t)t, .path = test_forced_path()};
        run_work(&alone[t]); /* on the test's thread and GL context, one after the other */
        if (alone[t].failure[0]) fail_msg("alone %d: %s", t, alone[t].failure);
        assert_int_equal(alone[t].logged_errors, 0);
        assert_true(alone[t].live_total > 0);
    }
    headless_gl gl[THREADS];
    char error[256];
    for (int t = 0; t < THREADS; ++t) {
        if (!headless_gl_create(&gl[t], true, NULL, error, sizeof error)) fail_msg("GL context %d: %s", t, error);
        together[t] = (thread_work){.gl = &gl[t], .first_seed = alone[t].first_seed, .path = alone[t].path};
    }
    test_make_main_context_current(); /* a context is current on one thread at a time */
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; ++t) assert_int_equal(pthread_create(&threads[t], NULL, run_work, &together[t]), 0);
    for (int t = 0; t < THREADS; ++t) assert_int_equal(pthread_join(threads[t], NULL), 0);
    /* Each thread's seeds draw something of their own. */
    for (int t = 1; t < THREADS; ++t) assert_true(alone[t].image_checksum != alone[0].image_checksum);
    for (int t = 0; t < THREADS; ++t) {
        if (together[t].failure[0]) fail_msg("thread %d: %s", t, together[t].failure);
        assert_int_equal(together[t].logged_errors, 0);
        assert_int_equal(together[t].live_total, alone[t].live_total);
        assert_true(together[t].particles_checksum == alone[t].particles_checksum);
        assert_true(together[t].image_checksum == alone[t].image_checksum);
    }
    for (int t = 0; t < THREADS; ++t) headless_gl_destroy(&gl[t]); /* unbinds the test's context too */
    test_make_main_context_current();
}

const struct CMUnitTest threads_tests[] = {
    cmocka_unit_test_setup_teardown(test_contexts_on_threads_match_the_same_work_alone, fixture_setup,
                                    fixture_teardown),
};
const size_t threads_test_count = sizeof threads_tests / sizeof threads_tests[0];
