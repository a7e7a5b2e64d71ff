/* The CPU's trails (trail_reference.h): the record pass's rule
 * (shaders/particles/trail_record.comp) on read-back particles, and the
 * trail draw's curves (shaders/render/trail_draw.vert) in doubles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "particle_fixture.h"
#include "shared/plume_gpu_layout.h"
#include "trail_reference.h"

static uint32_t ring_of(const plume_system_desc *d) { return d->trail.points - 1; }

static float distance3(const float a[3], const float b[3]) {
    float x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
    return sqrtf(x * x + y * y + z * z);
}

void reference_trails_record(const plume_system_desc *d, const plume_readback *rb, ref_trail *trails) {
    uint32_t ring = ring_of(d);
    for (uint32_t i = 0; i < rb->drawn_count; ++i) {
        uint32_t slot = rb->draw_order[i];
        const plume_particle *p = &rb->particles[slot];
        ref_trail *t = &trails[slot];
        if (!t->started || t->id != p->id) {
            *t = (ref_trail){.started = true, .id = p->id, .newest = 0, .count = 1, .newest_age = p->age};
            memcpy(t->points[0], p->position, sizeof p->position);
            t->points[0][3] = 0.0f;
            continue;
        }
        const float *newest = t->points[t->newest];
        float way = distance3(p->position, newest);
        float since = d->trail.spacing_mode == PLUME_TRAIL_SPACING_DISTANCE ? way : p->age - t->newest_age;
        if (!(since >= d->trail.spacing)) continue;
        float length = newest[3] + way;
        t->newest = (t->newest + 1) % ring;
        t->count = t->count + 1 < ring ? t->count + 1 : ring;
        t->newest_age = p->age;
        memcpy(t->points[t->newest], p->position, sizeof p->position);
        t->points[t->newest][3] = length;
    }
}

/* Point i of the trail: 0 the particle now, then the ring newest first. */
static void trail_point(const plume_system_desc *d, const ref_trail *t, const plume_particle *p, uint32_t i,
                        double out[3]) {
    uint32_t ring = ring_of(d);
    const float *point = i == 0 ? p->position : t->points[(t->newest + ring - (i - 1)) % ring];
    for (int c = 0; c < 3; ++c) out[c] = point[c];
}

static double knot_step(const double a[3], const double b[3]) {
    double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
    double step = sqrt(sqrt(x * x + y * y + z * z));
    return step > 1e-4 ? step : 1e-4;
}

static void lerp(const double a[3], const double b[3], double t, double out[3]) {
    for (int c = 0; c < 3; ++c) out[c] = a[c] + (b[c] - a[c]) * t;
}

/* Centripetal Catmull-Rom between p[1] (t = 0) and p[2] (t = 1). */
static void catmull_rom(const double p[4][3], double t, double out[3]) {
    double t1 = knot_step(p[0], p[1]), t2 = t1 + knot_step(p[1], p[2]), t3 = t2 + knot_step(p[2], p[3]);
    double u = t1 + (t2 - t1) * t, a1[3], a2[3], a3[3], b1[3], b2[3];
    lerp(p[0], p[1], u / t1, a1);
    lerp(p[1], p[2], (u - t1) / (t2 - t1), a2);
    lerp(p[2], p[3], (u - t2) / (t3 - t2), a3);
    lerp(a1, a2, u / t2, b1);
    lerp(a2, a3, (u - t1) / (t3 - t1), b2);
    lerp(b1, b2, (u - t1) / (t2 - t1), out);
}

/* The curve's direction at point b between a and c (the shader's
 * knot_direction). */
static void knot_direction(const double a[3], const double b[3], const double c[3], double out[3]) {
    double ab = knot_step(a, b), bc = knot_step(b, c);
    for (int k = 0; k < 3; ++k) out[k] = (b[k] - a[k]) / ab - (c[k] - a[k]) / (ab + bc) + (c[k] - b[k]) / bc;
}

/* The curve's direction at t: at the points as knot_direction, between
 * them by central differences, as the shader's. */
static void direction_at(const double p[4][3], double t, double out[3]) {
    if (t == 0.0 || t == 1.0) {
        int first = t == 0.0 ? 0 : 1;
        knot_direction(p[first], p[first + 1], p[first + 2], out);
        return;
    }
    double ahead[3], behind[3];
    catmull_rom(p, t + 1e-3 < 1.0 ? t + 1e-3 : 1.0, ahead);
    catmull_rom(p, t - 1e-3 > 0.0 ? t - 1e-3 : 0.0, behind);
    for (int c = 0; c < 3; ++c) out[c] = ahead[c] - behind[c];
}

/* The strip's unit across-vector at a curve point: across the direction
 * and the way to the eye (the orthographic camera's back axis, +z). */
static void across_at(const double direction[3], double out[3]) {
    out[0] = direction[1];
    out[1] = -direction[0];
    out[2] = 0.0;
    double length = sqrt(out[0] * out[0] + out[1] * out[1]);
    if (length < 1e-6) {
        out[0] = 1.0, out[1] = 0.0;
        return;
    }
    out[0] /= length, out[1] /= length;
}

/* A quad's corners of a segment from t0 to t1 of its curve, `widths` the drawn width
 * at the segment's ends (t 0 and 1; a trail's are its particle's). */
static ref_quad segment_quad(const plume_system_desc *d, const double points[4][3],
                             double t0, double t1, double along0, double along1, const double widths[2]) {
    ref_quad q = {0}; /* its colour: shaded_triangles' */
    const double ends[2] = {t0, t1}, alongs[2] = {along0, along1};
    for (int e = 0; e < 2; ++e) {
        double centre[3], direction[3], across[3];
        catmull_rom(points, ends[e], centre);
        direction_at(points, ends[e], direction);
        across_at(direction, across);
        double width = ends[e] == 1.0 ? widths[1] : widths[0] + (widths[1] - widths[0]) * ends[e];
        double half = 0.5 * width * curve_at(&d->trail.width_over_length, alongs[e]);
        for (int side = 0; side < 2; ++side) {
            double sign = (e == 0) == (side == 0) ? -1.0 : 1.0, world[3];
            for (int c = 0; c < 3; ++c) world[c] = centre[c] + across[c] * half * sign;
            reference_to_pixels(world, q.corner[2 * e + side]);
        }
    }
    return q;
}

/* A pixel's distance from the screen's segment a .. b (the shader's
 * trail_pixels_off_chord). */
static double pixels_off_chord(const double p[2], const double a[2], const double b[2]) {
    double chord[2] = {b[0] - a[0], b[1] - a[1]}, off[2] = {p[0] - a[0], p[1] - a[1]};
    double squared = chord[0] * chord[0] + chord[1] * chord[1];
    double along = (off[0] * chord[0] + off[1] * chord[1]) / (squared > 1e-12 ? squared : 1e-12);
    along = along < 0 ? 0 : along > 1 ? 1 : along;
    return hypot(off[0] - chord[0] * along, off[1] - chord[1] * along);
}

double reference_segment_deviation(const double points[4][3]) {
    double a[2], b[2], q[2], world[3], most = 0.0;
    reference_to_pixels(points[1], a);
    reference_to_pixels(points[2], b);
    for (int k = 0; k < 2; ++k) {
        catmull_rom(points, k ? 0.75 : 0.25, world);
        reference_to_pixels(world, q);
        double off = pixels_off_chord(q, a, b);
        most = off > most ? off : most;
    }
    return 4.0 / 3.0 * most;
}

uint32_t reference_segment_quads(const double points[4][3], ref_subdivisions *how) {
    static const double thresholds[2] = {PLUME_GPU_TRAIL_ONE_QUAD_PIXELS, PLUME_GPU_TRAIL_TWO_QUADS_PIXELS};
    if (how && how->quads) return how->quads;
    double deviation = reference_segment_deviation(points);
    uint32_t quads = deviation < thresholds[0] ? 1 : deviation < thresholds[1] ? 2 : PLUME_TRAIL_SUBDIVISIONS;
    for (int k = 0; how && k < 2; ++k) {
        if (fabs(deviation - thresholds[k]) > REFERENCE_SUBDIVISION_MARGIN(thresholds[k])) continue;
        ++how->unsure;
        /* The other side of the threshold: 1 or 2 quads, 2 or 4. */
        uint32_t below = k ? 2 : 1, above = k ? PLUME_TRAIL_SUBDIVISIONS : 2;
        if (how->flip_unsure) quads = quads == below ? above : below;
    }
    return quads;
}

/* The straight-alpha colour the trail draw gives a section `along` its
 * trail (0 .. 1: the particle .. its K-th point). */
static void section_color(const plume_system_desc *d, const plume_particle *p, double along, double out[4]) {
    double life = p->age / p->lifetime;
    life = life < 0 ? 0 : life > 1 ? 1 : life;
    double rgba[4], length_rgba[4];
    gradient_at(&d->appearance.color_over_life, life, rgba);
    gradient_at(&d->trail.color_over_length, along, length_rgba);
    for (int c = 0; c < 3; ++c) out[c] = rgba[c] * length_rgba[c];
    out[3] = rgba[3] * length_rgba[3] * curve_at(&d->appearance.opacity_over_life, life) *
             curve_at(&d->trail.opacity_over_length, along);
}

static void mix2(const double a[2], const double b[2], double f, double out[2]) {
    for (int i = 0; i < 2; ++i) out[i] = a[i] + (b[i] - a[i]) * f;
}

/* Corners a, b, c as a quad: its third edge halved (the compositor's quads
 * are convex; a triangle with a point on an edge is). */
static void triangle_corners(ref_quad *q, const double a[2], const double b[2], const double c[2]) {
    memcpy(q->corner[0], a, sizeof q->corner[0]);
    memcpy(q->corner[1], b, sizeof q->corner[1]);
    memcpy(q->corner[2], c, sizeof q->corner[2]);
    mix2(c, a, 0.5, q->corner[3]);
}

/* The GPU's two triangles of `quad` (corners 0 1 2, 0 2 3: where the curve
 * folds a quad over, both cover and both blend), its near corners (0, 1)
 * `along0` the trail, its far ones `along1`. The GPU shades between the
 * ends' colours; the compositor's quads are flat: each triangle is cut
 * across into `slices` (1, 2 or 4: a quarter of a segment's length each,
 * as its finest quads) shaded as between the ends at their middles. */
static uint32_t shaded_triangles(const plume_system_desc *d, const plume_particle *p, const ref_quad *quad,
                                 double along0, double along1, uint32_t slices, ref_quad *out) {
    double near[4], far[4];
    section_color(d, p, along0, near);
    section_color(d, p, along1, far);
    const double(*c)[2] = quad->corner;
    uint32_t n = 0;
    for (int half = 0; half < 2; ++half)
        for (uint32_t k = 0; k < slices; ++k, ++n) {
            double f0 = (double)k / slices, f1 = (double)(k + 1) / slices, shade[4];
            ref_quad *q = &out[n];
            *q = *quad;
            for (int i = 0; i < 4; ++i) shade[i] = near[i] + (far[i] - near[i]) * 0.5 * (f0 + f1);
            memcpy(q->color, shade, sizeof q->color);
            q->alpha = shade[3];
            /* Triangle 1 (near, near, far): cut parallel to its near edge;
             * triangle 2 (near, far, far): parallel to its far edge. */
            const double *apex = half == 0 ? c[2] : c[0], *left = half == 0 ? c[0] : c[2],
                         *right = half == 0 ? c[1] : c[3];
            double g0 = half == 0 ? f0 : 1.0 - f1, g1 = half == 0 ? f1 : 1.0 - f0; /* from the base to the apex */
            double base[2][2], top[2][2];
            mix2(left, apex, g0, base[0]);
            mix2(right, apex, g0, base[1]);
            mix2(left, apex, g1, top[0]);
            mix2(right, apex, g1, top[1]);
            if (g1 >= 1.0) triangle_corners(q, base[0], base[1], apex);
            else {
                memcpy(q->corner[0], base[0], sizeof q->corner[0]);
                memcpy(q->corner[1], base[1], sizeof q->corner[1]);
                memcpy(q->corner[2], top[1], sizeof q->corner[2]);
                memcpy(q->corner[3], top[0], sizeof q->corner[3]);
            }
        }
    return n;
}

uint32_t reference_trail_quads(const plume_system_desc *d, const plume_particle *p, uint32_t slot,
                               const ref_trail *trail, ref_subdivisions *how, ref_quad *out) {
    const ref_light none = {{0}, {0}, {0}};
    uint32_t ring = ring_of(d), entries = ring + (d->trail.hide_particles ? 0 : 1), n = 0;
    double life = p->age / p->lifetime;
    life = life < 0 ? 0 : life > 1 ? 1 : life;
    double width = p->size * curve_at(&d->appearance.size_over_life, life);
    for (uint32_t j = 0; j < trail->count; ++j) {
        double points[4][3];
        trail_point(d, trail, p, j, points[1]);
        trail_point(d, trail, p, j + 1, points[2]);
        if (knot_step(points[1], points[2]) <= 1e-3) continue; /* no length: the shader's 1e-6 */
        if (j > 0) trail_point(d, trail, p, j - 1, points[0]);
        else for (int c = 0; c < 3; ++c) points[0][c] = 2 * points[1][c] - points[2][c];
        if (j + 2 <= trail->count) trail_point(d, trail, p, j + 2, points[3]);
        else for (int c = 0; c < 3; ++c) points[3][c] = 2 * points[2][c] - points[1][c];
        double end = 1.0;
        if (trail->count == ring && j + 1 == trail->count) {
            const float *newest = trail->points[trail->newest];
            float since = d->trail.spacing_mode == PLUME_TRAIL_SPACING_DISTANCE ? distance3(p->position, newest)
                                                                                : p->age - trail->newest_age;
            double f = since / d->trail.spacing;
            end = 1.0 - (f < 0 ? 0 : f > 1 ? 1 : f);
        }
        double depth = 5.0 - 0.5 * (points[1][2] + points[2][2]);
        uint32_t quads = reference_segment_quads(points, how);
        for (uint32_t q = 0; q < quads; ++q) {
            double t0 = (double)q / quads * end, t1 = (double)(q + 1) / quads * end;
            const double widths[2] = {width, width};
            ref_quad quad = segment_quad(d, points, t0, t1, (j + t0) / ring, (j + t1) / ring, widths);
            quad.depth = depth;
            quad.slot = slot * entries + j;
            n += shaded_triangles(d, p, &quad, (j + t0) / ring, (j + t1) / ring, PLUME_TRAIL_SUBDIVISIONS / quads,
                                  &out[n]);
        }
    }
    if (!d->trail.hide_particles) {
        out[n] = reference_quad(d, p, slot, &none);
        out[n].slot = slot * entries + ring;
        ++n;
    }
    return n;
}


/* Ribbons: the drawn particle of emission number `id` joined to `p` (born
 * at most the spacing apart), or NULL. */
static const plume_particle *ribbon_neighbour(const plume_system_desc *d, const plume_readback *rb,
                                              const plume_particle *p, int offset) {
    uint32_t id = p->id + (uint32_t)offset;
    for (uint32_t i = 0; i < rb->drawn_count; ++i) {
        const plume_particle *q = &rb->particles[rb->draw_order[i]];
        if (q->id == id) return fabsf(q->age - p->age) <= d->trail.spacing ? q : NULL;
    }
    return NULL;
}

static double drawn_size(const plume_system_desc *d, const plume_particle *p) {
    double life = p->age / p->lifetime;
    life = life < 0 ? 0 : life > 1 ? 1 : life;
    return p->size * curve_at(&d->appearance.size_over_life, life);
}

uint32_t reference_ribbon_quads(const plume_system_desc *d, const plume_readback *rb, uint32_t slot,
                                ref_subdivisions *how, ref_quad *out) {
    const ref_light none = {{0}, {0}, {0}};
    const plume_particle *p = &rb->particles[slot], *before = ribbon_neighbour(d, rb, p, -1);
    uint32_t entries = 1 + (d->trail.hide_particles ? 0 : 1), n = 0;
    if (before) {
        const plume_particle *after = ribbon_neighbour(d, rb, p, 1), *earlier = ribbon_neighbour(d, rb, before, -1);
        double points[4][3];
        for (int c = 0; c < 3; ++c) {
            points[1][c] = p->position[c];
            points[2][c] = before->position[c];
            points[0][c] = after ? after->position[c] : 2 * points[1][c] - points[2][c];
            points[3][c] = earlier ? earlier->position[c] : 2 * points[2][c] - points[1][c];
        }
        const double widths[2] = {drawn_size(d, p), drawn_size(d, before)};
        double depth = 5.0 - 0.5 * (points[1][2] + points[2][2]);
        uint32_t quads = knot_step(points[1], points[2]) > 1e-3 ? reference_segment_quads(points, how) : 0;
        for (uint32_t q = 0; q < quads; ++q) {
            double t0 = (double)q / quads, t1 = (double)(q + 1) / quads;
            ref_quad quad = segment_quad(d, points, t0, t1, 0.0, 0.0, widths);
            quad.depth = depth;
            quad.slot = slot * entries;
            n += shaded_triangles(d, p, &quad, 0.0, 0.0, 1, &out[n]);
        }
    }
    if (!d->trail.hide_particles) {
        out[n] = reference_quad(d, p, slot, &none);
        out[n].slot = slot * entries + 1;
        ++n;
    }
    return n;
}

/* By the system's key (the depth's top sort_key_bits: as the GPU keys it),
 * ties by sort value; the quads of one segment keep their order (qsort is
 * not stable: the value then the position decide). */
typedef struct ordered_quad {
    ref_quad quad;
    uint32_t index;
} ordered_quad;

static int by_key_then_value(const void *a, const void *b) {
    const ordered_quad *x = a, *y = b;
    if (x->quad.key != y->quad.key) return x->quad.key < y->quad.key ? -1 : 1;
    if (x->quad.slot != y->quad.slot) return x->quad.slot < y->quad.slot ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

void order_quads_by_key(ref_quad *quads, uint32_t count) {
    ordered_quad *all = malloc(sizeof *all * (count ? count : 1));
    if (!all) abort();
    for (uint32_t k = 0; k < count; ++k) all[k] = (ordered_quad){quads[k], k};
    qsort(all, count, sizeof *all, by_key_then_value);
    for (uint32_t k = 0; k < count; ++k) quads[k] = all[k].quad;
    free(all);
}

uint32_t reference_system_quads(const plume_system_desc *d, const plume_readback *rb, const ref_trail *trails,
                                uint32_t slot, ref_subdivisions *how, ref_quad *out) {
    return d->trail.ribbon ? reference_ribbon_quads(d, rb, slot, how, out)
                           : reference_trail_quads(d, &rb->particles[slot], slot, &trails[slot], how, out);
}

void mark_unsure_subdivisions(const ref_quad *flipped, uint32_t count, const float clear[4], const float *reference,
                              bool *ambiguous) {
    const ref_light none = {{0}, {0}, {0}};
    float *rgba = malloc(sizeof(float) * 4 * IMAGE_SIZE * IMAGE_SIZE);
    bool *edges = malloc(IMAGE_SIZE * IMAGE_SIZE);
    if (!rgba || !edges) abort();
    composite_quads(flipped, count, &none, clear, rgba, edges);
    for (int p = 0; p < IMAGE_SIZE * IMAGE_SIZE; ++p)
        for (int c = 0; c < 4; ++c)
            if (fabsf(rgba[4 * p + c] - reference[4 * p + c]) > 0.25f / 255.0f) ambiguous[p] = true;
    free(rgba);
    free(edges);
}

static int ascending(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Every drawn particle's quads in the module's order (composite_trails),
 * the segments' quads decided `how`; returns how many. */
static uint32_t ordered_trail_quads(const plume_system_desc *d, const plume_readback *rb, const ref_trail *trails,
                                    bool sorted, ref_subdivisions *how, ref_quad *quads) {
    ref_quad *particle = malloc(sizeof *particle * REFERENCE_TRAIL_QUADS(d));
    /* Unsorted, the segments come in the live list's slot order. */
    uint32_t *slots = malloc(sizeof *slots * (rb->drawn_count ? rb->drawn_count : 1)), n = 0;
    if (!particle || !slots) abort();
    memcpy(slots, rb->draw_order, sizeof *slots * rb->drawn_count);
    if (!sorted) qsort(slots, rb->drawn_count, sizeof *slots, ascending);
    for (uint32_t i = 0; i < rb->drawn_count; ++i) {
        uint32_t count = reference_system_quads(d, rb, trails, slots[i], how, particle);
        for (uint32_t k = 0; k < count; ++k, ++n) {
            particle[k].key = reference_depth_key((float)particle[k].depth) >> (32 - d->sort_key_bits);
            quads[n] = particle[k];
        }
    }
    if (sorted) order_quads_by_key(quads, n);
    free(slots);
    free(particle);
    return n;
}

void composite_trails(const plume_system_desc *d, const plume_readback *rb, const ref_trail *trails, bool sorted,
                      const float clear[4], float *rgba, bool *ambiguous) {
    composite_trails_as(d, rb, trails, sorted, 0, clear, rgba, ambiguous);
}

void composite_trails_as(const plume_system_desc *d, const plume_readback *rb, const ref_trail *trails, bool sorted,
                         uint32_t fixed_quads, const float clear[4], float *rgba, bool *ambiguous) {
    uint32_t most = REFERENCE_TRAIL_QUADS(d) * (rb->drawn_count ? rb->drawn_count : 1);
    ref_quad *quads = malloc(sizeof *quads * most);
    if (!quads) abort();
    ref_subdivisions how = {.quads = fixed_quads};
    uint32_t n = ordered_trail_quads(d, rb, trails, sorted, &how, quads);
    const ref_light none = {{0}, {0}, {0}};
    composite_quads(quads, n, &none, clear, rgba, ambiguous);
    if (how.unsure > 0) {
        printf("  %u segments' quads within rounding of a threshold: their pixels ambiguous\n", how.unsure);
        how = (ref_subdivisions){.flip_unsure = true};
        n = ordered_trail_quads(d, rb, trails, sorted, &how, quads);
        mark_unsure_subdivisions(quads, n, clear, rgba, ambiguous);
    }
    free(quads);
}
