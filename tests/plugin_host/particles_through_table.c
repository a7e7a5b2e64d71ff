/* tests/test_particles.c, its plume calls through the plugin table. */
#define _DEFAULT_SOURCE 1 /* as test_particles.c asks, before any system header */
#include "through_table.h"

#include "../test_particles.c"
