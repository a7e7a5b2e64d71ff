/* render_fixture.c through the plugin table. */
#include "through_table.h"

#include "../support/render_fixture.c"
