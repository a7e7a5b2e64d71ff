/* tests/render/test_trails_tiled.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_trails_tiled.c"
