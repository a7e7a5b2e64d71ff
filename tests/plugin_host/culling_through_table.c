/* tests/test_culling.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../test_culling.c"
