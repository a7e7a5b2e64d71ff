/* tests/render/test_batch_profile.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../render/test_batch_profile.c"
