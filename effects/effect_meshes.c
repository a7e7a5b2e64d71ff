/* An effect's meshes resolved (plume_effect.h, since 1.3): each source an
 * OBJ file loaded, or a name looked up among the host's. */
#include <stdio.h>
#include <string.h>

#include "plume/plume_effect.h"

static plume_result resolve_failed(plume_result result, plume_system_desc *desc, plume_effect_meshes *out) {
    plume_effect_meshes_free(out);
    memset(desc, 0, sizeof *desc);
    return result;
}

plume_result plume_effect_resolve_meshes(const plume_effect *effect, const plume_effect_named_mesh *named,
                                         uint32_t named_count, plume_system_desc *desc, plume_effect_meshes *out,
                                         plume_effect_error *error) {
    if (error) memset(error, 0, sizeof *error);
    if (out) memset(out, 0, sizeof *out);
    if (!effect || !desc || !out) {
        if (error) snprintf(error->message, sizeof error->message, "plume_effect_resolve_meshes: effect, desc and out "
                                                                   "must not be NULL");
        if (desc) memset(desc, 0, sizeof *desc);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    *desc = effect->desc; /* its paths point into `effect`, which the caller keeps until the create */
    for (uint32_t i = 0; i < desc->meshes.count && i < PLUME_MAX_MESHES; ++i) {
        const char *source = effect->mesh_sources[i];
        if (!effect->mesh_is_name[i]) {
            plume_result result = plume_effect_load_obj(source, &out->loaded[i], error);
            if (result != PLUME_OK) return resolve_failed(result, desc, out);
            desc->meshes.meshes[i] = out->loaded[i].desc;
            continue;
        }
        uint32_t k = 0;
        while (k < named_count && !(named && named[k].name && strcmp(named[k].name, source) == 0)) ++k;
        if (k == named_count) {
            if (error) {
                snprintf(error->field, sizeof error->field, "meshes.sources[%u].name", i);
                snprintf(error->message, sizeof error->message, "meshes.sources[%u].name: no mesh '%.200s' is registered",
                         i, source);
            }
            return resolve_failed(PLUME_ERROR_INVALID_ARGUMENT, desc, out);
        }
        desc->meshes.meshes[i] = named[k].mesh;
    }
    return PLUME_OK;
}

void plume_effect_meshes_free(plume_effect_meshes *meshes) {
    if (!meshes) return;
    for (int i = 0; i < PLUME_MAX_MESHES; ++i) plume_effect_mesh_free(&meshes->loaded[i]);
}
