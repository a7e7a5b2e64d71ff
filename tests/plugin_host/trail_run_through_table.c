/* tests/support/trail_run.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../support/trail_run.c"
