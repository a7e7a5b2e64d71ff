/* tests/support/sort_fixture.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../support/sort_fixture.c"
