/* tests/test_sort.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../test_sort.c"
