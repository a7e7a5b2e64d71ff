/* The lab's particle entries (lab/plume_lab.h). Lab builds only. */
#ifdef PLUME_LAB
#include "particles_internal.h"
#include "plume_lab.h"

plume_result plume_lab_system_set_bounds(plume_context *context, plume_system handle, bool enabled) {
    system_state *system = particles_find_system(context, handle, "plume_lab_system_set_bounds");
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    system->bounds.lab_disabled = !enabled;
    return PLUME_OK;
}
#else
/* ISO C wants something in a translation unit. */
typedef int particles_lab_is_lab_only;
#endif
