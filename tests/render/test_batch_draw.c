/* A batch's draw (plume_batch_draw, since 1.3): any number of systems in
 * one order and one draw per path. The batch draws the picture of the same
 * systems as one draw group (raster and tiled, systems of different looks
 * interleaved); more systems than a group takes, apart on screen, draw as
 * each system's own draw would; systems made and destroyed between frames
 * join and leave the batch of every live system; a system in two batches
 * of one frame is refused with a message, bad input too; systems drawn by
 * their own draws (raster, tiled, at 1/2), a draw group or a batch draw
 * after unsorted batches draw their twins' pictures. Every
 * picture is read into poisoned memory and checked to be numbers. */
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

#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "batch_looks.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { PIXELS = RENDER_WIDTH * RENDER_HEIGHT, GRID_COLUMNS = 6, GRID_ROWS = 4, APART = GRID_COLUMNS * GRID_ROWS };

/* The k-th of four looks: a flipbook sprite, lit squares, an additive
 * stretched sprite, a fire-like sprite with soft fade. */
static plume_system make_look(const float centre[3], float extent, float size, uint32_t count, uint32_t seed, int k) {
    static void (*const adjust[4])(plume_system_desc *) = {plain, lit, additive_stretched, fire_like};
    return render_cloud_with(centre, extent, size, count, seed, k != 1, adjust[k % 4]);
}

static plume_frame_desc lit_frame(uint32_t path) {
    return (plume_frame_desc){.draw_path = path, .light_direction = {0.3f, 1.0f, 0.5f},
                              .light_color = {0.9f, 0.8f, 0.7f}, .ambient_color = {0.2f, 0.2f, 0.25f}};
}

/* One batch update of `systems` (NULL: every live one) for the camera. */
static void update_batch(const plume_system *systems, uint32_t count, const render_camera *c) {
    plume_frame_desc frame = lit_frame(PLUME_DRAW_PATH_RASTER);
    frame.dt = 0.001f;
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    assert_int_equal(plume_batch_update(fixture_context(), systems, count, &frame), PLUME_OK);
}

/* A picture's memory, poisoned with NaNs the draw must overwrite. */
static float *poisoned_image(void) {
    float *image = render_new_image();
    memset(image, 0xFF, sizeof(float) * 4 * PIXELS);
    return image;
}

static void assert_numbers(const float *image) {
    for (int i = 0; i < 4 * PIXELS; ++i) assert_false(isnan(image[i]));
}

/* Two pictures of `count` systems, numbers both, the first covering a few
 * pixels a system: their largest difference (both freed). */
static float largest_between(float *drawn, float *reference, uint32_t count) {
    assert_numbers(drawn);
    assert_numbers(reference);
    assert_true(render_covered_pixels(drawn) > (int)count * 4);
    float largest = render_largest_difference(drawn, reference);
    free(drawn);
    free(reference);
    return largest;
}

static uint32_t printed_seed(void) {
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    return seed;
}

static void test_batch_draw_matches_a_draw_group(void **state) {
    (void)state;
    uint32_t seed = printed_seed();
    render_camera c = render_make_camera();
    const float centre[3] = {0.2f, -0.1f, -6.0f};
    plume_system systems[4];
    for (int k = 0; k < 4; ++k) systems[k] = make_look(centre, 2.5f, 0.9f, 301 + 97 * (uint32_t)k, seed + (uint32_t)k, k);
    update_batch(systems, 4, &c);
    plume_draw_group group;
    assert_int_equal(plume_draw_group_create(fixture_context(), &(plume_draw_group_desc){.systems = systems,
                                                                                        .system_count = 4},
                                             &group),
                     PLUME_OK);
    const uint32_t paths[2] = {PLUME_DRAW_PATH_RASTER, PLUME_DRAW_PATH_TILED};
    for (int p = 0; p < 2; ++p) {
        float *grouped = poisoned_image(), *batched = poisoned_image();
        render_draw_group(group, &c, lit_frame(paths[p]), true, 0, 1.0f, grouped);
        render_draw_batch(systems, 4, &c, lit_frame(paths[p]), true, batched);
        assert_numbers(grouped);
        assert_numbers(batched);
        float largest = render_largest_difference(grouped, batched);
        int covered = render_covered_pixels(batched);
        printf("  4 interleaved systems of 4 looks, %s: the batch against the group %.3f/255 (at most 0.5), "
               "%d pixels covered\n",
               p ? "tiled" : "raster", largest * 255.0f, covered);
        assert_true(covered > PIXELS / 8);
        assert_true(largest <= 0.5f / 255.0f);
        free(grouped);
        free(batched);
    }
    assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    for (int k = 0; k < 4; ++k) assert_int_equal(plume_system_destroy(fixture_context(), systems[k]), PLUME_OK);
}

/* The centre of grid cell `i`, apart from every other cell's cloud. */
static void grid_centre(uint32_t i, float centre[3]) {
    centre[0] = -3.0f + 1.2f * (float)(i % GRID_COLUMNS);
    centre[1] = -1.65f + 1.1f * (float)(i / GRID_COLUMNS);
    centre[2] = -7.0f;
}

/* `count` systems of every look, apart, in the grid's cells from
 * `first_cell` on. */
static void make_apart(plume_system *systems, uint32_t first_cell, uint32_t count, uint32_t seed) {
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t cell = first_cell + i;
        float centre[3];
        grid_centre(cell, centre);
        systems[i] = make_look(centre, 0.3f, 0.2f, 40 + 13 * cell, seed + cell, (int)(cell % 4));
    }
}

/* The batch (NULL: every live system) against the systems drawn one after
 * the other, on `path`: the largest difference. */
static float batch_against_separate(const plume_system *listed, uint32_t listed_count, const plume_system *systems,
                                    uint32_t count, const render_camera *c, uint32_t path) {
    plume_frame_desc frames[APART];
    for (uint32_t i = 0; i < count; ++i) frames[i] = lit_frame(path);
    float *separate = poisoned_image(), *batched = poisoned_image();
    render_draw_many(systems, count, c, frames, NULL, separate);
    render_draw_batch(listed, listed_count, c, lit_frame(path), true, batched);
    return largest_between(batched, separate, count);
}

/* More systems than a draw group takes, none overlapping another on
 * screen: the batch draws each as its own draw does. */
static void test_batch_draw_matches_separate_draws_where_apart(void **state) {
    (void)state;
    uint32_t seed = printed_seed();
    render_camera c = render_make_camera();
    plume_system systems[APART];
    make_apart(systems, 0, APART, seed);
    update_batch(systems, APART, &c);
    /* Raster only: the tiled path's own draw of a system and the group's
     * tiled draw differ from each other as each differs from raster on
     * sprites this small (mip levels from exact derivatives); the batch's
     * tiled draw is the group's (test_batch_draw_matches_a_draw_group). */
    float largest = batch_against_separate(systems, APART, systems, APART, &c, PLUME_DRAW_PATH_RASTER);
    printf("  %d systems apart, raster: the batch against their own draws %.3f/255 (at most 0.5)\n", APART,
           largest * 255.0f);
    assert_true(largest <= 0.5f / 255.0f);
    for (uint32_t i = 0; i < APART; ++i) assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
}

/* The batch of every live system follows the systems made and destroyed
 * between frames. */
static void test_batch_draw_follows_systems_made_and_destroyed(void **state) {
    (void)state;
    uint32_t seed = printed_seed();
    render_camera c = render_make_camera();
    plume_system systems[APART];
    make_apart(systems, 0, 9, seed);
    update_batch(NULL, 0, &c);
    float largest = batch_against_separate(NULL, 0, systems, 9, &c, PLUME_DRAW_PATH_RASTER);
    printf("  9 live systems: the batch of every live system against their own draws %.3f/255\n", largest * 255.0f);
    assert_true(largest <= 0.5f / 255.0f);
    /* Three destroyed, seven made: the survivors keep their place. */
    for (uint32_t i = 2; i < 5; ++i) assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
    memmove(&systems[2], &systems[5], 4 * sizeof systems[0]);
    make_apart(systems + 6, 9, 7, seed + 100);
    update_batch(NULL, 0, &c);
    largest = batch_against_separate(NULL, 0, systems, 13, &c, PLUME_DRAW_PATH_RASTER);
    printf("  3 destroyed, 7 made: %.3f/255\n", largest * 255.0f);
    assert_true(largest <= 0.5f / 255.0f);
    for (uint32_t i = 0; i < 13; ++i) assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
}

/* Systems stepped `steps` times by their own updates (twins) and the same
 * by batches, neither sorted; the batches' lists wait in the table's scratch
 * until read (particles_settle_live_list). */
static void step_unsorted(const plume_system *systems, uint32_t count, bool batch, const render_camera *c, float dt) {
    plume_frame_desc frame = lit_frame(PLUME_DRAW_PATH_RASTER);
    frame.dt = dt;
    frame.disable_sort = true;
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    if (batch) assert_int_equal(plume_batch_update(fixture_context(), systems, count, &frame), PLUME_OK);
    for (uint32_t i = 0; !batch && i < count; ++i)
        assert_int_equal(plume_system_update(fixture_context(), systems[i], &frame), PLUME_OK);
}

/* The systems' own draws of `drawn` (its path and resolution), one image:
 * the batched ones against their twins. */
static float own_draws_against_twins(const plume_system *batched, const plume_system *twins, uint32_t count,
                                     const render_camera *c, plume_frame_desc drawn) {
    plume_frame_desc frames[APART];
    for (uint32_t i = 0; i < count; ++i) frames[i] = drawn;
    float *mine = poisoned_image(), *theirs = poisoned_image();
    render_draw_many(batched, count, c, frames, NULL, mine);
    render_draw_many(twins, count, c, frames, NULL, theirs);
    return largest_between(mine, theirs, count);
}

/* Two batches in turn over the same table scratch, unsorted, then each
 * system's own draw: the first batch's lists are copied out before the
 * second writes the scratch, the second's when drawn; a system destroyed
 * while its list waits is forgotten; a later batch of some of them copies
 * the others' lists out first. Each picture is the twins' (updated one by
 * one, their lists written in place). */
static void test_own_draws_after_unsorted_batches_read_their_lists(void **state) {
    (void)state;
    uint32_t seed = printed_seed();
    render_camera c = render_make_camera();
    enum { HALF = 6 };
    plume_system batched[2 * HALF], twins[2 * HALF];
    make_apart(batched, 0, 2 * HALF, seed);
    make_apart(twins, 0, 2 * HALF, seed);
    step_unsorted(twins, 2 * HALF, false, &c, 0.02f);
    step_unsorted(batched, HALF, true, &c, 0.02f);
    step_unsorted(batched + HALF, HALF, true, &c, 0.02f);
    /* The last one destroyed while its list waits, with its twin. */
    assert_int_equal(plume_system_destroy(fixture_context(), batched[2 * HALF - 1]), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), twins[2 * HALF - 1]), PLUME_OK);
    float first = own_draws_against_twins(batched, twins, 2 * HALF - 1, &c, lit_frame(PLUME_DRAW_PATH_RASTER));
    /* The second half again: the first half's lists stay theirs. */
    step_unsorted(twins + HALF, HALF - 1, false, &c, 0.02f);
    step_unsorted(batched + HALF, HALF - 1, true, &c, 0.02f);
    float second = own_draws_against_twins(batched, twins, 2 * HALF - 1, &c, lit_frame(PLUME_DRAW_PATH_RASTER));
    printf("  %d systems in two unsorted batches, their own draws against their twins': %.3f/255, after a third "
           "batch of %d of them %.3f/255 (at most 0.5)\n",
           2 * HALF - 1, first * 255.0f, HALF - 1, second * 255.0f);
    assert_true(first <= 0.5f / 255.0f && second <= 0.5f / 255.0f);
    for (uint32_t i = 0; i + 1 < 2 * HALF; ++i) {
        assert_int_equal(plume_system_destroy(fixture_context(), batched[i]), PLUME_OK);
        assert_int_equal(plume_system_destroy(fixture_context(), twins[i]), PLUME_OK);
    }
}

/* The batched systems' picture and their twins' by `draw` (a group's or a
 * batch's draw of each list): the largest difference. */
static float lists_against_twins(const plume_system *batched, const plume_system *twins, uint32_t count,
                                 const render_camera *c, const plume_draw_group groups[2]) {
    float *mine = poisoned_image(), *theirs = poisoned_image();
    if (groups) {
        render_draw_group(groups[0], c, lit_frame(PLUME_DRAW_PATH_RASTER), true, 0, 1.0f, mine);
        render_draw_group(groups[1], c, lit_frame(PLUME_DRAW_PATH_RASTER), true, 0, 1.0f, theirs);
    } else {
        render_draw_batch(batched, count, c, lit_frame(PLUME_DRAW_PATH_RASTER), true, mine);
        render_draw_batch(twins, count, c, lit_frame(PLUME_DRAW_PATH_RASTER), true, theirs);
    }
    return largest_between(mine, theirs, count);
}

/* Lit squares moving out, each with a trail (its segments keyed from the
 * system's list as the update ends). */
static void trailed(plume_system_desc *d) {
    lit(d);
    d->emitters[0].speed = (plume_range){0.5f, 1.0f};
    d->trail = (plume_trail_desc){.points = 6, .spacing = 0.001f};
}

/* Each reader of a system's list the first to read it after an unsorted
 * batch, in turn, against twins updated one by one: the systems' own tiled
 * draws, their own raster draws at 1/2, a draw group (one system past a
 * group table's 4096 gathers by its own dispatch, from its list; a trail
 * system among them) and a batch draw; steps of 1 ms, so every look's
 * particles live. */
static void test_every_draw_reads_a_batchs_waiting_lists(void **state) {
    (void)state;
    uint32_t seed = printed_seed();
    render_camera c = render_make_camera();
    enum { SMALL = 7, ALL = SMALL + 2, READERS = 4 };
    plume_system batched[ALL], twins[ALL];
    make_apart(batched, 0, SMALL, seed);
    make_apart(twins, 0, SMALL, seed);
    float centre[3];
    grid_centre(SMALL, centre);
    batched[SMALL] = make_look(centre, 0.3f, 0.05f, 4501, seed, 1);
    twins[SMALL] = make_look(centre, 0.3f, 0.05f, 4501, seed, 1);
    grid_centre(SMALL + 1, centre);
    batched[SMALL + 1] = render_cloud_with(centre, 0.3f, 0.1f, 97, seed, false, trailed);
    twins[SMALL + 1] = render_cloud_with(centre, 0.3f, 0.1f, 97, seed, false, trailed);
    plume_draw_group groups[2];
    for (int g = 0; g < 2; ++g)
        assert_int_equal(plume_draw_group_create(fixture_context(),
                                                 &(plume_draw_group_desc){.systems = g ? twins : batched,
                                                                          .system_count = ALL},
                                                 &groups[g]),
                         PLUME_OK);
    plume_frame_desc half = lit_frame(PLUME_DRAW_PATH_RASTER);
    half.draw_resolution = PLUME_DRAW_HALF;
    static const char *const NAMES[READERS] = {"own tiled draws", "own raster draws at 1/2", "a draw group",
                                               "a batch draw"};
    for (int reader = 0; reader < READERS; ++reader) {
        step_unsorted(twins, ALL, false, &c, 0.001f);
        step_unsorted(batched, ALL, true, &c, 0.001f);
        float largest = reader == 0   ? own_draws_against_twins(batched, twins, ALL, &c, lit_frame(PLUME_DRAW_PATH_TILED))
                        : reader == 1 ? own_draws_against_twins(batched, twins, ALL, &c, half)
                                      : lists_against_twins(batched, twins, ALL, &c, reader == 2 ? groups : NULL);
        printf("  after an unsorted batch, %s against the twins': %.3f/255 (at most 0.5)\n", NAMES[reader],
               largest * 255.0f);
        assert_true(largest <= 0.5f / 255.0f);
    }
    for (int g = 0; g < 2; ++g) assert_int_equal(plume_draw_group_destroy(fixture_context(), groups[g]), PLUME_OK);
    for (uint32_t i = 0; i < ALL; ++i) {
        assert_int_equal(plume_system_destroy(fixture_context(), batched[i]), PLUME_OK);
        assert_int_equal(plume_system_destroy(fixture_context(), twins[i]), PLUME_OK);
    }
}

static void test_batch_draw_refuses_two_batches_in_a_frame(void **state) {
    (void)state;
    uint32_t seed = printed_seed();
    render_camera c = render_make_camera();
    plume_system systems[APART];
    make_apart(systems, 0, 3, seed);
    update_batch(systems, 3, &c);
    const plume_frame_desc frame = lit_frame(PLUME_DRAW_PATH_RASTER);
    float *image = poisoned_image();
    const plume_system first[2] = {systems[0], systems[1]}, second[2] = {systems[2], systems[1]};
    test_log_expect_errors();
    assert_int_equal(render_try_batch(first, 2, &c, frame, false, image), PLUME_OK);
    assert_int_equal(render_try_batch(first, 2, &c, frame, false, image), PLUME_OK); /* a second view */
    assert_numbers(image);
    assert_int_equal(render_try_batch(second, 2, &c, frame, false, image), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_batch_draw: systems[1] was drawn by another batch since its last update"));
    update_batch(systems, 3, &c);
    assert_int_equal(render_try_batch(second, 2, &c, frame, false, image), PLUME_OK);
    free(image);
    /* Bad input: named, nothing drawn. */
    plume_frame_desc camera = frame;
    memcpy(camera.view, c.view, sizeof camera.view);
    memcpy(camera.projection, c.projection, sizeof camera.projection);
    const plume_system twice[2] = {systems[0], systems[0]};
    assert_int_equal(plume_batch_draw(NULL, first, 2, &camera), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_batch_draw(fixture_context(), first, 2, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_batch_draw: frame must not be NULL"));
    assert_int_equal(plume_batch_draw(fixture_context(), NULL, 2, &camera), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_batch_draw: systems is NULL with a system_count"));
    assert_int_equal(plume_batch_draw(fixture_context(), twice, 2, &camera), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_batch_draw: systems[0] and systems[1] are the same system"));
    assert_int_equal(plume_batch_draw(fixture_context(), first, 0, &camera), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), systems[0]), PLUME_OK);
    assert_int_equal(plume_batch_draw(fixture_context(), first, 2, &camera), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_batch_draw: systems[0] is not a live system of this context"));
    for (uint32_t i = 1; i < 3; ++i) assert_int_equal(plume_system_destroy(fixture_context(), systems[i]), PLUME_OK);
}

const struct CMUnitTest batch_draw_tests[] = {
    cmocka_unit_test_setup_teardown(test_batch_draw_matches_a_draw_group, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_batch_draw_matches_separate_draws_where_apart, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_batch_draw_follows_systems_made_and_destroyed, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_batch_draw_refuses_two_batches_in_a_frame, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_own_draws_after_unsorted_batches_read_their_lists, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_every_draw_reads_a_batchs_waiting_lists, fixture_setup, fixture_teardown),
};
const size_t batch_draw_test_count = sizeof batch_draw_tests / sizeof batch_draw_tests[0];
