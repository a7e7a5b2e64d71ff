/* Force fields (plume_world, since 1.2): point attractors, repellers and
 * vortices with their falloff against a CPU integration of the same steps,
 * circular orbits among them; a 3D vector-field texture; the forces changed
 * between frames. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cglm/cglm.h>

#include "particle_fixture.h"
#include "plume/plume_particles.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "tests.h"

/* The acceleration the attractors of `world` give at x, as documented. */
static void reference_acceleration(const plume_world *world, const float x[3], float a[3]) {
    a[0] = a[1] = a[2] = 0;
    for (int i = 0; i < PLUME_MAX_ATTRACTORS; ++i) {
        const plume_attractor_desc *at = &world->attractors[i];
        if (at->kind == PLUME_ATTRACTOR_NONE) continue;
        float offset[3] = {x[0] - at->position[0], x[1] - at->position[1], x[2] - at->position[2]};
        float direction[3] = {0, 0, 0}, distance;
        if (at->kind == PLUME_ATTRACTOR_POINT) {
            distance = sqrtf(offset[0] * offset[0] + offset[1] * offset[1] + offset[2] * offset[2]);
            for (int c = 0; c < 3; ++c) direction[c] = distance > 0 ? -offset[c] / distance : 0;
        } else {
            float length = sqrtf(at->axis[0] * at->axis[0] + at->axis[1] * at->axis[1] + at->axis[2] * at->axis[2]);
            float axis[3] = {at->axis[0] / length, at->axis[1] / length, at->axis[2] / length};
            float along = offset[0] * axis[0] + offset[1] * axis[1] + offset[2] * axis[2];
            float radial[3] = {offset[0] - axis[0] * along, offset[1] - axis[1] * along, offset[2] - axis[2] * along};
            distance = sqrtf(radial[0] * radial[0] + radial[1] * radial[1] + radial[2] * radial[2]);
            if (distance > 0) {
                direction[0] = (axis[1] * radial[2] - axis[2] * radial[1]) / distance;
                direction[1] = (axis[2] * radial[0] - axis[0] * radial[2]) / distance;
                direction[2] = (axis[0] * radial[1] - axis[1] * radial[0]) / distance;
            }
        }
        float falloff = at->radius > 0 ? fmaxf(0, 1 - distance / at->radius) : 1;
        for (int c = 0; c < 3; ++c) a[c] += direction[c] * at->strength * falloff;
    }
}

/* Random particles and circular orbits round a point attractor (strength s
 * at radius R: speed sqrt(s R)), with a repeller and a vortex that fall off,
 * over random steps: the GPU's positions and velocities against the same
 * integration on the CPU (acceleration held over each step, no drag:
 * x += v dt + a dt^2 / 2, v += a dt). */
static void test_attractor_orbits_match_a_cpu_integration(void **state) {
    (void)state;
    enum { STEPS = 150, ORBITS = 4 };
    plume_system_desc desc = {.capacity = 256, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE, .extents = {3}, .spread = 3.1415926f,
                                            .speed = {0, 2}, .burst_count = 100, .lifetime = {100, 100}};
    const float strength = 4;
    for (int o = 0; o < ORBITS; ++o) {
        float radius = 1.0f + o, speed = sqrtf(strength * radius);
        desc.emitters[1 + o] = (plume_emitter_desc){.position = {radius, 0, 0}, .direction = {0, 0, 1},
                                                    .speed = {speed, speed}, .burst_count = 1, .lifetime = {100, 100}};
    }
    plume_world *w = &desc.world;
    w->attractors[0] = (plume_attractor_desc){.kind = PLUME_ATTRACTOR_POINT, .strength = strength};
    w->attractors[2] = (plume_attractor_desc){.kind = PLUME_ATTRACTOR_POINT, .position = {0, 3, 0}, .strength = -3,
                                              .radius = 2};
    w->attractors[5] = (plume_attractor_desc){.kind = PLUME_ATTRACTOR_VORTEX, .position = {4, 0, 4},
                                              .axis = {0.2f, 1, 0}, .strength = 2, .radius = 1.5f};
    plume_system system = make_system(desc);
    plume_frame_desc frame = make_frame(1.0f / 60, NULL, NULL);
    update(system, &frame);
    plume_readback start = read_all(fixture_context(), system);
    assert_int_equal(start.live_count, 100 + ORBITS);
    uint32_t count = start.live_count;
    float (*x)[3] = malloc(sizeof *x * count), (*v)[3] = malloc(sizeof *v * count);
    uint32_t *ids = malloc(sizeof *ids * count);
    for (uint32_t i = 0; i < count; ++i) {
        const plume_particle *p = &start.particles[start.draw_order[i]];
        memcpy(x[i], p->position, sizeof x[i]);
        memcpy(v[i], p->velocity, sizeof v[i]);
        ids[i] = p->id;
    }
    for (int step = 0; step < STEPS; ++step) {
        float dt = test_random_float(1.0f / 240, 1.0f / 60);
        frame.dt = dt;
        update(system, &frame);
        for (uint32_t i = 0; i < count; ++i) {
            float a[3];
            reference_acceleration(w, x[i], a);
            for (int c = 0; c < 3; ++c) {
                x[i][c] += v[i][c] * dt + a[c] * (dt * dt * 0.5f);
                v[i][c] += a[c] * dt;
            }
        }
    }
    plume_readback end = read_all(fixture_context(), system);
    assert_int_equal(end.live_count, count);
    double worst = 0, worst_orbit_radius_change = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const plume_particle *p = find_by_id(&end, ids[i]);
        assert_non_null(p);
        float scale = 1 + sqrtf(x[i][0] * x[i][0] + x[i][1] * x[i][1] + x[i][2] * x[i][2]);
        for (int c = 0; c < 3; ++c) {
            double error = fabs(p->position[c] - x[i][c]) / scale, v_error = fabs(p->velocity[c] - v[i][c]) / scale;
            if (error > worst) worst = error;
            if (error > 1e-3 || v_error > 2e-3)
                fail_msg("particle %u: position[%d] %g (CPU %g), velocity %g (CPU %g)", ids[i], c, p->position[c],
                         x[i][c], p->velocity[c], v[i][c]);
        }
    }
    /* The orbits stay round (the attractor really pulls toward its centre). */
    for (int o = 0; o < ORBITS; ++o) {
        const plume_particle *p = find_by_id(&end, 100 + (uint32_t)o);
        assert_non_null(p);
        float radius = 1.0f + o;
        double r = sqrt(p->position[0] * p->position[0] + p->position[1] * p->position[1] +
                        p->position[2] * p->position[2]);
        double change = fabs(r - radius) / radius;
        if (change > worst_orbit_radius_change) worst_orbit_radius_change = change;
        if (change > 0.1) fail_msg("orbit %d: radius %g after %d steps, started at %g", o, r, STEPS, radius);
    }
    printf("  %u particles: worst relative error against the CPU %.2e; orbits' radii within %.2f%%\n", count, worst,
           100 * worst_orbit_radius_change);
    free(x);
    free(v);
    free(ids);
    free_readback(&start);
    free_readback(&end);
    destroy_system(system);
}

/* A 4x4x4 texture of one acceleration over the box -1..1, times strength 2:
 * resting particles inside gain velocity a t, those outside none. Switching
 * the world's field off between frames stops the gain. */
static void test_vector_field_texture_accelerates_inside_its_box(void **state) {
    (void)state;
    float texels[4 * 4 * 4][4];
    for (int i = 0; i < 64; ++i) texels[i][0] = 3, texels[i][1] = 0, texels[i][2] = -1, texels[i][3] = 0;
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_3D, texture);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA32F, 4, 4, 4, 0, GL_RGBA, GL_FLOAT, texels);
    glBindTexture(GL_TEXTURE_3D, 0);
    plume_system_desc desc = {.capacity = 128, .seed = test_random_u32()};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {0.3f, 0.3f, 0.3f},
                                            .burst_count = 40, .lifetime = {100, 100}};
    desc.emitters[1] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .position = {4, 0, 0},
                                            .extents = {0.3f, 0.3f, 0.3f}, .burst_count = 10, .lifetime = {100, 100}};
    desc.world.vector_field = (plume_vector_field_desc){.texture = texture, .bounds_min = {-1, -1, -1},
                                                        .bounds_max = {1, 1, 1}, .strength = 2};
    plume_system system = make_system(desc);
    plume_frame_desc frame = make_frame(0.025f, NULL, NULL);
    for (int step = 0; step < 10; ++step) update(system, &frame);
    plume_readback rb = read_all(fixture_context(), system);
    assert_int_equal(rb.live_count, 50);
    const float t = 0.25f;
    for (uint32_t i = 0; i < rb.live_count; ++i) {
        const plume_particle *p = &rb.particles[rb.draw_order[i]];
        bool inside = p->id < 40;
        float expected[3] = {inside ? 6 * t : 0, 0, inside ? -2 * t : 0};
        for (int c = 0; c < 3; ++c)
            if (fabsf(p->velocity[c] - expected[c]) > 1e-4f)
                fail_msg("particle %u (%s the field): velocity[%d] %g, expected %g", p->id, inside ? "in" : "outside",
                         c, p->velocity[c], expected[c]);
    }
    free_readback(&rb);
    /* Off from the next update on. */
    plume_world world = system_desc(fixture_context(), system).world;
    world.vector_field.texture = 0;
    assert_int_equal(plume_system_set_world(fixture_context(), system, &world), PLUME_OK);
    for (int step = 0; step < 4; ++step) update(system, &frame);
    rb = read_all(fixture_context(), system);
    for (uint32_t i = 0; i < rb.live_count; ++i) {
        const plume_particle *p = &rb.particles[rb.draw_order[i]];
        if (p->id < 40) assert_float_equal(p->velocity[0], 6 * t, 1e-4);
    }
    free_readback(&rb);
    destroy_system(system);
    glDeleteTextures(1, &texture);
}

const struct CMUnitTest world_forces_tests[] = {
    cmocka_unit_test_setup_teardown(test_attractor_orbits_match_a_cpu_integration, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_vector_field_texture_accelerates_inside_its_box, fixture_setup,
                                    fixture_teardown),
};
const size_t world_forces_test_count = sizeof world_forces_tests / sizeof world_forces_tests[0];
