/* Light from particles (plume_system_write_lights): the lights written into a
 * poisoned host buffer against a CPU reference of the particles read back
 * (which particles become lights, in which order, their position, colour
 * and radius), on seeded random systems of non-power-of-two capacities; the
 * threshold and a count above the candidates; bad fields refused with
 * nothing written; the candidates' objects freed with the system. */
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
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "render_fixture.h"
#include "test_env.h"
#include "tests.h"

enum { GROUP = 256, MAX_TEST_LIGHTS = 64 };

/* Sparks and embers: colour and emitted light that change over life, an
 * additive part that fades, random lifetimes so that the ages spread. */
static plume_system_desc glowing_desc(uint32_t capacity, uint32_t seed) {
    plume_system_desc d = {.capacity = capacity, .seed = seed, .blend_mode = PLUME_BLEND_PREMULTIPLIED_ADDITIVE};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {3, 2, 3}, .burst_count = capacity - 7,
                                         .lifetime = {0.5f, 4.0f}, .speed = {0.5f, 2.0f}, .spread = 3.0f,
                                         .size = {0.05f, 0.3f}};
    d.emitters[1] = d.emitters[0]; /* young ones too, born at every update */
    d.emitters[0].burst_count = capacity / 2;
    d.emitters[1].burst_count = 0;
    d.emitters[1].rate = 0.6f * (float)capacity;
    d.appearance.color_over_life =
        (plume_gradient){3, {{0.0f, {1.0f, 0.9f, 0.6f, 1.0f}}, {0.5f, {0.9f, 0.4f, 0.1f, 0.8f}},
                             {1.0f, {0.3f, 0.1f, 0.05f, 0.2f}}}};
    d.appearance.size_over_life = (plume_curve){2, {{0.0f, 1.0f}, {1.0f, 0.3f}}};
    d.additive_over_life = (plume_curve){2, {{0.0f, 1.0f}, {0.8f, 0.1f}}};
    d.emissive_over_life = (plume_gradient){2, {{0.0f, {1.0f, 0.8f, 0.3f, 1.0f}}, {0.6f, {0.5f, 0.1f, 0.0f, 0.5f}}}};
    return d;
}

/* A particle's light as the GPU computes it (plume_lights.h). */
static void cpu_light(const plume_system_desc *d, const plume_particle *p, float intensity, double out[3]) {
    double life = fmin(fmax(p->age / p->lifetime, 0.0), 1.0), color[4], emissive[4];
    gradient_at(&d->appearance.color_over_life, life, color);
    color[3] *= curve_at(&d->appearance.opacity_over_life, life);
    gradient_at(&d->emissive_over_life, life, emissive);
    double additive = d->blend_mode == PLUME_BLEND_ADDITIVE                 ? 1.0
                      : d->blend_mode == PLUME_BLEND_PREMULTIPLIED_ADDITIVE ? curve_at(&d->additive_over_life, life)
                                                                            : 0.0;
    for (int c = 0; c < 3; ++c) out[c] = intensity * (emissive[c] * emissive[3] + color[c] * color[3] * additive);
}

static double brightness_of(const double light[3]) { return fmax(light[0], fmax(light[1], light[2])); }

typedef struct reference_light {
    uint32_t slot;
    double brightness, color[3];
} reference_light;

static int brighter_first(const void *a, const void *b) {
    const reference_light *x = a, *y = b;
    if (x->brightness != y->brightness) return x->brightness > y->brightness ? -1 : 1;
    return x->slot < y->slot ? -1 : 1;
}

/* The CPU's lights: each group's brightest live particle above the
 * threshold, the brightest of those first; returns how many (at most max). */
static uint32_t reference_lights(const plume_system_desc *d, const plume_readback *rb, const bool *live,
                                 const plume_lights_desc *lights, reference_light *out) {
    uint32_t groups = (d->capacity + GROUP - 1) / GROUP, found = 0;
    reference_light *candidates = calloc(groups, sizeof *candidates);
    assert_non_null(candidates);
    float intensity = lights->intensity > 0 ? lights->intensity : 1.0f;
    for (uint32_t g = 0; g < groups; ++g) {
        reference_light best = {.brightness = -1.0};
        for (uint32_t slot = g * GROUP; slot < d->capacity && slot < (g + 1) * GROUP; ++slot) {
            if (!live[slot]) continue;
            reference_light l = {.slot = slot};
            cpu_light(d, &rb->particles[slot], intensity, l.color);
            l.brightness = brightness_of(l.color);
            if (l.brightness > lights->min_brightness && l.brightness > best.brightness) best = l;
        }
        if (best.brightness >= 0.0) candidates[found++] = best;
    }
    qsort(candidates, found, sizeof *candidates, brighter_first);
    uint32_t count = found < lights->max_lights ? found : lights->max_lights;
    memcpy(out, candidates, count * sizeof *out);
    free(candidates);
    return count;
}

/* Live slots: every slot not on the dead list. */
static bool *live_slots(const plume_readback *rb, uint32_t capacity) {
    bool *live = malloc(capacity);
    assert_non_null(live);
    memset(live, 1, capacity);
    for (uint32_t i = 0; i < rb->dead_count; ++i) live[rb->dead_slots[i]] = false;
    return live;
}

/* A threshold about halfway down the CPU's lights at `intensity` (so that
 * some candidates fall below it), in the widest gap between two of the
 * middle half (one in a narrow gap could fall between the GPU's rounding
 * and the CPU's), and how many lights there are without it. */
static float middle_brightness(plume_system system, const plume_system_desc *d, float intensity, uint32_t *all) {
    plume_readback rb = read_all(fixture_context(), system);
    bool *live = live_slots(&rb, d->capacity);
    reference_light expected[PLUME_MAX_PARTICLE_LIGHTS];
    plume_lights_desc lights = {.max_lights = PLUME_MAX_PARTICLE_LIGHTS, .intensity = intensity};
    *all = reference_lights(d, &rb, live, &lights, expected);
    float middle = 0.0f;
    if (*all > 1) {
        uint32_t split = *all / 2;
        for (uint32_t k = *all / 4 > 1 ? *all / 4 : 1; k <= 3 * *all / 4 && k < *all; ++k)
            if (expected[k - 1].brightness - expected[k].brightness >
                expected[split - 1].brightness - expected[split].brightness)
                split = k;
        middle = (float)(0.5 * (expected[split].brightness + expected[split - 1].brightness));
    }
    free(live);
    free_readback(&rb);
    return middle;
}

static plume_system updated_system(const plume_system_desc *d, int updates) {
    plume_system system = make_system(*d);
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(0.37f, view, projection);
    for (int k = 0; k < updates; ++k) update(system, &frame);
    return system;
}

/* Writes the lights into a buffer poisoned with NaNs and checks them
 * against the CPU's: the same count, each light the particle the CPU picked
 * for that place (or, where two candidates' brightness agrees to float
 * precision, one as bright), its position exact, its colour and radius to
 * float precision, the records past the count zero; returns the count. */
static uint32_t check_lights(plume_system system, const plume_system_desc *d, const plume_lights_desc *lights_in) {
    plume_lights_desc lights = *lights_in;
    size_t bytes = plume_lights_bytes(lights.max_lights) + lights.offset;
    unsigned char *poison = malloc(bytes);
    assert_non_null(poison);
    memset(poison, 0xFF, bytes);
    GLuint buffer = test_buffer_create(bytes, poison);
    lights.buffer = buffer;
    assert_int_equal(plume_system_write_lights(fixture_context(), system, &lights), PLUME_OK);
    float *got = malloc(bytes);
    assert_non_null(got);
    test_buffer_read(buffer, 0, bytes, got);
    plume_readback rb = read_all(fixture_context(), system);
    bool *live = live_slots(&rb, d->capacity);
    reference_light expected[PLUME_MAX_PARTICLE_LIGHTS];
    uint32_t count = reference_lights(d, &rb, live, &lights, expected);
    const uint32_t *header = (const uint32_t *)((const unsigned char *)got + lights.offset);
    const float *records = (const float *)(header + 4);
    printf("  capacity %u, live %u, max_lights %u, min_brightness %g: %u lights (CPU %u)\n", d->capacity,
           rb.live_count, lights.max_lights, lights.min_brightness, header[0], count);
    assert_int_equal(header[0], count);
    assert_int_equal(header[1], lights.max_lights);
    assert_int_equal(header[2], 0);
    assert_int_equal(header[3], 0);
    float radius_setting = lights.radius;
    for (uint32_t i = 0; i < count; ++i) {
        const float *l = records + 8 * i;
        uint32_t slot = UINT32_MAX;
        for (uint32_t s = 0; s < d->capacity && slot == UINT32_MAX; ++s)
            if (live[s] && memcmp(rb.particles[s].position, l, sizeof(float) * 3) == 0) slot = s;
        assert_true(slot != UINT32_MAX); /* a live particle's position, exactly */
        double color[3];
        cpu_light(d, &rb.particles[slot], lights.intensity > 0 ? lights.intensity : 1.0f, color);
        double b = brightness_of(color), tolerance = 1e-5 * fmax(1.0, b);
        if (slot != expected[i].slot) assert_true(fabs(b - expected[i].brightness) < tolerance);
        for (int c = 0; c < 3; ++c) assert_true(fabs(l[4 + c] - color[c]) < tolerance);
        assert_true(l[7] == 0.0f);
        const plume_particle *p = &rb.particles[slot];
        double life = fmin(fmax(p->age / p->lifetime, 0.0), 1.0);
        double radius = radius_setting > 0 ? radius_setting : 10.0 * p->size * curve_at(&d->appearance.size_over_life, life);
        assert_true(fabs(l[3] - radius) < 1e-5 * fmax(1.0, radius));
    }
    for (uint32_t i = count; i < lights.max_lights; ++i)
        for (int w = 0; w < 8; ++w) assert_true(records[8 * i + w] == 0.0f);
    free(live);
    free_readback(&rb);
    free(got);
    free(poison);
    glDeleteBuffers(1, &buffer);
    return count;
}

static void test_lights_match_the_cpu_reference(void **state) {
    (void)state;
    for (int round = 0; round < 3; ++round) {
        uint32_t capacity = (700 + test_random_below(3000)) | 1u; /* odd: never a whole number of groups */
        plume_system_desc d = glowing_desc(capacity, test_random_u32());
        plume_system system = updated_system(&d, 2 + round);
        plume_lights_desc lights = {.max_lights = 1 + test_random_below(MAX_TEST_LIGHTS)};
        check_lights(system, &d, &lights);
        /* the host's radius, a brighter intensity and a threshold that
         * leaves some candidates out, at an aligned offset */
        GLint alignment = 1;
        glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
        uint32_t unthresholded = 0;
        float threshold = middle_brightness(system, &d, 1.75f, &unthresholded);
        lights = (plume_lights_desc){.max_lights = 37, .offset = 3u * (uint32_t)alignment, .radius = 2.5f,
                                     .intensity = 1.75f, .min_brightness = threshold};
        assert_true(check_lights(system, &d, &lights) < unthresholded);
        /* more lights than candidates: the rest zero */
        lights = (plume_lights_desc){.max_lights = capacity / GROUP + 5};
        check_lights(system, &d, &lights);
        destroy_system(system);
    }
}

/* No particle gives off light: no lights, every record zero. */
static void test_a_system_without_light_writes_none(void **state) {
    (void)state;
    plume_system_desc d = glowing_desc(999, 5);
    d.blend_mode = PLUME_BLEND_PREMULTIPLIED;
    d.emissive_over_life = (plume_gradient){0};
    plume_system system = updated_system(&d, 2);
    plume_lights_desc lights = {.max_lights = 9};
    check_lights(system, &d, &lights);
    destroy_system(system);
}

static void test_bad_light_fields_are_refused(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_system_desc d = glowing_desc(500, 3);
    plume_system system = updated_system(&d, 1);
    const float poison = -7.0f;
    float contents[16];
    for (int i = 0; i < 16; ++i) contents[i] = poison;
    GLuint buffer = test_buffer_create(sizeof contents, contents); /* room for one light */
    GLuint not_a_buffer = buffer + 1000;
    const struct {
        plume_lights_desc desc;
        const char *message;
    } cases[] = {
        {{.buffer = 0, .max_lights = 1}, "desc->buffer"},
        {{.buffer = buffer, .max_lights = 0}, "desc->max_lights"},
        {{.buffer = buffer, .max_lights = PLUME_MAX_PARTICLE_LIGHTS + 1}, "desc->max_lights"},
        {{.buffer = buffer, .max_lights = 1, .radius = -1.0f}, "desc->radius"},
        {{.buffer = buffer, .max_lights = 1, .intensity = NAN}, "desc->intensity"},
        {{.buffer = buffer, .max_lights = 1, .min_brightness = INFINITY}, "desc->min_brightness"},
        {{.buffer = not_a_buffer, .max_lights = 1}, "desc->buffer"},
        {{.buffer = buffer, .max_lights = 2}, "plume_lights_bytes(2)"},
        {{.buffer = buffer, .max_lights = 1, .offset = 1}, "desc->offset"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        int before = test_log_count(cases[i].message);
        assert_int_equal(plume_system_write_lights(fixture_context(), system, &cases[i].desc),
                         PLUME_ERROR_INVALID_ARGUMENT);
        if (test_log_count(cases[i].message) != before + 1)
            fail_msg("case %zu: no message naming %s", i, cases[i].message);
        float after[16];
        test_buffer_read(buffer, 0, sizeof after, after);
        for (int w = 0; w < 16; ++w) assert_true(after[w] == poison);
    }
    assert_int_equal(plume_system_write_lights(fixture_context(), system, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("desc must not be NULL"));
    plume_lights_desc good = {.buffer = buffer, .max_lights = 1};
    assert_int_equal(plume_system_write_lights(fixture_context(), (plume_system){0}, &good),
                     PLUME_ERROR_INVALID_ARGUMENT);
    destroy_system(system);
    glDeleteBuffers(1, &buffer);
}

static uint32_t gl_object_count(void) {
    uint32_t count = 0;
    assert_int_equal(plume_context_list_gl_objects(fixture_context(), NULL, 0, &count), PLUME_OK);
    return count;
}

/* The candidates' buffer and the two programs come with the first call and
 * go with the system. */
static void test_light_objects_are_freed_with_the_system(void **state) {
    (void)state;
    uint32_t before = gl_object_count();
    plume_system_desc d = glowing_desc(1500, 9);
    plume_system system = updated_system(&d, 1);
    uint32_t without = gl_object_count();
    GLuint buffer = test_buffer_create(plume_lights_bytes(4), NULL);
    plume_lights_desc lights = {.buffer = buffer, .max_lights = 4};
    assert_int_equal(plume_system_write_lights(fixture_context(), system, &lights), PLUME_OK);
    assert_int_equal(gl_object_count(), without + 3);
    destroy_system(system);
    assert_int_equal(gl_object_count(), before);
    glDeleteBuffers(1, &buffer);
}

const struct CMUnitTest particle_lights_tests[] = {
    cmocka_unit_test_setup_teardown(test_lights_match_the_cpu_reference, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_a_system_without_light_writes_none, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bad_light_fields_are_refused, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_light_objects_are_freed_with_the_system, fixture_setup, fixture_teardown),
};
const size_t particle_lights_test_count = sizeof particle_lights_tests / sizeof particle_lights_tests[0];
