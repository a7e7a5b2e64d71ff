/* The lab's sort settings (lab/plume_lab.h): kept on the context for the
 * sorters created from it (sort_settings_of). Lab builds only. */
#ifdef PLUME_LAB
#include "plume_lab.h"
#include "sort_backend.h"

_Static_assert((int)PLUME_LAB_RADIX_SCAN_DEFAULT == (int)SORT_RADIX_SCAN_DEFAULT &&
                   (int)PLUME_LAB_RADIX_SCAN_REDUCE_THEN_SCAN == (int)SORT_RADIX_SCAN_REDUCE_THEN_SCAN &&
                   (int)PLUME_LAB_RADIX_SCAN_ONESWEEP == (int)SORT_RADIX_SCAN_ONESWEEP,
               "the lab's radix ways are the sorter's");

plume_result plume_lab_set_sort_settings(plume_context *context, const plume_lab_sort_settings *settings) {
    if (!context) return PLUME_ERROR_INVALID_ARGUMENT;
    if (!settings) return plume_context_set_lab_settings(context, NULL, 0);
    if (settings->phase_clocks && !radix_has_phase_clocks()) {
        plume_log(plume_context_env(context), PLUME_LOG_ERROR,
                  "plume_lab_set_sort_settings: phase clocks need GL_ARB_shader_clock and GL_NV_shader_thread_group");
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    const sort_settings copy = {
        .render_pass_sort = settings->render_pass_sort,
        .radix_scan = (sort_radix_scan)settings->radix_scan,
        .wait_limit = settings->wait_limit,
        .radix_items = settings->radix_items,
        .no_single_tile = settings->no_single_tile,
        .single_threads = settings->single_threads,
        .shared_pairs = settings->shared_pairs,
        .histogram_items = settings->histogram_items,
        .tile_threads = settings->tile_threads,
        .phase_clocks = settings->phase_clocks,
    };
    return plume_context_set_lab_settings(context, &copy, sizeof copy);
}
#else
/* ISO C wants something in a translation unit. */
typedef int sort_lab_is_lab_only;
#endif
