/*
 * plume_context.h — the owner of a host's plume objects, and the checked
 * handles that name them.
 *
 * Usage:
 *
 *     plume_context_desc desc = {0};           // zero: stderr logger, malloc
 *     desc.logger = (plume_logger){my_log, my_engine};
 *     plume_context *context;
 *     if (plume_context_create(&desc, &context) != PLUME_OK) { ... }
 *     plume_sorter sorter;                     // a handle: a value, copy it freely
 *     plume_sorter_create(context, &sorter_desc, &sorter);
 *     plume_sort(context, sorter, pairs_buffer, count);
 *     plume_sorter_destroy(context, sorter);
 *     plume_sort(context, sorter, pairs_buffer, count);  // PLUME_ERROR_INVALID_ARGUMENT, logged
 *     plume_context_destroy(context);
 *
 * Why a context. The module keeps no global state, yet a destroyed or foreign
 * handle must give an error rather than a crash. A pointer to a freed object
 * cannot be checked without reading freed memory, so objects are named by
 * value handles ({uint64_t id}: slot index, generation, context tag) resolved
 * in a table that the context owns and that outlives the objects: a destroyed
 * object's slot gets a new generation, so its old handle no longer matches,
 * and every check reads only the live table. The context is the one pointer
 * the host must keep valid (as with a VkInstance): using a context after
 * plume_context_destroy is undefined, everything named through it is checked.
 *
 * One context per host renderer is the intended use; it is plain CPU-side
 * bookkeeping and touches no GL itself. Two contexts never share anything, so
 * two hosts (or two GL contexts, each with its own plume context) in one
 * process do not interfere.
 *
 * Threading: a context and its objects are used by one thread at a time; an
 * object's functions that issue GL must run where the GL context current at
 * the object's creation is current. Different contexts may be used from
 * different threads at once.
 */
#ifndef PLUME_CONTEXT_H
#define PLUME_CONTEXT_H

#include "plume_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct plume_context plume_context;

typedef struct plume_context_desc {
    /* Receives the messages of the context and, unless their descriptors set
     * their own, of every object created in it. Default ({0}): errors and
     * warnings to stderr. */
    plume_logger logger;
    /* Memory of the context and, unless their descriptors set their own, of
     * its objects: all three functions or none. Default ({0}): malloc /
     * realloc / free. */
    plume_allocator allocator;
} plume_context_desc;

/* Creates an empty context; touches no GL. desc NULL: all defaults.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (out_context NULL, a partial
 * allocator), PLUME_ERROR_OUT_OF_MEMORY. On failure *out_context is NULL.
 * Threading: any thread. */
PLUME_API plume_result plume_context_create(const plume_context_desc *desc, plume_context **out_context);

/* Destroys every object still alive in the context, newest first (one
 * warning each: a host should destroy its objects itself), then the context. Their GL objects are
 * deleted in the GL context current now, so call it where the objects' GL
 * context is current. NULL is a no-op. The pointer is invalid afterwards.
 * Threading: as the context's objects. */
PLUME_API void plume_context_destroy(plume_context *context);

/* A GL object the module created. `type` is the identifier glObjectLabel
 * takes: GL_BUFFER 0x82E0, GL_SHADER 0x82E1, GL_PROGRAM 0x82E2, GL_QUERY
 * 0x82E3, GL_SAMPLER 0x82E6, GL_VERTEX_ARRAY 0x8074, GL_TEXTURE 0x1702,
 * GL_FRAMEBUFFER 0x8D40, GL_TRANSFORM_FEEDBACK 0x8E22 (since 1.2: a
 * fragment-path sorter's, where the GL has transform feedback objects). */
typedef struct plume_gl_object {
    uint32_t type;
    uint32_t name;
} plume_gl_object;

/* Debugging and leak checks: lists the GL objects owned by the objects alive
 * in the context. Writes at most `capacity` entries to `out` (which may be
 * NULL when capacity is 0) and sets *out_count to the number there are, so a
 * first call with capacity 0 sizes the array. Names belong to the GL context
 * (or share group) where each object was created.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (context or out_count NULL, out NULL
 * with a capacity).
 * Threading: as the context's objects; issues no GL call. */
PLUME_API plume_result plume_context_list_gl_objects(const plume_context *context, plume_gl_object *out,
                                                     uint32_t capacity, uint32_t *out_count);

#ifdef __cplusplus
}
#endif

#endif
