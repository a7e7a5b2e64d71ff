/* tests/world/test_cpu_events.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../world/test_cpu_events.c"
