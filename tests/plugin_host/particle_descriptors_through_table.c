/* tests/particles/test_descriptors.c, its plume calls through the plugin table. */
#define _DEFAULT_SOURCE 1 /* as the file asks, before any system header */
#include "through_table.h"

#include "../particles/test_descriptors.c"
