/* tests/core/test_host_state.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../core/test_host_state.c"
