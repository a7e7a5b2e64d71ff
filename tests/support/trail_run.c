/* What the trail image tests share (tests/render/test_trails.c, the raster
 * path; test_trails_tiled.c, the tiled path): a system of trails stepped
 * beside the CPU's (trail_reference.h), drawn and compared. */
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

#include "look_reference.h"
#include "particle_fixture.h"
#include "plume_fixture.h"
#include "test_env.h"
#include "trail_run.h"

const float TRAIL_CLEAR[4] = {0.1f, 0.15f, 0.2f, 1.0f};

/* PLUME_TEST_TRAIL_PNGS=FOLDER: each comparison's pictures (the GPU's and
 * the CPU's, 6x) written there as PNGs, to look at. */
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
static void dump_png(const char *name, const float *rgba) {
    if (!getenv("PLUME_TEST_TRAIL_PNGS")) return;
    enum { UP = 6, W = IMAGE_SIZE * UP };
    static unsigned char px[W * W * 4];
    for (int y = 0; y < W; ++y)
        for (int x = 0; x < W; ++x)
            for (int c = 0; c < 4; ++c) {
                float v = rgba[((IMAGE_SIZE - 1 - y / UP) * IMAGE_SIZE + x / UP) * 4 + c];
                px[(y * W + x) * 4 + c] = (unsigned char)(fminf(fmaxf(v, 0), 1) * 255 + 0.5f);
            }
    char path[256];
    snprintf(path, sizeof path, "%s/%s.png", getenv("PLUME_TEST_TRAIL_PNGS"), name);
    stbi_write_png(path, W, W, 4, px, W * 4);
}

/* Against the CPU: flat colours, float rounding; the tiled path's target
 * is half floats (tests/render/test_tiled.c's bound). */
static const float RASTER_TOLERANCE = 2e-3f, TILED_TOLERANCE = 2.0f / 255.0f;

/* A still template emitter (rate 0: emitted by plume_system_emit) of one
 * particle moving at `velocity` (its speed and direction), solid squares of
 * `size`, translucent orange, living long. */
plume_emitter_desc trail_mover(const float velocity[3], float size) {
    float speed = sqrtf(velocity[0] * velocity[0] + velocity[1] * velocity[1] + velocity[2] * velocity[2]);
    plume_emitter_desc e = {.lifetime = {20, 20}, .speed = {speed, speed}, .size = {size, size}};
    for (int i = 0; i < 3; ++i) e.direction[i] = speed > 0 ? velocity[i] / speed : (i == 1 ? 1.0f : 0.0f);
    return e;
}

plume_system_desc trail_desc(uint32_t points, float spacing) {
    plume_system_desc d = {.capacity = 40, .seed = 5};
    d.trail = (plume_trail_desc){.points = points, .spacing = spacing};
    d.trail.width_over_length = (plume_curve){2, {{0.0f, 1.0f}, {1.0f, 0.3f}}};
    d.appearance.color_over_life = (plume_gradient){1, {{0.0f, {1.0f, 0.6f, 0.2f, 0.6f}}}};
    return d;
}

void trail_emit_at(plume_system system, uint32_t emitter, float x, float y, float z) {
    plume_emit_desc emit = {.emitter = emitter, .count = 1, .transform = {.position = {x, y, z}}};
    assert_int_equal(plume_system_emit(fixture_context(), system, &emit), PLUME_OK);
}

/* The system drawn at `resolution` over a far depth plane into `image`. */
void trail_draw_image(plume_system system, uint32_t path, plume_draw_resolution resolution, float *image) {
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(0.0f, view, projection);
    frame.draw_resolution = resolution;
    frame.draw_path = path;
    GLuint depth = plane_depth_texture(projection, 15.0f);
    frame.depth_texture = depth;
    test_target t = test_target_begin(IMAGE_SIZE, TRAIL_CLEAR);
    assert_int_equal(plume_system_draw(fixture_context(), system, &frame), PLUME_OK);
    test_target_end(&t, image);
    glDeleteTextures(1, &depth);
}


static trail_pictures pictures_new(void) {
    size_t pixels = IMAGE_SIZE * IMAGE_SIZE;
    trail_pictures p = {malloc(sizeof(float) * 4 * pixels), malloc(sizeof(float) * 4 * pixels),
                        malloc(sizeof(float) * 4 * pixels), malloc(sizeof(bool) * pixels),
                        malloc(sizeof(bool) * pixels)};
    assert_true(p.image && p.reference && p.unsorted && p.ambiguous && p.unsorted_ambiguous);
    return p;
}

static void pictures_free(trail_pictures *p) {
    free(p->image);
    free(p->reference);
    free(p->unsorted);
    free(p->ambiguous);
    free(p->unsorted_ambiguous);
}


trail_run trail_run_begin(plume_system_desc d) {
    trail_run r = {.system = make_system(d)};
    r.desc = system_desc(fixture_context(), r.system);
    r.trails = calloc(r.desc.capacity, sizeof *r.trails);
    assert_non_null(r.trails);
    r.pictures = pictures_new();
    return r;
}

void trail_run_end(trail_run *r) {
    pictures_free(&r->pictures);
    free(r->trails);
    destroy_system(r->system);
}

/* One update of the run's system for the orthographic camera (not culled:
 * a trail system never is), its particles recorded into the CPU's trails. */
void trail_step(trail_run *r) {
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(0.05f, view, projection);
    assert_int_equal(plume_system_update(fixture_context(), r->system, &frame), PLUME_OK);
    plume_readback rb = read_all(fixture_context(), r->system);
    reference_trails_record(&r->desc, &rb, r->trails);
    free_readback(&rb);
}

/* How many pixels of rows [first, last) differ from the background. */
int trail_covered_rows(const float *rgba, int first, int last) {
    int covered = 0;
    for (int i = first * IMAGE_SIZE; i < last * IMAGE_SIZE; ++i)
        covered += fabsf(rgba[4 * i] - TRAIL_CLEAR[0]) + fabsf(rgba[4 * i + 1] - TRAIL_CLEAR[1]) > 0.02f;
    return covered;
}

/* The system's picture against the CPU's, sorted (and, where `order_matters`,
 * proof that the picture in the unsorted order is another: the comparison
 * sees the order). */
void trail_compare(const char *name, trail_run *r, bool order_matters) {
    plume_system system = r->system;
    const ref_trail *trails = r->trails;
    trail_pictures *p = &r->pictures;
    plume_system_desc d = system_desc(fixture_context(), system);
    plume_readback rb = read_all(fixture_context(), system);
    bool sorted = d.sort_mode != PLUME_SORT_MODE_NONE && d.blend_mode != PLUME_BLEND_ADDITIVE;
    composite_trails(&d, &rb, trails, sorted, TRAIL_CLEAR, p->reference, p->ambiguous);
    composite_trails(&d, &rb, trails, false, TRAIL_CLEAR, p->unsorted, p->unsorted_ambiguous);
    free_readback(&rb);
    char dump_name[128];
    snprintf(dump_name, sizeof dump_name, "%s_cpu", name);
    dump_png(dump_name, p->reference);
    int covered = trail_covered_rows(p->reference, 0, IMAGE_SIZE);
    assert_true(covered > 40);
    static const struct {
        uint32_t path;
        const char *name;
        float tolerance;
    } paths[2] = {{PLUME_DRAW_PATH_RASTER, "raster", RASTER_TOLERANCE}, {PLUME_DRAW_PATH_TILED, "tiled", TILED_TOLERANCE}};
    /* The raster path's picture last: the one the callers look at after. */
    for (int k = 1; k >= 0; --k) {
        trail_draw_image(system, paths[k].path, PLUME_DRAW_FULL, p->image);
        snprintf(dump_name, sizeof dump_name, "%s_%s", name, paths[k].name);
        dump_png(dump_name, p->image);
        float worst = largest_difference(p->image, p->reference, p->ambiguous);
        printf("  %s, %s: %d pixels covered, largest difference from the CPU's trails %.2f/255 (at most %.1f)\n",
               name, paths[k].name, covered, worst * 255.0f, paths[k].tolerance * 255.0f);
        assert_true(worst <= paths[k].tolerance);
    }
    if (!order_matters) return;
    for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i) p->ambiguous[i] = p->ambiguous[i] || p->unsorted_ambiguous[i];
    float apart = largest_difference(p->reference, p->unsorted, p->ambiguous);
    printf("  %s: the unsorted order's picture differs by %.2f/255\n", name, apart * 255.0f);
    assert_true(apart > 4.0f * TILED_TOLERANCE);
}

/* A spark's trail through a cloud of still blue squares of the same system
 * at depths in front of it and behind: segments and squares in one order.
 * The cloud is random (the seed's); two squares of it are placed on the
 * spark's path, one in front and one behind, so that every seed's picture
 * depends on the order (a random cloud alone missed the path for about one
 * seed in twenty). */
trail_run trail_spark_through_a_cloud(uint32_t seed) {
    plume_system_desc d = trail_desc(12, 0.12f);
    d.seed = seed;
    /* Blue while young (the cloud lives long), orange late in life (the
     * spark lives short). */
    d.appearance.color_over_life = (plume_gradient){
        2, {{0.1f, {0.2f, 0.45f, 1.0f, 0.7f}}, {0.5f, {1.0f, 0.6f, 0.2f, 0.6f}}}};
    d.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_BOX, .extents = {0.7f, 0.6f, 0.5f},
                                         .lifetime = {20, 20}, .size = {0.18f, 0.3f}};
    d.emitters[1] = trail_mover((float[3]){1.1f, 0.15f, 0.0f}, 0.22f);
    d.emitters[1].lifetime = (plume_range){1.3f, 1.3f};
    d.emitters[2] = (plume_emitter_desc){.lifetime = {20, 20}, .size = {0.26f, 0.26f}};
    trail_run r = trail_run_begin(d);
    plume_emit_desc cloud = {.emitter = 0, .count = 24};
    assert_int_equal(plume_system_emit(fixture_context(), r.system, &cloud), PLUME_OK);
    /* On the path (-0.9, -0.1) + t (1.1, 0.15) at t = 0.55 s and 0.91 s. */
    trail_emit_at(r.system, 2, -0.3f, -0.02f, 0.3f);
    trail_emit_at(r.system, 2, 0.1f, 0.035f, -0.3f);
    trail_emit_at(r.system, 1, -0.9f, -0.1f, 0.0f);
    for (int k = 0; k < 22; ++k) trail_step(&r);
    return r;
}
