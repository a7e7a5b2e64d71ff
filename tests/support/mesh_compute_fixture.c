/* The compute raster tests' shared steps (mesh_compute_fixture.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mesh_compute_fixture.h"
#include "mesh_pictures.h"
#include "plume_fixture.h"
#include "plume_lab.h"

plume_system_desc mesh_pair_desc(const mesh_placed pair[2]) {
    plume_system_desc desc = mesh_still_system_desc();
    desc.meshes.count = 2;
    desc.meshes.pick = PLUME_MESH_PICK_BY_EMITTER;
    for (int k = 0; k < 2; ++k) {
        desc.meshes.meshes[k] = mesh_reference_desc(pair[k].mesh);
        desc.emitters[k] = mesh_still_emitter(pair[k].at, pair[k].axis, pair[k].size);
    }
    return desc;
}

void mesh_pair_instances(const mesh_placed pair[2], mesh_instance instances[2]) {
    for (int k = 0; k < 2; ++k)
        instances[k] = mesh_still_instance(pair[k].mesh, pair[k].at, pair[k].axis, pair[k].size);
}

const float CROSSING_CUBE_AT[3] = {-0.2f, 0.0f, -3.2f}, CROSSING_SPHERE_AT[3] = {0.3f, 0.05f, -2.95f};
const float CROSSING_CUBE_AXIS[3] = {0.3f, 1.0f, 0.4f}, CROSSING_UP[3] = {0, 1, 0};

plume_system_desc mesh_crossing_desc(const mesh_arrays *cube, const mesh_arrays *sphere) {
    const mesh_placed pair[2] = {{cube, CROSSING_CUBE_AT, CROSSING_CUBE_AXIS, 1.2f},
                                 {sphere, CROSSING_SPHERE_AT, CROSSING_UP, 1.0f}};
    return mesh_pair_desc(pair);
}

void mesh_crossing_instances(const mesh_arrays *cube, const mesh_arrays *sphere, mesh_instance instances[2]) {
    const mesh_placed pair[2] = {{cube, CROSSING_CUBE_AT, CROSSING_CUBE_AXIS, 1.2f},
                                 {sphere, CROSSING_SPHERE_AT, CROSSING_UP, 1.0f}};
    mesh_pair_instances(pair, instances);
}

void mesh_compute_below(plume_system system, float pixels) {
    assert_int_equal(plume_lab_mesh_draw_set_compute_below(fixture_context(), system, pixels), PLUME_OK);
}

uint32_t mesh_computed(plume_system system) {
    uint32_t count = UINT32_MAX;
    assert_int_equal(plume_lab_mesh_draw_compute_count(fixture_context(), system, &count), PLUME_OK);
    return count;
}

uint32_t mesh_drawn_count(plume_system system) {
    plume_readback r = {0};
    assert_int_equal(plume_system_read_back(fixture_context(), system, &r), PLUME_OK);
    return r.drawn_count;
}

plume_system mesh_create_updated(const plume_system_desc *desc, const render_camera *c) {
    plume_system system;
    assert_int_equal(plume_system_create(fixture_context(), desc, &system), PLUME_OK);
    plume_frame_desc frame = mesh_lit_frame();
    frame.dt = 0.001f;
    memcpy(frame.view, c->view, sizeof frame.view);
    memcpy(frame.projection, c->projection, sizeof frame.projection);
    assert_int_equal(plume_system_update(fixture_context(), system, &frame), PLUME_OK);
    return system;
}

uint32_t mesh_draw_below(plume_system system, float pixels, const render_camera *c, plume_frame_desc frame,
                         bool with_depth, int occluder_width, float occluder_depth, float *rgba) {
    mesh_compute_below(system, pixels);
    render_draw(system, c, frame, with_depth, occluder_width, occluder_depth, rgba);
    return mesh_computed(system);
}

bool mesh_covers(const float *rgba, int i) {
    bool differs = false;
    for (int k = 0; k < 3; ++k) differs = differs || fabsf(rgba[4 * i + k] - RENDER_BACKGROUND[k]) > 0.01f;
    return differs;
}

bool mesh_is_background(const float *rgba, int i) {
    return memcmp(rgba + 4 * i, RENDER_BACKGROUND, sizeof RENDER_BACKGROUND) == 0;
}

int mesh_pixels(const float *rgba) {
    int covered = 0;
    for (int i = 0; i < RENDER_WIDTH * RENDER_HEIGHT; ++i) covered += mesh_covers(rgba, i);
    return covered;
}

void assert_compute_matches_raster(const float *compute, const float *raster, int covered, int most,
                                   const char *what) {
    int differ = render_pixels_differing(compute, raster, 0.02f), drawn = mesh_pixels(raster);
    printf("  %s: compute against raster: %d of %d covered pixels differ by over 0.02 (largest %.3f), "
           "PSNR %.1f dB\n", what, differ, drawn, render_largest_difference(compute, raster),
           render_psnr(compute, raster));
    assert_true(drawn >= covered);
    if (differ > most) fail_msg("%s: %d pixels of the compute raster differ from the raster draw's", what, differ);
}
