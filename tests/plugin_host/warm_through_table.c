/* tests/render/test_warm.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_warm.c"
