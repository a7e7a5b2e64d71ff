/* The transform-feedback backend of a fragment-path sorter
 * (feedback_sort.c, SORT_FEEDBACK_BACKEND): a merge sort as vertex passes
 * whose outputs transform feedback writes into buffers, with the rasterizer
 * discarding everything (GL 3.3 core: buffer textures, transform feedback, a
 * geometry shader for indirect counts). What its two files share besides
 * feedback_sort_internal.h's layout. Not part of the API. */
#ifndef PLUME_SORT_FEEDBACK_SORT_H
#define PLUME_SORT_FEEDBACK_SORT_H

#include "sort_backend.h"
#include "sort_fragment_path.h"

typedef struct feedback_sort feedback_sort;

enum {
    /* Position bits a vertex's group spans at most: 2^6 pairs are 128 output
     * components, where GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS and
     * GL_MAX_VERTEX_OUTPUT_COMPONENTS allow them (NVIDIA); by default the
     * tuning's (sort_tuning.c). */
    FEEDBACK_SORT_MAX_GROUP_BITS = 6
};

/* The GL state the sorts change: prepare_state saves these groups, makes
 * the raster state neutral, discards rasterization and binds the sorter's
 * own transform feedback object (where the GL has them). */
#define FEEDBACK_SORT_SCOPE_GROUPS                                                                              \
    (PLUME_SCOPE_TEXTURES | PLUME_SCOPE_DRAW | PLUME_SCOPE_PIXEL_PACK | PLUME_SCOPE_PIXEL_UNPACK |              \
     PLUME_SCOPE_TEXTURE_BUFFERS | PLUME_SCOPE_COPY_BUFFERS | PLUME_SCOPE_TRANSFORM_FEEDBACK)
_Static_assert((FEEDBACK_SORT_SCOPE_GROUPS | FRAGMENT_SORT_SCOPE_GROUPS) == SORT_FRAGMENT_PATH_SCOPE_GROUPS,
               "the fragment path's scope groups cover the transform-feedback sort's");

/* feedback_sort_resources.c: the table's create, destroy and list. */
plume_result feedback_sort_create(const plume_env *env, const sort_backend_desc *desc, void **out);
void feedback_sort_destroy(void *backend);
uint32_t feedback_sort_list_gl_objects(const void *backend, plume_gl_object *out, uint32_t capacity);

#endif
