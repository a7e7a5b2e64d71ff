/* tests/sort/test_sort_fragment.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../sort/test_sort_fragment.c"
