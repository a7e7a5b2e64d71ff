/* See particle_fixture.h. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "particle_fixture.h"
#include "plume_fixture.h"
#include "test_env.h"

/* In the test's context, whose logger the system inherits. */
plume_system make_system(plume_system_desc desc) {
    plume_system system = {0};
    if (desc.path == PLUME_PATH_AUTO) desc.path = test_forced_path();
    assert_int_equal(plume_system_create(fixture_context(), &desc, &system), PLUME_OK);
    assert_int_not_equal(system.id, 0);
    return system;
}

plume_system_desc system_desc(plume_context *context, plume_system system) {
    plume_system_desc desc;
    assert_int_equal(plume_system_get_desc(context, system, &desc), PLUME_OK);
    return desc;
}

void destroy_system(plume_system system) {
    assert_int_equal(plume_system_destroy(fixture_context(), system), PLUME_OK);
}

/* Everything the readback can give, in poisoned arrays so unwritten entries
 * show. */
plume_readback read_all(plume_context *context, plume_system system) {
    uint32_t capacity = system_desc(context, system).capacity;
    plume_readback rb = {0};
    rb.particles = malloc(sizeof(plume_particle) * capacity);
    rb.draw_order = malloc(sizeof(uint32_t) * capacity);
    rb.draw_keys = malloc(sizeof(uint32_t) * capacity);
    rb.dead_slots = malloc(sizeof(uint32_t) * capacity);
    assert_true(rb.particles && rb.draw_order && rb.draw_keys && rb.dead_slots);
    memset(rb.particles, POISON_BYTE, sizeof(plume_particle) * capacity);
    memset(rb.draw_order, POISON_BYTE, sizeof(uint32_t) * capacity);
    memset(rb.draw_keys, POISON_BYTE, sizeof(uint32_t) * capacity);
    memset(rb.dead_slots, POISON_BYTE, sizeof(uint32_t) * capacity);
    assert_int_equal(plume_system_read_back(context, system, &rb), PLUME_OK);
    assert_true(rb.live_count <= capacity);
    assert_true(rb.dead_count <= capacity);
    return rb;
}

void free_readback(plume_readback *rb) {
    free(rb->particles);
    free(rb->draw_order);
    free(rb->draw_keys);
    free(rb->dead_slots);
}

/* Everything a readback says of the live particles, the same for `a` and
 * `b` (`which` names them in a failure). A slot on the dead list may never
 * have been written: its bytes are whatever the GL's new buffer held (zeros
 * on llvmpipe, another buffer's old contents on NVIDIA), so only the live
 * slots are compared. Returns the live count. */
uint32_t assert_same_live_particles(plume_context *context_a, plume_system a, plume_context *context_b,
                                    plume_system b, const char *which) {
    plume_readback ra = read_all(context_a, a), rb = read_all(context_b, b);
    uint32_t capacity = system_desc(context_a, a).capacity, live = ra.live_count;
    if (ra.live_count != rb.live_count || ra.dead_count != rb.dead_count || ra.drawn_count != rb.drawn_count ||
        ra.emitted_total != rb.emitted_total)
        fail_msg("%s: counts differ (live %u and %u, drawn %u and %u)", which, ra.live_count, rb.live_count,
                 ra.drawn_count, rb.drawn_count);
    unsigned char *dead = calloc(capacity, 1);
    for (uint32_t i = 0; i < ra.dead_count; ++i) dead[ra.dead_slots[i] % capacity] = 1;
    for (uint32_t slot = 0; slot < capacity; ++slot)
        if (!dead[slot] && memcmp(&ra.particles[slot], &rb.particles[slot], sizeof ra.particles[slot]) != 0)
            fail_msg("%s, slot %u: the live particles differ (id %u and %u)", which, slot, ra.particles[slot].id,
                     rb.particles[slot].id);
    free(dead);
    assert_memory_equal(ra.draw_order, rb.draw_order, sizeof(uint32_t) * ra.drawn_count);
    assert_memory_equal(ra.draw_keys, rb.draw_keys, sizeof(uint32_t) * ra.drawn_count);
    assert_memory_equal(ra.dead_slots, rb.dead_slots, sizeof(uint32_t) * ra.dead_count);
    free_readback(&ra);
    free_readback(&rb);
    return live;
}

/* Every record both polls deliver, the same. */
void assert_same_events(plume_context *context, plume_system a, plume_system b) {
    enum { MOST = 4096 };
    plume_particle_event *ea = calloc(MOST, sizeof *ea), *eb = calloc(MOST, sizeof *eb);
    plume_event_poll_info ia, ib;
    assert_int_equal(plume_system_poll_events(context, a, ea, MOST, &ia), PLUME_OK);
    assert_int_equal(plume_system_poll_events(context, b, eb, MOST, &ib), PLUME_OK);
    assert_int_equal(ia.delivered, ib.delivered);
    assert_int_equal(ia.dropped_budget, ib.dropped_budget);
    assert_memory_equal(ea, eb, sizeof *ea * ia.delivered);
    free(ea);
    free(eb);
}

/* The live particle with emission number `id`, or NULL. */
const plume_particle *find_by_id(const plume_readback *rb, uint32_t id) {
    for (uint32_t i = 0; i < rb->live_count; ++i)
        if (rb->particles[rb->draw_order[i]].id == id) return &rb->particles[rb->draw_order[i]];
    return NULL;
}

/* Without culling: these tests find every live particle in the draw list
 * (culling has tests of its own). */
plume_frame_desc make_frame(float dt, mat4 view, mat4 projection) {
    plume_frame_desc frame = {.dt = dt, .disable_culling = true};
    if (view) memcpy(frame.view, view, sizeof frame.view);
    if (projection) memcpy(frame.projection, projection, sizeof frame.projection);
    return frame;
}

void update(plume_system system, const plume_frame_desc *frame) {
    assert_int_equal(plume_system_update(fixture_context(), system, frame), PLUME_OK);
}

/* A random unit vector. */
void random_direction(float out[3]) {
    float length;
    do {
        for (int i = 0; i < 3; ++i) out[i] = test_random_float(-1.0f, 1.0f);
        length = sqrtf(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
    } while (length < 0.1f || length > 1.0f);
    for (int i = 0; i < 3; ++i) out[i] /= length;
}

void check_slots_partition(const plume_readback *rb, uint32_t capacity, int frame) {
    assert_int_equal(rb->live_count + rb->dead_count, capacity);
    unsigned char *seen = calloc(capacity, 1);
    assert_non_null(seen);
    for (uint32_t i = 0; i < rb->live_count; ++i) {
        uint32_t slot = rb->draw_order[i];
        if (slot >= capacity || seen[slot]) fail_msg("frame %d: live slot %u out of range or listed twice", frame, slot);
        seen[slot] = 1;
        const plume_particle *p = &rb->particles[slot];
        if (!(p->age < p->lifetime)) fail_msg("frame %d: live slot %u has age %g >= lifetime %g", frame, slot, p->age, p->lifetime);
    }
    for (uint32_t i = 0; i < rb->dead_count; ++i) {
        uint32_t slot = rb->dead_slots[i];
        if (slot >= capacity || seen[slot]) fail_msg("frame %d: dead slot %u out of range or listed twice", frame, slot);
        seen[slot] = 1;
    }
    free(seen);
}

void random_camera(mat4 view, mat4 projection) {
    vec3 eye, target = {test_random_float(-1, 1), test_random_float(-1, 1), test_random_float(-1, 1)};
    random_direction(eye);
    glm_vec3_scale(eye, test_random_float(4.0f, 12.0f), eye);
    glm_lookat(eye, target, (vec3){0, 1, 0}, view);
    glm_perspective(test_random_float(0.5f, 1.5f), test_random_float(0.5f, 2.0f), 0.1f, 100.0f, projection);
}

plume_system_desc busy_desc(uint32_t seed) {
    plume_system_desc desc = {.capacity = 1500, .seed = seed};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .position = {1, 0, 0}, .extents = {0.5f},
                                            .rate = 700, .lifetime = {0.3f, 1.5f}, .speed = {0.2f, 1.5f},
                                            .spread = 1.2f, .size = {0.1f, 0.3f}, .rotation = {-3, 3},
                                            .spin = {-2, 2}};
    desc.emitters[6] = (plume_emitter_desc){.shape = PLUME_SHAPE_CONE, .position = {-1, 0, 0}, .extents = {0.3f},
                                            .direction = {0, 0, 2}, .spread = 0.3f, .burst_count = 40,
                                            .burst_interval = 0.2f, .lifetime = {0.5f, 0.9f}, .speed = {1, 2}};
    desc.forces = (plume_forces){.gravity = {0, -1, 0}, .wind = {0.5f, 0, 0}, .drag = 0.4f, .turbulence = 3,
                                 .turbulence_scale = 0.7f, .turbulence_speed = 0.5f};
    return desc;
}

/* The live particles of a readback in draw order (frees the readback). */
run_result result_of(plume_readback *rb) {
    run_result result = {rb->live_count, rb->emitted_total, malloc(sizeof(plume_particle) * (rb->live_count + 1))};
    assert_non_null(result.in_draw_order);
    for (uint32_t i = 0; i < rb->live_count; ++i) result.in_draw_order[i] = rb->particles[rb->draw_order[i]];
    free_readback(rb);
    return result;
}

run_result run_steps(plume_system system, const float *dts, int steps, mat4 view, mat4 projection) {
    for (int k = 0; k < steps; ++k) {
        plume_frame_desc frame = make_frame(dts[k], view, projection);
        update(system, &frame);
    }
    plume_readback rb = read_all(fixture_context(), system);
    return result_of(&rb);
}

/* Identical particles in identical draw order (the slots are not part of
 * plume_particle; test_events_are_deterministic compares them too). */
bool same_run(const run_result *a, const run_result *b) {
    return a->live_count == b->live_count && a->emitted_total == b->emitted_total &&
           memcmp(a->in_draw_order, b->in_draw_order, sizeof(plume_particle) * a->live_count) == 0;
}

void make_reference_run(reference_run *r, int steps) {
    assert_true(steps <= MAX_REFERENCE_STEPS);
    r->steps = steps;
    for (int k = 0; k < steps; ++k) r->dts[k] = test_random_float(0.005f, 0.03f);
    random_camera(r->view, r->projection);
    r->seed = test_random_u32();
    plume_system alone = make_system(busy_desc(r->seed));
    r->alone = run_steps(alone, r->dts, steps, r->view, r->projection);
    destroy_system(alone);
}

void ortho_camera(mat4 view, mat4 projection) {
    glm_lookat((vec3){0, 0, 5}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_ortho(-1, 1, -1, 1, 0.1f, 20.0f, projection);
}

/* Overlapping translucent squares flying toward the camera, so the oldest
 * are in front: the emission order is front to back, the wrong one. */
plume_system_desc overlap_desc(uint32_t seed) {
    plume_system_desc desc = {.capacity = 64, .seed = seed};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .position = {0, 0, -1},
                                            .extents = {0.35f, 0.35f, 0.02f}, .direction = {0, 0, 1},
                                            .rate = 12, .lifetime = {3, 3}, .speed = {0.6f, 0.6f},
                                            .size = {0.5f, 0.8f}};
    plume_appearance *look = &desc.appearance;
    look->color_over_life = (plume_gradient){3, {{0.0f, {1, 0.2f, 0, 0.8f}}, {0.5f, {0.1f, 1, 0.3f, 0.5f}},
                                                 {1.0f, {0.2f, 0.3f, 1, 0.7f}}}};
    look->opacity_over_life = (plume_curve){2, {{0.0f, 1.0f}, {1.0f, 0.6f}}};
    look->size_over_life = (plume_curve){2, {{0.0f, 0.8f}, {1.0f, 1.3f}}};
    return desc;
}

/* A depth texture holding a plane at view depth `plane` for `projection`. */
GLuint plane_depth_texture(mat4 projection, float plane) {
    vec4 clip;
    glm_mat4_mulv(projection, (vec4){0, 0, -plane, 1}, clip);
    GLint mode = GL_NEGATIVE_ONE_TO_ONE;
    glGetIntegerv(GL_CLIP_DEPTH_MODE, &mode);
    float ndc = clip[2] / clip[3], window = mode == GL_ZERO_TO_ONE ? ndc : 0.5f * ndc + 0.5f;
    float *depths = malloc(sizeof(float) * IMAGE_SIZE * IMAGE_SIZE);
    assert_non_null(depths);
    for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i) depths[i] = window;
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, IMAGE_SIZE, IMAGE_SIZE, 0, GL_DEPTH_COMPONENT, GL_FLOAT,
                 depths);
    /* A shadow-map setup: the module's own sampler must override it. */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glBindTexture(GL_TEXTURE_2D, 0);
    free(depths);
    return texture;
}

/* 16x16 RGBA8, 2x2 frames of 8x8: red, green (top row), blue, half-transparent
 * white (bottom row); rows from the top. */
unsigned char *flipbook_pixels(void) {
    static const unsigned char colors[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 128}};
    unsigned char *pixels = malloc(16 * 16 * 4);
    assert_non_null(pixels);
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) memcpy(&pixels[4 * (y * 16 + x)], colors[(y / 8) * 2 + x / 8], 4);
    return pixels;
}

double curve_at(const plume_curve *curve, double t) {
    if (curve->key_count == 0) return 1.0;
    if (t <= curve->keys[0].time) return curve->keys[0].value;
    for (uint32_t k = 1; k < curve->key_count; ++k)
        if (t < curve->keys[k].time) {
            double f = (t - curve->keys[k - 1].time) / (curve->keys[k].time - curve->keys[k - 1].time);
            return curve->keys[k - 1].value + f * (curve->keys[k].value - curve->keys[k - 1].value);
        }
    return curve->keys[curve->key_count - 1].value;
}

void gradient_at(const plume_gradient *g, double t, double rgba[4]) {
    int low = 0, high = 0;
    double f = 0.0;
    if (t <= g->keys[0].time) low = high = 0;
    else {
        low = high = (int)g->key_count - 1;
        for (uint32_t k = 1; k < g->key_count; ++k)
            if (t < g->keys[k].time) {
                low = (int)k - 1, high = (int)k;
                f = (t - g->keys[low].time) / (g->keys[high].time - g->keys[low].time);
                break;
            }
    }
    for (int c = 0; c < 4; ++c) rgba[c] = g->keys[low].rgba[c] + f * (g->keys[high].rgba[c] - g->keys[low].rgba[c]);
}

void set_host_depth_mode(bool zero_to_one, bool reversed) {
    fixture_depth_convention_changed = true;
    fixture_set_clip_and_clear_depth(zero_to_one, reversed ? 0.0f : 1.0f);
    glDepthFunc(reversed ? GL_GEQUAL : GL_LESS);
}

void set_host_depth_convention(bool reversed) { set_host_depth_mode(reversed, reversed); }

void convert_projection_depth(mat4 projection, bool zero_to_one, bool reversed) {
    /* z' = a z + b w: 0..1 takes (z + w) / 2, reversed 0..1 (w - z) / 2,
     * reversed -1..1 -z. */
    mat4 convert = GLM_MAT4_IDENTITY_INIT;
    convert[2][2] = (reversed ? -1.0f : 1.0f) * (zero_to_one ? 0.5f : 1.0f);
    convert[3][2] = zero_to_one ? 0.5f : 0.0f;
    glm_mat4_mul(convert, projection, projection);
}

void reverse_projection_depth(mat4 projection) { convert_projection_depth(projection, true, true); }

void infinite_reversed_perspective(float fovy, float aspect, float near, mat4 out) {
    float f = 1.0f / tanf(fovy * 0.5f);
    glm_mat4_zero(out);
    out[0][0] = f / aspect;
    out[1][1] = f;
    out[2][3] = -1.0f; /* w = view depth */
    out[3][2] = near;  /* z = near: NDC depth near / view depth */
}

bool compute_path_forced_off(const char *why) {
    if (test_forced_path() != PLUME_PATH_FRAGMENT) return false;
    printf("  the fragment path is forced: %s\n", why);
    return true;
}
