/* tests/render/test_host_texture.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_host_texture.c"
