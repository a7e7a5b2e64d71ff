/* tests/particles/test_batch_live_lists.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../particles/test_batch_live_lists.c"
