/* tests/world/test_collisions.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../world/test_collisions.c"
