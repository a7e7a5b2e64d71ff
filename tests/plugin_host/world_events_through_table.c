/* tests/world/test_events.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../world/test_events.c"
