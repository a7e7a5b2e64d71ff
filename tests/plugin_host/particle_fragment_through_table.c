/* tests/particles/test_fragment_path.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../particles/test_fragment_path.c"
