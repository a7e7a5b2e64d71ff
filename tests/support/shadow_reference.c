/* The CPU's self-shadow map (shadow_reference.h), in doubles, step for step
 * as shaders/render/self_shadow_map.comp and self_shadow.glsl. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "particle_fixture.h"
#include "shadow_reference.h"
#include "shared/plume_gpu_layout.h"

typedef struct shadow_frame {
    double axes[3][3], origin[3], scale[3];
} shadow_frame;

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void fit_frame(const plume_bounds *box, const double light[3], shadow_frame *f) {
    double w[3] = {-light[0], -light[1], -light[2]};
    double helper[3] = {fabs(w[1]) < 0.9 ? 0 : 1, fabs(w[1]) < 0.9 ? 1 : 0, 0};
    double u[3] = {helper[1] * w[2] - helper[2] * w[1], helper[2] * w[0] - helper[0] * w[2],
                   helper[0] * w[1] - helper[1] * w[0]};
    double length = sqrt(dot3(u, u));
    for (int i = 0; i < 3; ++i) u[i] /= length;
    double v[3] = {w[1] * u[2] - w[2] * u[1], w[2] * u[0] - w[0] * u[2], w[0] * u[1] - w[1] * u[0]};
    memcpy(f->axes[0], u, sizeof u);
    memcpy(f->axes[1], v, sizeof v);
    memcpy(f->axes[2], w, sizeof w);
    for (int i = 0; i < 3; ++i) {
        double smallest = INFINITY, largest = -INFINITY;
        for (int corner = 0; corner < 8; ++corner) {
            double p[3];
            for (int k = 0; k < 3; ++k) p[k] = (corner >> k) & 1 ? box->max[k] : box->min[k];
            double d = dot3(f->axes[i], p);
            smallest = fmin(smallest, d);
            largest = fmax(largest, d);
        }
        f->origin[i] = smallest;
        f->scale[i] = 1.0 / fmax(largest - smallest, 1e-6);
    }
}

static void map_coordinates(const shadow_frame *f, const float position[3], uint32_t size, uint32_t slices,
                            double out[3]) {
    const double p[3] = {position[0], position[1], position[2]};
    const double extent[3] = {size, size, slices};
    for (int i = 0; i < 3; ++i) out[i] = (dot3(f->axes[i], p) - f->origin[i]) * f->scale[i] * extent[i];
}

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

void reference_self_shadow(const plume_system_desc *d, const plume_readback *rb, const plume_bounds *box,
                           const ref_light *light, double *transmittance) {
    const uint32_t n = d->self_shadow.map_size, slices = d->self_shadow.slices;
    shadow_frame f;
    fit_frame(box, light->direction, &f);
    uint64_t *sums = calloc((size_t)n * n * slices, sizeof *sums);
    double *resolved = calloc((size_t)n * n * slices, sizeof *resolved);
    assert_true(sums && resolved);
    for (uint32_t i = 0; i < rb->drawn_count; ++i) {
        const plume_particle *p = &rb->particles[rb->draw_order[i]];
        double life = clampd(p->age / p->lifetime, 0.0, 1.0), rgba[4];
        gradient_at(&d->appearance.color_over_life, life, rgba);
        double alpha = rgba[3] * curve_at(&d->appearance.opacity_over_life, life);
        double size = p->size * curve_at(&d->appearance.size_over_life, life);
        if (alpha <= 0.0 || size <= 0.0) continue;
        double depth = d->self_shadow.strength * alpha * size * size * f.scale[0] * n * f.scale[1] * n;
        double at[3];
        map_coordinates(&f, p->position, n, slices, at);
        uint32_t slice = (uint32_t)clampd(floor(at[2]), 0.0, slices - 1.0);
        double texel[2] = {clampd(at[0] - 0.5, 0.0, n - 1.0), clampd(at[1] - 0.5, 0.0, n - 1.0)};
        uint32_t low[2] = {(uint32_t)floor(texel[0]), (uint32_t)floor(texel[1])};
        for (int corner = 0; corner < 4; ++corner) {
            double weight = 1.0;
            uint32_t xy[2];
            for (int k = 0; k < 2; ++k) {
                bool up = (corner >> k) & 1;
                double frac = texel[k] - low[k];
                xy[k] = up ? (low[k] + 1 < n ? low[k] + 1 : n - 1) : low[k];
                weight *= up ? frac : 1.0 - frac;
            }
            sums[((size_t)slice * n + xy[1]) * n + xy[0]] +=
                (uint64_t)(depth * weight * PLUME_SELF_SHADOW_FIXED_POINT + 0.5);
        }
    }
    for (uint32_t column = 0; column < n * n; ++column) {
        double in_front = 0.0;
        for (uint32_t s = 0; s < slices; ++s) {
            double own = (double)sums[(size_t)s * n * n + column] / PLUME_SELF_SHADOW_FIXED_POINT;
            resolved[(size_t)s * n * n + column] = in_front + 0.5 * own;
            in_front += own;
        }
    }
    const double top[3] = {n - 1.0, n - 1.0, slices - 1.0};
    for (uint32_t i = 0; i < rb->drawn_count; ++i) {
        double at[3];
        map_coordinates(&f, rb->particles[rb->draw_order[i]].position, n, slices, at);
        uint32_t low[3], high[3];
        double frac[3];
        for (int k = 0; k < 3; ++k) {
            at[k] = clampd(at[k] - 0.5, 0.0, top[k]);
            low[k] = (uint32_t)floor(at[k]);
            high[k] = low[k] + 1 <= top[k] ? low[k] + 1 : (uint32_t)top[k];
            frac[k] = at[k] - low[k];
        }
        double depth = 0.0;
        for (int corner = 0; corner < 8; ++corner) {
            double weight = 1.0;
            uint32_t c[3];
            for (int k = 0; k < 3; ++k) {
                bool up = (corner >> k) & 1;
                c[k] = up ? high[k] : low[k];
                weight *= up ? frac[k] : 1.0 - frac[k];
            }
            depth += weight * resolved[((size_t)c[2] * n + c[1]) * n + c[0]];
        }
        transmittance[i] = exp(-depth);
    }
    free(sums);
    free(resolved);
}

void composite_shadowed_reference(const plume_system_desc *d, const plume_readback *rb, const ref_light *light,
                                  const double *transmittance, const float clear[4], float *rgba, bool *ambiguous) {
    if (!transmittance) {
        composite_reference(d, rb, light, clear, rgba, ambiguous);
        return;
    }
    ref_quad *quads = malloc(sizeof(ref_quad) * (rb->drawn_count + 1));
    assert_non_null(quads);
    for (uint32_t i = 0; i < rb->drawn_count; ++i) {
        quads[i] = reference_quad(d, &rb->particles[rb->draw_order[i]], rb->draw_order[i], light);
        quads[i].key = rb->draw_keys[i];
        for (int k = 0; k < 3; ++k) quads[i].light[k] *= transmittance[i];
    }
    qsort(quads, rb->drawn_count, sizeof(ref_quad), by_key_then_slot);
    composite_quads(quads, rb->drawn_count, light, clear, rgba, ambiguous);
    free(quads);
}
