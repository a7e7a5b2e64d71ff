/* The CPU compositor the image tests of the look and of draw groups compare
 * with: quads of the read-back particles as plume_orientation and the
 * appearance say, blended as plume_blend_mode says,
 * dst = c a + (1 - a (1 - k)) dst, for the orthographic camera of
 * particle_fixture (eye at z = 5 looking down -z, 2 world units across
 * IMAGE_SIZE pixels). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include <epoxy/gl.h>

#include "look_reference.h"
#include "particle_fixture.h"

static double additive_at(const plume_system_desc *d, double life) {
    if (d->blend_mode == PLUME_BLEND_ADDITIVE) return 1.0;
    if (d->blend_mode == PLUME_BLEND_PREMULTIPLIED_ADDITIVE) return curve_at(&d->additive_over_life, life);
    return 0.0;
}

void reference_to_pixels(const double world[3], double out[2]) {
    out[0] = (world[0] + 1.0) * IMAGE_SIZE / 2.0;
    out[1] = (world[1] + 1.0) * IMAGE_SIZE / 2.0;
}

static double unit(double v[3]) {
    double length = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (length > 1e-6)
        for (int i = 0; i < 3; ++i) v[i] /= length;
    return length;
}

static void cross(const double a[3], const double b[3], double out[3]) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The quad's unit axes as plume_orientation says, for the camera looking
 * down -z (right x, up y, back z); *length: the edge along `along`. */
static void quad_axes(const plume_system_desc *d, const plume_particle *p, double across[3], double along[3],
                      double *length) {
    const double back[3] = {0, 0, 1};
    double right[3] = {1, 0, 0}, up[3] = {0, 1, 0};
    bool turns = true;
    if (d->orientation >= PLUME_ORIENT_VELOCITY_STRETCHED && d->orientation <= PLUME_ORIENT_WORLD_AXIS) {
        double axis[3] = {p->velocity[0], p->velocity[1], p->velocity[2]}, width[3];
        if (d->orientation == PLUME_ORIENT_WORLD_AXIS)
            for (int i = 0; i < 3; ++i) axis[i] = d->orientation_axis[i];
        double speed = unit(axis);
        cross(axis, back, width);
        if (speed > 1e-6 && unit(width) > 1e-6) {
            memcpy(right, width, sizeof right);
            memcpy(up, axis, sizeof up);
        }
        if (d->orientation == PLUME_ORIENT_VELOCITY_STRETCHED) {
            double stretch = 1.0 + d->stretch_factor * speed;
            stretch = stretch < d->stretch_limits.min ? d->stretch_limits.min
                      : stretch > d->stretch_limits.max ? d->stretch_limits.max : stretch;
            *length *= stretch;
        }
        turns = false;
    } else if (d->orientation == PLUME_ORIENT_WORLD_FACING) {
        const double *n = (const double[3]){d->orientation_axis[0], d->orientation_axis[1], d->orientation_axis[2]};
        const double reference[3] = {0, fabs(n[1]) < 0.999 ? 1 : 0, fabs(n[1]) < 0.999 ? 0 : 1};
        cross(reference, n, right);
        unit(right);
        cross(n, right, up);
    }
    double c = turns ? cos(p->rotation) : 1.0, s = turns ? sin(p->rotation) : 0.0;
    for (int i = 0; i < 3; ++i) {
        across[i] = c * right[i] + s * up[i];
        along[i] = -s * right[i] + c * up[i];
    }
}

/* The particle in `slot` as the module should draw it. */
ref_quad reference_quad(const plume_system_desc *d, const plume_particle *p, uint32_t slot,
                               const ref_light *light) {
    ref_quad q = {.slot = slot, .depth = 5.0 - p->position[2]};
    double life = p->age / p->lifetime;
    life = life < 0 ? 0 : life > 1 ? 1 : life;
    double size = p->size * curve_at(&d->appearance.size_over_life, life);
    double rgba[4];
    gradient_at(&d->appearance.color_over_life, life, rgba);
    for (int c = 0; c < 3; ++c) q.color[c] = rgba[c];
    q.alpha = rgba[3] * curve_at(&d->appearance.opacity_over_life, life);
    q.additive = additive_at(d, life);
    double across[3], along[3], length = size;
    quad_axes(d, p, across, along, &length);
    double emissive[4];
    gradient_at(&d->emissive_over_life, life, emissive);
    for (int c = 0; c < 3; ++c) q.emissive[c] = emissive[c] * emissive[3];
    q.lit = d->lit;
    double normal[3];
    cross(across, along, normal);
    unit(normal);
    if (normal[2] < 0) /* towards the camera, whose back axis is +z */
        for (int i = 0; i < 3; ++i) normal[i] = -normal[i];
    const double *axes[3] = {across, along, normal};
    for (int k = 0; k < 3; ++k)
        q.light[k] = axes[k][0] * light->direction[0] + axes[k][1] * light->direction[1] +
                     axes[k][2] * light->direction[2];
    const double corners[4][2] = {{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}};
    for (int k = 0; k < 4; ++k) {
        double world[3];
        for (int i = 0; i < 3; ++i)
            world[i] = p->position[i] + across[i] * corners[k][0] * size + along[i] * corners[k][1] * length;
        reference_to_pixels(world, q.corner[k]);
    }
    return q;
}

int far_first_then_slot(const void *a, const void *b) {
    const ref_quad *x = a, *y = b;
    if (x->depth != y->depth) return x->depth > y->depth ? -1 : 1;
    if (x->system != y->system) return x->system < y->system ? -1 : 1;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* plume_depth_key(depth, PLUME_ORDER_DESCENDING) for a number, as
 * plume_sort.h defines it (this file also runs where the plugin table, not
 * the library, provides the API). */
uint32_t reference_depth_key(float depth) {
    uint32_t bits;
    memcpy(&bits, &depth, sizeof bits);
    if (bits == 0x80000000u) bits = 0;
    uint32_t sortable = (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
    return ~sortable;
}

void assert_key_is_depth(uint32_t key, double depth, uint32_t sort_key_bits) {
    uint32_t expected = reference_depth_key((float)depth);
    uint32_t gap = expected > key ? expected - key : key - expected;
    uint32_t step = 1u << (32 - sort_key_bits);
    if (gap >= step + 64u)
        fail_msg("read-back key 0x%08x for view depth %.9g: plume_depth_key gives 0x%08x (%u key bits)", key, depth,
                 expected, sort_key_bits);
}

int by_key_then_slot(const void *a, const void *b) {
    const ref_quad *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->system != y->system) return x->system < y->system ? -1 : 1;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static int by_slot(const void *a, const void *b) {
    const ref_quad *x = a, *y = b;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* Signed distances of `point` to the quad's edges (positive inside, for
 * either winding); *inside and *near_edge (closer than `snap`). */
static void classify(const ref_quad *q, double x, double y, double snap, bool *inside, bool *near_edge) {
    double area = 0.0;
    for (int k = 0; k < 4; ++k) {
        const double *a = q->corner[k], *b = q->corner[(k + 1) % 4];
        area += a[0] * b[1] - b[0] * a[1];
    }
    double sign = area >= 0 ? 1.0 : -1.0;
    *inside = true;
    *near_edge = false;
    for (int k = 0; k < 4; ++k) {
        const double *a = q->corner[k], *b = q->corner[(k + 1) % 4];
        double ex = b[0] - a[0], ey = b[1] - a[1], length = sqrt(ex * ex + ey * ey);
        if (length == 0.0) {
            *inside = false;
            return;
        }
        double distance = sign * (ex * (y - a[1]) - ey * (x - a[0])) / length;
        if (distance <= 0.0) *inside = false;
        if (fabs(distance) < snap) *near_edge = true;
    }
}

/* The light reaching quad coordinates (s, t) of `q` (the half sphere's
 * normal, as the module's sphere_lighting). */
static void sphere_light(const ref_quad *q, const ref_light *l, double s, double t, double out[3]) {
    double x = 2 * s - 1, y = 2 * t - 1, n[3] = {x, y, sqrt(fmax(0.0, 1.0 - x * x - y * y))};
    unit(n);
    double facing = fmax(0.0, n[0] * q->light[0] + n[1] * q->light[1] + n[2] * q->light[2]);
    for (int c = 0; c < 3; ++c) out[c] = l->ambient[c] + l->color[c] * facing;
}

/* (s, t) of pixel point (x, y) on the quad (orthographic: affine). */
static void quad_coordinates(const ref_quad *q, double x, double y, double *s, double *t) {
    double ax = q->corner[1][0] - q->corner[0][0], ay = q->corner[1][1] - q->corner[0][1];
    double bx = q->corner[3][0] - q->corner[0][0], by = q->corner[3][1] - q->corner[0][1];
    double px = x - q->corner[0][0], py = y - q->corner[0][1], det = ax * by - bx * ay;
    *s = (px * by - bx * py) / det;
    *t = (ax * py - px * ay) / det;
}

/* Whether `q`'s light at (s, t) changes by more than LIGHT_SNAP_AMBIGUITY
 * (times its colour and alpha) when (s, t) moves by the snapping `snap`
 * (pixels) along the quad's edges. */
static bool light_moves_with_snapping(const ref_quad *q, const ref_light *l, double s, double t, double snap) {
    double width = hypot(q->corner[1][0] - q->corner[0][0], q->corner[1][1] - q->corner[0][1]);
    double length = hypot(q->corner[3][0] - q->corner[0][0], q->corner[3][1] - q->corner[0][1]);
    double at[3], moved[3];
    sphere_light(q, l, s, t, at);
    for (int k = 0; k < 4; ++k) {
        sphere_light(q, l, s + (k & 1 ? 1 : -1) * snap / width, t + (k & 2 ? 1 : -1) * snap / length, moved);
        for (int c = 0; c < 3; ++c)
            if (fabs(moved[c] - at[c]) * q->color[c] * q->alpha > LIGHT_SNAP_AMBIGUITY) return true;
    }
    return false;
}

void composite_quads(const ref_quad *quads, uint32_t count, const ref_light *light, const float clear[4],
                     float *rgba, bool *ambiguous) {
    GLint subpixel_bits = 4;
    glGetIntegerv(GL_SUBPIXEL_BITS, &subpixel_bits);
    const double snap = ldexp(1.0, -subpixel_bits) + 1e-3;
    for (int y = 0; y < IMAGE_SIZE; ++y)
        for (int x = 0; x < IMAGE_SIZE; ++x) {
            double out[4] = {clear[0], clear[1], clear[2], clear[3]};
            bool edge = false;
            for (uint32_t i = 0; i < count; ++i) {
                const ref_quad *q = &quads[i];
                bool inside, near_edge;
                classify(q, x + 0.5, y + 0.5, snap, &inside, &near_edge);
                edge = edge || near_edge;
                if (!inside) continue;
                double covers = q->alpha * (1.0 - q->additive), shade[3] = {1, 1, 1};
                if (q->lit) {
                    double s, t;
                    quad_coordinates(q, x + 0.5, y + 0.5, &s, &t);
                    sphere_light(q, light, s, t, shade);
                    edge = edge || light_moves_with_snapping(q, light, s, t, snap);
                }
                for (int c = 0; c < 3; ++c)
                    out[c] = (q->color[c] * shade[c] + q->emissive[c]) * q->alpha + (1.0 - covers) * out[c];
                out[3] = covers + (1.0 - covers) * out[3];
            }
            for (int c = 0; c < 4; ++c) rgba[4 * (y * IMAGE_SIZE + x) + c] = (float)out[c];
            ambiguous[y * IMAGE_SIZE + x] = edge;
        }
}

void mark_float_tie_orders(const ref_quad *quads, uint32_t count, const ref_light *light, const float clear[4],
                           const float *reference, bool *ambiguous) {
    ref_quad *swapped = malloc(sizeof(ref_quad) * (count + 1));
    float *rgba = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    bool *edges = malloc(IMAGE_SIZE * IMAGE_SIZE);
    assert_true(swapped && rgba && edges);
    memcpy(swapped, quads, sizeof(ref_quad) * count);
    uint32_t ties = 0;
    for (uint32_t i = 0; i + 1 < count; ++i) {
        double step = ldexp(1.0, ilogb((float)swapped[i].depth) - 23) * FLOAT_TIE_ULPS;
        if (fabs(swapped[i].depth - swapped[i + 1].depth) > step) continue;
        ref_quad t = swapped[i];
        swapped[i] = swapped[i + 1];
        swapped[i + 1] = t;
        ++ties;
        ++i;
    }
    if (ties > 0) {
        composite_quads(swapped, count, light, clear, rgba, edges);
        for (int p = 0; p < IMAGE_SIZE * IMAGE_SIZE; ++p)
            for (int c = 0; c < 4; ++c)
                if (fabsf(rgba[4 * p + c] - reference[4 * p + c]) > 0.25f / 255.0f) ambiguous[p] = true;
    }
    free(swapped);
    free(rgba);
    free(edges);
}

void composite_reference(const plume_system_desc *d, const plume_readback *rb, const ref_light *light,
                         const float clear[4], float *rgba, bool *ambiguous) {
    ref_quad *quads = malloc(sizeof(ref_quad) * (rb->drawn_count + 1));
    assert_non_null(quads);
    for (uint32_t i = 0; i < rb->drawn_count; ++i) {
        quads[i] = reference_quad(d, &rb->particles[rb->draw_order[i]], rb->draw_order[i], light);
        quads[i].key = rb->draw_keys[i];
        if (d->sort_mode == PLUME_SORT_MODE_VIEW_DEPTH) assert_key_is_depth(quads[i].key, quads[i].depth, d->sort_key_bits);
    }
    qsort(quads, rb->drawn_count, sizeof(ref_quad), d->blend_mode == PLUME_BLEND_ADDITIVE ? by_slot : by_key_then_slot);
    composite_quads(quads, rb->drawn_count, light, clear, rgba, ambiguous);
    free(quads);
}

/* Largest channel difference off the ambiguous pixels, relative to the
 * brighter value where it is over 1 (the tiled target's half floats round
 * additive light over 1 in proportion). */
float largest_difference(const float *a, const float *b, const bool *ambiguous) {
    float largest = 0.0f;
    for (int i = 0; i < IMAGE_SIZE * IMAGE_SIZE; ++i)
        for (int c = 0; c < 4 && !ambiguous[i]; ++c) {
            float x = a[4 * i + c], y = b[4 * i + c];
            largest = fmaxf(largest, fabsf(x - y) / fmaxf(1.0f, fmaxf(fabsf(x), fabsf(y))));
        }
    return largest;
}

