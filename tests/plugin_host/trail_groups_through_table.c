/* tests/render/test_trail_groups.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_trail_groups.c"
