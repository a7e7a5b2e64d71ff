/* tests/particles/test_prewarm_bounds.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../particles/test_prewarm_bounds.c"
