/* The lab's render entries (lab/plume_lab.h): thin wrappers over render/'s
 * internal knobs, so that the benchmarks include no plugin/ header. Lab
 * builds only. */
#ifdef PLUME_LAB
#include "draw_group_internal.h"
#include "plume_lab.h"
#include "tiled.h"

_Static_assert(PLUME_LAB_TILED_UNCHUNKED == TILED_UNCHUNKED, "the lab's unchunked composite is the tiled path's");

plume_result plume_lab_tiled_configure(plume_context *context, plume_system system, uint32_t tile_size,
                                       uint32_t budget, bool fixed_budget, plume_sort_algorithm entry_sort,
                                       uint32_t chunk_entries) {
    return tiled_configure(context, system, tile_size, budget, fixed_budget, entry_sort, chunk_entries);
}

plume_result plume_lab_draw_group_set_stage_hook(plume_context *context, plume_draw_group group,
                                                 plume_lab_stage_hook hook, void *user) {
    group_state *g = plume_context_lookup(context, group.id, &draw_group_class, "plume_lab_draw_group_set_stage_hook");
    if (!g) return PLUME_ERROR_INVALID_ARGUMENT;
    g->stage_hook = hook;
    g->stage_hook_user = user;
    return PLUME_OK;
}
#else
/* ISO C wants something in a translation unit. */
typedef int render_lab_is_lab_only;
#endif
