/* Autumn leaves tumbling from the top of the pillar (--effect leaves). */
#ifndef DEMO_LEAVES_EFFECT_H
#define DEMO_LEAVES_EFFECT_H

#include "plume/plume_particles.h"

/* The leaves' system: `capacity` leaves at most, blown off the top of the
 * pillar (`top`: the centre of its top face) with the wind, fluttering
 * down and settling on the ground and the crates. Its meshes' arrays are
 * the effect's own (static), read by plume_system_create only. */
plume_system_desc leaves_desc(uint32_t capacity, uint32_t seed, const float top[3]);

#endif
