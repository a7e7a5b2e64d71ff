/* The look of a resolved descriptor (particles/desc.c, no GL): what the
 * draw paths build their programs with and read of a system's appearance.
 * Published for render/ beside the particle view. Not part of the API. */
#ifndef PLUME_PARTICLES_PARTICLE_LOOK_H
#define PLUME_PARTICLES_PARTICLE_LOOK_H

#include <stdbool.h>
#include <stdint.h>

#include "plume/plume_particles.h"

/* The blend mode's additive part k as a
 * curve over life (constant 0 or 1 but in PREMULTIPLIED_ADDITIVE), its
 * largest value, and whether the update skips the sort (ADDITIVE blending,
 * sort mode NONE). */
plume_curve particles_additive_curve(const plume_system_desc *desc);
float particles_largest_additive(const plume_system_desc *desc);
bool particles_sort_skipped(const plume_system_desc *desc);
/* The bits a resolved descriptor's sort keys are shifted right by: those
 * below its sort_key_bits (particle_sort_key.glsl). */
uint32_t particles_sort_key_shift(const plume_system_desc *desc);
/* The quad's longest edge as a multiple of its size (the stretch's upper
 * limit in PLUME_ORIENT_VELOCITY_STRETCHED, else 1). */
float particles_largest_stretch(const plume_system_desc *desc);

/* The parts of the look a draw program is built with: each a define of the
 * draw shaders (particle_appearance.glsl, tiled_common.glsl), so that a
 * program pays only for what its system uses, and the default look
 * (camera-facing, unlit, nothing emitted, premultiplied) compiles to the
 * shaders as they were before the look. A program built with more features
 * than a system uses draws it the same (unlit, camera-facing, no light
 * emitted, no additive part are values the features' code handles: u_lit,
 * u_orientation, the curves), so programs shared by systems can be built
 * for the union of their features. */
typedef enum particles_look_feature {
    LOOK_ORIENTED = 1u << 0, /* PLUME_LOOK_ORIENTED: an orientation other than camera-facing */
    LOOK_LIT = 1u << 1,      /* PLUME_LOOK_LIT: lit by the frame's light */
    LOOK_EMISSIVE = 1u << 2, /* PLUME_LOOK_EMISSIVE: emits light at some age */
    LOOK_ADDITIVE = 1u << 3, /* PLUME_LOOK_ADDITIVE: an additive part above 0 at some age */
    LOOK_SELF_SHADOW = 1u << 4 /* PLUME_LOOK_SELF_SHADOW: the light through the opacity map (self_shadow) */
} particles_look_feature;
enum { LOOK_DEFINES_SIZE = 160 }; /* enough for every feature's define */

uint32_t particles_look_features(const plume_system_desc *desc);
/* The features' defines ("#define PLUME_LOOK_LIT\n" ...; "" for none) into
 * out[LOOK_DEFINES_SIZE]. */
void particles_look_defines(uint32_t features, char out[LOOK_DEFINES_SIZE]);

#endif
