/* tests/render/test_draw_group_tiled.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_draw_group_tiled.c"
