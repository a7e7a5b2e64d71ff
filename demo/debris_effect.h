/* The demo's third effect (plume_demo --effect debris): an explosion that
 * throws lit rock debris (mesh particles, plume_mesh.h) which tumbles,
 * bounces off the ground and the scene, rolls and settles, every few
 * seconds. */
#ifndef DEMO_DEBRIS_EFFECT_H
#define DEMO_DEBRIS_EFFECT_H

#include <stdint.h>

#include "plume/plume_particles.h"

/* The debris's system: about `capacity` rocks at most (bursts of a quarter
 * of it), the blast at `position` on the ground. Its meshes' arrays are the
 * effect's own (static), read by plume_system_create only. */
plume_system_desc debris_desc(uint32_t capacity, uint32_t seed, const float position[3]);

#endif
