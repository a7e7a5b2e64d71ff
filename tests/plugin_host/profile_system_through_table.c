/* tests/profile/test_profile_system.c, its plume calls through the plugin table. */
#define _POSIX_C_SOURCE 200809L /* as the file asks, before any system header */
#include "through_table.h"

#include "../profile/test_profile_system.c"
