/* tests/render/test_fill_probe.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_fill_probe.c"
