/* The context's pool of particle storage (particles_internal.h,
 * "particle_pool.c"): pages of GL buffer from which every compute-path
 * system takes one block for its capacity-sized buffers (motion, traits,
 * state and dead list, outcome per slot, counts per workgroup), bound as
 * ranges. A system of an already-built look then makes none of these
 * buffers: creating and destroying systems in a game's churn reuses blocks.
 *
 * Each page keeps its free spans sorted by offset, merged with their
 * neighbours when a block comes back; a block is taken first-fit. Every
 * offset is a multiple of GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT (asked
 * once, when the pool is made), so that every range of a block binds. A new
 * page is as large as the pages so far (between POOL_FIRST_PAGE and
 * POOL_LARGEST_PAGE, and at least the block), so pages grow geometrically
 * and their slack stays a fraction of what the systems hold. A page that
 * empties is kept for the next system while it is the only empty one; the
 * pool goes with its last block (a context without systems holds nothing).
 * The pool also holds the context's empty event buffer, which every system
 * without one of its own binds (world.c). */
#include <string.h>

#include "particles_internal.h"

enum {
    POOL_FIRST_PAGE = 256 * 1024,
    /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE's least: a batch's table binds a
     * page whole (update_table.c) */
    POOL_LARGEST_PAGE = 16 * 1024 * 1024,
    /* Every base a table gives in its units (vec4s, uvec2s, words) is whole */
    POOL_LEAST_ALIGNMENT = 64
};

typedef struct pool_span {
    GLintptr offset;
    GLsizeiptr size;
} pool_span;

typedef struct pool_page {
    GLuint buffer;
    GLsizeiptr size;
    pool_span *free;    /* sorted by offset, none adjacent */
    uint32_t free_count, free_room;
    uint32_t blocks;    /* blocks taken and not given back */
} pool_page;

typedef struct particle_pool {
    pool_page *pages;
    uint32_t page_count, page_room;
    GLsizeiptr alignment;
    uint32_t blocks;          /* over every page: the pool goes with the last */
    uint64_t buffers_made;    /* pages made since the pool was (the lab's count) */
    update_table *table;      /* a batch's passes over tables of systems, their scratch (update_table.c) */
    GLuint empty_events;      /* an event header of zeros: particle_pool_empty_events */
} particle_pool;

static uint32_t list_gl_objects(const void *state, plume_gl_object *out, uint32_t capacity) {
    const particle_pool *pool = state;
    uint32_t n = 0;
    for (uint32_t i = 0; i < pool->page_count; ++i, ++n)
        if (n < capacity && out) out[n] = (plume_gl_object){GL_BUFFER, pool->pages[i].buffer};
    if (pool->empty_events && n++ < capacity && out) out[n - 1] = (plume_gl_object){GL_BUFFER, pool->empty_events};
    return n + update_table_list(pool->table, n < capacity && out ? out + n : NULL, n < capacity ? capacity - n : 0);
}

static void release(void *state, plume_context *context) {
    particle_pool *pool = state;
    const plume_env *env = plume_context_env(context);
    for (uint32_t i = 0; i < pool->page_count; ++i) {
        glDeleteBuffers(1, &pool->pages[i].buffer);
        plume_free(env, pool->pages[i].free);
    }
    plume_free(env, pool->pages);
    glDeleteBuffers(1, &pool->empty_events);
    update_table_free(env, pool->table);
}

static const plume_context_attachment_class PARTICLE_POOL = {"particle storage pool", release, list_gl_objects};

static GLsizeiptr align_up(GLsizeiptr bytes, GLsizeiptr alignment) {
    return (bytes + alignment - 1) / alignment * alignment;
}

/* Room for one more span in `page` (false: out of memory). */
static bool reserve_span(const plume_env *env, pool_page *page) {
    if (page->free_count < page->free_room) return true;
    uint32_t room = page->free_room ? 2 * page->free_room : 8;
    pool_span *grown = plume_realloc(env, page->free, sizeof *grown * room);
    if (!grown) return false;
    page->free = grown;
    page->free_room = room;
    return true;
}

/* A new page of at least `bytes`, all free; NULL: out of memory (logged). */
static pool_page *add_page(const plume_env *env, particle_pool *pool, GLsizeiptr bytes) {
    if (pool->page_count == pool->page_room) {
        uint32_t room = pool->page_room ? 2 * pool->page_room : 4;
        pool_page *grown = plume_realloc(env, pool->pages, sizeof *grown * room);
        if (!grown) return NULL;
        pool->pages = grown;
        pool->page_room = room;
    }
    GLsizeiptr held = 0;
    for (uint32_t i = 0; i < pool->page_count; ++i) held += pool->pages[i].size;
    GLsizeiptr size = held < POOL_FIRST_PAGE ? POOL_FIRST_PAGE : held > POOL_LARGEST_PAGE ? POOL_LARGEST_PAGE : held;
    if (size < bytes) size = align_up(bytes, pool->alignment);
    pool_page *page = &pool->pages[pool->page_count];
    *page = (pool_page){0};
    if (!reserve_span(env, page)) return NULL;
    page->buffer = plume_make_gpu_buffer(env, size, "plume particles: storage pool page");
    page->size = size;
    page->free[page->free_count++] = (pool_span){0, size};
    ++pool->page_count;
    ++pool->buffers_made;
    return page;
}

/* First fit in `page`: the block's offset, or -1. */
static GLintptr take_from(pool_page *page, GLsizeiptr bytes) {
    for (uint32_t i = 0; i < page->free_count; ++i) {
        pool_span *span = &page->free[i];
        if (span->size < bytes) continue;
        GLintptr offset = span->offset;
        span->offset += bytes;
        span->size -= bytes;
        if (span->size == 0) {
            memmove(span, span + 1, sizeof *span * (page->free_count - i - 1));
            --page->free_count;
        }
        ++page->blocks;
        return offset;
    }
    return -1;
}

plume_result particle_pool_take(plume_context *context, const plume_env *caller_env, const GLsizeiptr *sizes,
                                uint32_t count, particle_range *out, particle_range *block) {
    /* The pages and their spans belong to the context: its allocator, its
     * lab settings; the caller's logger says what went wrong. */
    const plume_env *env = plume_context_env(context);
    particle_pool *pool = plume_context_attach(context, &PARTICLE_POOL, sizeof(particle_pool));
    if (!pool) return PLUME_ERROR_OUT_OF_MEMORY;
    if (pool->alignment == 0) {
        GLint alignment = 0;
        glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
        pool->alignment = alignment > POOL_LEAST_ALIGNMENT ? alignment : POOL_LEAST_ALIGNMENT;
        static const GLuint NO_EVENTS[PLUME_EVENT_HEADER_WORDS] = {0};
        pool->empty_events = plume_make_buffer(env, sizeof NO_EVENTS, NO_EVENTS, GL_STATIC_DRAW,
                                               "plume particles: no events");
    }
    GLsizeiptr bytes = 0;
    for (uint32_t i = 0; i < count; ++i) bytes += align_up(sizes[i], pool->alignment);
    GLintptr offset = -1;
    pool_page *page = NULL;
    for (uint32_t i = 0; i < pool->page_count && offset < 0; ++i) offset = take_from(page = &pool->pages[i], bytes);
    if (offset < 0) {
        if (!(page = add_page(env, pool, bytes))) {
            plume_log(caller_env, PLUME_LOG_ERROR, "plume_system_create: out of memory for the particle pool's pages");
            if (pool->blocks == 0) plume_context_detach(context, &PARTICLE_POOL);
            return PLUME_ERROR_OUT_OF_MEMORY;
        }
        offset = take_from(page, bytes);
    }
    ++pool->blocks;
    *block = (particle_range){page->buffer, offset, bytes};
    for (uint32_t i = 0; i < count; ++i) {
        out[i] = (particle_range){page->buffer, offset, sizes[i]};
        offset += align_up(sizes[i], pool->alignment);
    }
    /* A block a destroyed system held keeps its particles: the lab's poison
     * shows a pass reading what it never wrote, as in a new buffer. */
    plume_poison_new_range(env, block->buffer, block->offset, block->size);
    return plume_drain_gl_errors(caller_env, "plume_system_create (particle pool)");
}

/* Gives `span` back to `page`, merged with the free spans it touches. */
static bool give_to(const plume_env *env, pool_page *page, pool_span span) {
    uint32_t at = 0;
    while (at < page->free_count && page->free[at].offset < span.offset) ++at;
    bool joins_before = at > 0 && page->free[at - 1].offset + page->free[at - 1].size == span.offset;
    bool joins_after = at < page->free_count && span.offset + span.size == page->free[at].offset;
    if (joins_before && joins_after) {
        page->free[at - 1].size += span.size + page->free[at].size;
        memmove(&page->free[at], &page->free[at + 1], sizeof span * (page->free_count - at - 1));
        --page->free_count;
    } else if (joins_before) {
        page->free[at - 1].size += span.size;
    } else if (joins_after) {
        page->free[at].offset = span.offset;
        page->free[at].size += span.size;
    } else {
        if (!reserve_span(env, page)) return false;
        memmove(&page->free[at + 1], &page->free[at], sizeof span * (page->free_count - at));
        page->free[at] = span;
        ++page->free_count;
    }
    --page->blocks;
    return true;
}

void particle_pool_give_back(plume_context *context, particle_range *block) {
    const plume_env *env = plume_context_env(context);
    particle_pool *pool = plume_context_attachment(context, &PARTICLE_POOL);
    if (!pool || block->size == 0) return;
    for (uint32_t i = 0; i < pool->page_count; ++i) {
        pool_page *page = &pool->pages[i];
        if (page->buffer != block->buffer) continue;
        /* Out of memory for a span: the block stays taken, a leak the
         * pool's end still frees. */
        if (!give_to(env, page, (pool_span){block->offset, block->size})) break;
        --pool->blocks;
        *block = (particle_range){0};
        if (page->blocks == 0) {
            /* Keep one empty page for the next system; free the others. */
            for (uint32_t k = 0; k < pool->page_count; ++k) {
                pool_page *other = &pool->pages[k];
                if (k == i || other->blocks != 0) continue;
                glDeleteBuffers(1, &other->buffer);
                plume_free(env, other->free);
                pool->pages[k] = pool->pages[--pool->page_count];
                break; /* at most one other was empty */
            }
        }
        break;
    }
    if (pool->blocks == 0) plume_context_detach(context, &PARTICLE_POOL);
}

GLuint particle_pool_empty_events(const plume_context *context) {
    const particle_pool *pool = plume_context_attachment(context, &PARTICLE_POOL);
    return pool ? pool->empty_events : 0;
}

update_table **particle_pool_table(plume_context *context) {
    particle_pool *pool = plume_context_attachment(context, &PARTICLE_POOL);
    return pool ? &pool->table : NULL;
}

void particle_pool_usage(const plume_context *context, particle_pool_usage_counts *out) {
    const particle_pool *pool = plume_context_attachment(context, &PARTICLE_POOL);
    *out = (particle_pool_usage_counts){0};
    if (!pool) return;
    for (uint32_t i = 0; i < pool->page_count; ++i) {
        const pool_page *page = &pool->pages[i];
        out->page_bytes += (uint64_t)page->size;
        out->used_bytes += (uint64_t)page->size;
        for (uint32_t k = 0; k < page->free_count; ++k) out->used_bytes -= (uint64_t)page->free[k].size;
    }
    /* The pool's, not a system's: counted with the pages' slack. */
    if (pool->empty_events) out->page_bytes += 4 * PLUME_EVENT_HEADER_WORDS;
    out->pages = pool->page_count;
    out->pages_made = pool->buffers_made;
    out->blocks = pool->blocks;
    out->alignment = (uint64_t)pool->alignment;
    update_table_counts(pool->table, out->table_pass_dispatches, out->table_pass_systems);
    out->table_dispatches = out->table_pass_dispatches[TABLE_SIMULATE];
    out->table_systems = out->table_pass_systems[TABLE_SIMULATE];
}
