/* The effect format: descriptor -> file -> descriptor gives the descriptor
 * back bit for bit (random valid descriptors, the process's seed printed);
 * every field's bad value, unknown fields, malformed JSON, a missing texture
 * and bad versions give an error naming the file, line, column and field,
 * each position computed here from the text, not by the library. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "effect_test_support.h"
#include "plume/plume_effect.h"
#include "test_env.h"
#include "tests.h"

/* ---- Random valid descriptors ---- */

/* Any finite float of interesting kinds: plain, integral, tiny (denormal
 * too), huge, -0, or random bits. */
static float random_float(void) {
    switch (test_random_below(7)) {
    case 0: return test_random_float(-1000.0f, 1000.0f);
    case 1: return (float)((int)test_random_below(2001) - 1000);
    case 2: return (test_random_below(2) ? -1.0f : 1.0f) * ldexpf(test_random_float(1.0f, 2.0f), -140 + (int)test_random_below(20));
    case 3: return (test_random_below(2) ? -1.0f : 1.0f) * ldexpf(test_random_float(1.0f, 2.0f), 100 + (int)test_random_below(27));
    case 4: return -0.0f;
    case 5: return 0.0f;
    default: {
        for (;;) {
            uint32_t bits = test_random_u32();
            float value;
            memcpy(&value, &bits, sizeof value);
            if (isfinite(value)) return value;
        }
    }
    }
}

static float random_non_negative(void) { return fabsf(random_float()); }
static float random_unit(void) { return test_random_below(4) == 0 ? (float)test_random_below(2) : test_random_float(0, 1); }

static plume_range random_range(bool positive) {
    float a = positive ? random_non_negative() : random_float(), b = positive ? random_non_negative() : random_float();
    if (positive && a == 0.0f) a = 1.0f;
    if (positive && b == 0.0f) b = 2.0f;
    return a <= b ? (plume_range){a, b} : (plume_range){b, a};
}

/* Increasing times in 0 .. 1. */
static void random_times(float *times, size_t stride, uint32_t count) {
    float t = 0.0f;
    for (uint32_t k = 0; k < count; ++k) {
        t = test_random_below(5) == 0 ? t : fminf(1.0f, t + test_random_float(0.0f, 0.4f));
        times[k * stride] = t;
    }
}

static void random_emitter(plume_emitter_desc *e) {
    e->shape = (plume_emitter_shape)test_random_below(4);
    for (int i = 0; i < 3; ++i) {
        e->position[i] = random_float();
        e->extents[i] = random_non_negative();
        e->direction[i] = test_random_float(-1, 1);
    }
    e->spread = test_random_float(0.0f, 3.14159f);
    e->rate = random_non_negative();
    e->burst_count = test_random_u32();
    e->burst_interval = random_non_negative();
    if (test_random_below(3)) e->lifetime = random_range(true);
    e->speed = random_range(false);
    e->speed.min = fabsf(e->speed.min), e->speed.max = fmaxf(e->speed.max, e->speed.min);
    if (test_random_below(3)) e->size = random_range(true);
    e->rotation = random_range(false);
    e->spin = random_range(false);
}

static void random_collision(plume_collision_desc *c) {
    c->response = test_random_below(3);
    c->restitution = random_unit();
    c->friction = random_non_negative();
    c->rest_speed = random_non_negative();
}

/* The world's fields a file holds (not a route's target system nor the
 * vector field's texture: the host's run-time objects). Directions are in
 * -1 .. 1 so that they normalise; sizes above 0. */
static void random_world(plume_world *w) {
    for (uint32_t i = test_random_below(PLUME_MAX_COLLIDERS + 1); i-- > 0;) {
        plume_collider_desc *c = &w->colliders[i];
        if (test_random_below(4) == 0) continue;
        c->shape = 1 + test_random_below(3);
        for (int a = 0; a < 3; ++a) {
            c->position[a] = random_float();
            c->normal[a] = test_random_float(-1, 1);
            c->extents[a] = test_random_float(0.001f, 1000.0f);
        }
        c->radius = test_random_float(0.001f, 1000.0f);
        c->inside = test_random_below(2);
        random_collision(&c->collision);
    }
    w->depth_collision.enabled = test_random_below(2);
    w->depth_collision.thickness = random_non_negative();
    random_collision(&w->depth_collision.collision);
    for (uint32_t i = test_random_below(PLUME_MAX_ATTRACTORS + 1); i-- > 0;) {
        plume_attractor_desc *a = &w->attractors[i];
        a->kind = test_random_below(3);
        for (int k = 0; k < 3; ++k) a->position[k] = random_float(), a->axis[k] = test_random_float(-1, 1);
        a->strength = random_float();
        a->radius = random_non_negative();
    }
    for (uint32_t i = test_random_below(PLUME_MAX_EVENT_ROUTES + 1); i-- > 0;) {
        plume_event_route_desc *e = &w->events[i];
        e->trigger = test_random_below(3);
        e->source_emitters = test_random_below(1u << PLUME_MAX_EMITTERS);
        e->target_emitter = test_random_below(PLUME_MAX_EMITTERS);
        e->count = test_random_below(64 + 1) /* at most 64 children an event */;
        e->inherit_velocity = random_float();
    }
    w->event_capacity = test_random_below((1u << 21) + 1);
}

static void random_desc(plume_system_desc *d, const char *texture) {
    memset(d, 0, sizeof *d);
    d->capacity = 1 + test_random_below(PLUME_EFFECT_MAX_CAPACITY);
    d->seed = test_random_u32();
    uint32_t emitters = test_random_below(PLUME_MAX_EMITTERS + 1);
    for (uint32_t e = 0; e < emitters; ++e)
        if (test_random_below(4)) random_emitter(&d->emitters[e]);  /* some stay zero: all defaults */
    plume_forces *f = &d->forces;
    for (int i = 0; i < 3; ++i) f->gravity[i] = random_float(), f->wind[i] = random_float();
    f->drag = random_non_negative(), f->turbulence = random_non_negative();
    f->turbulence_scale = random_non_negative(), f->turbulence_speed = random_non_negative();
    plume_appearance *a = &d->appearance;
    plume_curve *curves[2] = {&a->size_over_life, &a->opacity_over_life};
    for (int c = 0; c < 2; ++c) {
        curves[c]->key_count = test_random_below(PLUME_MAX_CURVE_KEYS + 1);
        random_times(&curves[c]->keys[0].time, 2, curves[c]->key_count);
        for (uint32_t k = 0; k < curves[c]->key_count; ++k) curves[c]->keys[k].value = random_non_negative();
    }
    a->color_over_life.key_count = test_random_below(PLUME_MAX_CURVE_KEYS + 1);
    random_times(&a->color_over_life.keys[0].time, 5, a->color_over_life.key_count);
    for (uint32_t k = 0; k < a->color_over_life.key_count; ++k)
        for (int ch = 0; ch < 4; ++ch) a->color_over_life.keys[k].rgba[ch] = random_unit();
    if (test_random_below(2)) a->texture.path = texture;
    /* Any flipbook without a sprite; with one, at most its 64 x 64 pixels. */
    a->texture.columns = test_random_below(3) || a->texture.path ? test_random_below(65) : test_random_u32();
    a->texture.rows = test_random_below(65);
    a->texture.disable_frame_blend = test_random_below(2);
    a->soft_fade_distance = random_non_negative();
    d->blend_mode = test_random_below(3);
    d->additive_over_life.key_count = test_random_below(PLUME_MAX_CURVE_KEYS + 1);
    random_times(&d->additive_over_life.keys[0].time, 2, d->additive_over_life.key_count);
    for (uint32_t k = 0; k < d->additive_over_life.key_count; ++k) d->additive_over_life.keys[k].value = random_unit();
    d->orientation = test_random_below(5);
    for (int i = 0; i < 3; ++i) d->orientation_axis[i] = test_random_float(-1, 1);
    d->stretch_factor = random_non_negative();
    if (test_random_below(3)) d->stretch_limits = random_range(true);
    d->sort_mode = test_random_below(5);
    d->sort_key_bits = test_random_below(3) ? 16 + test_random_below(17) : 0;
    d->lit = test_random_below(2);
    d->emissive_over_life.key_count = test_random_below(PLUME_MAX_CURVE_KEYS + 1);
    random_times(&d->emissive_over_life.keys[0].time, 5, d->emissive_over_life.key_count);
    for (uint32_t k = 0; k < d->emissive_over_life.key_count; ++k)
        for (int ch = 0; ch < 4; ++ch) d->emissive_over_life.keys[k].rgba[ch] = random_unit();
    random_world(&d->world);
    d->prewarm_time = test_random_below(2) ? test_random_float(0.0f, PLUME_PREWARM_MAX_SECONDS) : 0.0f;
    d->inherit_velocity = test_random_below(2) ? test_random_float(0.0f, 4.0f) : 0.0f;
    d->simulation_space = test_random_below(2);
    d->flipbook_motion.strength = test_random_below(2) ? random_non_negative() : 0.0f;
}

static void test_random_descriptors_round_trip(void **state) {
    (void)state;
    char texture[4096];
    effect_temporary_image(texture, 64, 64);  /* as large as random_desc's flipbooks */
    plume_system_desc *desc = malloc(sizeof *desc);
    plume_effect *effect = malloc(sizeof *effect);
    assert_non_null(desc);
    assert_non_null(effect);
    for (int round = 0; round < 200; ++round) {
        random_desc(desc, texture);
        plume_effect_error error;
        char *text = plume_effect_write(desc, &error);
        if (!text) fail_msg("write refused a valid descriptor: %s (seed %llu)", error.message, (unsigned long long)test_seed());
        plume_result result = plume_effect_parse(text, strlen(text), "random.json", NULL, effect, &error);
        if (result != PLUME_OK)
            fail_msg("round %d: %s (seed %llu)\n%s", round, error.message, (unsigned long long)test_seed(), text);
        assert_same_desc(desc, &effect->desc);
        /* Writing what was read gives the same text. */
        char *again = plume_effect_write(&effect->desc, NULL);
        assert_non_null(again);
        assert_string_equal(text, again);
        plume_effect_free_text(again);
        plume_effect_free_text(text);
    }
    free(desc);
    free(effect);
    unlink(texture);
}

/* The zero descriptor but its capacity: the file holds just the version and
 * the capacity, and reads back as the same zero (default) descriptor. */
static void test_defaults_are_omitted(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 10};
    char *text = plume_effect_write(&desc, NULL);
    assert_non_null(text);
    assert_string_equal(text, "{\n  \"plume_effect\": 1,\n  \"capacity\": 10\n}\n");
    plume_effect effect;
    assert_int_equal(plume_effect_parse(text, strlen(text), "zero.json", NULL, &effect, NULL), PLUME_OK);
    assert_same_desc(&desc, &effect.desc);
    plume_effect_free_text(text);
}

/* Every gallery effect loads (a file of one system or several), creates its
 * systems as they are, and writes back to text that loads as the same
 * descriptors; a file of one system without meshes also saves to a file
 * that loads as the same descriptor (texture path made relative). */
static void test_gallery_loads_and_round_trips(void **state) {
    (void)state;
    char (*paths)[4096] = malloc(16 * sizeof *paths);
    plume_effect *again = malloc(sizeof *again);
    assert_non_null(paths);
    assert_non_null(again);
    int count = effect_gallery_paths(paths, 16);
    assert_true(count >= 5);
    plume_context *context = NULL;
    plume_context_desc context_desc = {.logger = test_logger()};
    assert_int_equal(plume_context_create(&context_desc, &context), PLUME_OK);
    for (int i = 0; i < count; ++i) {
        plume_effect_error error;
        plume_effect_group group, read_back;
        if (plume_effect_group_load(paths[i], &group, &error) != PLUME_OK) fail_msg("%s", error.message);
        for (uint32_t k = 0; k < group.system_count; ++k) {
            const plume_effect *effect = &group.systems[k];
            assert_true(effect->desc.appearance.texture.path || effect->desc.meshes.count > 0);
            plume_system_desc small;
            plume_effect_meshes meshes;
            if (plume_effect_resolve_meshes(effect, NULL, 0, &small, &meshes, &error) != PLUME_OK)
                fail_msg("%s", error.message);
            small.capacity = 256;  /* the module's checks and the sprite's decoding, not the GPU's size */
            plume_system system;
            assert_int_equal(plume_system_create(context, &small, &system), PLUME_OK);
            assert_int_equal(plume_system_destroy(context, system), PLUME_OK);
            plume_effect_meshes_free(&meshes);
        }
        char *text = plume_effect_group_write(&group, &error);
        if (!text) fail_msg("%s: %s", paths[i], error.message);
        if (plume_effect_group_parse(text, strlen(text), "written.json", NULL, &read_back, &error) != PLUME_OK)
            fail_msg("%s", error.message);
        assert_int_equal(read_back.system_count, group.system_count);
        for (uint32_t k = 0; k < group.system_count; ++k) {
            assert_same_desc(&group.systems[k].desc, &read_back.systems[k].desc);
            for (uint32_t m = 0; m < group.systems[k].desc.meshes.count; ++m)
                assert_string_equal(group.systems[k].mesh_sources[m], read_back.systems[k].mesh_sources[m]);
        }
        plume_effect_free_text(text);
        plume_effect_group_free(&read_back);
        if (group.system_count == 1 && group.systems[0].desc.meshes.count == 0) {
            char saved[4096];
            snprintf(saved, sizeof saved, "%s.roundtrip.json", paths[i]);
            assert_int_equal(plume_effect_save(saved, &group.systems[0].desc, &error), PLUME_OK);
            if (plume_effect_load(saved, again, &error) != PLUME_OK) fail_msg("%s", error.message);
            assert_same_desc(&group.systems[0].desc, &again->desc);
            unlink(saved);
        }
        plume_effect_group_free(&group);
    }
    plume_context_destroy(context);
    free(paths);
    free(again);
}

/* ---- Errors ---- */

typedef struct error_case {
    const char *find;       /* in EFFECT_TEMPLATE */
    const char *replace;
    const char *at;         /* where in `replace` the error points; NULL: its start */
    const char *field;
    const char *why;        /* a part of the message after the field */
    plume_result result;    /* 0: PLUME_ERROR_INVALID_ARGUMENT */
} error_case;

static const error_case ERROR_CASES[] = {
    {"\"capacity\": 500", "\"capacity\": 0", NULL, "capacity", "is 0", 0},
    {"\"capacity\": 500", "\"capacity\": -1", NULL, "capacity", "whole number", 0},
    {"\"capacity\": 500", "\"capacity\": 1.5", NULL, "capacity", "whole number", 0},
    {"\"capacity\": 500", "\"capacity\": 4294967296", NULL, "capacity", "whole number", 0},
    {"\"seed\": 3", "\"seed\": \"x\"", NULL, "seed", "whole number", 0},
    {"\"emitters\": [", "\"emitters\": 3, \"x\": [", NULL, "emitters", "list of objects", 0},
    {"\"emitters\": [", "\"emitters\": [7, ", "7", "emitters[0]", "must be an object", 0},
    {"\"emitters\": [", "\"emitters\": [{}, {}, {}, {}, {}, {}, {}, {}, ", NULL, "emitters", "at most 8", 0},
    {"\"shape\": \"cone\"", "\"shape\": \"triangle\"", NULL, "emitters[0].shape", "must be one of \"point\"", 0},
    {"\"shape\": \"cone\"", "\"shape\": 3", NULL, "emitters[0].shape", "must be one of", 0},
    {"\"position\": [0, 1, 0]", "\"position\": [\"a\", 1, 0]", "\"a\"", "emitters[0].position[0]", "must be a number", 0},
    {"\"position\": [0, 1, 0]", "\"position\": [0, 1]", NULL, "emitters[0].position", "[x, y, z]", 0},
    {"\"position\": [0, 1, 0]", "\"position\": [1e39, 1, 0]", NULL, "emitters[0].position", "must be finite", 0},
    {"\"extents\": [0.2, 0, 0]", "\"extents\": [-0.2, 0, 0]", NULL, "emitters[0].extents", ">= 0", 0},
    {"\"direction\": [0, 1, 0]", "\"direction\": \"up\"", NULL, "emitters[0].direction", "[x, y, z]", 0},
    {"\"direction\": [0, 1, 0]", "\"direction\": [0, -1e39, 0]", NULL, "emitters[0].direction", "finite", 0},
    {"\"spread\": 0.3", "\"spread\": 4", NULL, "emitters[0].spread", "from 0 to pi", 0},
    {"\"spread\": 0.3", "\"spread\": null", NULL, "emitters[0].spread", "must be a number", 0},
    {"\"rate\": 100", "\"rate\": -1", NULL, "emitters[0].rate", ">= 0", 0},
    {"\"burst_count\": 10", "\"burst_count\": -1", NULL, "emitters[0].burst_count", "whole number", 0},
    {"\"burst_interval\": 0.5", "\"burst_interval\": -0.5", NULL, "emitters[0].burst_interval", ">= 0", 0},
    {"\"lifetime\": [1, 2]", "\"lifetime\": [0, 2]", NULL, "emitters[0].lifetime", "must be above 0", 0},
    {"\"lifetime\": [1, 2]", "\"lifetime\": [2, 1]", NULL, "emitters[0].lifetime", "over max", 0},
    {"\"lifetime\": [1, 2]", "\"lifetime\": 1", NULL, "emitters[0].lifetime", "[min, max]", 0},
    {"\"speed\": [0.5, 1]", "\"speed\": [-1, 1]", NULL, "emitters[0].speed", "must not be negative", 0},
    {"\"size\": [0.1, 0.2]", "\"size\": [0, 0.2]", NULL, "emitters[0].size", "must be above 0", 0},
    {"\"rotation\": [0, 3]", "\"rotation\": [1e39, 3]", NULL, "emitters[0].rotation", "finite", 0},
    {"\"spin\": [-1, 1]", "\"spin\": [-1, true]", "true", "emitters[0].spin[1]", "must be a number", 0},
    {"\"forces\": {", "\"forces\": [], \"x\": {", NULL, "forces", "must be an object", 0},
    {"\"gravity\": [0, -1, 0]", "\"gravity\": [0, -1]", NULL, "forces.gravity", "[x, y, z]", 0},
    {"\"wind\": [1, 0, 0]", "\"wind\": [1, -1e300, 0]", NULL, "forces.wind", "finite", 0},
    {"\"drag\": 0.5", "\"drag\": -0.5", NULL, "forces.drag", ">= 0", 0},
    {"\"turbulence\": 0.2", "\"turbulence\": -0.2", NULL, "forces.turbulence", ">= 0", 0},
    {"\"turbulence_scale\": 0.8", "\"turbulence_scale\": -0.8", NULL, "forces.turbulence_scale", ">= 0", 0},
    {"\"turbulence_speed\": 0.1", "\"turbulence_speed\": -0.1", NULL, "forces.turbulence_speed", ">= 0", 0},
    {"\"appearance\": {", "\"appearance\": \"nice\", \"x\": {", NULL, "appearance", "must be an object", 0},
    {"\"size_over_life\": [[0, 1], [1, 2]]", "\"size_over_life\": [[0, 1], [2, 2]]", NULL, "appearance.size_over_life",
     "times must rise", 0},
    {"\"size_over_life\": [[0, 1], [1, 2]]", "\"size_over_life\": [[0, 1], [1, -2]]", NULL,
     "appearance.size_over_life", "not a finite number >= 0", 0},
    {"\"size_over_life\": [[0, 1], [1, 2]]",
     "\"size_over_life\": [[0, 1], [0, 1], [0, 1], [0, 1], [0, 1], [0, 1], [0, 1], [0, 1], [1, 2]]", NULL,
     "appearance.size_over_life", "at most 8", 0},
    {"\"size_over_life\": [[0, 1], [1, 2]]", "\"size_over_life\": [[0, 1, 2], [1, 2]]", "[0, 1, 2]",
     "appearance.size_over_life[0]", "[time, value]", 0},
    {"\"size_over_life\": [[0, 1], [1, 2]]", "\"size_over_life\": {}", NULL, "appearance.size_over_life",
     "list of keys", 0},
    {"\"color_over_life\": [[0, 1, 1, 1, 1], [1, 0.5, 0.5, 0.5, 0]]",
     "\"color_over_life\": [[0, 1, 1, 1, 1], [1, 2, 0.5, 0.5, 0]]", NULL, "appearance.color_over_life",
     "outside 0 .. 1", 0},
    {"\"color_over_life\": [[0, 1, 1, 1, 1], [1, 0.5, 0.5, 0.5, 0]]",
     "\"color_over_life\": [[0, 1, 1, 1, 1], [1, 0.5, 0.5, 0.5]]", "[1, 0.5, 0.5, 0.5]",
     "appearance.color_over_life[1]", "[time, r, g, b, a]", 0},
    {"\"opacity_over_life\": [[0, 1], [1, 0]]", "\"opacity_over_life\": [[0.5, 1], [0.2, 0]]", NULL,
     "appearance.opacity_over_life", "times must rise", 0},
    {"\"texture\": {", "\"texture\": 1, \"x\": {", NULL, "appearance.texture", "must be an object", 0},
    {"\"path\": \"TEXTURE\"", "\"path\": \"no_such_sprite.png\"", NULL, "appearance.texture.path",
     "no_such_sprite.png': No such file or directory", PLUME_ERROR_IO},
    {"\"path\": \"TEXTURE\"", "\"path\": 5", NULL, "appearance.texture.path", "file name", 0},
    {"\"path\": \"TEXTURE\"", "\"path\": \"\"", NULL, "appearance.texture.path", "file name", 0},
    {"\"columns\": 2", "\"columns\": -1", NULL, "appearance.texture.columns", "whole number", 0},
    {"\"rows\": 2", "\"rows\": \"x\"", NULL, "appearance.texture.rows", "whole number", 0},
    {"\"disable_frame_blend\": true", "\"disable_frame_blend\": 1", NULL, "appearance.texture.disable_frame_blend",
     "true or false", 0},
    {"\"soft_fade_distance\": 0.4", "\"soft_fade_distance\": -0.4", NULL, "appearance.soft_fade_distance", ">= 0", 0},
    {"\"blend_mode\": \"premultiplied_additive\"", "\"blend_mode\": \"glow\"", NULL, "blend_mode",
     "must be one of \"premultiplied\"", 0},
    {"\"additive_over_life\": [[0, 1], [0.6, 0]]", "\"additive_over_life\": [[0, 1.5], [0.6, 0]]", NULL,
     "additive_over_life", "over 1", 0},
    {"\"orientation\": \"velocity_stretched\"", "\"orientation\": \"sideways\"", NULL, "orientation",
     "must be one of \"camera_facing\"", 0},
    {"\"stretch_factor\": 0.2", "\"stretch_factor\": -0.2", NULL, "stretch_factor", ">= 0", 0},
    {"\"sort_mode\": \"distance\"", "\"sort_mode\": \"random\"", NULL, "sort_mode", "must be one of \"view_depth\"", 0},
    {"\"sort_key_bits\": 32", "\"sort_key_bits\": 12", NULL, "sort_key_bits", "outside 16 .. 32", 0},
    {"\"lit\": true", "\"lit\": \"yes\"", NULL, "lit", "true or false", 0},
    {"\"prewarm_time\": 2.5", "\"prewarm_time\": -1", NULL, "prewarm_time", "0 .. 3600 seconds", 0},
    {"\"emissive_over_life\": [[0, 1, 0.5, 0, 1], [0.5, 0, 0, 0, 0]]",
     "\"emissive_over_life\": [[0, 1, 0.5, 0, 1], [0.5, 0, 0, 2, 0]]", NULL, "emissive_over_life", "outside 0 .. 1", 0},
    {"\"stretch_limits\": [1, 3]", "\"stretch_limits\": [3, 1]", NULL, "stretch_limits", "over max", 0},
    {"\"inherit_velocity\": 0.75", "\"inherit_velocity\": 5", NULL, "inherit_velocity", "outside 0 .. 4", 0},
    {"\"simulation_space\": \"local\"", "\"simulation_space\": \"parent\"", NULL, "simulation_space",
     "must be one of \"world\"", 0},
    /* The world. */
    {"\"world\": {", "\"world\": [], \"x\": {", NULL, "world", "must be an object", 0},
    {"\"shape\": \"sphere\"", "\"shape\": \"cube\"", NULL, "world.colliders[0].shape", "must be one of \"none\"", 0},
    {"\"radius\": 1.5", "\"radius\": -1.5", NULL, "world.colliders[0].radius", "above 0 for a sphere", 0},
    {"\"restitution\": 0.5", "\"restitution\": 2", NULL, "world.colliders[0].collision.restitution", "from 0 to 1", 0},
    {"\"response\": \"bounce\"", "\"response\": \"splash\"", NULL, "world.colliders[0].collision.response",
     "must be one of \"bounce\"", 0},
    {"\"thickness\": 0.3", "\"thickness\": -0.3", NULL, "world.depth_collision.thickness", ">= 0", 0},
    {"\"kind\": \"vortex\"", "\"kind\": \"spiral\"", NULL, "world.attractors[0].kind", "must be one of", 0},
    {"\"strength\": 2", "\"strength\": 1e39", NULL, "world.attractors[0].strength", "finite", 0},
    {"\"count\": 2", "\"count\": 65", NULL, "world.events[0].count", "at most 64 children", 0},
    {"\"target_emitter\": 0", "\"target_emitter\": 8", NULL, "world.events[0].target_emitter", "below 8", 0},
    {"\"source_emitters\": 1", "\"source_emitters\": 256", NULL, "world.events[0].source_emitters", "bits above", 0},
    {"\"event_capacity\": 1000", "\"event_capacity\": 3000000", NULL, "world.event_capacity", "at most", 0},
    {"\"target_emitter\": 0", "\"target_system\": 0", NULL, "world.events[0].target_system", "not a field here", 0},
    /* Unknown fields: a misspelt field must not take its default silently. */
    {"\"seed\": 3", "\"sed\": 3", NULL, "sed", "not a field here (known: capacity, seed, emitters", 0},
    {"\"rate\": 100", "\"rat\": 100", NULL, "emitters[0].rat", "not a field here", 0},
    {"\"drag\": 0.5", "\"dragg\": 0.5", NULL, "forces.dragg", "not a field here", 0},
    {"\"rows\": 2", "\"row\": 2", NULL, "appearance.texture.row", "not a field here", 0},
    {"\"soft_fade_distance\": 0.4", "\"soft_fade\": 0.4", NULL, "appearance.soft_fade", "not a field here", 0},
    {"\"texture\": {", "\"texture\": {\"pixels\": 1, ", "\"pixels\"", "appearance.texture.pixels", "not a field here",
     0},
    /* The format version. */
    {"\"plume_effect\": 1", "\"plume_effect\": 2", NULL, "plume_effect", "newer than this library's (1)", 0},
    {"\"plume_effect\": 1", "\"plume_effect\": \"1\"", NULL, "plume_effect", "format version", 0},
    {"\"plume_effect\": 1", "\"plume_effect\": 0", NULL, "plume_effect", "format version", 0},
};

static void test_every_bad_value_is_placed(void **state) {
    (void)state;
    char texture[4096], file[4096];
    effect_temporary_image(texture, 8, 8);
    char *template_text = effect_template_text(texture);
    plume_effect *effect = malloc(sizeof *effect);
    assert_non_null(effect);
    /* The template itself is valid. */
    plume_effect_error error;
    assert_int_equal(plume_effect_parse(template_text, strlen(template_text), "t.json", NULL, effect, &error), PLUME_OK);
    for (size_t c = 0; c < sizeof ERROR_CASES / sizeof ERROR_CASES[0]; ++c) {
        const error_case *k = &ERROR_CASES[c];
        char *find = effect_replace(k->find, "TEXTURE", texture);  /* the template's path is the real one */
        char *text = effect_replace(template_text, find ? find : k->find, k->replace);
        free(find);
        assert_non_null(text);
        size_t offset = (size_t)(strstr(text, k->replace) - text) + (k->at ? (size_t)(strstr(k->replace, k->at) - k->replace) : 0);
        int line, column;
        effect_line_and_column(text, offset, &line, &column);
        effect_temporary_file(file, ".json", text);
        plume_result result = plume_effect_load(file, effect, &error);
        char expected[4096 + 256];
        snprintf(expected, sizeof expected, "%s:%d:%d: %s: ", file, line, column, k->field);
        if (result != (k->result ? k->result : PLUME_ERROR_INVALID_ARGUMENT) ||
            strncmp(error.message, expected, strlen(expected)) != 0 || !strstr(error.message, k->why))
            fail_msg("case %zu (%s): got %s \"%s\", expected \"%s...%s\"", c, k->replace, plume_result_string(result),
                     error.message, expected, k->why);
        assert_int_equal(error.line, line);
        assert_int_equal(error.column, column);
        assert_string_equal(error.field, k->field);
        /* Nothing of a refused file is kept. */
        assert_int_equal(effect->desc.capacity, 0);
        unlink(file);
        free(text);
    }
    free(template_text);
    free(effect);
    unlink(texture);
}

/* A file without a version, a capacity that is missing (placed where the
 * effect starts), and a relative texture path found next to the file. */
static void test_missing_fields_and_relative_paths(void **state) {
    (void)state;
    plume_effect effect;
    plume_effect_error error;
    const char *no_version = "\n  {\"capacity\": 5}";
    assert_int_equal(plume_effect_parse(no_version, strlen(no_version), "a.json", NULL, &effect, &error),
                     PLUME_ERROR_INVALID_ARGUMENT);
    assert_string_equal(error.message, "a.json:2:3: no \"plume_effect\": the format version (1) must be given");
    const char *no_capacity = "{\"plume_effect\": 1}";
    assert_int_equal(plume_effect_parse(no_capacity, strlen(no_capacity), "b.json", NULL, &effect, &error),
                     PLUME_ERROR_INVALID_ARGUMENT);
    assert_string_equal(error.message, "b.json:1:1: capacity: is 0; a system needs room for 1 particle or more");

    char texture[4096];
    effect_temporary_image(texture, 1, 1);
    const char *name = strrchr(texture, '/') + 1;
    char folder[4096];
    snprintf(folder, sizeof folder, "%.*s", (int)(name - 1 - texture), texture);
    char text[4300];
    snprintf(text, sizeof text, "{\"plume_effect\": 1, \"capacity\": 1, \"appearance\": {\"texture\": {\"path\": \"%s\"}}}",
             name);
    assert_int_equal(plume_effect_parse(text, strlen(text), "c.json", folder, &effect, &error), PLUME_OK);
    assert_string_equal(effect.desc.appearance.texture.path, texture);
    assert_ptr_equal(effect.desc.appearance.texture.path, effect.texture_path);
    plume_effect copy;
    plume_effect_copy(&copy, &effect);
    assert_ptr_equal(copy.desc.appearance.texture.path, copy.texture_path);
    /* Saved into the texture's folder, the path is written relative again. */
    char saved[4096];
    effect_temporary_file(saved, ".json", NULL);
    assert_int_equal(plume_effect_save(saved, &effect.desc, &error), PLUME_OK);
    plume_effect again;
    assert_int_equal(plume_effect_load(saved, &again, &error), PLUME_OK);
    assert_string_equal(again.desc.appearance.texture.path, texture);
    FILE *file = fopen(saved, "rb");
    char content[4096] = "";
    assert_non_null(file);
    content[fread(content, 1, sizeof content - 1, file)] = '\0';
    fclose(file);
    char relative[4200];
    snprintf(relative, sizeof relative, "\"path\": \"%s\"", name);
    assert_non_null(strstr(content, relative));
    unlink(saved);
    unlink(texture);
}

/* Malformed JSON: jansson's message at jansson's place, with the file name. */
static void test_malformed_json(void **state) {
    (void)state;
    static const struct {
        const char *text;
        int line;
        const char *why;
    } CASES[] = {
        {"{\n  \"plume_effect\": 1,\n  \"capacity\": 5,,\n}", 3, ""},
        {"{\n  \"plume_effect\": 1,\n  \"capacity\": 5\n", 4, "end of file"},
        {"{\n  \"plume_effect\": 1,\n  \"capacity\": 5, \"capacity\": 6\n}", 3, "duplicate"},
        {"{\n  \"plume_effect\": 1,\n  \"capacity\": 99999999999999999999999\n}", 3, "too big"},
        {"{\n  \"plume_effect\": 1, 'capacity': 5\n}", 2, ""},
        {"", 1, ""},
        {"{\"plume_effect\": 1, \"capacity\": 5} trailing", 1, "end of file expected"},
        {"{\"plume_effect\": 1, \"x\": \"\xff\xfe\"}", 1, "unable to decode byte 0xff"},
        {"[1, 2]", 1, "an effect must be an object"},
    };
    plume_effect effect;
    plume_effect_error error;
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; ++c) {
        assert_int_equal(plume_effect_parse(CASES[c].text, strlen(CASES[c].text), "bad.json", NULL, &effect, &error),
                         PLUME_ERROR_INVALID_ARGUMENT);
        char expected[64];
        snprintf(expected, sizeof expected, "bad.json:%d:", CASES[c].line);
        if (strncmp(error.message, expected, strlen(expected)) != 0 || !strstr(error.message, CASES[c].why))
            fail_msg("case %zu: \"%s\" (expected \"%s...%s\")", c, error.message, expected, CASES[c].why);
        assert_int_equal(error.line, CASES[c].line);
        assert_true(error.column >= 1);
    }
    /* A NUL byte inside the text. */
    const char with_nul[] = "{\"plume_effect\": 1,\0 \"capacity\": 5}";
    assert_int_equal(plume_effect_parse(with_nul, sizeof with_nul - 1, "nul.json", NULL, &effect, &error),
                     PLUME_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(error.message, "nul.json:1:"));
}

static void test_files_and_arguments(void **state) {
    (void)state;
    plume_effect effect;
    plume_effect_error error;
    assert_int_equal(plume_effect_load("/nonexistent/effect.json", &effect, &error), PLUME_ERROR_IO);
    assert_string_equal(error.message, "/nonexistent/effect.json: cannot open: No such file or directory");
    assert_int_equal(plume_effect_load(NULL, &effect, &error), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_effect_load("x.json", NULL, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_effect_parse(NULL, 3, "x", NULL, &effect, &error), PLUME_ERROR_INVALID_ARGUMENT);
    assert_int_equal(plume_effect_load("/tmp", &effect, &error), PLUME_ERROR_IO);  /* a folder */
    /* Bigger than any effect: refused without reading it all. */
    char big[4096];
    effect_temporary_file(big, ".json", NULL);
    FILE *file = fopen(big, "wb");
    assert_non_null(file);
    static char spaces[1 << 16];
    memset(spaces, ' ', sizeof spaces);
    for (int i = 0; i < 17 * 16; ++i) assert_int_equal(fwrite(spaces, 1, sizeof spaces, file), sizeof spaces);
    fclose(file);
    assert_int_equal(plume_effect_load(big, &effect, &error), PLUME_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(error.message, "larger than 16777216 bytes"));
    unlink(big);
    assert_int_equal(plume_effect_save("/nonexistent/folder/e.json", &(plume_system_desc){.capacity = 1}, &error),
                     PLUME_ERROR_IO);
    assert_non_null(strstr(error.message, "/nonexistent/folder/e.json: cannot write"));
}

/* What no file can hold is refused by the writer, with the field. */
static void test_writer_refusals(void **state) {
    (void)state;
    plume_effect_error error;
    static const unsigned char pixel[4] = {255, 255, 255, 255};
    plume_system_desc desc = {.capacity = 1};
    desc.appearance.texture.pixels = pixel, desc.appearance.texture.width = 1, desc.appearance.texture.height = 1;
    assert_null(plume_effect_write(&desc, &error));
    assert_string_equal(error.field, "appearance.texture.pixels");
    desc = (plume_system_desc){.capacity = 1};
    desc.emitters[2].shape = (plume_emitter_shape)9;
    assert_null(plume_effect_write(&desc, &error));
    assert_string_equal(error.message, "emitters[2].shape: is 9: not a value the format names");
    desc = (plume_system_desc){.capacity = 1};
    desc.forces.drag = NAN;
    assert_null(plume_effect_write(&desc, &error));
    assert_string_equal(error.field, "forces.drag");
    desc = (plume_system_desc){.capacity = 1};
    desc.appearance.size_over_life.key_count = 9;
    assert_null(plume_effect_write(&desc, &error));
    assert_string_equal(error.field, "appearance.size_over_life");
    desc = (plume_system_desc){.capacity = 1};
    desc.host_sprite.texture = 3;
    assert_null(plume_effect_write(&desc, &error));
    assert_string_equal(error.field, "host_sprite");
    desc = (plume_system_desc){.capacity = 1};
    desc.world.vector_field.texture = 7;
    assert_null(plume_effect_write(&desc, &error));
    assert_string_equal(error.field, "world.vector_field.texture");
    desc = (plume_system_desc){.capacity = 1};
    desc.world.events[3].target_system.id = 12;
    assert_null(plume_effect_write(&desc, &error));
    assert_string_equal(error.field, "world.events[3].target_system");
    assert_null(plume_effect_write(NULL, &error));
}

const struct CMUnitTest effect_format_tests[] = {
    cmocka_unit_test_setup_teardown(test_random_descriptors_round_trip, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_defaults_are_omitted, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_gallery_loads_and_round_trips, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_every_bad_value_is_placed, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_missing_fields_and_relative_paths, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_malformed_json, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_files_and_arguments, test_setup, test_teardown),
    cmocka_unit_test_setup_teardown(test_writer_refusals, test_setup, test_teardown),
};
const size_t effect_format_test_count = sizeof effect_format_tests / sizeof effect_format_tests[0];
