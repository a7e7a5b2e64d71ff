/* tests/particles/test_gl_state.c, its plume calls through the plugin table. */
#include "through_table.h"

#include "../particles/test_gl_state.c"
