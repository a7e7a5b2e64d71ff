/* Trails and ribbons in draw groups (plume_draw_group.h, since 1.3): a
 * spark's trail in one system through a cloud of another system's sprites
 * in front of it and behind, ribbons beside sprites, and a group of trail
 * systems only, each drawn by the group at full, 1/2 and 1/4 resolution
 * on both paths against the CPU's composite of all the systems' quads and
 * segments in one order (tests/support/trail_run.c), with proof that the
 * order matters (the systems drawn one after the other differ); the order
 * read back and the profile's count of the segments; a group's refusal of
 * a trail it cannot draw. Small pictures and few systems: each program
 * costs its JIT on llvmpipe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "particle_fixture.h"
#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"
#include "trail_run.h"
#ifndef PLUME_TESTS_THROUGH_TABLE /* the lab's bytes are the lab's, the group's tiled state the module's */
#include "plume_lab.h"
#include "render/draw_group_internal.h"
#endif

static plume_draw_group make_group(const plume_system *systems, uint32_t count) {
    plume_draw_group_desc desc = {.systems = systems, .system_count = count};
    plume_draw_group group;
    assert_int_equal(plume_draw_group_create(fixture_context(), &desc, &group), PLUME_OK);
    return group;
}

/* Still squares of a sprite system (rate 0: emitted now) spread through a
 * box round the origin, in front of the trails and behind them. */
static plume_system make_cloud(uint32_t seed, uint32_t count, const float rgba[4]) {
    plume_system_desc d = {.capacity = count + 13, .seed = seed};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {0.7f, 0.6f, 0.5f},
                                         .lifetime = {20, 20}, .size = {0.18f, 0.3f}};
    /* Emitter 1: one square where the test places it. */
    d.emitters[1] = (plume_emitter_desc){.lifetime = {20, 20}, .size = {0.3f, 0.3f}};
    d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {rgba[0], rgba[1], rgba[2], rgba[3]}}}};
    plume_system cloud = make_system(d);
    plume_emit_desc emit = {.emitter = 0, .count = count};
    assert_int_equal(plume_system_emit(fixture_context(), cloud, &emit), PLUME_OK);
    return cloud;
}

/* The trail runs stepped (their CPU trails recorded) and the sprite
 * systems updated by the same frame, `updates` times. */
static void step_all(trail_run *runs, uint32_t run_count, const plume_system *sprites, uint32_t sprite_count,
                     int updates) {
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(0.05f, view, projection);
    for (int k = 0; k < updates; ++k) {
        for (uint32_t i = 0; i < run_count; ++i) trail_step(&runs[i]);
        for (uint32_t i = 0; i < sprite_count; ++i) update(sprites[i], &frame);
    }
}

/* The spark of test_trails.c's cloud test, in a system of its own. */
static plume_system_desc spark_desc(uint32_t seed) {
    plume_system_desc d = trail_desc(12, 0.12f);
    d.seed = seed;
    d.capacity = 7;
    d.emitters[0] = trail_mover((float[3]){1.1f, 0.15f, 0.0f}, 0.22f);
    return d;
}

static void test_trail_group_spark_through_another_systems_cloud(void **state) {
    (void)state;
    uint32_t seed = test_random_u32();
    printf("  seed %u\n", seed);
    trail_run spark = trail_run_begin(spark_desc(seed));
    trail_emit_at(spark.system, 0, -0.9f, -0.1f, 0.0f);
    plume_system cloud = make_cloud(seed + 1, 24, (float[4]){0.2f, 0.45f, 1.0f, 0.7f});
    /* Whatever the seed, a square in front of the trail's path: drawn after
     * the cloud, the trail would cover it. */
    trail_emit_at(cloud, 1, -0.45f, -0.04f, 0.3f);
    step_all(&spark, 1, &cloud, 1, 16);
    /* The sprites first: the trail's records follow theirs. */
    const plume_system systems[2] = {cloud, spark.system};
    const ref_trail *trails[2] = {NULL, spark.trails};
    plume_draw_group group = make_group(systems, 2);
    trail_group_compare("group_spark_cloud", group, systems, trails, 2, &spark.pictures, true);

    /* The order read back: every pair once, keys ascending; the trail's
     * entries name its particles' slots. The profile counts the segments. */
    assert_int_equal(plume_draw_group_set_profiling(fixture_context(), group, true), PLUME_OK);
    for (int k = 0; k < 4; ++k) {
        trail_draw_group_image(group, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, spark.pictures.image);
        if (k == 2) glFinish();
    }
    plume_readback cloud_rb = read_all(fixture_context(), cloud), spark_rb = read_all(fixture_context(), spark.system);
    uint32_t entries = spark.desc.trail.points; /* 11 segments and its quad */
    uint32_t expected = cloud_rb.drawn_count + spark_rb.drawn_count * entries, drawn = 0;
    assert_int_equal(cloud_rb.drawn_count, 25);
    plume_draw_group_entry *order = malloc(sizeof *order * (expected + 2));
    assert_non_null(order);
    memset(order, 0xab, sizeof *order * (expected + 2));
    assert_int_equal(plume_draw_group_read_back(fixture_context(), group, order, expected + 2, &drawn), PLUME_OK);
    assert_int_equal(drawn, expected);
    uint32_t per_system[2] = {0, 0}, cloud_capacity = system_desc(fixture_context(), cloud).capacity;
    for (uint32_t i = 0; i < drawn; ++i) {
        assert_true(order[i].system_index < 2);
        assert_true(order[i].slot < (order[i].system_index ? spark.desc.capacity : cloud_capacity));
        if (i > 0) assert_true(order[i - 1].key <= order[i].key);
        ++per_system[order[i].system_index];
    }
    assert_int_equal(order[drawn].system_index, 0xabababab); /* untouched past the count */
    assert_int_equal(per_system[0], cloud_rb.drawn_count);
    assert_int_equal(per_system[1], spark_rb.drawn_count * entries);
    plume_profile profile;
    assert_int_equal(plume_draw_group_get_profile(fixture_context(), group, &profile), PLUME_OK);
    printf("  the group's profile: %u drawn (%u sprites, %u trail pairs), drawn by path %u, %u tiled entries\n",
           profile.drawn_count, per_system[0], per_system[1], profile.draw_path, profile.tiled_entries);
    assert_int_equal(profile.drawn_count, expected);
    assert_int_equal(profile.draw_path, PLUME_DRAW_PATH_TILED);
    assert_true(profile.tiled_entries > expected); /* a segment's triangles each an entry */
    /* And at 1/2 resolution: tiled too. */
    for (int k = 0; k < 4; ++k) {
        trail_draw_group_image(group, PLUME_DRAW_PATH_TILED, PLUME_DRAW_HALF, spark.pictures.image);
        if (k == 2) glFinish();
    }
    assert_int_equal(plume_draw_group_get_profile(fixture_context(), group, &profile), PLUME_OK);
    printf("  at 1/2: drawn by path %u at resolution %u, %u tiled entries\n", profile.draw_path,
           profile.draw_resolution, profile.tiled_entries);
    assert_int_equal(profile.draw_path, PLUME_DRAW_PATH_TILED);
    assert_int_equal(profile.draw_resolution, PLUME_DRAW_HALF);
    assert_true(profile.tiled_entries > 0);
    free(order);
    free_readback(&cloud_rb);
    free_readback(&spark_rb);
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    destroy_system(cloud);
    trail_run_end(&spark);
}

#ifndef PLUME_TESTS_THROUGH_TABLE
/* The spark through the cloud, its system of a capacity of 17000: every
 * record of the group at the worst case's 8 ranks would be 2.2 M splats,
 * 278 MB (past llvmpipe's storage blocks: the tiled path could not be
 * made); the ranks are those drawn, so the group draws tiled, the same
 * picture, and the context's scratch holds a few MB. Its ranks made first
 * 16 here: its first tiled frame (the compared picture) outgrows them and
 * draws with the group's raster draw, the need read back grows them, and
 * later frames draw tiled. */
static void test_trail_group_of_a_large_capacity_draws_tiled_in_what_it_draws(void **state) {
    (void)state;
    uint32_t seed = test_random_u32();
    printf("  seed %u\n", seed);
    plume_system_desc d = spark_desc(seed);
    d.capacity = 17000;
    trail_run spark = trail_run_begin(d);
    trail_emit_at(spark.system, 0, -0.9f, -0.1f, 0.0f);
    plume_system cloud = make_cloud(seed + 1, 24, (float[4]){0.2f, 0.45f, 1.0f, 0.7f});
    /* Whatever the seed, a square in front of the trail's path (the
     * comparison with the systems drawn apart needs one). */
    trail_emit_at(cloud, 1, -0.45f, -0.04f, 0.3f);
    step_all(&spark, 1, &cloud, 1, 16);
    const plume_system systems[2] = {cloud, spark.system};
    const ref_trail *trails[2] = {NULL, spark.trails};
    plume_draw_group group = make_group(systems, 2);
    group_state *g = plume_context_lookup(fixture_context(), group.id, &draw_group_class, "the test");
    assert_non_null(g);
    g->tiled.first_ranks = 16;
    test_log_expect_errors(); /* none is expected: a warning would count */
    assert_int_equal(plume_draw_group_set_profiling(fixture_context(), group, true), PLUME_OK);
    trail_group_compare("group_large_spark", group, systems, trails, 2, &spark.pictures, true);
    glFinish();
    trail_draw_group_image(group, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, spark.pictures.image);
    plume_profile profile;
    assert_int_equal(plume_draw_group_get_profile(fixture_context(), group, &profile), PLUME_OK);
    uint32_t fell_back = profile.tiled_overflow_frames;
    printf("  past 16 ranks: %u frames fell back\n", fell_back);
    assert_true(fell_back >= 1);
    for (int k = 0; k < 4; ++k) {
        trail_draw_group_image(group, PLUME_DRAW_PATH_TILED, PLUME_DRAW_FULL, spark.pictures.image);
        if (k == 2) glFinish();
    }
    assert_int_equal(plume_draw_group_get_profile(fixture_context(), group, &profile), PLUME_OK);
    plume_lab_gpu_memory memory;
    assert_int_equal(plume_lab_gpu_memory_of(fixture_context(), spark.system, &memory), PLUME_OK);
    /* The ranks made (1024 at least), a word an item of the group's
     * capacity, the least entry budget with its sorter (65536 entries, about
     * 20 bytes each at tiles of 8: plume_particles.h; 30 allowed) and the
     * screen's tables (a 64 x 64 target's). */
    uint64_t bound = 1024 * 141 + (uint64_t)(17000 * 12 + 40) * 5 + 65536 * 30 + 256 * 1024;
    printf("  then drawn by path %u, %u tiled entries, %u frames fell back; scratch %.2f MB (bound %.2f MB)\n",
           profile.draw_path, profile.tiled_entries, profile.tiled_overflow_frames, memory.shared_bytes / 1e6,
           bound / 1e6);
    assert_int_equal(profile.draw_path, PLUME_DRAW_PATH_TILED);
    assert_true(profile.tiled_entries > 0 && profile.tiled_entries <= profile.tiled_entry_budget);
    assert_int_equal(profile.tiled_overflow_frames, fell_back); /* none since the ranks grew */
    assert_true(memory.shared_bytes <= bound);
    assert_int_equal(test_log_count("the tiled draw path cannot be made"), 0);
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    destroy_system(cloud);
    trail_run_end(&spark);
}
#endif

/* Ribbons rising from a swaying emitter through a cloud of another
 * system's squares, from behind it to in front: the ribbon's segments
 * between them. */
static void test_trail_group_ribbons_beside_sprites(void **state) {
    (void)state;
    uint32_t seed = test_random_u32();
    printf("  seed %u\n", seed);
    plume_system_desc d = {.capacity = 45, .seed = seed};
    d.trail = (plume_trail_desc){.points = 2, .spacing = 0.15f, .ribbon = true, .hide_particles = true};
    d.emitters[0] = (plume_emitter_desc){.rate = 10, .lifetime = {4.0f, 4.0f}, .direction = {0, 1, 0.9f},
                                         .speed = {0.5f, 0.5f}, .size = {0.2f, 0.2f}};
    d.appearance.size_over_life = (plume_curve){2, {{0.0f, 1.0f}, {1.0f, 0.4f}}};
    d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {1.0f, 0.8f, 0.3f, 0.75f}}}};
    trail_run ribbon = trail_run_begin(d);
    plume_system cloud = make_cloud(seed + 1, 20, (float[4]){0.3f, 0.4f, 1.0f, 0.7f});
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(0.05f, view, projection);
    for (int k = 0; k < 31; ++k) {
        plume_transform placement = {.position = {0.5f * sinf(0.2f * (float)k), -0.8f, -0.6f}};
        assert_int_equal(plume_system_set_transform(fixture_context(), ribbon.system, &placement, k == 0), PLUME_OK);
        if (k == 30) {
            /* Whatever the cloud's seed, a square in front of the ribbon's
             * middle: drawn after the cloud, the ribbon would cover it. */
            plume_readback rb = read_all(fixture_context(), ribbon.system);
            assert_true(rb.drawn_count > 4);
            const plume_particle *middle = &rb.particles[rb.draw_order[rb.drawn_count / 2]];
            trail_emit_at(cloud, 1, middle->position[0], middle->position[1], middle->position[2] + 0.3f);
            free_readback(&rb);
        }
        trail_step(&ribbon);
        update(cloud, &frame);
    }
    /* The cloud first: drawn apart, the ribbon would cover every square. */
    const plume_system systems[2] = {cloud, ribbon.system};
    const ref_trail *trails[2] = {NULL, ribbon.trails};
    plume_draw_group group = make_group(systems, 2);
    trail_group_compare("group_ribbon", group, systems, trails, 2, &ribbon.pictures, true);
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    destroy_system(cloud);
    trail_run_end(&ribbon);
}

/* Two sparks crossing, one coming toward the eye and one going away: each
 * passes in front of the other's trail and behind it. */
static void test_trail_group_of_trail_systems_only(void **state) {
    (void)state;
    uint32_t seed = test_random_u32();
    printf("  seed %u\n", seed);
    trail_run runs[2];
    for (int i = 0; i < 2; ++i) {
        plume_system_desc d = spark_desc(seed + (uint32_t)i);
        d.trail.hide_particles = i == 1;
        float climb = i ? -0.9f : 0.9f;
        d.emitters[0] = trail_mover((float[3]){1.2f, climb, i ? -1.0f : 1.0f}, 0.25f);
        d.appearance.color_over_life = (plume_gradient){
            1, {{0.0f, {i ? 0.3f : 1.0f, i ? 1.0f : 0.5f, i ? 0.5f : 0.2f, 0.7f}}}};
        runs[i] = trail_run_begin(d);
        trail_emit_at(runs[i].system, 0, -0.8f, i ? 0.6f : -0.6f, i ? 0.6f : -0.6f);
    }
    step_all(runs, 2, NULL, 0, 17);
    const plume_system systems[2] = {runs[0].system, runs[1].system};
    const ref_trail *trails[2] = {runs[0].trails, runs[1].trails};
    plume_draw_group group = make_group(systems, 2);
    trail_group_compare("group_two_sparks", group, systems, trails, 2, &runs[0].pictures, true);
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    trail_run_end(&runs[1]);
    trail_run_end(&runs[0]);
}

/* A trail whose texture repeats along it cannot share the group's clamped
 * sprite array: refused with a message, nothing made. */
static void test_trail_group_refuses_a_tiled_trail_texture(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_system_desc d = trail_desc(4, 0.1f);
    d.trail.uv_mode = PLUME_TRAIL_UV_TILE;
    d.trail.uv_tile_length = 0.5f;
    unsigned char *pixels = flipbook_pixels(); /* the system keeps its own copy */
    d.appearance.texture = (plume_texture_desc){.pixels = pixels, .width = 16, .height = 16, .columns = 1, .rows = 1};
    plume_system tiled_texture = make_system(d);
    free(pixels);
    plume_draw_group_desc desc = {.systems = &tiled_texture, .system_count = 1};
    plume_draw_group group = {99};
    const char *message = "systems[0] has a texture tiled along its trail (trail.uv_mode PLUME_TRAIL_UV_TILE)";
    int before = test_log_count(message);
    assert_int_equal(plume_draw_group_create(fixture_context(), &desc, &group), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(group.id == 0);
    assert_int_equal(test_log_count(message), before + 1);
    destroy_system(tiled_texture);
}

const struct CMUnitTest trail_groups_tests[] = {
    cmocka_unit_test_setup_teardown(test_trail_group_spark_through_another_systems_cloud, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_trail_group_ribbons_beside_sprites, fixture_setup, fixture_teardown),
#ifndef PLUME_TESTS_THROUGH_TABLE
    cmocka_unit_test_setup_teardown(test_trail_group_of_a_large_capacity_draws_tiled_in_what_it_draws, fixture_setup,
                                    fixture_teardown),
#endif
    cmocka_unit_test_setup_teardown(test_trail_group_of_trail_systems_only, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_trail_group_refuses_a_tiled_trail_texture, fixture_setup, fixture_teardown),
};
const size_t trail_groups_test_count = sizeof trail_groups_tests / sizeof trail_groups_tests[0];
