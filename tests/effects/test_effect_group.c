/* Effects of several systems (plume_effect_group, since 1.3): a group file
 * loads, each refusal placed at its entry's field (the position counted
 * here from the text), the writer's text reads back as the same group, and
 * the gallery's explosion (a fireball, rock meshes, a ring on the ground,
 * sparks, smoke) throws its rocks out to rest on the ground. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "demo.h"
#include "effect_test_support.h"
#include "plume/plume_effect.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

static const char GROUP_TEXT[] = "{\n"
                                 "  \"plume_effect\": 1,\n"
                                 "  \"systems\": [\n"
                                 "    {\"capacity\": 10, \"emitters\": [{\"rate\": 5}]},\n"
                                 "    {\"capacity\": 20,\n"
                                 "     \"emitters\": [{\"lifetime\": [0.5, 1], \"size\": [0.2, 0.3]}]}\n"
                                 "  ]\n"
                                 "}\n";

typedef struct group_error_case {
    const char *find, *replace; /* in GROUP_TEXT */
    const char *at;             /* where in `replace` the error points; NULL: its start */
    const char *field, *why;
} group_error_case;

static const group_error_case GROUP_ERRORS[] = {
    {"\"lifetime\": [0.5", "\"lifetime\": [0", NULL, "systems[1].emitters[0].lifetime", "must be above 0"},
    {"\"lifetime\"", "\"lifetme\"", NULL, "systems[1].emitters[0].lifetme", "is not a field here"},
    {"{\"capacity\": 10, ", "7, {", "7", "systems[0]", "must be an object"},
    {"\"capacity\": 20,", "\"capacity\": 0,", NULL, "systems[1].capacity", "is 0"},
    {"\"systems\": [", "\"capacity\": 5, \"systems\": [", NULL, "capacity", "beside \"systems\""},
    {"\"systems\": [\n    {\"capacity\": 10, \"emitters\": [{\"rate\": 5}]},\n    {\"capacity\": 20,\n"
     "     \"emitters\": [{\"lifetime\": [0.5, 1], \"size\": [0.2, 0.3]}]}\n  ]",
     "\"systems\": []", NULL, "systems", "a list of 1 to 8 systems"},
    {"\"systems\": [", "\"systems\": [{}, {}, {}, {}, {}, {}, {}, {}, ", NULL, "systems", "1 to 8"},
    {"\"plume_effect\": 1,\n", "", NULL, "", "format version"},
};

static void test_group_errors_are_placed(void **state) {
    (void)state;
    plume_effect_group group;
    plume_effect_error error;
    if (plume_effect_group_parse(GROUP_TEXT, strlen(GROUP_TEXT), "group.json", NULL, &group, &error) != PLUME_OK)
        fail_msg("%s", error.message);
    assert_int_equal(group.system_count, 2);
    assert_int_equal(group.systems[0].desc.capacity, 10);
    assert_int_equal(group.systems[1].desc.emitters[0].size.max, 0.3f);
    plume_effect_group_free(&group);
    assert_int_equal(group.system_count, 0);
    assert_null(group.systems);
    for (size_t i = 0; i < sizeof GROUP_ERRORS / sizeof GROUP_ERRORS[0]; ++i) {
        const group_error_case *c = &GROUP_ERRORS[i];
        char *text = effect_replace(GROUP_TEXT, c->find, c->replace);
        assert_non_null(text);
        assert_int_equal(plume_effect_group_parse(text, strlen(text), "group.json", NULL, &group, &error),
                         PLUME_ERROR_INVALID_ARGUMENT);
        assert_null(group.systems);
        assert_string_equal(error.field, c->field);
        if (!strstr(error.message, c->why)) fail_msg("case %zu: '%s' lacks '%s'", i, error.message, c->why);
        if (*c->field) {
            size_t offset = (size_t)(strstr(text, c->replace) - text);
            if (c->at) offset += (size_t)(strstr(c->replace, c->at) - c->replace);
            int line, column;
            effect_line_and_column(text, offset, &line, &column);
            char expected[256];
            snprintf(expected, sizeof expected, "group.json:%d:%d: %s: ", line, column, c->field);
            if (strncmp(error.message, expected, strlen(expected)) != 0)
                fail_msg("case %zu: '%s' does not start '%s'", i, error.message, expected);
        }
        free(text);
    }
    /* A one-system reader refuses a group and names the group's. */
    plume_effect *one = malloc(sizeof *one);
    assert_non_null(one);
    assert_int_equal(plume_effect_parse(GROUP_TEXT, strlen(GROUP_TEXT), "group.json", NULL, one, &error),
                     PLUME_ERROR_INVALID_ARGUMENT);
    assert_string_equal(error.field, "systems");
    assert_non_null(strstr(error.message, "plume_effect_group_load"));
    free(one);
    /* A one-system file is a group of one. */
    static const char ONE[] = "{\"plume_effect\": 1, \"capacity\": 33}";
    assert_int_equal(plume_effect_group_parse(ONE, strlen(ONE), "one.json", NULL, &group, &error), PLUME_OK);
    assert_int_equal(group.system_count, 1);
    assert_int_equal(group.systems[0].desc.capacity, 33);
    /* The writer names the entry it refuses: pixels in memory, meshes
     * without their sources. */
    group.systems[0].desc.meshes.count = 1;
    assert_null(plume_effect_group_write(&group, &error));
    assert_string_equal(error.field, "systems[0].meshes.sources");
    group.systems[0].desc.meshes.count = 0;
    static const unsigned char pixel[4] = {255, 255, 255, 255};
    group.systems[0].desc.appearance.texture.pixels = pixel;
    assert_null(plume_effect_group_write(&group, &error));
    assert_string_equal(error.field, "systems[0].appearance.texture.pixels");
    plume_effect_group_free(&group);
    assert_null(plume_effect_group_write(&group, &error));
    assert_string_equal(error.field, "systems");
}

/* The gallery's explosion file: effect_gallery_paths' entry (the test
 * fails without it) into `out`. */
static void explosion_path(char out[4096]) {
    char (*paths)[4096] = malloc(16 * sizeof *paths);
    assert_non_null(paths);
    int count = effect_gallery_paths(paths, 16), found = -1;
    for (int i = 0; i < count; ++i)
        if (strcmp(strrchr(paths[i], '/'), "/explosion.json") == 0) found = i;
    assert_true(found >= 0);
    memcpy(out, paths[found], 4096);
    free(paths);
}

/* The demo shows a group file's systems together: the first on show, the
 * other four updated, drawn and timed with it. */
static void test_demo_shows_every_system_of_a_group(void **state) {
    (void)state;
    char path[4096];
    explosion_path(path);
    demo_options options;
    demo_options_default(&options);
    options.width = 160, options.height = 96, options.frames = 6, options.dt = 0.05f;
    options.hud = false, options.effect_path = path;
    demo_options_finish(&options, true, NULL);
    demo_summary summary;
    assert_true(demo_run_offscreen(&options, &summary));
    assert_int_equal(summary.companion_count, 4);
    assert_true(summary.live_count > 0);
}

/* The gallery's explosion: several systems, rocks among them, written and
 * read back the same; a few seconds after the blast its rocks lie on the
 * ground plane (none below it), most of them still. */
static void test_explosion_debris_rests_on_the_ground(void **state) {
    (void)state;
    char path[4096];
    explosion_path(path);
    plume_effect_group group;
    plume_effect_error error;
    if (plume_effect_group_load(path, &group, &error) != PLUME_OK) fail_msg("%s", error.message);
    assert_true(group.system_count >= 4);
    plume_system systems[PLUME_EFFECT_MAX_SYSTEMS];
    int rocks = -1, ring = -1;
    for (uint32_t k = 0; k < group.system_count; ++k) {
        plume_system_desc desc;
        plume_effect_meshes meshes;
        if (plume_effect_resolve_meshes(&group.systems[k], NULL, 0, &desc, &meshes, &error) != PLUME_OK)
            fail_msg("%s", error.message);
        assert_int_equal(plume_system_create(fixture_context(), &desc, &systems[k]), PLUME_OK);
        plume_effect_meshes_free(&meshes);
        if (desc.meshes.count > 0) rocks = (int)k;
        if (desc.orientation == PLUME_ORIENT_WORLD_FACING) ring = (int)k;
    }
    assert_true(rocks >= 0);
    assert_true(ring >= 0);
    /* Three seconds at 30 frames a second, every system updated each frame
     * as a host would (before the next blast: the file's bursts are 3.5 s
     * apart). */
    plume_frame_desc frame = {.dt = 1.0f / 30.0f};
    for (int f = 0; f < 90; ++f)
        for (uint32_t k = 0; k < group.system_count; ++k)
            assert_int_equal(plume_system_update(fixture_context(), systems[k], &frame), PLUME_OK);
    const plume_system_desc *desc = &group.systems[rocks].desc;
    plume_particle *particles = calloc(desc->capacity, sizeof *particles);
    uint32_t *dead = calloc(desc->capacity, sizeof *dead);
    assert_non_null(particles);
    assert_non_null(dead);
    plume_readback readback = {.particles = particles, .dead_slots = dead};
    assert_int_equal(plume_system_read_back(fixture_context(), systems[rocks], &readback), PLUME_OK);
    uint32_t thrown = 0;
    for (int e = 0; e < PLUME_MAX_EMITTERS; ++e) thrown += desc->emitters[e].burst_count;
    assert_int_equal(readback.live_count, thrown);
    bool *is_dead = calloc(desc->capacity, sizeof *is_dead);
    assert_non_null(is_dead);
    for (uint32_t i = 0; i < readback.dead_count; ++i) is_dead[dead[i]] = true;
    const float ground = desc->world.colliders[0].position[1], *blast = desc->emitters[0].position;
    uint32_t resting = 0, far = 0, live = 0;
    float lowest = INFINITY;
    for (uint32_t slot = 0; slot < desc->capacity; ++slot) {
        if (is_dead[slot]) continue;
        const plume_particle *p = &particles[slot];
        ++live;
        lowest = fminf(lowest, p->position[1]);
        float speed = sqrtf(p->velocity[0] * p->velocity[0] + p->velocity[1] * p->velocity[1] +
                            p->velocity[2] * p->velocity[2]);
        if (speed < 0.05f && p->position[1] < ground + 0.02f) ++resting;
        float dx = p->position[0] - blast[0], dz = p->position[2] - blast[2];
        if (dx * dx + dz * dz > 1.0f) ++far;
    }
    print_message("explosion: %u rocks, %u at rest on the ground, %u over a metre out, lowest centre %.4f (ground "
                  "%.3f)\n",
                  live, resting, far, lowest, ground);
    assert_int_equal(live, thrown);
    assert_true(lowest >= ground - 1e-3f);
    assert_true(resting * 10 >= live * 8);
    assert_true(far * 2 >= live);
    for (uint32_t k = 0; k < group.system_count; ++k)
        assert_int_equal(plume_system_destroy(fixture_context(), systems[k]), PLUME_OK);
    free(particles);
    free(dead);
    free(is_dead);
    plume_effect_group_free(&group);
}

const struct CMUnitTest effect_group_tests[] = {
    cmocka_unit_test_setup_teardown(test_group_errors_are_placed, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_explosion_debris_rests_on_the_ground, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_demo_shows_every_system_of_a_group, test_setup, test_teardown),
};
const size_t effect_group_test_count = sizeof effect_group_tests / sizeof effect_group_tests[0];
