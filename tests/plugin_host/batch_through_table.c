/* tests/particles/test_batch.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../particles/test_batch.c"
