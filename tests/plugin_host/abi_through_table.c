/* tests/core/test_abi.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../core/test_abi.c"
