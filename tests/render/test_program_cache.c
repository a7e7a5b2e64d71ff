/* The context's program cache: systems of one look share their GL programs,
 * so nothing a system needs may stay in a program between its calls. Two
 * systems of the same look but of other capacities, seeds, forces, look
 * values, sprites and sort key widths, updated and drawn interleaved (raster
 * and tiled), each give the particles and pictures they give alone; the
 * second system of a look builds no program; destroying the first leaves the
 * second drawing as before; a context destroyed with live systems deletes
 * every program it listed, each listed once; after a warm-up
 * (plume_context_warm_programs) a system of the look builds nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <epoxy/gl.h>

#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "plume_lab.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { STEPS = 3, SYSTEMS = 2, PATHS = 2 };

static const plume_frame_desc PATH_FRAMES[PATHS] = {{.draw_path = PLUME_DRAW_PATH_RASTER},
                                                    {.draw_path = PLUME_DRAW_PATH_TILED}};

/* The second system: the first's look (the same shader features), every
 * value a program could keep set otherwise. */
static void other_values(plume_system_desc *d) {
    d->forces = (plume_forces){.gravity = {0.5f, -3.0f, 0.2f}, .drag = 0.7f, .turbulence = 2.0f,
                               .turbulence_scale = 0.8f, .turbulence_speed = 1.5f};
    d->emitters[0].speed = (plume_range){0.5f, 2.0f};
    d->emitters[0].spread = 3.0f;
    d->appearance.color_over_life = (plume_gradient){2, {{0.0f, {1.0f, 0.4f, 0.1f, 0.7f}}, {1.0f, {0.2f, 0.5f, 1.0f, 0.4f}}}};
    d->appearance.size_over_life = (plume_curve){2, {{0.0f, 0.5f}, {1.0f, 1.5f}}};
    d->sort_key_bits = 16;
}

static void first_values(plume_system_desc *d) {
    d->forces = (plume_forces){.gravity = {0.0f, 1.0f, 0.0f}, .turbulence = 0.5f, .turbulence_scale = 2.0f};
    d->emitters[0].speed = (plume_range){0.1f, 0.4f};
}

typedef struct system_record {
    float *images[STEPS][PATHS];
    plume_particle *particles;
    uint32_t *order, *keys;
    plume_readback rb;
} system_record;

static plume_system make_system(int which, uint32_t seed) {
    const float centres[SYSTEMS][3] = {{-0.4f, 0.2f, -6.0f}, {0.5f, -0.3f, -7.0f}};
    return which == 0 ? render_cloud_with(centres[0], 2.0f, 1.2f, 777, seed, true, first_values)
                      : render_cloud_with(centres[1], 2.5f, 0.8f, 509, seed + 1, false, other_values);
}

static void record_init(system_record *r, uint32_t capacity) {
    for (int s = 0; s < STEPS; ++s)
        for (int p = 0; p < PATHS; ++p) r->images[s][p] = render_new_image();
    r->particles = calloc(capacity, sizeof *r->particles);
    r->order = calloc(capacity, sizeof *r->order);
    r->keys = calloc(capacity, sizeof *r->keys);
    r->rb = (plume_readback){.particles = r->particles, .draw_order = r->order, .draw_keys = r->keys};
}

static void record_free(system_record *r) {
    for (int s = 0; s < STEPS; ++s)
        for (int p = 0; p < PATHS; ++p) free(r->images[s][p]);
    free(r->particles);
    free(r->order);
    free(r->keys);
}

static void update(plume_system system, const render_camera *c) {
    plume_frame_desc frame = {.dt = 0.001f};
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
}

static void draw(plume_system system, const render_camera *c, int path, float *image) {
    render_draw(system, c, PATH_FRAMES[path], true, RENDER_WIDTH / 3, render_window_depth(c, 6.5f), image);
}

/* The same drawn particles in the same order, bit for bit. */
static void assert_same_particles(const system_record *alone, const system_record *together, int which) {
    assert_int_equal(alone->rb.live_count, together->rb.live_count);
    assert_int_equal(alone->rb.drawn_count, together->rb.drawn_count);
    assert_true(alone->rb.drawn_count > 0);
    for (uint32_t i = 0; i < alone->rb.drawn_count; ++i) {
        uint32_t slot = alone->order[i];
        if (slot != together->order[i] || alone->keys[i] != together->keys[i] ||
            memcmp(&alone->particles[slot], &together->particles[slot], sizeof(plume_particle)) != 0)
            fail_msg("system %d: drawn particle %u (slot %u) differs with the other system interleaved", which, i,
                     slot);
    }
}

static void test_systems_of_one_look_interleaved_match_each_alone(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    const uint32_t capacities[SYSTEMS] = {777, 509};
    system_record alone[SYSTEMS], together[SYSTEMS];
    for (int k = 0; k < SYSTEMS; ++k) {
        record_init(&alone[k], capacities[k]);
        record_init(&together[k], capacities[k]);
        plume_system system = make_system(k, seed);
        for (int step = 0; step < STEPS; ++step) {
            update(system, &c);
            for (int p = 0; p < PATHS; ++p) draw(system, &c, p, alone[k].images[step][p]);
        }
        assert_int_equal(plume_system_read_back(fixture_context(), system, &alone[k].rb), PLUME_OK);
        assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
    }
    plume_system systems[SYSTEMS] = {make_system(0, seed), make_system(1, seed)};
    for (int step = 0; step < STEPS; ++step) {
        /* Each call of one between two calls of the other, in both orders. */
        for (int k = 0; k < SYSTEMS; ++k) update(systems[step % 2 ? SYSTEMS - 1 - k : k], &c);
        for (int p = 0; p < PATHS; ++p)
            for (int k = 0; k < SYSTEMS; ++k) {
                int which = (step + p) % 2 ? SYSTEMS - 1 - k : k;
                draw(systems[which], &c, p, together[which].images[step][p]);
            }
    }
    for (int k = 0; k < SYSTEMS; ++k) {
        assert_int_equal(plume_system_read_back(fixture_context(), systems[k], &together[k].rb), PLUME_OK);
        assert_same_particles(&alone[k], &together[k], k);
        for (int step = 0; step < STEPS; ++step)
            for (int p = 0; p < PATHS; ++p) {
                assert_true(render_covered_pixels(alone[k].images[step][p]) > 50);
                float largest = render_largest_difference(alone[k].images[step][p], together[k].images[step][p]);
                if (largest > 0.0f)
                    fail_msg("system %d, step %d, %s: the picture interleaved differs from alone's by %.2f/255", k,
                             step, p ? "tiled" : "raster", largest * 255.0f);
            }
        printf("  system %d: %u drawn; particles and %d pictures as alone\n", k, together[k].rb.drawn_count,
               STEPS * PATHS);
        assert_int_equal(plume_system_destroy(fixture_context(), systems[k]), PLUME_OK);
        record_free(&alone[k]);
        record_free(&together[k]);
    }
}

static uint32_t listed_programs(plume_context *context, uint32_t *distinct) {
    plume_gl_object objects[512];
    uint32_t count = 0, programs = 0;
    assert_int_equal(plume_context_list_gl_objects(context, objects, 512, &count), PLUME_OK);
    assert_true(count <= 512);
    *distinct = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (objects[i].type != GL_PROGRAM) continue;
        ++programs;
        bool seen = false;
        for (uint32_t k = 0; k < i && !seen; ++k) seen = objects[k].type == GL_PROGRAM && objects[k].name == objects[i].name;
        *distinct += !seen;
    }
    return programs;
}

static void test_second_system_of_a_look_builds_no_program(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    float *image = render_new_image();
    plume_system first = make_system(0, seed);
    update(first, &c);
    for (int p = 0; p < PATHS; ++p) draw(first, &c, p, image);
    uint64_t built = plume_lab_program_builds(fixture_context());
    uint32_t distinct = 0, programs = listed_programs(fixture_context(), &distinct);
    assert_true(built > 0);
    assert_int_equal(programs, distinct);
    assert_int_equal(programs, built);
    plume_system second = make_system(0, seed + 7);
    update(second, &c);
    for (int p = 0; p < PATHS; ++p) draw(second, &c, p, image);
    uint64_t built_again = plume_lab_program_builds(fixture_context()) - built;
    uint32_t programs_with_two = listed_programs(fixture_context(), &distinct);
    printf("  the first system of the look built %llu programs, the second %llu; %u listed, each once\n",
           (unsigned long long)built, (unsigned long long)built_again, programs_with_two);
    assert_int_equal(built_again, 0);
    assert_int_equal(programs_with_two, programs);
    assert_int_equal(distinct, programs);
    assert_int_equal(plume_system_destroy(fixture_context(), first), PLUME_OK);
    assert_int_equal(plume_system_destroy(fixture_context(), second), PLUME_OK);
    free(image);
}

static void test_destroying_the_first_system_leaves_the_second_drawing(void **state) {
    (void)state;
    render_camera c = render_make_camera();
    uint32_t seed = test_random_below(1u << 20);
    printf("  seed %u\n", seed);
    plume_system first = make_system(0, seed), second = make_system(0, seed + 3);
    float *before[PATHS], *after[PATHS];
    update(first, &c);
    update(second, &c);
    for (int p = 0; p < PATHS; ++p) {
        before[p] = render_new_image();
        after[p] = render_new_image();
        draw(first, &c, p, before[p]);
        draw(second, &c, p, before[p]);
    }
    assert_int_equal(plume_system_destroy(fixture_context(), first), PLUME_OK);
    for (int p = 0; p < PATHS; ++p) {
        draw(second, &c, p, after[p]);
        assert_true(render_covered_pixels(after[p]) > 50);
        assert_true(render_largest_difference(before[p], after[p]) == 0.0f);
    }
    update(second, &c); /* the compute programs too */
    assert_int_equal(glGetError(), GL_NO_ERROR);
    assert_int_equal(plume_system_destroy(fixture_context(), second), PLUME_OK);
    uint32_t distinct = 0;
    assert_int_equal(listed_programs(fixture_context(), &distinct), 0);
    for (int p = 0; p < PATHS; ++p) {
        free(before[p]);
        free(after[p]);
    }
}

static void test_context_destroyed_with_live_systems_deletes_every_program(void **state) {
    (void)state;
    plume_context_desc desc = {.logger = test_logger()};
    plume_context *context = NULL;
    assert_int_equal(plume_context_create(&desc, &context), PLUME_OK);
    plume_system_desc system_desc = {.capacity = 300, .seed = 5};
    system_desc.emitters[0] = (plume_emitter_desc){.rate = 1000.0f, .lifetime = {1, 1}, .size = {0.1f, 0.1f}};
    plume_system systems[2];
    plume_frame_desc frame = {.dt = 0.02f};
    for (int k = 0; k < 2; ++k) {
        system_desc.seed += (uint32_t)k;
        assert_int_equal(plume_system_create(context, &system_desc, &systems[k]), PLUME_OK);
        assert_int_equal(plume_system_update(context, systems[k], &frame), PLUME_OK);
    }
    uint32_t distinct = 0, programs = listed_programs(context, &distinct);
    assert_true(programs > 0);
    assert_int_equal(programs, distinct);
    assert_int_equal(programs, plume_lab_program_builds(context));
    uint32_t listed = fixture_destroy_context_checked(context); /* every listed object deleted */
    assert_true(listed > programs);
    assert_true(test_log_contains("still alive"));
}

/* Every draw a warm-up with no draws named prepares: both paths at full,
 * half and quarter resolution, into a target with a depth texture. */
static void update_and_draw_everything(plume_context *context, plume_system system) {
    GLuint textures[2], framebuffer = 0;
    glGenTextures(2, textures);
    const GLenum formats[2] = {GL_RGBA8, GL_DEPTH_COMPONENT32F};
    for (int t = 0; t < 2; ++t) {
        glBindTexture(GL_TEXTURE_2D, textures[t]);
        glTexStorage2D(GL_TEXTURE_2D, 1, formats[t], RENDER_WIDTH, RENDER_HEIGHT);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, textures[0], 0);
    glViewport(0, 0, RENDER_WIDTH, RENDER_HEIGHT);
    plume_frame_desc frame = {.dt = 0.02f, .depth_texture = textures[1], .light_direction = {0, 1, 0},
                              .light_color = {1, 1, 1}};
    assert_int_equal(plume_system_update(context, system, &frame), PLUME_OK);
    for (int p = 0; p < PATHS; ++p)
        for (uint32_t resolution = PLUME_DRAW_FULL; resolution <= PLUME_DRAW_QUARTER; ++resolution) {
            frame.draw_path = PATH_FRAMES[p].draw_path;
            frame.draw_resolution = resolution;
            assert_int_equal(plume_system_draw(context, system, &frame), PLUME_OK);
        }
    /* The next frame's update, as a host's: Mesa keeps a reference to a draw
     * program bound after a compute one within a call (the low-resolution and
     * tiled paths' raster draws) until the next compute program replaces it,
     * so a program deleted before that is not yet gone (glIsProgram). */
    assert_int_equal(plume_system_update(context, system, &frame), PLUME_OK);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &framebuffer);
    glDeleteTextures(2, textures);
}

static void test_warm_then_create_builds_no_program(void **state) {
    (void)state;
    plume_context_desc context_desc = {.logger = test_logger()};
    plume_context *context = NULL;
    assert_int_equal(plume_context_create(&context_desc, &context), PLUME_OK);
    plume_system_desc desc = {.capacity = 1000, .seed = 3, .lit = true, .orientation = PLUME_ORIENT_VELOCITY_STRETCHED};
    desc.emitters[0] = (plume_emitter_desc){.position = {0, 0, -4}, .extents = {1, 1, 1}, .shape = PLUME_SHAPE_BOX,
                                            .rate = 3000.0f, .lifetime = {1, 2}, .speed = {0.5f, 1.0f},
                                            .size = {0.1f, 0.3f}};
    assert_int_equal(plume_context_warm_programs(context, &desc, 0), PLUME_OK);
    uint64_t warmed = plume_lab_program_builds(context);
    /* Another capacity and seed: values, not the look. */
    desc.capacity = 613;
    desc.seed = 11;
    plume_system system = {0};
    assert_int_equal(plume_system_create(context, &desc, &system), PLUME_OK);
    update_and_draw_everything(context, system);
    uint64_t after = plume_lab_program_builds(context) - warmed;
    printf("  the warm-up built %llu programs; creating, updating and drawing a system then %llu\n",
           (unsigned long long)warmed, (unsigned long long)after);
    assert_true(warmed > 0);
    assert_int_equal(after, 0);
    assert_int_equal(plume_system_destroy(context, system), PLUME_OK);
    fixture_destroy_context_checked(context);
}

const struct CMUnitTest program_cache_tests[] = {
    cmocka_unit_test_setup_teardown(test_systems_of_one_look_interleaved_match_each_alone, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_second_system_of_a_look_builds_no_program, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_destroying_the_first_system_leaves_the_second_drawing, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_context_destroyed_with_live_systems_deletes_every_program, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_warm_then_create_builds_no_program, fixture_setup, fixture_teardown),
};
const size_t program_cache_test_count = sizeof program_cache_tests / sizeof program_cache_tests[0];
