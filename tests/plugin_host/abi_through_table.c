/* tests/test_abi.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../test_abi.c"
