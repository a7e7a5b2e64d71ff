/* The demo's second effect (plume_demo --effect sparks): sparks from a
 * grinder that bounce off the ground and the scene and throw smaller sparks
 * where they land, to show the world (plume_world: collisions with the depth
 * buffer and a plane, GPU events). */
#ifndef DEMO_SPARKS_EFFECT_H
#define DEMO_SPARKS_EFFECT_H

#include <stdint.h>

#include "plume/plume_particles.h"

/* The sparks' system: about `capacity` particles at most, the grinder at
 * `position`. */
plume_system_desc sparks_desc(uint32_t capacity, uint32_t seed, const float position[3]);

#endif
