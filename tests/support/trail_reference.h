/* The CPU's trails (plume_trail_desc) for the trail image tests
 * (tests/render/test_trails.c): each particle's points recorded from the
 * read-back particles after every update by the rule the GPU's record pass
 * follows, and the quads the trail draw should draw for them (the
 * segments' curves, widths, colours and depths), composited by
 * look_reference.h's compositor for particle_fixture's orthographic camera. */
#ifndef PLUME_TRAIL_REFERENCE_H
#define PLUME_TRAIL_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "look_reference.h"
#include "plume/plume_particles.h"

/* A slot's trail: a ring of K - 1 points {x, y, z, path length}, newest at
 * `newest`, `count` of them; `id` the particle's emission number. */
typedef struct ref_trail {
    bool started;
    uint32_t id, newest, count;
    float newest_age;
    float points[PLUME_MAX_TRAIL_POINTS][4];
} ref_trail;

/* After an update: the live particles of `rb` (its draw order; the system
 * is not culled) add their points to `trails` (capacity of them, zeroed at
 * first). */
void reference_trails_record(const plume_system_desc *d, const plume_readback *rb, ref_trail *trails);

/* How the CPU decides a segment's quads: by the GPU's rule
 * (render/trail_curve.glsl's trail_subdivisions) for the fixture's camera
 * at full resolution, from the curve's deviation from its chord in pixels.
 * The GPU computes the deviation in floats (a draw group's neighbouring
 * points in half floats), so a segment whose deviation lies within
 * REFERENCE_SUBDIVISION_MARGIN of a threshold may be decided either way:
 * `unsure` counts those, and where `flip_unsure` they take the other side,
 * so that the pixels where the two pictures differ can be left out
 * (mark_unsure_subdivisions). */
typedef struct ref_subdivisions {
    bool flip_unsure;
    uint32_t unsure;
    uint32_t quads; /* nonzero: every segment as this many (1, 2 or 4) instead */
} ref_subdivisions;

/* The GPU's rounding is under 1e-4 pixels, a group's half floats' under
 * 1e-2 at the tests' scale: the margin is well over both. */
#define REFERENCE_SUBDIVISION_MARGIN(threshold) (0.01 + 0.01 * (threshold))

/* The curve's deviation from its chord in pixels (the shader's
 * trail_deviation_pixels), its points p1 to p2 with p0 and p3 around them;
 * and the quads it is drawn as (1, 2 or PLUME_TRAIL_SUBDIVISIONS), decided
 * `how` (NULL: by the rule alone). */
double reference_segment_deviation(const double points[4][3]);
uint32_t reference_segment_quads(const double points[4][3], ref_subdivisions *how);

/* Marks ambiguous the pixels of `reference` (the picture of the CPU's
 * decisions) that the same quads with the unsure segments decided the other
 * way (`flipped`, in order) change. */
void mark_unsure_subdivisions(const ref_quad *flipped, uint32_t count, const float clear[4], const float *reference,
                              bool *ambiguous);

/* The most quads one particle draws: its segments' triangles and its own. */
#define REFERENCE_TRAIL_QUADS(d) (((d)->trail.points - 1) * PLUME_TRAIL_SUBDIVISIONS * 2 + 1)

/* The quads the trail draw should draw for the particle in `slot`: each
 * segment's quads (decided `how`; each as its two triangles) with the segment's midpoint
 * depth, and unless hidden its own quad; `slot` of each is its sort value
 * (slot x entries + entry), which orders equal depths. Returns how many. */
uint32_t reference_trail_quads(const plume_system_desc *d, const plume_particle *p, uint32_t slot,
                               const ref_trail *trail, ref_subdivisions *how, ref_quad *out);

/* Ribbons (trail.ribbon): the quads of the particle in `slot` of `rb`, its
 * segment to the one before it in emission order (the spacing's birth gap
 * at most; one instance) and its own quad; colours its own (the tests' are
 * constant). */
uint32_t reference_ribbon_quads(const plume_system_desc *d, const plume_readback *rb, uint32_t slot,
                                ref_subdivisions *how, ref_quad *out);

/* The quads of the particle in `slot` of `rb`: its trail's (trails[slot])
 * or its ribbon's, as above. */
uint32_t reference_system_quads(const plume_system_desc *d, const plume_readback *rb, const ref_trail *trails,
                                uint32_t slot, ref_subdivisions *how, ref_quad *out);

/* `quads` in the module's order: by key, ties by sort value (`slot`), the
 * quads of one segment in their order. */
void order_quads_by_key(ref_quad *quads, uint32_t count);

/* Every drawn particle's quads in the module's order (far to near by the
 * quads' keys, ties by sort value; `sorted` false: by slot, each
 * particle's in entry order) composited over `clear`, the pixels of unsure
 * subdivisions marked ambiguous. */
void composite_trails(const plume_system_desc *d, const plume_readback *rb, const ref_trail *trails, bool sorted,
                      const float clear[4], float *rgba, bool *ambiguous);
/* The same with every segment drawn as `quads` (1, 2 or 4). */
void composite_trails_as(const plume_system_desc *d, const plume_readback *rb, const ref_trail *trails, bool sorted,
                         uint32_t quads, const float clear[4], float *rgba, bool *ambiguous);

#endif
