/* The CPU compositor the image tests of the look (tests/render/test_look.c)
 * and of draw groups (tests/render/test_draw_group.c) compare the module's
 * pictures with. */
#ifndef PLUME_LOOK_REFERENCE_H
#define PLUME_LOOK_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "plume/plume_particles.h"

/* A particle's quad as the module should draw it, for the orthographic
 * camera of particle_fixture: four corners in pixels. */
typedef struct ref_quad {
    double corner[4][2]; /* pixels, in order around the quad */
    double depth;        /* view depth of the centre */
    uint32_t key;        /* the system's sort key for it, as read back (draw_keys) */
    uint32_t system;     /* the system's index among those composited together */
    uint32_t slot;
    double color[3], alpha, additive;
    double emissive[3];
    bool lit;
    double light[3];     /* the light's direction in the quad's frame */
} ref_quad;

/* The frame's light as the module normalises it. */
typedef struct ref_light {
    double direction[3], color[3], ambient[3];
} ref_light;


/* plume_depth_key(depth, PLUME_ORDER_DESCENDING) for a number, computed
 * here (the plugin host has no library to ask). */
uint32_t reference_depth_key(float depth);

/* A world point's pixel for the orthographic camera of particle_fixture. */
void reference_to_pixels(const double world[3], double out[2]);

/* The particle in `slot` as the module should draw it (`system`: 0; set it
 * when compositing several systems' quads together). */
ref_quad reference_quad(const plume_system_desc *d, const plume_particle *p, uint32_t slot, const ref_light *light);

/* qsort order: far to near, ties by system, then slot (a draw group's, whose
 * keys are whole floats). */
int far_first_then_slot(const void *a, const void *b);

/* qsort order: by the systems' read-back keys, ties by system, then slot: a
 * system's own draw order, whose keys keep the top sort_key_bits of the
 * depth only (tests/particles/test_order.c checks them against the CPU's
 * depths), so that depths closer than that are drawn by slot. */
int by_key_then_slot(const void *a, const void *b);

/* Fails unless `key`, a system's read-back sort key of the view depth
 * (draw_keys: its top sort_key_bits), is plume_depth_key of the CPU's
 * `depth` to within one step of those bits (and a few units of float
 * rounding): what ties the image tests' order, by read-back keys, to depths. */
void assert_key_is_depth(uint32_t key, double depth, uint32_t sort_key_bits);

/* A GPU's rasteriser interpolates a quad's coordinates from its corners
 * snapped to the sub-pixel grid, which moves (s, t) by up to the snapping
 * over the quad's edge in pixels (at 64 pixels across, about 3e-4 for the
 * tests' quads). The half sphere's normal turns without bound at its rim, so
 * there that shift changes the light by any amount: a lit pixel whose light
 * changes by more than this when (s, t) moves by the snapping is ambiguous,
 * as a pixel centre within the snapping of an edge is. */
#define LIGHT_SNAP_AMBIGUITY (1.0 / 255.0)

/* `quads` composited in their order over `clear` into rgba[IMAGE_SIZE^2 x 4];
 * ambiguous[pixel]: a pixel centre within vertex snapping of an edge, or
 * where a lit quad's light moves with the snapping (LIGHT_SNAP_AMBIGUITY). */
void composite_quads(const ref_quad *quads, uint32_t count, const ref_light *light, const float clear[4],
                     float *rgba, bool *ambiguous);

/* The read-back drawn particles composited in the module's order as the CPU
 * computes it: far to near (ties by slot), or by slot where the mode does
 * not sort. */
void composite_reference(const plume_system_desc *d, const plume_readback *rb, const ref_light *light,
                         const float clear[4], float *rgba, bool *ambiguous);

/* For quads in far-first order by the CPU's depths (far_first_then_slot):
 * marks ambiguous the pixels whose colour changes when neighbours in that
 * order whose depths are within FLOAT_TIE_ULPS float steps of each other
 * trade places. A draw group's keys are the GPU's float depths: the CPU's
 * double depths order such a pair, the GPU's rounding may tie or reverse
 * it, and the blend of additive with premultiplied quads does not commute. */
#define FLOAT_TIE_ULPS 2.0
void mark_float_tie_orders(const ref_quad *quads, uint32_t count, const ref_light *light, const float clear[4],
                           const float *reference, bool *ambiguous);

/* Largest channel difference off the ambiguous pixels, relative to the
 * brighter value where it is over 1 (the tiled target's half floats round
 * additive light over 1 in proportion). */
float largest_difference(const float *a, const float *b, const bool *ambiguous);

#endif
