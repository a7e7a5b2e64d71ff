/* tests/render/test_meshes.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_meshes.c"
