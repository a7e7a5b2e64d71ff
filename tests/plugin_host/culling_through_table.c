/* tests/render/test_culling.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_culling.c"
