/* tests/render/test_batch_draw.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_batch_draw.c"
