/* The context: environment defaults and the slot table that turns handle ids
 * into objects (plume_context.h says why handles are values, not pointers).
 *
 * An id packs three fields, so a check needs nothing but the context's own
 * table, never memory an object had:
 *   bits  0..23  slot index
 *   bits 24..47  generation: the slot's count of objects so far (1 for the
 *                first); a destroyed object's slot keeps or passes its
 *                generation, so the old id never matches a live object again
 *   bits 48..63  the context's tag, from its address and the creation time:
 *                an id of another context (or of a destroyed context whose
 *                memory a new one reuses) is refused by the tag, not by luck
 *                of the slot's contents. Tags of two contexts collide with
 *                probability 2^-16; even then the id is only checked as one of
 *                this context, which is safe.
 * A slot whose generation is exhausted is retired rather than reused. */
#include <inttypes.h>
#include <string.h>

#include "platform.h"
#include "plume_internal.h"

enum {
    INDEX_BITS = 24,
    GENERATION_BITS = 24,
    TAG_SHIFT = INDEX_BITS + GENERATION_BITS,
    MIN_SLOTS = 16
};
#define INDEX_MASK ((1u << INDEX_BITS) - 1u)
#define MAX_GENERATION ((1u << GENERATION_BITS) - 1u)
#define MAX_SLOTS (1u << INDEX_BITS)
#define NO_SLOT UINT32_MAX

typedef struct handle_slot {
    const plume_object_class *object_class; /* NULL: no live object */
    void *object;
    uint32_t generation; /* of the live object, or of the last one */
    uint32_t next_free;
    uint64_t created;    /* the context's creation count when it was filed */
} handle_slot;

struct plume_context {
    plume_env env;
    uint16_t tag;
    handle_slot *slots;
    uint32_t slot_count;    /* slots ever used */
    uint32_t slot_capacity; /* slots allocated */
    uint32_t free_head;     /* a stack of freed slots, NO_SLOT when empty */
    uint64_t created;       /* objects filed so far */
    const plume_context_attachment_class *attachment_kinds[PLUME_CONTEXT_MAX_ATTACHMENTS];
    void *attachments[PLUME_CONTEXT_MAX_ATTACHMENTS];
    plume_program_cache *programs; /* every object's programs (env.programs) */
#ifdef PLUME_LAB
    void *lab_settings; /* plume_context_set_lab_settings's copy, or NULL */
#endif
};

static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint16_t make_tag(const plume_context *context) {
    uint64_t mixed = mix64((uint64_t)(uintptr_t)context ^ mix64(plume_platform_ticks()));
    uint16_t tag = (uint16_t)(mixed >> 48);
    return tag ? tag : 1; /* a zero tag would let the zero id through the first check */
}

const plume_env *plume_context_env(const plume_context *context) {
    return context ? &context->env : plume_default_env();
}

plume_program_cache *plume_context_programs(const plume_context *context) {
    return context ? context->programs : NULL;
}

plume_result plume_context_create(const plume_context_desc *desc, plume_context **out_context) {
    if (out_context) *out_context = NULL;
    plume_env env;
    plume_result result = plume_env_init(&env, desc ? &desc->logger : NULL, desc ? &desc->allocator : NULL);
    if (result != PLUME_OK) return result;
    if (!out_context) {
        plume_log(&env, PLUME_LOG_ERROR, "plume_context_create: out_context must not be NULL");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_context *context = plume_alloc(&env, sizeof *context);
    if (!context) return PLUME_ERROR_OUT_OF_MEMORY;
    context->programs = plume_program_cache_create(&env);
    if (!context->programs) {
        plume_free(&env, context);
        return PLUME_ERROR_OUT_OF_MEMORY;
    }
    context->env = env;
    context->env.programs = context->programs;
    context->tag = make_tag(context);
    context->free_head = NO_SLOT;
    *out_context = context;
    return PLUME_OK;
}

/* The live object filed last, or NULL. */
static handle_slot *newest_live_slot(plume_context *context) {
    handle_slot *newest = NULL;
    for (uint32_t i = 0; i < context->slot_count; ++i) {
        handle_slot *slot = &context->slots[i];
        if (slot->object_class && (!newest || slot->created > newest->created)) newest = slot;
    }
    return newest;
}

static bool has_attachments(const plume_context *context) {
    for (int i = 0; i < PLUME_CONTEXT_MAX_ATTACHMENTS; ++i)
        if (context->attachment_kinds[i]) return true;
    return false;
}

void plume_context_destroy(plume_context *context) {
    if (!context) return;
    /* Its objects' GL objects can be deleted only in their GL context: the
     * whole destroy waits for the host to call it there. */
    if ((newest_live_slot(context) || has_attachments(context) || !plume_program_cache_is_empty(context->programs)) &&
        plume_check_gl_context(&context->env, "plume_context_destroy") != PLUME_OK)
        return;
    /* The shared state first: it may hold objects filed after the objects
     * that use it, which the loop below would destroy before it. */
    for (int i = 0; i < PLUME_CONTEXT_MAX_ATTACHMENTS; ++i)
        if (context->attachment_kinds[i]) plume_context_detach(context, context->attachment_kinds[i]);
    /* Newest first: an object that made others through the context (a
     * particle system its sorter) is destroyed before them and frees them
     * itself, through their handles. */
    for (handle_slot *slot; (slot = newest_live_slot(context)) != NULL;) {
        uint32_t index = (uint32_t)(slot - context->slots);
        uint64_t id = (uint64_t)context->tag << TAG_SHIFT | (uint64_t)slot->generation << INDEX_BITS | index;
        plume_log(&context->env, PLUME_LOG_WARNING,
                  "plume_context_destroy: a %s (handle 0x%016" PRIx64 ") is still alive; destroying it",
                  slot->object_class->name, id);
        plume_context_destroy_object(context, id, slot->object_class, "plume_context_destroy");
    }
    plume_program_cache_destroy(context->programs); /* what warm-ups pinned */
    plume_env env = context->env;
#ifdef PLUME_LAB
    plume_free(&env, context->lab_settings);
#endif
    plume_free(&env, context->slots);
    plume_free(&env, context);
}

const void *plume_context_lab_settings(const plume_context *context) {
#ifdef PLUME_LAB
    return context ? context->lab_settings : NULL;
#else
    (void)context;
    return NULL;
#endif
}

#ifdef PLUME_LAB
plume_result plume_context_set_lab_settings(plume_context *context, const void *settings, size_t bytes) {
    void *copy = settings ? plume_alloc(&context->env, bytes) : NULL;
    if (settings && !copy) return PLUME_ERROR_OUT_OF_MEMORY;
    if (copy) memcpy(copy, settings, bytes);
    plume_free(&context->env, context->lab_settings);
    context->lab_settings = copy;
    return PLUME_OK;
}

plume_env *plume_context_lab_env(plume_context *context) { return &context->env; }
#endif

plume_result plume_context_insert(plume_context *context, const plume_object_class *object_class, void *object,
                                  uint64_t *out_id) {
    uint32_t index = context->free_head;
    if (index != NO_SLOT) {
        context->free_head = context->slots[index].next_free;
        context->slots[index].generation += 1;
    } else {
        if (context->slot_count == MAX_SLOTS) {
            plume_log(&context->env, PLUME_LOG_ERROR, "plume context: all %u object slots are in use or retired",
                      MAX_SLOTS);
            return PLUME_ERROR_CAPACITY;
        }
        if (context->slot_count == context->slot_capacity) {
            uint32_t grown = context->slot_capacity ? context->slot_capacity * 2 : MIN_SLOTS;
            if (grown > MAX_SLOTS) grown = MAX_SLOTS;
            handle_slot *slots = plume_realloc(&context->env, context->slots, sizeof(handle_slot) * grown);
            if (!slots) return PLUME_ERROR_OUT_OF_MEMORY;
            context->slots = slots;
            context->slot_capacity = grown;
        }
        index = context->slot_count++;
        context->slots[index].generation = 1;
    }
    handle_slot *slot = &context->slots[index];
    slot->object_class = object_class;
    slot->object = object;
    slot->next_free = NO_SLOT;
    slot->created = context->created++;
    *out_id = (uint64_t)context->tag << TAG_SHIFT | (uint64_t)slot->generation << INDEX_BITS | index;
    return PLUME_OK;
}

/* The slot `id` names, or NULL with the reason in *why. */
static handle_slot *find_slot(const plume_context *context, uint64_t id, const plume_object_class *object_class,
                              const char **why) {
    uint32_t index = (uint32_t)(id & INDEX_MASK);
    uint32_t generation = (uint32_t)(id >> INDEX_BITS) & MAX_GENERATION;
    uint16_t tag = (uint16_t)(id >> TAG_SHIFT);
    if (id == 0) {
        *why = "is the null handle {0}";
        return NULL;
    }
    if (tag != context->tag) {
        *why = "belongs to another plume context, or is no handle at all";
        return NULL;
    }
    handle_slot *slot = index < context->slot_count ? &context->slots[index] : NULL;
    if (!slot || generation == 0 || generation > slot->generation) {
        *why = "was never handed out by this context";
        return NULL;
    }
    if (generation < slot->generation || !slot->object_class) {
        *why = "names an object that was destroyed";
        return NULL;
    }
    if (slot->object_class != object_class) {
        *why = "names an object of another kind";
        return NULL;
    }
    return slot;
}

static handle_slot *lookup_slot(const plume_context *context, uint64_t id, const plume_object_class *object_class,
                                const char *caller) {
    if (!context) {
        plume_log(plume_default_env(), PLUME_LOG_ERROR, "%s: the context is NULL", caller);
        return NULL;
    }
    const char *why = NULL;
    handle_slot *slot = find_slot(context, id, object_class, &why);
    if (!slot)
        plume_log(&context->env, PLUME_LOG_ERROR, "%s: %s handle 0x%016" PRIx64 " %s", caller, object_class->name, id,
                  why);
    return slot;
}

void *plume_context_lookup(const plume_context *context, uint64_t id, const plume_object_class *object_class,
                           const char *caller) {
    handle_slot *slot = lookup_slot(context, id, object_class, caller);
    return slot ? slot->object : NULL;
}

void *plume_context_find(const plume_context *context, uint64_t id, const plume_object_class *object_class) {
    const char *why = NULL;
    handle_slot *slot = context ? find_slot(context, id, object_class, &why) : NULL;
    return slot ? slot->object : NULL;
}

void *plume_context_remove(plume_context *context, uint64_t id, const plume_object_class *object_class,
                           const char *caller) {
    handle_slot *slot = lookup_slot(context, id, object_class, caller);
    if (!slot) return NULL;
    void *object = slot->object;
    slot->object_class = NULL;
    slot->object = NULL;
    if (slot->generation < MAX_GENERATION) { /* else retired: its next id would repeat an old one */
        slot->next_free = context->free_head;
        context->free_head = (uint32_t)(slot - context->slots);
    }
    return object;
}

plume_result plume_object_env(plume_context *context, const char *caller, bool desc_given, bool out_given,
                              const plume_logger *logger, const plume_allocator *allocator, plume_env *env) {
    if (!context) {
        plume_log(plume_default_env(), PLUME_LOG_ERROR, "%s: the context is NULL", caller);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_result result = plume_env_init_child(env, &context->env, logger, allocator);
    if (result != PLUME_OK) return result;
    if (!desc_given || !out_given) {
        plume_log(env, PLUME_LOG_ERROR, "%s: the descriptor and the out handle must not be NULL", caller);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return plume_check_gl_context(env, caller);
}

plume_result plume_context_file_or_free(plume_context *context, const plume_object_class *object_class, void *object,
                                        plume_result result, uint64_t *out_id) {
    uint64_t id = 0;
    if (result == PLUME_OK) result = plume_context_insert(context, object_class, object, &id);
    if (result != PLUME_OK) {
        object_class->destroy(object);
        return result;
    }
    *out_id = id;
    return PLUME_OK;
}

plume_result plume_context_destroy_object(plume_context *context, uint64_t id, const plume_object_class *object_class,
                                          const char *caller) {
    if (id == 0) return PLUME_OK;
    if (!plume_context_lookup(context, id, object_class, caller)) return PLUME_ERROR_INVALID_ARGUMENT;
    plume_result result = plume_check_gl_context(&context->env, caller);
    if (result != PLUME_OK) return result;
    void *object = plume_context_remove(context, id, object_class, caller);
    object_class->destroy(object);
    return PLUME_OK;
}

plume_result plume_context_list_gl_objects(const plume_context *context, plume_gl_object *out, uint32_t capacity,
                                           uint32_t *out_count) {
    if (out_count) *out_count = 0;
    if (!context || !out_count || (!out && capacity > 0)) {
        plume_log(plume_context_env(context), PLUME_LOG_ERROR,
                  "plume_context_list_gl_objects: context and out_count must not be NULL, nor out with a capacity");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    /* Programs belong to the cache, which lists each once; the objects'
     * own lists name the programs they hold, and are filtered. */
    uint32_t total = 0, scratch_capacity = 0;
    plume_gl_object *scratch = NULL;
    for (uint32_t i = 0; i < context->slot_count; ++i) {
        const handle_slot *slot = &context->slots[i];
        if (!slot->object_class || !slot->object_class->list_gl_objects) continue;
        uint32_t count = slot->object_class->list_gl_objects(slot->object, NULL, 0);
        if (count > scratch_capacity) {
            plume_gl_object *grown = plume_realloc(&context->env, scratch, sizeof *grown * count);
            if (!grown) {
                plume_free(&context->env, scratch);
                return PLUME_ERROR_OUT_OF_MEMORY;
            }
            scratch = grown;
            scratch_capacity = count;
        }
        count = slot->object_class->list_gl_objects(slot->object, scratch, count);
        for (uint32_t k = 0; k < count; ++k) {
            if (scratch[k].type == GL_PROGRAM) continue;
            if (total < capacity) out[total] = scratch[k];
            ++total;
        }
    }
    for (int i = 0; i < PLUME_CONTEXT_MAX_ATTACHMENTS; ++i) {
        const plume_context_attachment_class *kind = context->attachment_kinds[i];
        if (!kind || !kind->list_gl_objects) continue;
        uint32_t room = total < capacity ? capacity - total : 0;
        total += kind->list_gl_objects(context->attachments[i], room ? out + total : NULL, room);
    }
    plume_free(&context->env, scratch);
    uint32_t room = total < capacity ? capacity - total : 0;
    total += plume_program_cache_list(context->programs, room ? out + total : NULL, room);
    *out_count = total;
    return PLUME_OK;
}

uint32_t plume_context_list_ids(const plume_context *context, const plume_object_class *object_class, uint64_t *out,
                                uint32_t capacity) {
    uint32_t count = 0;
    for (uint32_t i = 0; context && i < context->slot_count; ++i) {
        const handle_slot *slot = &context->slots[i];
        if (slot->object_class != object_class) continue;
        if (count < capacity)
            out[count] = (uint64_t)context->tag << TAG_SHIFT | (uint64_t)slot->generation << INDEX_BITS | i;
        ++count;
    }
    return count;
}

uint32_t plume_context_list_object_gl_objects(const plume_context *context, uint64_t id, plume_gl_object *out,
                                              uint32_t capacity) {
    uint32_t index = (uint32_t)(id & INDEX_MASK);
    if (!context || id == 0 || index >= context->slot_count) return 0;
    const handle_slot *slot = &context->slots[index];
    uint64_t live = (uint64_t)context->tag << TAG_SHIFT | (uint64_t)slot->generation << INDEX_BITS | index;
    if (!slot->object_class || live != id || !slot->object_class->list_gl_objects) return 0;
    return slot->object_class->list_gl_objects(slot->object, out, capacity);
}

/* ---- Attachments ------------------------------------------------------------ */

static int attachment_slot(const plume_context *context, const plume_context_attachment_class *kind) {
    for (int i = 0; i < PLUME_CONTEXT_MAX_ATTACHMENTS; ++i)
        if (context->attachment_kinds[i] == kind) return i;
    return -1;
}

void *plume_context_attachment(const plume_context *context, const plume_context_attachment_class *kind) {
    int i = context ? attachment_slot(context, kind) : -1;
    return i < 0 ? NULL : context->attachments[i];
}

void *plume_context_attach(plume_context *context, const plume_context_attachment_class *kind, size_t size) {
    void *made = plume_context_attachment(context, kind);
    if (made) return made;
    int free_slot = attachment_slot(context, NULL);
    if (free_slot < 0) {
        plume_log(&context->env, PLUME_LOG_ERROR, "plume context: no attachment slot left for the %s", kind->name);
        return NULL;
    }
    made = plume_alloc(&context->env, size);
    if (!made) return NULL;
    context->attachment_kinds[free_slot] = kind;
    context->attachments[free_slot] = made;
    return made;
}

void plume_context_detach(plume_context *context, const plume_context_attachment_class *kind) {
    int i = context ? attachment_slot(context, kind) : -1;
    if (i < 0 || !kind) return;
    void *state = context->attachments[i];
    /* Out of the table first: what the release destroys may look it up. */
    context->attachment_kinds[i] = NULL;
    context->attachments[i] = NULL;
    kind->release(state, context);
    plume_free(&context->env, state);
}
