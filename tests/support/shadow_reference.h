/* The CPU's self-shadow map (plume_self_shadow_desc): the opacity map of
 * shaders/render/self_shadow_map.comp built from read-back particles, and
 * the CPU compositor's picture lit through it (look_reference.h). */
#ifndef PLUME_SHADOW_REFERENCE_H
#define PLUME_SHADOW_REFERENCE_H

#include "look_reference.h"
#include "plume/plume_prewarm.h"

/* The light reaching each drawn particle's centre (transmittance[i] for
 * rb->draw_order[i]): the map fitted to `box` (the GPU's box of the same
 * update, plume_system_get_bounds) for the light towards
 * light->direction, splatted from the drawn particles in fixed point as the
 * GPU does, resolved, and sampled trilinearly. */
void reference_self_shadow(const plume_system_desc *d, const plume_readback *rb, const plume_bounds *box,
                           const ref_light *light, double *transmittance);

/* As composite_reference, with each quad's directional light scaled by its
 * transmittance (NULL: composite_reference itself). */
void composite_shadowed_reference(const plume_system_desc *d, const plume_readback *rb, const ref_light *light,
                                  const double *transmittance, const float clear[4], float *rgba, bool *ambiguous);

#endif
