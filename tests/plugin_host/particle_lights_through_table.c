/* tests/render/test_particle_lights.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_particle_lights.c"
