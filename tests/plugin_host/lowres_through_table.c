/* tests/test_lowres.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../test_lowres.c"
