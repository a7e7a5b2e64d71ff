/* tests/render/test_flipbook_motion.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_flipbook_motion.c"
