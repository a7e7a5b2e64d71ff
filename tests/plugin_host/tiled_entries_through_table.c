/* tests/render/test_tiled_entries.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_tiled_entries.c"
