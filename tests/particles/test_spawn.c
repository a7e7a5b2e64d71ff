/* Emission on demand, placements and instances (since 1.3) against the
 * CPU's transforms: emitted particles where the transform puts them, a fast
 * emitter's even stream, inherited velocity, instances on and off,
 * determinism, and bad input refused with nothing emitted or lost. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "particle_fixture.h"
#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

/* ---- CPU reference ------------------------------------------------------ */

static void rotate_by(const float q[4], const double v[3], double out[3]) {
    /* v + 2 q.xyz x (q.xyz x v + w v) */
    double c[3] = {q[1] * v[2] - q[2] * v[1] + q[3] * v[0], q[2] * v[0] - q[0] * v[2] + q[3] * v[1],
                   q[0] * v[1] - q[1] * v[0] + q[3] * v[2]};
    double d[3] = {q[1] * c[2] - q[2] * c[1], q[2] * c[0] - q[0] * c[2], q[0] * c[1] - q[1] * c[0]};
    for (int i = 0; i < 3; ++i) out[i] = v[i] + 2.0 * d[i];
}

static plume_transform random_transform(void) {
    plume_transform t;
    double length = 0.0;
    for (int i = 0; i < 4; ++i) {
        t.rotation[i] = test_random_float(-1.0f, 1.0f);
        length += (double)t.rotation[i] * t.rotation[i];
    }
    for (int i = 0; i < 4; ++i) t.rotation[i] = (float)(t.rotation[i] / sqrt(length));
    for (int i = 0; i < 3; ++i) {
        t.position[i] = test_random_float(-20.0f, 20.0f);
        t.scale[i] = test_random_float(0.25f, 3.0f);
    }
    return t;
}

static plume_system_desc compute_desc(uint32_t capacity) {
    return (plume_system_desc){.capacity = capacity, .seed = test_random_u32(), .path = PLUME_PATH_COMPUTE};
}

static plume_readback read_checked(plume_system system, uint32_t expected_emitted) {
    plume_readback rb = read_all(fixture_context(), system);
    assert_int_equal(rb.emitted_total, expected_emitted);
    return rb;
}

static void emit(plume_system system, const plume_emit_desc *e) {
    assert_int_equal(plume_system_emit(fixture_context(), system, e), PLUME_OK);
}

/* ---- Emission at a transform ----------------------------------------------- */

/* Emitter 0 is a point at an offset with one speed along its direction, so
 * each particle's birth is known exactly: transform position + R (S offset),
 * velocity R (speed direction) + the emit's velocity. Emitter 1 draws a box
 * and a cone: its particles, emitted with the same seed at the identity in
 * another system, give the local births that the transform must map. */
static void test_emit_places_particles_by_the_transform(void **state) {
    (void)state;
    enum { COUNT = 37, ROUNDS = 5 };
    const float dt = 0.02f;
    plume_system_desc desc = compute_desc(2 * COUNT * ROUNDS + 3);
    desc.emitters[0] = (plume_emitter_desc){.position = {1.0f, -2.0f, 0.5f}, .direction = {0.3f, 1.0f, -0.2f},
                                            .speed = {4.0f, 4.0f}, .lifetime = {100, 100}, .size = {0.5f, 0.5f}};
    desc.emitters[1] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {1.0f, 2.0f, 0.5f},
                                            .position = {0.0f, 1.0f, 0.0f}, .spread = 0.7f, .speed = {1, 3},
                                            .lifetime = {100, 100}, .size = {0.1f, 0.3f}};
    plume_system placed = make_system(desc), local = make_system(desc);
    double dir_length = sqrt(0.3 * 0.3 + 1.0 + 0.2 * 0.2);
    double direction[3] = {0.3 / dir_length, 1.0 / dir_length, -0.2 / dir_length};
    double worst = 0.0;
    for (int round = 0; round < ROUNDS; ++round) {
        plume_emit_desc e = {.emitter = 0, .count = COUNT, .transform = random_transform(), .size_scale = 2.0f,
                             .velocity = {test_random_float(-3, 3), test_random_float(-3, 3), 0.0f}};
        emit(placed, &e);
        plume_emit_desc at_identity = {.emitter = 0, .count = COUNT};
        emit(local, &at_identity);
        plume_emit_desc shaped = {.emitter = 1, .count = COUNT, .transform = e.transform, .seed = 1 + round,
                                  .velocity = {e.velocity[0], e.velocity[1], e.velocity[2]}};
        emit(placed, &shaped);
        shaped.transform = (plume_transform){0};
        shaped.velocity[0] = shaped.velocity[1] = shaped.velocity[2] = 0.0f;
        emit(local, &shaped);
        plume_frame_desc frame = make_frame(dt, NULL, NULL);
        update(placed, &frame);
        update(local, &frame);

        uint32_t base = 2 * COUNT * round;
        plume_readback rb = read_checked(placed, base + 2 * COUNT), ref = read_checked(local, base + 2 * COUNT);
        const plume_transform *t = &e.transform;
        for (uint32_t k = 0; k < 2 * COUNT; ++k) {
            const plume_particle *p = find_by_id(&rb, base + k), *q = find_by_id(&ref, base + k);
            assert_non_null(p);
            assert_non_null(q);
            double local_position[3], local_velocity[3];
            for (int i = 0; i < 3; ++i) {
                /* A still system: birth = now - velocity * age. */
                local_position[i] = k < COUNT ? desc.emitters[0].position[i] : q->position[i] - q->velocity[i] * q->age;
                local_velocity[i] = k < COUNT ? 4.0 * direction[i] : q->velocity[i];
                local_position[i] *= t->scale[i];
            }
            double turned[3], velocity[3];
            rotate_by(t->rotation, local_position, turned);
            rotate_by(t->rotation, local_velocity, velocity);
            for (int i = 0; i < 3; ++i) {
                velocity[i] += e.velocity[i];
                double position = t->position[i] + turned[i] + velocity[i] * p->age;
                double error = fabs(p->position[i] - position) + fabs(p->velocity[i] - velocity[i]);
                if (error > worst) worst = error;
                if (error > 2e-3)
                    fail_msg("round %d particle %u axis %d: position %g (expected %g), velocity %g (%g)", round, k, i,
                             p->position[i], position, p->velocity[i], velocity[i]);
            }
            assert_float_equal(p->age, dt, 1e-7);
            assert_float_equal(p->size, (k < COUNT ? 2.0f : 1.0f) * q->size, 1e-6);
        }
        free_readback(&rb);
        free_readback(&ref);
    }
    printf("  emit at random transforms: worst position + velocity error %.2e (bound 2e-3)\n", worst);
    destroy_system(placed);
    destroy_system(local);
}

/* ---- Moving placements ------------------------------------------------------ */

/* A point emitter of rate R, speed 0, moved at constant velocity u over
 * random steps: its k-th particle is born where fraction + R t reaches k + 1,
 * at u t, and stays. So particles are u / R apart, every one of them, across
 * frame boundaries too (without sub-frame births each frame's particles
 * would sit in one clump). Bound: |gap - u / R| <= 1e-3 u / R. */
static void test_fast_emitter_leaves_an_even_stream(void **state) {
    (void)state;
    enum { STEPS = 40 };
    const float rate = 300.0f, speed = 50.0f; /* 10 particles a 1/30 s, 1/6 unit apart */
    plume_system_desc desc = compute_desc(20011);
    desc.emitters[0] = (plume_emitter_desc){.rate = rate, .lifetime = {100, 100}};
    plume_system system = make_system(desc);
    /* Time 0 at the origin: the first step streams from there. */
    plume_transform origin = {.position = {0.0f, 1.0f, 0.0f}};
    assert_int_equal(plume_system_set_transform(fixture_context(), system, &origin, true), PLUME_OK);
    plume_frame_desc still = make_frame(0.0f, NULL, NULL);
    update(system, &still);
    double time = 0.0;
    for (int s = 0; s < STEPS; ++s) {
        double dt = test_random_float(1.0f / 90.0f, 1.0f / 30.0f);
        time += dt;
        plume_transform t = {.position = {(float)(speed * time), 1.0f, 0.0f}};
        assert_int_equal(plume_system_set_transform(fixture_context(), system, &t, false), PLUME_OK);
        plume_frame_desc frame = make_frame((float)dt, NULL, NULL);
        update(system, &frame);
    }
    plume_readback rb = read_all(fixture_context(), system);
    uint32_t n = rb.emitted_total;
    assert_true(n > 100);
    const double gap = speed / rate;
    double worst = 0.0;
    const plume_particle *previous = NULL;
    for (uint32_t id = 0; id < n; ++id) {
        const plume_particle *p = find_by_id(&rb, id);
        assert_non_null(p);
        assert_float_equal(p->position[1], 1.0f, 1e-6);
        if (previous) {
            double error = fabs((p->position[0] - previous->position[0]) - gap) / gap;
            if (error > worst) worst = error;
            if (error > 1e-3)
                fail_msg("particles %u and %u are %g apart; the stream's gap is %g", id - 1, id,
                         p->position[0] - previous->position[0], gap);
            /* Born 1 / R apart in time. */
            assert_float_equal(previous->age - p->age, 1.0 / rate, 1e-4);
        }
        previous = p;
    }
    printf("  fast emitter: %u particles, worst relative gap error %.2e (bound 1e-3)\n", n, worst);
    free_readback(&rb);
    destroy_system(system);
}

/* inherit_velocity h: a particle of a placement moving at u starts with
 * h u (its emitter's speed is 0), and sits where its birth point plus h u
 * times its age puts it. A jump neither streams nor gives velocity. */
static void test_inherited_velocity(void **state) {
    (void)state;
    const float rate = 120.0f, dt = 1.0f / 40.0f, h = 0.5f;
    const float u[3] = {test_random_float(-30, 30), test_random_float(-30, 30), test_random_float(-30, 30)};
    plume_system_desc desc = compute_desc(4099);
    desc.inherit_velocity = h;
    desc.emitters[0] = (plume_emitter_desc){.rate = rate, .lifetime = {100, 100}};
    plume_system system = make_system(desc);
    const double start[3] = {5.0, -3.0, 2.0};
    for (int s = 0; s <= 12; ++s) {
        plume_transform t = {.position = {(float)(start[0] + u[0] * dt * s), (float)(start[1] + u[1] * dt * s),
                              (float)(start[2] + u[2] * dt * s)}};
        assert_int_equal(plume_system_set_transform(fixture_context(), system, &t, s == 0), PLUME_OK);
        plume_frame_desc frame = make_frame(s == 0 ? 0.0f : dt, NULL, NULL);
        update(system, &frame);
    }
    plume_readback rb = read_all(fixture_context(), system);
    assert_true(rb.emitted_total >= 30);
    const double now = 12.0 * dt;
    for (uint32_t id = 0; id < rb.emitted_total; ++id) {
        const plume_particle *p = find_by_id(&rb, id);
        assert_non_null(p);
        double birth = now - p->age;
        for (int i = 0; i < 3; ++i) {
            assert_float_equal(p->velocity[i], h * u[i], 1e-3);
            double expected = start[i] + u[i] * birth + h * u[i] * p->age;
            if (fabs(p->position[i] - expected) > 2e-3)
                fail_msg("particle %u axis %d at %g, expected %g", id, i, p->position[i], expected);
        }
    }
    uint32_t before = rb.emitted_total;
    free_readback(&rb);
    /* A jump far away: the next particles start there, still. */
    plume_transform far = {.position = {1000.0f, 0.0f, 0.0f}};
    assert_int_equal(plume_system_set_transform(fixture_context(), system, &far, true), PLUME_OK);
    plume_frame_desc frame = make_frame(dt, NULL, NULL);
    update(system, &frame);
    rb = read_all(fixture_context(), system);
    assert_true(rb.emitted_total > before);
    for (uint32_t id = before; id < rb.emitted_total; ++id) {
        const plume_particle *p = find_by_id(&rb, id);
        assert_non_null(p);
        assert_float_equal(p->position[0], 1000.0f, 1e-3);
        assert_float_equal(p->velocity[0], 0.0f, 0.0);
    }
    free_readback(&rb);
    destroy_system(system);
}

/* ---- Instances ------------------------------------------------------------- */

static uint32_t count_near(const plume_readback *rb, const float at[3], uint32_t first_id) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < rb->drawn_count; ++i) {
        const plume_particle *p = &rb->particles[rb->draw_order[i]];
        if (p->id < first_id) continue;
        double d = 0.0;
        for (int k = 0; k < 3; ++k) d += (p->position[k] - at[k]) * (p->position[k] - at[k]);
        if (d < 1e-6) ++n;
    }
    return n;
}

/* Instance 0 off, 1 .. 5 on at random places: each emits the emitter's
 * rate there (point emitter, speed 0); switched off, instance 3 emits
 * nothing and its particles live on. */
static void test_instances_on_and_off(void **state) {
    (void)state;
    enum { INSTANCES = 6 };
    const float dt = 0.1f;
    plume_system_desc desc = compute_desc(1009);
    desc.emitters[0] = (plume_emitter_desc){.rate = 50.0f, .lifetime = {100, 100}};
    desc.emitters[2] = (plume_emitter_desc){.burst_count = 3, .lifetime = {100, 100}};
    plume_system system = make_system(desc);
    plume_instance_desc instances[INSTANCES] = {{.enabled = false}};
    for (int i = 1; i < INSTANCES; ++i)
        instances[i] = (plume_instance_desc){.transform = random_transform(), .enabled = true};
    assert_int_equal(plume_system_set_instances(fixture_context(), system, 0, INSTANCES, instances), PLUME_OK);
    plume_frame_desc frame = make_frame(dt, NULL, NULL);
    update(system, &frame);
    plume_readback rb = read_all(fixture_context(), system);
    assert_int_equal(rb.emitted_total, 5 * (5 + 3));
    for (int i = 1; i < INSTANCES; ++i) assert_int_equal(count_near(&rb, instances[i].transform.position, 0), 8);
    free_readback(&rb);

    instances[3].enabled = false;
    assert_int_equal(plume_system_set_instances(fixture_context(), system, 3, 1, &instances[3]), PLUME_OK);
    update(system, &frame);
    rb = read_all(fixture_context(), system);
    assert_int_equal(rb.emitted_total, 40 + 4 * 5);
    for (int i = 1; i < INSTANCES; ++i) {
        assert_int_equal(count_near(&rb, instances[i].transform.position, 40), i == 3 ? 0 : 5);
        assert_int_equal(count_near(&rb, instances[i].transform.position, 0), i == 3 ? 8 : 13);
    }
    free_readback(&rb);
    destroy_system(system);
}

/* ---- Local space ------------------------------------------------------------ */

/* Where placement `t` puts local point `local`. */
static void place(const plume_transform *t, const double local[3], double out[3]) {
    double scaled[3] = {local[0] * t->scale[0], local[1] * t->scale[1], local[2] * t->scale[2]};
    rotate_by(t->rotation, scaled, out);
    for (int i = 0; i < 3; ++i) out[i] += t->position[i];
}

/* The local point that `t` puts at world point `world`, and a world vector
 * turned back by t's rotation. */
static void unplace(const plume_transform *t, const double world[3], double out[3], bool vector) {
    const float undo[4] = {-t->rotation[0], -t->rotation[1], -t->rotation[2], t->rotation[3]};
    double shifted[3];
    for (int i = 0; i < 3; ++i) shifted[i] = world[i] - (vector ? 0.0 : t->position[i]);
    rotate_by(undo, shifted, out);
    for (int i = 0; i < 3 && !vector; ++i) out[i] /= t->scale[i];
}

/* Local space: instance 0 moves from A to B (random rotations, scales,
 * positions) while instance 1 stays at C. After the update each older
 * particle of instance 0 is where B puts the local point A had it at, its
 * velocity turned by the change of rotation, then moved by it for dt;
 * instance 1's particles just move on. */
static void test_local_space_carries_particles_with_their_instance(void **state) {
    (void)state;
    const float dt = 0.05f;
    plume_system_desc desc = compute_desc(2003);
    desc.simulation_space = PLUME_SPACE_LOCAL;
    desc.emitters[0] = (plume_emitter_desc){.rate = 100.0f, .lifetime = {100, 100}, .speed = {1, 3},
                                            .spread = 0.5f, .position = {0.5f, 0.0f, 0.0f}};
    plume_system system = make_system(desc);
    plume_instance_desc instances[2] = {{.transform = random_transform(), .enabled = true, .jump = true},
                                        {.transform = random_transform(), .enabled = true, .jump = true}};
    instances[1].transform.position[0] += 100.0f; /* far from A and B: births tell the instances apart */
    assert_int_equal(plume_system_set_instances(fixture_context(), system, 0, 2, instances), PLUME_OK);
    plume_frame_desc frame = make_frame(dt, NULL, NULL);
    for (int s = 0; s < 4; ++s) update(system, &frame);
    plume_readback before = read_all(fixture_context(), system);
    assert_int_equal(before.emitted_total, 2 * 20);
    const plume_transform a = instances[0].transform, c = instances[1].transform;
    plume_transform b = random_transform();
    assert_int_equal(plume_system_set_transform(fixture_context(), system, &b, false), PLUME_OK);
    update(system, &frame);
    plume_readback after = read_all(fixture_context(), system);
    double worst = 0.0;
    for (uint32_t id = 0; id < before.emitted_total; ++id) {
        const plume_particle *p = find_by_id(&before, id), *q = find_by_id(&after, id);
        assert_non_null(p);
        assert_non_null(q);
        double birth[3], position[3], velocity[3];
        for (int i = 0; i < 3; ++i) birth[i] = p->position[i] - p->velocity[i] * p->age;
        bool of_c = fabs(birth[0] - c.position[0]) < 10.0;
        for (int i = 0; i < 3; ++i) position[i] = p->position[i], velocity[i] = p->velocity[i];
        if (!of_c) {
            double local[3], turned[3];
            unplace(&a, position, local, false);
            place(&b, local, position);
            unplace(&a, velocity, turned, true);
            rotate_by(b.rotation, turned, velocity);
        }
        for (int i = 0; i < 3; ++i) {
            double expected = position[i] + velocity[i] * dt;
            double error = fabs(q->position[i] - expected) + fabs(q->velocity[i] - velocity[i]);
            if (error > worst) worst = error;
            if (error > 2e-3)
                fail_msg("particle %u (instance %d) axis %d at %g, expected %g; velocity %g, expected %g", id,
                         of_c ? 1 : 0, i, q->position[i], expected, q->velocity[i], velocity[i]);
        }
    }
    printf("  local space: worst position + velocity error %.2e (bound 2e-3)\n", worst);
    free_readback(&before);
    free_readback(&after);
    destroy_system(system);
}

/* ---- Colour multiplier ------------------------------------------------------ */

/* The image of `system` drawn by `path` (0 raster, 1 tiled, 2 a draw group
 * of it alone) over black. */
static void draw_image(plume_system system, int path, const plume_frame_desc *frame, float *image) {
    const float clear[4] = {0, 0, 0, 0};
    plume_frame_desc f = *frame;
    mat4 projection;
    memcpy(projection, frame->projection, sizeof projection);
    GLuint depth = path == 1 ? plane_depth_texture(projection, 15.0f) : 0;
    f.depth_texture = depth;
    f.draw_path = path == 1 ? PLUME_DRAW_PATH_TILED : PLUME_DRAW_PATH_RASTER;
    plume_draw_group group = {0};
    if (path == 2) {
        plume_draw_group_desc desc = {.systems = &system, .system_count = 1};
        assert_int_equal(plume_draw_group_create(fixture_context(), &desc, &group), PLUME_OK);
    }
    test_target t = test_target_begin(IMAGE_SIZE, clear);
    if (path == 2) assert_int_equal(plume_draw_group_draw(fixture_context(), group, &f), PLUME_OK);
    else assert_int_equal(plume_system_draw(fixture_context(), system, &f), PLUME_OK);
    test_target_end(&t, image);
    if (path == 2) assert_int_equal(plume_draw_group_destroy(fixture_context(), group), PLUME_OK);
    glDeleteTextures(1, &depth);
}

/* An emit's colour multiplier on every draw path of the compute path: over
 * black, the premultiplied picture of the tinted particle is the untinted
 * one's times (r a, g a, b a, a) of the multiplier, pixel by pixel. */
static void test_emit_color_multiplies_on_every_draw_path(void **state) {
    (void)state;
    const float m[4] = {0.5f, 0.25f, 1.0f, 0.75f}; /* exact in half floats */
    plume_system_desc desc = compute_desc(8);
    desc.emitters[1] = (plume_emitter_desc){.lifetime = {10, 10}, .size = {1.2f, 1.2f}};
    plume_system plain = make_system(desc), tinted = make_system(desc);
    plume_emit_desc e = {.emitter = 1, .count = 1};
    emit(plain, &e);
    memcpy(e.color, m, sizeof m);
    emit(tinted, &e);
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(0.01f, view, projection);
    update(plain, &frame);
    update(tinted, &frame);
    float *a = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE), *b = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    assert_true(a && b);
    for (int path = 0; path < 3; ++path) {
        draw_image(plain, path, &frame, a);
        draw_image(tinted, path, &frame, b);
        int covered = 0;
        for (int p = 0; p < IMAGE_SIZE * IMAGE_SIZE; ++p) {
            covered += a[4 * p + 3] > 0.1f;
            for (int c = 0; c < 4; ++c) {
                float expected = a[4 * p + c] * (c < 3 ? m[c] * m[3] : m[3]);
                if (fabsf(b[4 * p + c] - expected) > 3e-3f)
                    fail_msg("path %d pixel %d channel %d: %g, expected %g (untinted %g)", path, p, c, b[4 * p + c],
                             expected, a[4 * p + c]);
            }
        }
        assert_true(covered > 100);
    }
    free(a);
    free(b);
    destroy_system(plain);
    destroy_system(tinted);
}

/* ---- Determinism ------------------------------------------------------------ */

static void run_random_calls(plume_system system, uint32_t calls_seed) {
    uint32_t state = calls_seed;
    for (int frame = 0; frame < 6; ++frame) {
        for (int c = 0; c < 20; ++c) {
            state = state * 1664525u + 1013904223u;
            plume_emit_desc e = {.emitter = state % 2, .count = 1 + (state >> 8) % 17,
                                 .transform = {.position = {(float)(state % 13), 1.0f, -2.0f}}, .seed = (state >> 4) % 3};
            emit(system, &e);
        }
        plume_transform t = {.position = {(float)frame, 0.0f, 0.0f}};
        assert_int_equal(plume_system_set_transform(fixture_context(), system, &t, false), PLUME_OK);
        plume_frame_desc f = make_frame(1.0f / 60.0f, NULL, NULL);
        update(system, &f);
    }
}

static void test_same_calls_same_particles(void **state) {
    (void)state;
    plume_system_desc desc = compute_desc(3001);
    desc.emitters[0] = (plume_emitter_desc){.rate = 200.0f, .shape = PLUME_SHAPE_SPHERE, .extents = {1, 1, 1},
                                            .speed = {1, 2}, .spread = 3.0f};
    desc.emitters[1] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {1, 2, 3}, .speed = {0, 5},
                                            .spread = 1.0f};
    uint32_t calls_seed = test_random_u32();
    run_result runs[2];
    for (int r = 0; r < 2; ++r) {
        plume_system system = make_system(desc);
        run_random_calls(system, calls_seed);
        plume_readback rb = read_all(fixture_context(), system);
        assert_true(rb.live_count > 100);
        runs[r] = result_of(&rb);
        destroy_system(system);
    }
    assert_true(same_run(&runs[0], &runs[1]));
    for (int r = 0; r < 2; ++r) free(runs[r].in_draw_order);
}

/* ---- Bursts set later ----------------------------------------------------- */

/* A single burst set one second in fires on the next update (its clock
 * restarts when its bursts change); sent again unchanged, it does not
 * fire again. */
static void test_burst_set_later_fires(void **state) {
    (void)state;
    plume_system_desc desc = {.capacity = 100};
    plume_system system = make_system(desc);
    plume_frame_desc frame = make_frame(0.25f, NULL, NULL);
    for (int s = 0; s < 4; ++s) update(system, &frame);
    plume_emitter_desc burst = {.burst_count = 9, .lifetime = {100, 100}};
    assert_int_equal(plume_system_set_emitter(fixture_context(), system, 0, &burst), PLUME_OK);
    update(system, &frame);
    plume_readback rb = read_all(fixture_context(), system);
    assert_int_equal(rb.emitted_total, 9);
    free_readback(&rb);
    assert_int_equal(plume_system_set_emitter(fixture_context(), system, 0, &burst), PLUME_OK);
    update(system, &frame);
    rb = read_all(fixture_context(), system);
    assert_int_equal(rb.emitted_total, 9);
    free_readback(&rb);
    destroy_system(system);
}

/* ---- Bad input ---------------------------------------------------------------- */

/* Each refused call: its error, one message naming what is wrong, and the
 * next update emits exactly what the good calls asked for. */
static void test_bad_input_is_refused_and_nothing_is_lost(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_context *c = fixture_context();
    plume_system_desc desc = compute_desc(7001);
    plume_system system = make_system(desc);
    plume_emit_desc good = {.count = 3};
    emit(system, &good);
    const float nan = NAN;
    plume_emit_desc bad = good;
    bad.transform.position[1] = nan;
    assert_int_equal(plume_system_emit(c, system, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_system_emit: transform must be finite"));
    bad = good;
    bad.transform.rotation[2] = INFINITY;
    assert_int_equal(plume_system_emit(c, system, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    bad = good;
    bad.transform.scale[0] = -1.0f;
    assert_int_equal(plume_system_emit(c, system, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("transform.scale must be above 0"));
    bad = good;
    bad.count = 0;
    assert_int_equal(plume_system_emit(c, system, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_system_emit: count 0 must be 1 .. the capacity, 7001"));
    bad.count = 7002;
    assert_int_equal(plume_system_emit(c, system, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    bad = good;
    bad.emitter = PLUME_MAX_EMITTERS;
    assert_int_equal(plume_system_emit(c, system, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_system_emit: emitter 8 must be below 8"));
    bad = good;
    bad.velocity[0] = nan;
    assert_int_equal(plume_system_emit(c, system, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    bad = good;
    bad.color[2] = -0.5f;
    assert_int_equal(plume_system_emit(c, system, &bad), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_system_emit: color must be in 0 .. 65504"));
    assert_int_equal(plume_system_emit(c, system, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    plume_transform t = {.position = {nan, 0, 0}};
    assert_int_equal(plume_system_set_transform(c, system, &t, false), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_system_set_transform: transform must be finite"));
    assert_int_equal(plume_system_set_transform(c, system, NULL, false), PLUME_ERROR_INVALID_ARGUMENT);
    plume_instance_desc instance = {.enabled = true};
    assert_int_equal(plume_system_set_instances(c, system, PLUME_MAX_INSTANCES, 1, &instance),
                     PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("plume_system_set_instances: instances must not be NULL and first 65536"));
    assert_int_equal(plume_system_set_instances(c, system, 1, 1, NULL), PLUME_ERROR_INVALID_ARGUMENT);
    plume_instance_desc two[2] = {{.enabled = true}, {.enabled = true, .transform = {.scale = {1, 0, 1}}}};
    assert_int_equal(plume_system_set_instances(c, system, 1, 2, two), PLUME_ERROR_INVALID_ARGUMENT);
    assert_true(test_log_contains("instances[1].transform.scale"));
    /* The full queue: the call past the most is refused, the queued ones emit. */
    for (int q = 1; q < PLUME_MAX_EMITS_PER_UPDATE; ++q) emit(system, &(plume_emit_desc){.count = 1 + q % 2});
    assert_int_equal(plume_system_emit(c, system, &good), PLUME_ERROR_CAPACITY);
    assert_true(test_log_contains("plume_system_emit: 4096 emits are already queued"));
    uint32_t queued = 3;
    for (int q = 1; q < PLUME_MAX_EMITS_PER_UPDATE; ++q) queued += 1 + q % 2;
    plume_frame_desc frame = make_frame(0.01f, NULL, NULL);
    update(system, &frame);
    plume_readback rb = read_all(c, system);
    assert_int_equal(rb.emitted_total, queued);
    assert_int_equal(rb.live_count, queued);
    free_readback(&rb);
    /* A reset drops the queue. */
    emit(system, &good);
    assert_int_equal(plume_system_reset(c, system), PLUME_OK);
    update(system, &frame);
    rb = read_all(c, system);
    assert_int_equal(rb.emitted_total, 0);
    free_readback(&rb);
    destroy_system(system);
}

/* The fragment path has no placements: each call refused, by name. */
static void test_fragment_path_refuses(void **state) {
    (void)state;
    test_log_expect_errors();
    plume_system_desc desc = {.capacity = 64, .path = PLUME_PATH_FRAGMENT};
    plume_system system = make_system(desc);
    plume_context *c = fixture_context();
    plume_emit_desc e = {.count = 1};
    assert_int_equal(plume_system_emit(c, system, &e), PLUME_ERROR_GL_UNSUPPORTED);
    assert_true(test_log_contains("plume_system_emit: the system runs the fragment path"));
    plume_transform t = {0};
    assert_int_equal(plume_system_set_transform(c, system, &t, false), PLUME_ERROR_GL_UNSUPPORTED);
    plume_instance_desc i = {.enabled = true};
    assert_int_equal(plume_system_set_instances(c, system, 0, 1, &i), PLUME_ERROR_GL_UNSUPPORTED);
    destroy_system(system);
}

const struct CMUnitTest particle_spawn_tests[] = {
    cmocka_unit_test_setup_teardown(test_emit_places_particles_by_the_transform, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_fast_emitter_leaves_an_even_stream, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_inherited_velocity, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_instances_on_and_off, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_local_space_carries_particles_with_their_instance, fixture_setup,
                                    fixture_teardown),
    cmocka_unit_test_setup_teardown(test_emit_color_multiplies_on_every_draw_path, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_same_calls_same_particles, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_burst_set_later_fires, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_bad_input_is_refused_and_nothing_is_lost, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_fragment_path_refuses, fixture_setup, fixture_teardown),
};
const size_t particle_spawn_test_count = sizeof particle_spawn_tests / sizeof particle_spawn_tests[0];
