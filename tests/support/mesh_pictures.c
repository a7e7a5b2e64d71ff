/* The mesh tests' shared pictures (mesh_pictures.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mesh_pictures.h"
#include "render_fixture.h"
#include "test_env.h"

const mesh_light MESH_LIGHT = {{0.48f, 0.64f, 0.6f}, {0.9f, 0.85f, 0.8f}, {0.15f, 0.17f, 0.2f}};

plume_frame_desc mesh_lit_frame(void) {
    plume_frame_desc f = {0};
    memcpy(f.light_direction, MESH_LIGHT.direction, sizeof f.light_direction);
    memcpy(f.light_color, MESH_LIGHT.color, sizeof f.light_color);
    memcpy(f.ambient_color, MESH_LIGHT.ambient, sizeof f.ambient_color);
    return f;
}

plume_emitter_desc mesh_still_emitter(const float position[3], const float axis[3], float size) {
    plume_emitter_desc e = {.burst_count = 1, .lifetime = {100, 100}, .speed = {1e-4f, 1e-4f}, .size = {size, size}};
    memcpy(e.position, position, sizeof e.position);
    memcpy(e.direction, axis, sizeof e.direction);
    return e;
}

plume_system_desc mesh_still_system_desc(void) {
    plume_system_desc d = {.capacity = 7, .seed = test_random_u32(), .lit = true};
    d.meshes.count = 1;
    d.meshes.start_orientation = PLUME_MESH_START_ALONG_VELOCITY;
    return d;
}

mesh_instance mesh_still_instance(const mesh_arrays *mesh, const float position[3], const float axis[3], float size) {
    mesh_instance instance = {.mesh = mesh, .scale = {size, size, size}, .color = {1, 1, 1}};
    memcpy(instance.position, position, sizeof instance.position);
    mesh_reference_orientation_along(axis, instance.orientation);
    return instance;
}

float *mesh_cpu_picture(const mesh_instance *instances, uint32_t count, int occluder_width, float occluder_depth) {
    render_camera c = render_make_camera();
    float *rgba = render_new_image(), *depth = malloc(sizeof(float) * RENDER_WIDTH * RENDER_HEIGHT);
    assert_non_null(depth);
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) {
        memcpy(rgba + 4 * i, RENDER_BACKGROUND, sizeof RENDER_BACKGROUND);
        depth[i] = i % RENDER_WIDTH < occluder_width ? occluder_depth : 1.0f;
    }
    mesh_reference_draw(instances, count, c.view, c.projection, &MESH_LIGHT, RENDER_WIDTH, RENDER_HEIGHT, rgba, depth);
    free(depth);
    return rgba;
}

void mesh_assert_images_agree(const float *gpu, const float *cpu, int covered, const char *what) {
    int differ = 0, drawn = 0;
    double worst = 0.0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) {
        double d = 0.0;
        for (int k = 0; k < 3; ++k) d = fmax(d, fabs(gpu[4 * i + k] - cpu[4 * i + k]));
        differ += d > 0.02;
        worst = fmax(worst, d);
        drawn += cpu[4 * i] != RENDER_BACKGROUND[0] || cpu[4 * i + 1] != RENDER_BACKGROUND[1];
    }
    printf("  %s: %d pixels drawn by the CPU, %d differ (largest %.3f), PSNR %.1f dB\n", what, drawn, differ, worst,
           render_psnr(gpu, cpu));
    assert_true(drawn >= covered);
    if (differ > RENDER_WIDTH * RENDER_HEIGHT * 15 / 1000)
        fail_msg("%s: %d pixels differ from the CPU rasterizer", what, differ);
}

static const float ONE_STILL_AT[3] = {0.2f, -0.1f, -3.0f};
enum { ONE_STILL_COVERS = 400 };
#define ONE_STILL_SIZE 1.4f

plume_system_desc mesh_one_still_desc(const mesh_arrays *mesh, const float axis[3]) {
    plume_system_desc desc = mesh_still_system_desc();
    desc.emitters[0] = mesh_still_emitter(ONE_STILL_AT, axis, ONE_STILL_SIZE);
    desc.meshes.meshes[0] = mesh_reference_desc(mesh);
    return desc;
}

void mesh_assert_one_still_mesh(const float *gpu, const mesh_arrays *mesh, const float axis[3], const char *what) {
    mesh_instance instance = mesh_still_instance(mesh, ONE_STILL_AT, axis, ONE_STILL_SIZE);
    float *cpu = mesh_cpu_picture(&instance, 1, 0, 1.0f);
    mesh_assert_images_agree(gpu, cpu, ONE_STILL_COVERS, what);
    free(cpu);
}
