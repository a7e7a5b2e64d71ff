/* tests/core/test_threads.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../core/test_threads.c"
