/* tests/world/test_world_descriptors.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../world/test_world_descriptors.c"
