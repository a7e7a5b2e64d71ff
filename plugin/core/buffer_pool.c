/* The context's pool of GPU-only buffers (plume_internal.h): buffers a
 * destroyed object gave back, kept by size and role (the label) for the next
 * object of the context that asks for the same, so that creating a system of
 * a size seen before makes no GL buffer. A context attachment, made with the
 * first buffer taken and released (its buffers deleted) when the last buffer
 * lent out comes back: a context whose objects are all gone holds none, as
 * before the pool. A buffer given back after the pool went (its context
 * destroyed with objects alive) is deleted. */
#include <string.h>

#include "plume_internal.h"

typedef struct pooled_buffer {
    GLuint name;
    GLsizeiptr bytes;
    const char *label;
} pooled_buffer;

typedef struct buffer_pool {
    pooled_buffer buffers[PLUME_BUFFER_POOL_BUFFERS];
    uint32_t count;
    GLsizeiptr bytes; /* held, at most PLUME_BUFFER_POOL_BYTES */
    uint64_t lent;    /* taken and not given back yet */
} buffer_pool;

static void release(void *state, plume_context *context) {
    (void)context;
    buffer_pool *pool = state;
    for (uint32_t i = 0; i < pool->count; ++i) glDeleteBuffers(1, &pool->buffers[i].name);
    pool->count = 0;
}

static uint32_t list_gl_objects(const void *state, plume_gl_object *out, uint32_t capacity) {
    const buffer_pool *pool = state;
    for (uint32_t i = 0; out && i < pool->count && i < capacity; ++i) out[i] = (plume_gl_object){GL_BUFFER, pool->buffers[i].name};
    return pool->count;
}

static const plume_context_attachment_class BUFFER_POOL = {"buffer pool", release, list_gl_objects};

GLuint plume_take_gpu_buffer(plume_context *context, const plume_env *env, GLsizeiptr bytes, const char *label) {
    /* Made with the first buffer taken, so that a buffer given back after
     * the context released its pool (destroying what its host left alive)
     * finds none and is deleted. */
    buffer_pool *pool = plume_context_attach(context, &BUFFER_POOL, sizeof(buffer_pool));
    if (pool) ++pool->lent;
    /* The newest first: the buffer a destroyed object gave back last. */
    for (uint32_t i = pool ? pool->count : 0; i-- > 0;) {
        pooled_buffer *found = &pool->buffers[i];
        if (found->bytes != bytes || strcmp(found->label, label) != 0) continue;
        GLuint name = found->name;
        pool->bytes -= bytes;
        *found = pool->buffers[--pool->count];
        glBindBuffer(GL_COPY_WRITE_BUFFER, name);
        plume_lab_poison_bound_buffer(env, name, bytes);
        return name;
    }
    return plume_make_gpu_buffer(env, bytes, label);
}

void plume_give_back_gpu_buffer(plume_context *context, GLuint name, GLsizeiptr bytes, const char *label) {
    if (!name) return;
    buffer_pool *pool = plume_context_attachment(context, &BUFFER_POOL);
    if (pool && --pool->lent == 0) {
        glDeleteBuffers(1, &name);
        plume_context_detach(context, &BUFFER_POOL);
        return;
    }
    if (pool && pool->count < PLUME_BUFFER_POOL_BUFFERS && pool->bytes + bytes <= PLUME_BUFFER_POOL_BYTES) {
        pool->buffers[pool->count++] = (pooled_buffer){name, bytes, label};
        pool->bytes += bytes;
        return;
    }
    glDeleteBuffers(1, &name);
}
