/* tests/test_host_state.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../test_host_state.c"
