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
#include "plume/plume_draw_group.h"
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

/* The paths a picture is drawn by, each with its bound against the CPU's. */
static const struct {
    uint32_t path;
    const char *name;
    float tolerance;
} PATHS[2] = {{PLUME_DRAW_PATH_RASTER, "raster", RASTER_TOLERANCE}, {PLUME_DRAW_PATH_TILED, "tiled", TILED_TOLERANCE}};

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

/* Into `image`, over a far depth plane for particle_fixture's orthographic
 * camera: the group's draw, or (group.id 0) each of `systems` drawn in
 * turn. */
static void draw_picture(plume_draw_group group, const plume_system *systems, uint32_t count, uint32_t path,
                         plume_draw_resolution resolution, float *image) {
    mat4 view, projection;
    ortho_camera(view, projection);
    plume_frame_desc frame = make_frame(0.0f, view, projection);
    frame.draw_resolution = resolution;
    frame.draw_path = path;
    GLuint depth = plane_depth_texture(projection, 15.0f);
    frame.depth_texture = depth;
    test_target t = test_target_begin(IMAGE_SIZE, TRAIL_CLEAR);
    if (group.id) assert_int_equal(plume_draw_group_draw(fixture_context(), group, &frame), PLUME_OK);
    for (uint32_t i = 0; i < count && !group.id; ++i)
        assert_int_equal(plume_system_draw(fixture_context(), systems[i], &frame), PLUME_OK);
    test_target_end(&t, image);
    glDeleteTextures(1, &depth);
}

void trail_draw_image(plume_system system, uint32_t path, plume_draw_resolution resolution, float *image) {
    draw_picture((plume_draw_group){0}, &system, 1, path, resolution, image);
}

void trail_draw_group_image(plume_draw_group group, uint32_t path, plume_draw_resolution resolution, float *image) {
    draw_picture(group, NULL, 0, path, resolution, image);
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

/* The CPU's picture written out (PLUME_TEST_TRAIL_PNGS) and shown to cover
 * enough to compare; returns the pixels it covers. */
static int check_reference(const char *name, const float *reference) {
    char dump_name[128];
    snprintf(dump_name, sizeof dump_name, "%s_cpu", name);
    dump_png(dump_name, reference);
    int covered = trail_covered_rows(reference, 0, IMAGE_SIZE);
    assert_true(covered > 40);
    return covered;
}

/* p->image, drawn by PATHS[k], against the CPU's p->reference within that
 * path's bound (`what`: "group " for a draw group's picture). */
static void check_picture(const char *name, const char *what, int k, int covered, const trail_pictures *p) {
    char dump_name[128];
    snprintf(dump_name, sizeof dump_name, "%s_%s%s", name, what[0] ? "group_" : "", PATHS[k].name);
    dump_png(dump_name, p->image);
    float worst = largest_difference(p->image, p->reference, p->ambiguous);
    printf("  %s, %s%s: %d pixels covered, largest difference from the CPU's picture %.2f/255 (at most %.1f)\n", name,
           what, PATHS[k].name, covered, worst * 255.0f, PATHS[k].tolerance * 255.0f);
    assert_true(worst <= PATHS[k].tolerance);
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
    int covered = check_reference(name, p->reference);
    /* The raster path's picture last: the one the callers look at after. */
    for (int k = 1; k >= 0; --k) {
        trail_draw_image(system, PATHS[k].path, PLUME_DRAW_FULL, p->image);
        check_picture(name, "", k, covered, p);
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

/* ---- Draw groups ---- */

/* A system's records a particle in a group: its trail's pairs (segments and
 * its own quad), or 1. */
static uint32_t group_entries(const plume_system_desc *d) {
    return d->trail.points ? d->trail.points - 1 + (d->trail.hide_particles ? 0 : 1) : 1;
}

/* The group's quads in its order, the segments' decided `how`; returns how
 * many (*quads grown to hold them). */
static uint32_t ordered_group_quads(const plume_system *systems, const ref_trail *const *trails, uint32_t count,
                                    ref_subdivisions *how, ref_quad **out) {
    const ref_light none = {{0}, {0}, {0}};
    ref_quad *quads = *out;
    uint32_t n = 0, first = 0;
    for (uint32_t i = 0; i < count; ++i) {
        plume_system_desc d = system_desc(fixture_context(), systems[i]);
        plume_readback rb = read_all(fixture_context(), systems[i]);
        uint32_t most = d.trail.points ? REFERENCE_TRAIL_QUADS(&d) : 1;
        quads = realloc(quads, sizeof *quads * (n + most * rb.drawn_count + 1));
        assert_non_null(quads);
        for (uint32_t k = 0; k < rb.drawn_count; ++k) {
            uint32_t slot = rb.draw_order[k], made = 1;
            if (d.trail.points) made = reference_system_quads(&d, &rb, trails[i], slot, how, quads + n);
            else quads[n] = reference_quad(&d, &rb.particles[slot], slot, &none);
            for (uint32_t q = n; q < n + made; ++q) {
                quads[q].key = reference_depth_key((float)quads[q].depth);
                quads[q].slot += first;
                quads[q].system = i;
            }
            n += made;
        }
        first += d.capacity * group_entries(&d);
        free_readback(&rb);
    }
    order_quads_by_key(quads, n);
    *out = quads;
    return n;
}

void composite_trail_group(const plume_system *systems, const ref_trail *const *trails, uint32_t count, float *rgba,
                           bool *ambiguous) {
    const ref_light none = {{0}, {0}, {0}};
    ref_quad *quads = NULL;
    ref_subdivisions how = {.flip_unsure = false};
    uint32_t n = ordered_group_quads(systems, trails, count, &how, &quads);
    composite_quads(quads, n, &none, TRAIL_CLEAR, rgba, ambiguous);
    mark_float_tie_orders(quads, n, &none, TRAIL_CLEAR, rgba, ambiguous);
    if (how.unsure > 0) {
        printf("  %u segments' quads within rounding of a threshold: their pixels ambiguous\n", how.unsure);
        how = (ref_subdivisions){.flip_unsure = true};
        n = ordered_group_quads(systems, trails, count, &how, &quads);
        mark_unsure_subdivisions(quads, n, TRAIL_CLEAR, rgba, ambiguous);
    }
    free(quads);
}

/* Peak signal-to-noise ratio of two IMAGE_SIZE pictures' colours, dB. */
static double picture_psnr(const float *a, const float *b) {
    double squared = 0.0;
    for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE * 4; ++i)
        if (i % 4 != 3) squared += ((double)a[i] - b[i]) * ((double)a[i] - b[i]);
    squared /= 3.0 * IMAGE_SIZE * IMAGE_SIZE;
    return squared > 0.0 ? 10.0 * log10(1.0 / squared) : 99.0;
}

void trail_group_compare(const char *name, plume_draw_group group, const plume_system *systems,
                         const ref_trail *const *trails, uint32_t count, trail_pictures *p, bool apart_differs) {
    composite_trail_group(systems, trails, count, p->reference, p->ambiguous);
    int covered = check_reference(name, p->reference);
    /* The raster path's picture last: the low resolutions' comparison. */
    for (int k = 1; k >= 0; --k) {
        memset(p->image, 0xff, sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE); /* poisoned: NaN */
        draw_picture(group, systems, count, PATHS[k].path, PLUME_DRAW_FULL, p->image);
        check_picture(name, "group ", k, covered, p);
    }
    /* The upsample softens the strips' and squares' edges: a low
     * resolution's picture is nearer the full one's than the bare background
     * is by a margin (measured 9-10 dB at 1/2, 6-7 dB at 1/4). */
    static const struct {
        plume_draw_resolution resolution;
        const char *name;
        double margin;
    } lows[2] = {{PLUME_DRAW_HALF, "1/2", 6.0}, {PLUME_DRAW_QUARTER, "1/4", 4.0}};
    for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE * 4; ++i) p->unsorted[i] = TRAIL_CLEAR[i % 4];
    double background = picture_psnr(p->unsorted, p->image);
    for (int k = 0; k < 2; ++k)
        for (int path = 0; path < 2; ++path) {
            memset(p->unsorted, 0xff, sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
            draw_picture(group, systems, count, PATHS[path].path, lows[k].resolution, p->unsorted);
            double psnr = picture_psnr(p->unsorted, p->image);
            printf("  %s, group, %s at %s: PSNR against the full resolution %.1f dB (the background's %.1f + at "
                   "least %.0f)\n",
                   name, PATHS[path].name, lows[k].name, psnr, background, lows[k].margin);
            assert_true(psnr >= background + lows[k].margin);
        }
    if (!apart_differs) return;
    draw_picture((plume_draw_group){0}, systems, count, PLUME_DRAW_PATH_RASTER, PLUME_DRAW_FULL, p->unsorted);
    char dump_name[128];
    snprintf(dump_name, sizeof dump_name, "%s_apart", name);
    dump_png(dump_name, p->unsorted);
    float apart = largest_difference(p->unsorted, p->reference, p->ambiguous);
    printf("  %s: the systems drawn one after the other differ from the one order by %.2f/255\n", name,
           apart * 255.0f);
    assert_true(apart > 4.0f * TILED_TOLERANCE);
}
