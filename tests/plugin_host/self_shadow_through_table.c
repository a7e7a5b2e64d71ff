/* tests/render/test_self_shadow.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_self_shadow.c"
