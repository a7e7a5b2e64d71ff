/* tests/support/plume_fixture.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../support/plume_fixture.c"
