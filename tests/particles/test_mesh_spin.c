/* Mesh particles' orientation (plume_mesh.h) read back through the lab
 * against a CPU integration: the birth state (unit quaternions, angular
 * speeds in range, aligned to the velocity where asked), the steps that
 * follow (drag, then the turn) from the read-back state, and a contact's
 * friction turning sliding into rolling. Seeded (PLUME_TEST_SEED), counts
 * that are no power of two. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mesh_reference.h"
#include "particle_fixture.h"
#include "plume_fixture.h"
#include "plume_lab.h"
#include "test_env.h"
#include "tests.h"

enum { SPIN_FLOATS = 8 };

/* A burst of `count` cubes at the origin, no gravity, living long. */
static plume_system_desc spin_desc(uint32_t count, mesh_arrays *cube) {
    plume_system_desc d = {.capacity = count, .seed = test_random_u32()};
    d.emitters[0] = (plume_emitter_desc){.burst_count = count, .lifetime = {100, 100}, .speed = {1, 3},
                                         .size = {0.5f, 1.5f}, .spread = 3.14159f};
    d.meshes.count = 1;
    d.meshes.meshes[0] = mesh_reference_desc(cube);
    d.meshes.angular_speed = (plume_range){1.0f, 6.0f};
    d.meshes.angular_drag = 0.7f;
    return d;
}

static float *read_spins(plume_system system, uint32_t count) {
    float *spins = malloc(sizeof(float) * SPIN_FLOATS * count);
    assert_non_null(spins);
    memset(spins, 0xAB, sizeof(float) * SPIN_FLOATS * count);
    assert_int_equal(plume_lab_read_spins(fixture_context(), system, spins, count), PLUME_OK);
    return spins;
}

static void quaternion_product(const double a[4], const double b[4], double out[4]) {
    double r[4] = {a[3] * b[0] + b[3] * a[0] + a[1] * b[2] - a[2] * b[1],
                   a[3] * b[1] + b[3] * a[1] + a[2] * b[0] - a[0] * b[2],
                   a[3] * b[2] + b[3] * a[2] + a[0] * b[1] - a[1] * b[0],
                   a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(out, r, sizeof r);
}

/* The shaders' step, in doubles: w *= e^(-k dt), then q = turn(w dt) q. */
static void cpu_step(double q[4], double w[3], double drag, double dt) {
    double decay = exp(-drag * dt);
    for (int k = 0; k < 3; ++k) w[k] *= decay;
    double speed = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (speed * dt <= 0.0) return;
    double half = 0.5 * speed * dt, s = sin(half) / speed;
    double turn[4] = {w[0] * s, w[1] * s, w[2] * s, cos(half)};
    quaternion_product(turn, q, q);
    double length = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; ++k) q[k] /= length;
}

/* Birth: every record made for its particle, unit, its speed in the range
 * after one step's drag; then 37 more steps against the CPU from there. */
static void test_spin_follows_cpu_integration(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube();
    uint32_t count = 1000 + test_random_below(900) * 2 + 1; /* odd: no power of two */
    plume_system_desc desc = spin_desc(count, &cube);
    plume_system system = make_system(desc);
    const float dt = 1.0f / 60.0f;
    plume_frame_desc frame = make_frame(dt, NULL, NULL);
    update(system, &frame);
    float *first = read_spins(system, count);
    plume_readback rb = read_all(fixture_context(), system);
    assert_int_equal(rb.live_count, count);
    for (uint32_t slot = 0; slot < count; ++slot) {
        const float *s = first + SPIN_FLOATS * slot;
        uint32_t born;
        memcpy(&born, &s[7], sizeof born);
        if (born != rb.particles[slot].id + 1) fail_msg("slot %u: spin made for %u, particle %u", slot, born, rb.particles[slot].id);
        double length = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2] + s[3] * s[3]);
        if (fabs(length - 1.0) > 1e-5) fail_msg("slot %u: quaternion length %g", slot, length);
        double speed = sqrt(s[4] * s[4] + s[5] * s[5] + s[6] * s[6]), decay = exp(-0.7 * dt);
        if (speed < 1.0 * decay * (1 - 1e-5) || speed > 6.0 * decay * (1 + 1e-5))
            fail_msg("slot %u: angular speed %g outside [%g, %g]", slot, speed, decay, 6.0 * decay);
    }
    free_readback(&rb);
    enum { STEPS = 37 };
    for (int k = 0; k < STEPS; ++k) update(system, &frame);
    float *later = read_spins(system, count);
    double worst = 0.0;
    for (uint32_t slot = 0; slot < count; ++slot) {
        const float *s = first + SPIN_FLOATS * slot, *g = later + SPIN_FLOATS * slot;
        double q[4] = {s[0], s[1], s[2], s[3]}, w[3] = {s[4], s[5], s[6]};
        for (int k = 0; k < STEPS; ++k) cpu_step(q, w, 0.7, dt);
        /* q and -q are one orientation. */
        double same = 0.0, opposite = 0.0;
        for (int k = 0; k < 4; ++k) same += fabs(q[k] - g[k]), opposite += fabs(q[k] + g[k]);
        double error = fmin(same, opposite);
        for (int k = 0; k < 3; ++k) error = fmax(error, fabs(w[k] - g[4 + k]) / (1.0 + fabs(w[k])));
        if (error > worst) worst = error;
        if (error > 2e-4) fail_msg("slot %u: GPU q (%g %g %g %g) w (%g %g %g), CPU q (%g %g %g %g) w (%g %g %g)", slot,
                                   g[0], g[1], g[2], g[3], g[4], g[5], g[6], q[0], q[1], q[2], q[3], w[0], w[1], w[2]);
    }
    printf("  %u particles, %d steps: largest difference from the CPU %.2g\n", count, STEPS, worst);
    free(first);
    free(later);
    destroy_system(system);
    mesh_reference_free(&cube);
}

/* ALONG_VELOCITY: the mesh's +y turned onto the velocity at birth (no spin). */
static void test_start_along_velocity(void **state) {
    (void)state;
    mesh_arrays cube = mesh_reference_cube();
    uint32_t count = 333;
    plume_system_desc desc = spin_desc(count, &cube);
    desc.meshes.start_orientation = PLUME_MESH_START_ALONG_VELOCITY;
    desc.meshes.angular_speed = (plume_range){0, 0};
    plume_system system = make_system(desc);
    plume_frame_desc frame = make_frame(1.0f / 60.0f, NULL, NULL);
    update(system, &frame);
    float *spins = read_spins(system, count);
    plume_readback rb = read_all(fixture_context(), system);
    for (uint32_t slot = 0; slot < count; ++slot) {
        const float *s = spins + SPIN_FLOATS * slot;
        const float *v = rb.particles[slot].velocity;
        float y[3] = {2 * (s[0] * s[1] - s[2] * s[3]), 1 - 2 * (s[0] * s[0] + s[2] * s[2]),
                      2 * (s[1] * s[2] + s[0] * s[3])}; /* the quaternion's image of +y */
        float speed = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        for (int k = 0; k < 3; ++k)
            if (fabsf(y[k] - v[k] / speed) > 1e-4f)
                fail_msg("slot %u: +y goes to (%g %g %g), velocity (%g %g %g)", slot, y[0], y[1], y[2], v[0] / speed,
                         v[1] / speed, v[2] / speed);
    }
    free_readback(&rb);
    free(spins);
    destroy_system(system);
    mesh_reference_free(&cube);
}

/* Cubes thrown along a floor: with friction 0.5 each contact sets the spin to
 * rolling (n x v / r, r = size x the cube's reach); with friction 0 the spin
 * stays as born (none). */
static void run_floor(float friction, bool expect_rolling) {
    mesh_arrays cube = mesh_reference_cube();
    uint32_t count = 211;
    plume_system_desc desc = spin_desc(count, &cube);
    desc.emitters[0].spread = 0.0f;
    desc.emitters[0].direction[0] = 1.0f;
    desc.emitters[0].position[1] = 0.05f;
    desc.meshes.angular_speed = (plume_range){0, 0};
    desc.meshes.angular_drag = 0.0f;
    desc.forces.gravity[1] = -9.8f;
    desc.world.colliders[0] = (plume_collider_desc){.shape = PLUME_COLLIDER_PLANE, .normal = {0, 1, 0},
                                                    .collision = {.friction = friction}};
    plume_system system = make_system(desc);
    plume_frame_desc frame = make_frame(1.0f / 60.0f, NULL, NULL);
    for (int k = 0; k < 10; ++k) update(system, &frame);
    float *spins = read_spins(system, count);
    plume_readback rb = read_all(fixture_context(), system);
    const float reach = sqrtf(3.0f) * 0.5f;
    uint32_t rolling = 0;
    for (uint32_t slot = 0; slot < count; ++slot) {
        const plume_particle *p = &rb.particles[slot];
        const float *w = spins + SPIN_FLOATS * slot;
        /* n x v / r with n = +y: (v.z, 0, -v.x) / r */
        float expected[3] = {p->velocity[2] / (p->size * reach), 0.0f, -p->velocity[0] / (p->size * reach)};
        if (!expect_rolling) expected[0] = expected[2] = 0.0f;
        for (int k = 0; k < 3; ++k)
            if (fabsf(w[4 + k] - expected[k]) > 1e-3f * (1.0f + fabsf(expected[k])))
                fail_msg("slot %u (friction %g): angular velocity (%g %g %g), expected (%g %g %g), velocity (%g %g %g)",
                         slot, friction, w[4], w[5], w[6], expected[0], expected[1], expected[2], p->velocity[0],
                         p->velocity[1], p->velocity[2]);
        rolling += fabsf(w[6]) > 0.1f;
    }
    printf("  friction %g: %u of %u particles spinning about z\n", friction, rolling, count);
    assert_int_equal(rolling, expect_rolling ? count : 0);
    free_readback(&rb);
    free(spins);
    destroy_system(system);
    mesh_reference_free(&cube);
}

static void test_friction_turns_slide_into_roll(void **state) {
    (void)state;
    run_floor(0.5f, true);
    run_floor(0.0f, false);
}

const struct CMUnitTest mesh_spin_tests[] = {
    cmocka_unit_test_setup_teardown(test_spin_follows_cpu_integration, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_start_along_velocity, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_friction_turns_slide_into_roll, fixture_setup, fixture_teardown),
};
const size_t mesh_spin_test_count = sizeof mesh_spin_tests / sizeof mesh_spin_tests[0];
