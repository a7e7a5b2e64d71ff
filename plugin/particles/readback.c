/* plume_system_read_back: the system's buffers copied to the host, for tests
 * and tools (it waits for the GPU). */
#include <string.h>

#include "particles_internal.h"

static void read_buffer(GLuint buffer, GLintptr offset, GLsizeiptr bytes, void *out) {
    if (bytes <= 0) return;
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    glGetBufferSubData(GL_COPY_READ_BUFFER, offset, bytes, out);
}

/* The particles as plume_particle: motion and traits side by side, the
 * rotation at the particle's age (rotation_at in particle_common.glsl). */
static bool read_back_particles(const system_state *s, plume_particle *out) {
    uint32_t capacity = s->desc.capacity;
    float *motions = plume_alloc(&s->env, (size_t)capacity * PLUME_MOTION_BYTES);
    float *traits = plume_alloc(&s->env, (size_t)capacity * PLUME_TRAITS_BYTES);
    if (motions && traits) {
        read_buffer(s->motion.buffer, s->motion.offset, (GLsizeiptr)capacity * PLUME_MOTION_BYTES, motions);
        read_buffer(s->traits.buffer, s->traits.offset, (GLsizeiptr)capacity * PLUME_TRAITS_BYTES, traits);
        for (uint32_t i = 0; i < capacity; ++i) {
            const float *m = motions + i * (PLUME_MOTION_BYTES / 4), *t = traits + i * (PLUME_TRAITS_BYTES / 4);
            plume_particle *p = &out[i];
            memcpy(p->position, m, sizeof p->position);
            p->age = m[3];
            memcpy(p->velocity, m + 4, sizeof p->velocity);
            p->lifetime = m[7];
            p->size = t[0];
            p->rotation = t[1] + t[2] * p->age;
            p->spin = t[2];
            memcpy(&p->id, &t[3], sizeof p->id);
        }
    }
    plume_free(&s->env, motions);
    plume_free(&s->env, traits);
    return motions && traits;
}

plume_result plume_system_read_back(plume_context *context, plume_system handle, plume_readback *readback) {
    static const char *CALLER = "plume_system_read_back";
    system_state *system = particles_find_system_with(context, handle, CALLER, readback, "readback");
    if (!system) return PLUME_ERROR_INVALID_ARGUMENT;
    if (plume_check_gl_context(&system->env, CALLER) != PLUME_OK) return PLUME_ERROR_GL_UNSUPPORTED;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    if (system->fragment) {
        plume_gl_scope_save(&scope, PLUME_SCOPE_TEXTURES | PLUME_SCOPE_PIXEL_PACK | PLUME_SCOPE_COPY_BUFFERS);
        plume_result r = fragment_particles_read_back(system, readback);
        plume_gl_scope_end(&scope);
        plume_result gl = plume_drain_gl_errors(&system->env, CALLER);
        return r != PLUME_OK ? r : gl;
    }
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    uint32_t header[STATE_HEADER_BYTES / 4];
    read_buffer(system->state.buffer, system->state.offset, STATE_HEADER_BYTES, header);
    uint32_t capacity = system->desc.capacity;
    /* Clamped so that a corrupt counter can never overrun the caller's arrays. */
    uint32_t drawn = header[STATE_DRAWN_COUNT_OFFSET / 4], dead = header[STATE_DEAD_COUNT_OFFSET / 4];
    readback->live_count = header[STATE_LIVE_COUNT_OFFSET / 4];
    readback->dead_count = dead;
    readback->emitted_total = header[STATE_EMITTED_TOTAL_OFFSET / 4];
    readback->drawn_count = drawn;
    if (drawn > capacity) drawn = capacity;
    if (dead > capacity) dead = capacity;
    if (readback->particles && !read_back_particles(system, readback->particles)) {
        plume_gl_scope_end(&scope);
        return PLUME_ERROR_OUT_OF_MEMORY;
    }
    if (readback->dead_slots)
        read_buffer(system->state.buffer, system->state.offset + STATE_HEADER_BYTES, (GLsizeiptr)dead * 4,
                    readback->dead_slots);
    if (readback->draw_order || readback->draw_keys) {
        uint32_t *pairs = plume_alloc(&system->env, (size_t)drawn * PLUME_PAIR_BYTES);
        if (!pairs) {
            plume_gl_scope_end(&scope);
            return PLUME_ERROR_OUT_OF_MEMORY;
        }
        particles_settle_live_list(system);
        read_buffer(system->live_list_buffer, 0, (GLsizeiptr)drawn * PLUME_PAIR_BYTES, pairs);
        uint32_t key_shift = particles_sort_key_shift(&system->desc);
        for (uint32_t i = 0; i < drawn; ++i) {
            if (readback->draw_keys) readback->draw_keys[i] = pairs[2 * i] << key_shift;
            if (readback->draw_order) readback->draw_order[i] = pairs[2 * i + 1];
        }
        plume_free(&system->env, pairs);
    }
    plume_gl_scope_end(&scope);
    return plume_drain_gl_errors(&system->env, CALLER);
}
