/* The particle view (particle_view.h): what a draw reads of a system, and
 * the attachments in which the draw part keeps its per-system state. */
#include <string.h>

#include "fragment_particles.h"

/* The system's view; its light zero (the draw sets it). */
static void fill_view(system_state *s, particle_view *out) {
    *out = (particle_view){
        .env = &s->env,
        .context = s->context,
        .handle = s->handle,
        .desc = &s->desc,
        .motion = s->motion,
        .traits = s->traits,
        .draw_list_buffer = s->live_list_buffer,
        .source = s,
        .state = s->state,
        .pooled_bytes = (uint64_t)s->pool_block.size,
        .sort_bound = s->sort_bound,
        .update_count = s->update_count,
        .sprite_texture = s->sprite_texture ? s->sprite_texture : s->desc.host_sprite.texture,
        .sprite_is_array = s->desc.host_sprite.target == GL_TEXTURE_2D_ARRAY,
        .motion_texture = s->motion_texture ? s->motion_texture : s->desc.flipbook_motion.host_texture,
        .sprite_cover = {.buffer = s->sprite_cover_buffer, .levels = s->sprite_cover_levels,
                         .motion_reach = s->motion_reach},
        .profiler = s->profiler,
        .attachments = &s->attachments,
        .trail = {.header_buffer = s->trail.header_buffer,
                  .point_buffer = s->trail.point_buffer,
                  .pair_buffer = s->trail.pair_buffer,
                  .control_buffer = s->trail.control_buffer,
                  .entries = s->trail.entries},
        .mesh = s->mesh.view.count ? &s->mesh.view : NULL,
        .slot_keys = s->slot_keys,
    };
    if (s->fragment) fragment_particles_view(s, &out->fragment);
}

void particle_view_bind_draw_list(const particle_view *view, GLuint binding) {
    if (view->source) particles_settle_live_list(view->source);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, view->draw_list_buffer);
}

plume_result particles_find_view(const plume_context *context, plume_system handle, const char *caller,
                                 particle_view *out) {
    system_state *s = particles_find_system(context, handle, caller);
    *out = (particle_view){0};
    if (!s) return PLUME_ERROR_INVALID_ARGUMENT;
    fill_view(s, out);
    return PLUME_OK;
}

plume_result particles_find_frame_view(const plume_context *context, plume_system handle, const char *caller,
                                       const plume_frame_desc *frame, particle_view *out, mat4 view,
                                       mat4 projection) {
    system_state *s = NULL;
    plume_result r = particles_find_frame_system(context, handle, caller, frame, &s, view, projection);
    *out = (particle_view){0};
    if (s) fill_view(s, out);
    return r;
}

uint32_t particles_list_system_gl_objects(const plume_context *context, plume_system handle, plume_gl_object *out,
                                          uint32_t capacity) {
    const system_state *s = particles_peek_system(context, handle);
    if (!s) return 0;
    uint32_t n = plume_context_list_object_gl_objects(context, handle.id, out, capacity);
    n += plume_context_list_object_gl_objects(context, s->sorter.id, n < capacity ? out + n : NULL,
                                              n < capacity ? capacity - n : 0);
    if (!s->trail.sorter.id) return n;
    return n + plume_context_list_object_gl_objects(context, s->trail.sorter.id, n < capacity ? out + n : NULL,
                                                    n < capacity ? capacity - n : 0);
}

/* ---- Attachments ----------------------------------------------------------------- */

void *particle_view_attachment(const particle_view *view, const particle_attachment_class *kind) {
    const particle_attachments *a = view->attachments;
    for (int i = 0; i < PARTICLE_MAX_ATTACHMENTS; ++i)
        if (a->kinds[i] == kind) return a->states[i];
    return NULL;
}

void *particle_view_attach(const particle_view *view, const particle_attachment_class *kind, size_t size) {
    void *state = particle_view_attachment(view, kind);
    if (state) return state;
    particle_attachments *a = view->attachments;
    int free_slot = 0;
    while (free_slot < PARTICLE_MAX_ATTACHMENTS && a->kinds[free_slot]) ++free_slot;
    size_t rounded = (size + _Alignof(max_align_t) - 1) / _Alignof(max_align_t) * _Alignof(max_align_t);
    if (free_slot == PARTICLE_MAX_ATTACHMENTS || rounded > sizeof a->storage - a->used) {
        plume_log(view->env, PLUME_LOG_ERROR, "the system has no room left for the %s", kind->name);
        return NULL;
    }
    state = a->storage + a->used;
    memset(state, 0, size);
    a->used += rounded;
    a->kinds[free_slot] = kind;
    a->states[free_slot] = state;
    return state;
}

uint32_t particles_list_attachment_gl_objects(const system_state *s, plume_gl_object *out, uint32_t capacity) {
    uint32_t n = 0;
    for (int i = 0; i < PARTICLE_MAX_ATTACHMENTS; ++i) {
        const particle_attachment_class *kind = s->attachments.kinds[i];
        if (!kind || !kind->list_gl_objects) continue;
        n += kind->list_gl_objects(s->attachments.states[i], n < capacity ? out + n : NULL,
                                   n < capacity ? capacity - n : 0);
    }
    return n;
}

void particles_free_attachments(system_state *s) {
    for (int i = 0; i < PARTICLE_MAX_ATTACHMENTS; ++i) {
        const particle_attachment_class *kind = s->attachments.kinds[i];
        if (!kind) continue;
        if (kind->release) kind->release(s->attachments.states[i], s->context);
        s->attachments.kinds[i] = NULL;
        s->attachments.states[i] = NULL;
    }
}

/* ---- The host's depth texture ------------------------------------------------------ */

/* OpenGL ES 3.0 cannot query a level's format (glGetTexLevelParameteriv is
 * ES 3.1): a depth format is one that completes a framebuffer as its depth
 * attachment (a colour texture makes it incomplete), tried on a framebuffer
 * made for the question; the host's draw framebuffer is put back. The
 * texture is bound to GL_TEXTURE_2D (its target checked) by the caller. */
static bool es30_is_depth_texture(GLuint texture) {
    GLint host = 0;
    GLuint probe = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &host);
    glGenFramebuffers(1, &probe);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, probe);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, texture, 0);
    const GLenum none = GL_NONE;
    glDrawBuffers(1, &none);
    bool depth = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)host);
    glDeleteFramebuffers(1, &probe);
    return depth;
}

plume_result particles_check_depth_texture(const plume_env *env, const char *caller, GLuint texture) {
    if (texture == 0) return PLUME_OK;
    if (!glIsTexture(texture)) {
        plume_log(env, PLUME_LOG_ERROR, "%s: depth_texture %u is not a texture", caller, texture);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    GLint depth_bits = 0, format = 0;
    if (plume_env_gl_caps(env).direct_state_access) {
        /* Direct state access: no binding changed, any target asked. */
        GLint target = 0;
        glGetTextureParameteriv(texture, GL_TEXTURE_TARGET, &target);
        if (target != GL_TEXTURE_2D) {
            plume_log(env, PLUME_LOG_ERROR, "%s: depth_texture %u is not a GL_TEXTURE_2D (target 0x%x)", caller,
                      texture, (unsigned)target);
            return PLUME_ERROR_INVALID_ARGUMENT;
        }
        glGetTextureLevelParameteriv(texture, 0, GL_TEXTURE_DEPTH_SIZE, &depth_bits);
        glGetTextureLevelParameteriv(texture, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
    } else {
        /* Bound for the query on the active unit and the host's binding put
         * back; a texture of another target cannot be bound there. */
        GLint host = 0;
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &host);
        while (glGetError() != GL_NO_ERROR) {}
        glBindTexture(GL_TEXTURE_2D, texture);
        if (glGetError() != GL_NO_ERROR) {
            plume_log(env, PLUME_LOG_ERROR, "%s: depth_texture %u is not a GL_TEXTURE_2D", caller, texture);
            return PLUME_ERROR_INVALID_ARGUMENT;
        }
        if (!plume_env_gl_caps(env).level_parameters) {
            depth_bits = es30_is_depth_texture(texture) ? 1 : 0;
        } else {
            glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_DEPTH_SIZE, &depth_bits);
            glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
        }
        glBindTexture(GL_TEXTURE_2D, (GLuint)host);
    }
    if (depth_bits <= 0) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: depth_texture %u has no depth format (internal format 0x%x); pass the scene's depth "
                  "(GL_DEPTH_COMPONENT*, GL_DEPTH*_STENCIL8), not a colour texture",
                  caller, texture, (unsigned)format);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return PLUME_OK;
}
