/* plume_upload_ring (plume_internal.h): CPU data for GPU passes, rewritten
 * only where no command issued earlier can still read it. Its buffers are
 * made as writes first reach them: a ring its system never writes (a
 * system always updated in a batch's table, instance motion in world
 * space) holds nothing. */
#include <string.h>

#include "plume_internal.h"

static bool signalled(GLsync fence) {
    GLenum status = glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
    return status == GL_ALREADY_SIGNALED || status == GL_CONDITION_SATISFIED || status == GL_WAIT_FAILED;
}

/* Waits until `fence` has signalled or the GL reports a failure. */
static void wait_for(GLsync fence) {
    while (glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000u) == GL_TIMEOUT_EXPIRED) {
    }
}

void plume_upload_ring_create(const plume_env *env, plume_upload_ring *ring, GLsizeiptr bytes, const void *data,
                              const char *label) {
    memset(ring, 0, sizeof *ring);
    ring->env = env;
    ring->first_bytes = bytes;
    ring->label = label;
    if (!data) return;
    ring->buffers[0] = plume_make_buffer(env, bytes, data, GL_DYNAMIC_DRAW, label);
    ring->sizes[0] = bytes;
}

GLuint plume_upload_ring_write(plume_upload_ring *ring, GLenum target, GLsizeiptr bytes, const void *data) {
    if (!ring->env) return 0;
    if (ring->fences[ring->current]) glDeleteSync(ring->fences[ring->current]);
    ring->fences[ring->current] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    uint32_t next = (ring->current + 1) % PLUME_UPLOAD_RING;
    if (ring->fences[next]) {
        /* A check first: a wait only where the GPU is a whole ring behind. */
        if (!signalled(ring->fences[next])) wait_for(ring->fences[next]);
        glDeleteSync(ring->fences[next]);
        ring->fences[next] = NULL;
    }
    ring->current = next;
    GLsizeiptr room = bytes > 0 ? bytes : 16;
    if (!ring->buffers[next]) {
        /* Made through `target`, the one binding the caller restores. */
        glGenBuffers(1, &ring->buffers[next]);
        glBindBuffer(target, ring->buffers[next]);
        plume_label_gl_object(ring->env, GL_BUFFER, ring->buffers[next], ring->label);
        if (room < ring->first_bytes) room = ring->first_bytes;
    } else {
        glBindBuffer(target, ring->buffers[next]);
    }
    if (room > ring->sizes[next]) {
        glBufferData(target, room, NULL, GL_DYNAMIC_DRAW);
        ring->sizes[next] = room;
    }
    if (bytes > 0) glBufferSubData(target, 0, bytes, data);
    return ring->buffers[next];
}

void plume_upload_ring_forget(plume_upload_ring *ring) {
    for (int i = 0; i < PLUME_UPLOAD_RING; ++i) {
        if (ring->fences[i]) glDeleteSync(ring->fences[i]);
        ring->fences[i] = NULL;
    }
}

uint32_t plume_upload_ring_list(const plume_upload_ring *ring, plume_gl_object *out, uint32_t capacity) {
    plume_gl_object all[PLUME_UPLOAD_RING];
    for (int i = 0; i < PLUME_UPLOAD_RING; ++i) all[i] = (plume_gl_object){GL_BUFFER, ring->buffers[i]};
    return plume_list_named_gl_objects(all, PLUME_UPLOAD_RING, out, capacity);
}
