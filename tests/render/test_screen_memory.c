/* What depends on the screen (the tiled path's target, tile ranges, chunk
 * partials, entries and their sorter; the low-resolution targets) or serves
 * a draw only while it runs (the tiled path's splats, counts, scan sums and
 * control words, the entry counts' readbacks, the low-resolution
 * arguments) is the context's, shared by every system drawn with it: a
 * system of 1024 particles holds at most 0.5 MB on any path and resolution,
 * the same bytes on each, within the header's statement (its block of the
 * pool, its live list and under 16 KiB besides: no event buffer, no
 * buffer of an upload ring it never writes), a second system adds its own
 * bytes only, and the context holds nothing else
 * (plume_lab_gpu_memory_of); many systems drawn tiled in
 * one frame give the raster path's picture; systems of very different entry
 * budgets interleaved (one overflowing every frame, one growing) stay
 * correct; a system drawn again after others drew at other sizes, tile sizes
 * and resolutions draws the same picture, bit for bit; destroying the
 * systems frees the shared scratch with the last one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "plume/plume_particles.h"
#include "plume/plume_profile.h"
#include "plume_fixture.h"
#include "plume_lab.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { WIDTH = RENDER_WIDTH, HEIGHT = RENDER_HEIGHT, SMALL_CAPACITY = 1024, MANY = 6 };
static const float TOLERANCE = 2.0f / 255.0f;
static const uint64_t SMALL_SYSTEM_BYTES = 512 * 1024;
/* plume_particles.h's statement of a system's GPU memory, on every path
 * ("about": a tenth more at most). */
static const double STATED_BYTES_PER_PARTICLE = 84 * 1.1, STATED_BYTES_BESIDES = 8 * 1024 * 1.1;
/* And where its sort takes the radix passes over several workgroups: "at
 * most 16 bytes per particle and 24 KiB" more. */
static const double STATED_RADIX_BYTES_PER_PARTICLE = 16, STATED_RADIX_BYTES_BESIDES = 24 * 1024;
/* What a plain system (no event route, world space, emitters never set
 * again) holds besides its block of the pool and its live list (a pair a
 * particle): its sorter's and its small buffers, one emitters' buffer; no
 * event buffer, no buffer of an upload ring it never wrote (7.9 KiB on
 * llvmpipe). */
static const uint64_t PLAIN_FIXED_BYTES = 16 * 1024;

static plume_frame_desc drawn(plume_draw_path path, uint32_t resolution) {
    /* No early termination: the tiled path's picture is then the raster
     * path's within 2/255 (test_tiled.c). */
    return (plume_frame_desc){.draw_path = path, .draw_resolution = resolution, .disable_early_termination = true};
}

static plume_lab_gpu_memory memory_of(plume_system system) {
    plume_lab_gpu_memory memory;
    assert_int_equal(plume_lab_gpu_memory_of(fixture_context(), system, &memory), PLUME_OK);
    return memory;
}

/* The bytes of the context's buffers that the radix sort's passes over
 * several workgroups keep (labelled "plume sort: radix"): a sorter has them
 * where its capacity takes those passes (NVIDIA's tuning: over 4096 pairs),
 * none on llvmpipe at the tests' capacities. */
static uint64_t radix_sort_bytes(void) {
    uint32_t count = 0;
    assert_int_equal(plume_context_list_gl_objects(fixture_context(), NULL, 0, &count), PLUME_OK);
    plume_gl_object *all = malloc(sizeof *all * (count + 1));
    assert_non_null(all);
    assert_int_equal(plume_context_list_gl_objects(fixture_context(), all, count, &count), PLUME_OK);
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (all[i].type != GL_BUFFER) continue;
        char label[64] = {0};
        glGetObjectLabel(GL_BUFFER, all[i].name, sizeof label, NULL, label);
        GLint64 size = 0;
        glGetNamedBufferParameteri64v(all[i].name, GL_BUFFER_SIZE, &size);
        if (strncmp(label, "plume sort: radix", 17) == 0) bytes += (uint64_t)size;
    }
    free(all);
    return bytes;
}

/* The context's bytes less its pool's free space: the systems' own objects
 * and blocks, and the shared scratch. */
static uint64_t unpooled_bytes(plume_lab_gpu_memory m) {
    return m.total_bytes - m.pool_bytes + m.pool_used_bytes;
}

static void update_all(const plume_system *systems, uint32_t count, const render_camera *c) {
    plume_frame_desc frame = {.dt = 0.001f};
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    for (uint32_t i = 0; i < count; ++i)
        assert_int_equal(plume_system_update(fixture_context(), systems[i], &frame), PLUME_OK);
}

static void destroy_all(const plume_system *systems, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i)
        assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
}

/* Each path and resolution: two systems of 1024 drawn; each holds at most
 * 0.5 MB, the context holds the two and the shared scratch and nothing
 * else; destroying both leaves nothing. */
static void test_a_small_system_holds_memory_for_its_capacity(void **state) {
    (void)state;
    static const struct {
        const char *name;
        plume_draw_path path;
        uint32_t resolution;
    } WAYS[] = {{"raster", PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL},  {"raster 1/2", PLUME_DRAW_PATH_RASTER, PLUME_DRAW_HALF},
                {"tiled", PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL},    {"tiled 1/2", PLUME_DRAW_PATH_TILED, PLUME_DRAW_HALF},
                {"tiled 1/4", PLUME_DRAW_PATH_TILED, PLUME_DRAW_QUARTER}};
    render_camera c = render_make_camera();
    float *image = render_new_image();
    const float centre[3] = {0.0f, 0.0f, -7.0f};
    for (size_t w = 0; w < sizeof WAYS / sizeof WAYS[0]; ++w) {
        plume_system systems[2] = {render_cloud(centre, 3.0f, 1.0f, SMALL_CAPACITY, 3, true),
                                   render_cloud(centre, 2.0f, 0.5f, SMALL_CAPACITY, 4, false)};
        for (int i = 0; i < 2; ++i)
            render_frame(systems[i], &c, drawn(WAYS[w].path, WAYS[w].resolution), true, 0, 1.0f, image);
        plume_lab_gpu_memory a = memory_of(systems[0]), b = memory_of(systems[1]);
        printf("  %-10s: systems %.1f and %.1f KiB, shared %.1f KiB, context %.1f KiB\n", WAYS[w].name,
               a.system_bytes / 1024.0, b.system_bytes / 1024.0, a.shared_bytes / 1024.0, a.total_bytes / 1024.0);
        assert_true(a.system_bytes > 0 && a.system_bytes <= SMALL_SYSTEM_BYTES);
        assert_true(b.system_bytes > 0 && b.system_bytes <= SMALL_SYSTEM_BYTES);
        assert_true((WAYS[w].path == PLUME_DRAW_PATH_TILED || WAYS[w].resolution != PLUME_DRAW_FULL) ==
                    (a.shared_bytes > 0));
        assert_true(a.total_bytes == a.system_bytes + b.system_bytes + a.shared_bytes + a.pool_bytes - a.pool_used_bytes);
        destroy_all(systems, 2);
        plume_lab_gpu_memory none = memory_of((plume_system){0});
        assert_true(none.total_bytes == 0 && none.shared_bytes == 0);
    }
    free(image);
}

/* Clouds of different sizes, counts and tile sizes, overlapping. */
static void make_many(plume_system systems[MANY], uint32_t seed) {
    for (int i = 0; i < MANY; ++i) {
        const float centre[3] = {-1.5f + 0.6f * (float)i, 0.4f * (float)(i % 3) - 0.4f, -5.5f - 0.2f * (float)i};
        systems[i] = render_cloud(centre, 1.5f + 0.3f * (float)i, 1.3f + 0.2f * (float)(i % 2), 97 + 131 * (uint32_t)i,
                                  seed + (uint32_t)i, true);
        assert_int_equal(plume_lab_tiled_configure(fixture_context(), systems[i], i % 3 == 2 ? 8 : 0, 0, false,
                                                   PLUME_SORT_AUTOMATIC, i % 2 ? 16 : 0),
                         PLUME_OK);
    }
}

/* Six systems drawn tiled, each alone (after the others used the shared
 * scratch) and all into one frame, one after another: the raster path's
 * picture of the same (render_within_tiled_bound: on NVIDIA one seed put a
 * system's pixel at 2.33/255), and memory for one shared scratch only. */
static void test_many_systems_tiled_in_one_frame(void **state) {
    (void)state;
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    render_camera c = render_make_camera();
    plume_system systems[MANY];
    make_many(systems, seed);
    update_all(systems, MANY, &c);
    plume_frame_desc raster[MANY], tiled[MANY];
    for (int i = 0; i < MANY; ++i) {
        raster[i] = drawn(PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL);
        tiled[i] = drawn(PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL);
    }
    float *expected = render_new_image(), *image = render_new_image();
    for (int i = 0; i < MANY; ++i) {
        render_draw_many(systems + i, 1, &c, raster, NULL, expected);
        render_draw_many(systems + i, 1, &c, tiled, NULL, image);
        float alone;
        int over;
        if (!render_within_tiled_bound(expected, image, TOLERANCE, &alone, &over))
            fail_msg("system %d alone: %.2f/255 from raster, %d pixels over 2/255", i, alone * 255.0f, over);
    }
    render_draw_many(systems, MANY, &c, raster, NULL, expected);
    render_draw_many(systems, MANY, &c, tiled, NULL, image);
    float largest;
    int over;
    bool within = render_within_tiled_bound(expected, image, TOLERANCE, &largest, &over);
    printf("  %d systems tiled in one frame: %.2f/255 from raster, %d pixels over 2/255 (at most %d)\n", MANY,
           largest * 255.0f, over, RENDER_TILED_OUTLIERS);
    assert_true(render_covered_pixels(expected) > WIDTH * HEIGHT / 4);
    assert_true(within);
    uint64_t systems_bytes = 0;
    plume_lab_gpu_memory memory = memory_of((plume_system){0});
    for (int i = 0; i < MANY; ++i) systems_bytes += memory_of(systems[i]).system_bytes;
    printf("  systems %.1f KiB in all, shared %.1f KiB\n", systems_bytes / 1024.0, memory.shared_bytes / 1024.0);
    assert_true(memory.total_bytes == systems_bytes + memory.shared_bytes + memory.pool_bytes - memory.pool_used_bytes);
    destroy_all(systems, MANY);
    free(expected);
    free(image);
}

/* One system whose budget stays at 64 entries (every frame overflows and
 * draws raster), one whose budget starts at 64 and grows, one of the
 * default budget, drawn interleaved for five frames: each frame the raster
 * path's picture; each system's budget is its own. */
static void test_budgets_of_interleaved_systems(void **state) {
    (void)state;
    enum { FRAMES = 5 };
    render_camera c = render_make_camera();
    const float left[3] = {-0.8f, 0.0f, -6.0f}, right[3] = {0.8f, 0.2f, -6.5f}, middle[3] = {0.0f, -0.3f, -7.0f};
    plume_system systems[3] = {render_cloud(left, 2.0f, 1.0f, 600, 8, true), render_cloud(right, 2.0f, 1.2f, 900, 9, true),
                               render_cloud(middle, 1.5f, 1.2f, 300, 10, true)};
    const uint32_t budgets[3] = {64, 64, 0};
    const bool fixed[3] = {true, false, false};
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(plume_lab_tiled_configure(fixture_context(), systems[i], 0, budgets[i], fixed[i],
                                                   PLUME_SORT_AUTOMATIC, 0),
                         PLUME_OK);
        assert_int_equal(plume_system_set_profiling(fixture_context(), systems[i], true), PLUME_OK);
    }
    plume_frame_desc raster[3], tiled[3];
    for (int i = 0; i < 3; ++i) {
        raster[i] = drawn(PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL);
        tiled[i] = drawn(PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL);
    }
    float *expected = render_new_image(), *image = render_new_image();
    for (int frame = 0; frame < FRAMES; ++frame) {
        update_all(systems, 3, &c);
        render_draw_many(systems, 3, &c, raster, NULL, expected);
        render_draw_many(systems, 3, &c, tiled, NULL, image);
        glFinish(); /* the entry counts' fences pass: the growing budget follows before the next frame */
        float largest = render_largest_difference(expected, image);
        if (largest > TOLERANCE) fail_msg("frame %d: %.2f/255 from raster", frame, largest * 255.0f);
    }
    plume_profile profiles[3];
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(plume_system_get_profile(fixture_context(), systems[i], &profiles[i]), PLUME_OK);
        printf("  system %d: last frame %u entries of %u, %u overflow frames\n", i, profiles[i].tiled_entries,
               profiles[i].tiled_entry_budget, profiles[i].tiled_overflow_frames);
    }
    /* The profile is a frame or two behind: the counts, not their frames. */
    assert_int_equal(profiles[0].tiled_entry_budget, 64);
    assert_true(profiles[0].tiled_overflow_frames >= FRAMES - 2 && profiles[0].tiled_entries > 64);
    assert_true(profiles[1].tiled_overflow_frames >= 1 && profiles[1].tiled_overflow_frames < FRAMES - 2);
    assert_true(test_log_contains("the tiled path's entries grow from 64"));
    assert_true(profiles[1].tiled_entry_budget >= profiles[1].tiled_entries);
    assert_int_equal(profiles[2].tiled_overflow_frames, 0);
    destroy_all(systems, 3);
    free(expected);
    free(image);
}

/* A system drawn tiled (full, 1/2, 1/4) before and after others drew into
 * viewports of other sizes, with other tile sizes, budgets and resolutions
 * (the shared target grows, the low-resolution targets are re-made): the
 * same picture bit for bit; and in each viewport the tiled picture of all
 * is the raster one. */
static void test_shared_scratch_across_viewports(void **state) {
    (void)state;
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    render_camera c = render_make_camera();
    plume_system systems[MANY];
    make_many(systems, seed);
    update_all(systems, MANY, &c);
    const int viewports[3][4] = {{0, 0, WIDTH, HEIGHT}, {9, 5, WIDTH - 30, HEIGHT - 21}, {0, 0, WIDTH / 2 + 3, HEIGHT / 2 + 1}};
    const uint32_t resolutions[3] = {PLUME_DRAW_FULL, PLUME_DRAW_HALF, PLUME_DRAW_QUARTER};
    float *before = render_new_image(), *after = render_new_image(), *expected = render_new_image();
    for (int r = 0; r < 3; ++r) {
        plume_frame_desc first = drawn(PLUME_DRAW_PATH_TILED, resolutions[r]);
        render_draw_many(systems, 1, &c, &first, viewports[1], before);
        for (int v = 0; v < 3; ++v) {
            plume_frame_desc raster[MANY], tiled[MANY];
            for (int i = 0; i < MANY; ++i) {
                raster[i] = drawn(PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL);
                tiled[i] = drawn(PLUME_DRAW_PATH_TILED, resolutions[(i + v) % 3]);
            }
            if (r == 0 && v < 2) { /* all at full resolution: the raster path's picture (the smallest
                                     * viewport's particles are a few pixels across, where the paths'
                                     * edge rounding differs by more than 2/255; in the second, a
                                     * seed in about a hundred puts one pixel at 2.5-2.7/255: the
                                     * tiled bound's few outliers, render_within_tiled_bound) */
                for (int i = 0; i < MANY; ++i) tiled[i].draw_resolution = PLUME_DRAW_FULL;
                render_draw_many(systems, MANY, &c, raster, viewports[v], expected);
                render_draw_many(systems, MANY, &c, tiled, viewports[v], after);
                float largest;
                int over;
                if (!render_within_tiled_bound(expected, after, TOLERANCE, &largest, &over))
                    fail_msg("viewport %d: %.2f/255 from raster, %d pixels over %.0f/255", v, largest * 255.0f, over,
                             TOLERANCE * 255.0f);
            } else {
                render_draw_many(systems, MANY, &c, tiled, viewports[v], after);
            }
        }
        render_draw_many(systems, 1, &c, &first, viewports[1], after);
        float largest = render_largest_difference(before, after);
        printf("  tiled at 1/%d after the others: %g from before\n", 1 << r, largest);
        assert_true(render_covered_pixels(before) > 0);
        assert_true(largest == 0.0f);
    }
    destroy_all(systems, MANY);
    free(before);
    free(after);
    free(expected);
}

/* The shared scratch outlives any one system and goes with the last: each
 * destroy frees what that system held, and the scratch's GL objects are dead
 * once every system that drew with it is destroyed. */
static void test_destroying_systems_frees_the_scratch(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    const float centre[3] = {0.0f, 0.0f, -7.0f};
    float *image = render_new_image();
    plume_system systems[3];
    for (int i = 0; i < 3; ++i) {
        systems[i] = render_cloud(centre, 2.0f, 1.0f, 200 + 100 * (uint32_t)i, 20 + (uint32_t)i, true);
        render_frame(systems[i], &c, drawn(PLUME_DRAW_PATH_TILED, i == 2 ? PLUME_DRAW_HALF : PLUME_DRAW_FULL), true,
                     0, 1.0f, image);
    }
    plume_gl_object objects[256];
    uint32_t count = 0;
    assert_int_equal(plume_context_list_gl_objects(fixture_context(), objects, 256, &count), PLUME_OK);
    assert_true(count <= 256);
    plume_lab_gpu_memory all = memory_of(systems[0]);
    assert_true(all.shared_bytes > 0);
    for (int i = 0; i < 2; ++i) {
        plume_lab_gpu_memory left = memory_of(systems[i + 1]);
        /* The pool's pages stay while a system holds a block: what is not
         * the pool's slack goes down by what the system held. */
        uint64_t freed = memory_of(systems[i]).system_bytes, total = unpooled_bytes(memory_of((plume_system){0}));
        assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
        plume_lab_gpu_memory now = memory_of((plume_system){0});
        assert_true(unpooled_bytes(now) == total - freed);
        assert_true(now.shared_bytes == left.shared_bytes && now.shared_bytes > 0);
    }
    assert_int_equal(plume_system_destroy(fixture_context(), systems[2]), PLUME_OK);
    uint32_t left = 0;
    assert_int_equal(plume_context_list_gl_objects(fixture_context(), NULL, 0, &left), PLUME_OK);
    assert_int_equal(left, 0);
    /* Buffers, textures and framebuffers: what holds memory. (A program of
     * a system drawn tiled can outlive it on llvmpipe, as on main before
     * the scratch was shared: a driver's deferred deletion, not memory.) */
    for (uint32_t i = 0; i < count; ++i)
        if (objects[i].type != GL_PROGRAM && test_gl_object_alive(objects[i]))
            fail_msg("GL object %u (type 0x%04x) outlived the systems", objects[i].name, objects[i].type);
    free(image);
}

/* The header's statement (plume_particles.h, "GPU memory"): a system's
 * bytes (its GL objects and its block of the particle pool, as
 * plume_context_list_gl_objects lists them, sizes from the GL) are the
 * same drawn raster or tiled, at full or half resolution (what those paths
 * need besides is the context's), within the stated bytes per particle
 * and besides, of which all but PLAIN_FIXED_BYTES are its particles' (its
 * block and live list), and, where its sort takes the radix passes over
 * several workgroups, at most the stated 16 bytes per particle and 24 KiB
 * more for them; a second system of the same capacity adds to the context
 * exactly its own bytes. */
static void test_a_system_holds_the_same_memory_on_every_path(void **state) {
    (void)state;
    static const uint32_t CAPACITIES[2] = {SMALL_CAPACITY, 4097};
    static const plume_draw_path PATHS[4] = {PLUME_DRAW_PATH_RASTER, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_PATH_TILED,
                                             PLUME_DRAW_PATH_TILED};
    render_camera c = render_make_camera();
    float *image = render_new_image();
    const float centre[3] = {0.0f, 0.0f, -7.0f};
    for (int k = 0; k < 2; ++k) {
        uint32_t capacity = CAPACITIES[k];
        plume_system first = render_cloud(centre, 2.0f, 0.5f, capacity, 5, true);
        uint64_t block = memory_of(first).pool_used_bytes; /* the context's only system */
        uint64_t radix = 0;
        uint64_t bytes[4];
        for (int w = 0; w < 4; ++w) {
            render_frame(first, &c, drawn(PATHS[w], w % 2 ? PLUME_DRAW_HALF : PLUME_DRAW_FULL), true, 0, 1.0f, image);
            bytes[w] = memory_of(first).system_bytes;
            if (w == 0) radix = radix_sort_bytes();
        }
        uint64_t before = unpooled_bytes(memory_of((plume_system){0}));
        plume_system second = render_cloud(centre, 1.5f, 0.5f, capacity, 6, true);
        for (int w = 0; w < 4; ++w)
            render_frame(second, &c, drawn(PATHS[w], w % 2 ? PLUME_DRAW_HALF : PLUME_DRAW_FULL), true, 0, 1.0f, image);
        uint64_t added = unpooled_bytes(memory_of((plume_system){0})) - before, own = memory_of(second).system_bytes;
        double stated = STATED_BYTES_PER_PARTICLE * capacity + STATED_BYTES_BESIDES;
        double stated_radix = radix ? STATED_RADIX_BYTES_PER_PARTICLE * capacity + STATED_RADIX_BYTES_BESIDES : 0.0;
        printf("  capacity %u: %.1f KiB raster, %.1f at 1/2, %.1f tiled, %.1f tiled at 1/2 (stated at most %.1f,"
               " and %.1f of its radix sort's: %.1f stated); a second adds %.1f KiB, its own %.1f; its block of the"
               " pool %.1f KiB, %.1f KiB besides it, the live list and the radix sort's\n",
               capacity, bytes[0] / 1024.0, bytes[1] / 1024.0, bytes[2] / 1024.0, bytes[3] / 1024.0, stated / 1024.0,
               radix / 1024.0, stated_radix / 1024.0, added / 1024.0, own / 1024.0, block / 1024.0,
               (bytes[0] - block - capacity * 8 - radix) / 1024.0);
        for (int w = 1; w < 4; ++w) assert_true(bytes[w] == bytes[0]);
        assert_true((double)radix <= stated_radix && (double)(bytes[0] - radix) <= stated);
        assert_true(block > 0 && bytes[0] - block - (uint64_t)capacity * 8 - radix <= PLAIN_FIXED_BYTES);
        assert_true(own == bytes[0] && added == own);
        plume_system both[2] = {first, second};
        destroy_all(both, 2);
    }
    free(image);
}

const struct CMUnitTest screen_memory_tests[] = {
    cmocka_unit_test_setup_teardown(test_a_system_holds_the_same_memory_on_every_path, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_small_system_holds_memory_for_its_capacity, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_many_systems_tiled_in_one_frame, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_budgets_of_interleaved_systems, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_shared_scratch_across_viewports, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_destroying_systems_frees_the_scratch, fixture_setup, fixture_teardown),
};
const size_t screen_memory_test_count = sizeof screen_memory_tests / sizeof screen_memory_tests[0];
