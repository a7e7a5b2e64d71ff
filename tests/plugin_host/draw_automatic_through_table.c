/* tests/render/test_draw_automatic.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_draw_automatic.c"
