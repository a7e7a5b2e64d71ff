/* tests/core/test_no_context.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../core/test_no_context.c"
