/* tests/support/particle_fixture.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../support/particle_fixture.c"
