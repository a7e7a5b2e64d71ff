/* tests/render/test_look.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_look.c"
