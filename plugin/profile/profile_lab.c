/* The lab's profile entries (lab/plume_lab.h). Lab builds only. */
#ifdef PLUME_LAB
#include "plume_lab.h"
#include "profiler.h"

_Static_assert((int)PLUME_LAB_PROFILER_RING_DEPTH == (int)PROFILER_DEFAULT_RING_DEPTH, "the lab's ring depth is the profiler's");

double plume_lab_median(double *values, uint32_t count) {
    return profiler_median(values, count);
}
#else
/* ISO C wants something in a translation unit. */
typedef int profile_lab_is_lab_only;
#endif
