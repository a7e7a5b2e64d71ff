/* Saves and restores the GL state a module call touches, and routes KHR_debug
 * messages raised during the call to the object's logger. The host's debug
 * callback is put back at the end, so the module never steals it. */
#include "plume_internal.h"

static void GLAPIENTRY route_debug_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                           const GLchar *message, const void *user) {
    (void)source;
    (void)id;
    (void)length;
    /* Our own stage groups (profiler) echo back as push/pop messages: not news. */
    if (type == GL_DEBUG_TYPE_PUSH_GROUP || type == GL_DEBUG_TYPE_POP_GROUP) return;
    const plume_env *env = user;
    plume_log_level level = PLUME_LOG_DEBUG;
    if (type == GL_DEBUG_TYPE_ERROR || severity == GL_DEBUG_SEVERITY_HIGH) level = PLUME_LOG_ERROR;
    else if (severity == GL_DEBUG_SEVERITY_MEDIUM) level = PLUME_LOG_WARNING;
    else if (severity == GL_DEBUG_SEVERITY_LOW) level = PLUME_LOG_INFO;
    plume_log(env, level, "GL: %s", message);
}

void plume_gl_scope_begin(plume_gl_scope *scope, const plume_env *env) {
    scope->env = env;
    scope->saved_groups = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &scope->program);
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &scope->ssbo_generic);
    glGetIntegerv(GL_DISPATCH_INDIRECT_BUFFER_BINDING, &scope->dispatch_indirect);
    for (GLuint i = 0; i < PLUME_SCOPE_SSBO_SLOTS; ++i) {
        glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, i, &scope->ssbo_slot_buffer[i]);
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, i, &scope->ssbo_slot_start[i]);
        glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, i, &scope->ssbo_slot_size[i]);
    }
    scope->debug_routed = glIsEnabled(GL_DEBUG_OUTPUT);
    if (scope->debug_routed) {
        glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION, (void **)&scope->host_debug_callback);
        glGetPointerv(GL_DEBUG_CALLBACK_USER_PARAM, &scope->host_debug_user);
        scope->debug_synchronous = glIsEnabled(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glDebugMessageCallback(route_debug_message, env);
    }
}

void plume_gl_scope_save(plume_gl_scope *scope, unsigned groups) {
    unsigned fresh = groups & ~scope->saved_groups;
    scope->saved_groups |= fresh;
    if (fresh & PLUME_SCOPE_COPY_BUFFERS) {
        glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &scope->copy_read);
        glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &scope->copy_write);
    }
    if (fresh & PLUME_SCOPE_TEXTURES) {
        glGetIntegerv(GL_ACTIVE_TEXTURE, &scope->active_texture);
        for (GLuint i = 0; i < PLUME_SCOPE_TEXTURE_UNITS; ++i) {
            glActiveTexture(GL_TEXTURE0 + i);
            glGetIntegerv(GL_TEXTURE_BINDING_2D, &scope->texture_2d[i]);
            glGetIntegerv(GL_SAMPLER_BINDING, &scope->sampler[i]);
        }
        glActiveTexture((GLenum)scope->active_texture);
    }
    if (fresh & PLUME_SCOPE_PIXEL_UNPACK) {
        glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &scope->unpack_buffer);
        glGetIntegerv(GL_UNPACK_ALIGNMENT, &scope->unpack_alignment);
        glGetIntegerv(GL_UNPACK_ROW_LENGTH, &scope->unpack_row_length);
        glGetIntegerv(GL_UNPACK_SKIP_PIXELS, &scope->unpack_skip_pixels);
        glGetIntegerv(GL_UNPACK_SKIP_ROWS, &scope->unpack_skip_rows);
    }
    if (fresh & PLUME_SCOPE_DRAW) {
        glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &scope->vertex_array);
        glGetIntegerv(GL_DRAW_INDIRECT_BUFFER_BINDING, &scope->draw_indirect);
        scope->blend = glIsEnabled(GL_BLEND);
        glGetIntegerv(GL_BLEND_SRC_RGB, &scope->blend_src_rgb);
        glGetIntegerv(GL_BLEND_DST_RGB, &scope->blend_dst_rgb);
        glGetIntegerv(GL_BLEND_SRC_ALPHA, &scope->blend_src_alpha);
        glGetIntegerv(GL_BLEND_DST_ALPHA, &scope->blend_dst_alpha);
        glGetIntegerv(GL_BLEND_EQUATION_RGB, &scope->blend_equation_rgb);
        glGetIntegerv(GL_BLEND_EQUATION_ALPHA, &scope->blend_equation_alpha);
        scope->depth_test = glIsEnabled(GL_DEPTH_TEST);
        glGetBooleanv(GL_DEPTH_WRITEMASK, &scope->depth_mask);
        scope->cull_face = glIsEnabled(GL_CULL_FACE);
    }
}

static void set_enabled(GLenum capability, GLboolean enabled) {
    if (enabled) glEnable(capability);
    else glDisable(capability);
}

static void restore_groups(const plume_gl_scope *scope) {
    unsigned groups = scope->saved_groups;
    if (groups & PLUME_SCOPE_COPY_BUFFERS) {
        glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)scope->copy_read);
        glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)scope->copy_write);
    }
    if (groups & PLUME_SCOPE_TEXTURES) {
        for (GLuint i = 0; i < PLUME_SCOPE_TEXTURE_UNITS; ++i) {
            glActiveTexture(GL_TEXTURE0 + i);
            glBindTexture(GL_TEXTURE_2D, (GLuint)scope->texture_2d[i]);
            glBindSampler(i, (GLuint)scope->sampler[i]);
        }
        glActiveTexture((GLenum)scope->active_texture);
    }
    if (groups & PLUME_SCOPE_PIXEL_UNPACK) {
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, (GLuint)scope->unpack_buffer);
        glPixelStorei(GL_UNPACK_ALIGNMENT, scope->unpack_alignment);
        glPixelStorei(GL_UNPACK_ROW_LENGTH, scope->unpack_row_length);
        glPixelStorei(GL_UNPACK_SKIP_PIXELS, scope->unpack_skip_pixels);
        glPixelStorei(GL_UNPACK_SKIP_ROWS, scope->unpack_skip_rows);
    }
    if (groups & PLUME_SCOPE_DRAW) {
        glBindVertexArray((GLuint)scope->vertex_array);
        glBindBuffer(GL_DRAW_INDIRECT_BUFFER, (GLuint)scope->draw_indirect);
        set_enabled(GL_BLEND, scope->blend);
        glBlendFuncSeparate((GLenum)scope->blend_src_rgb, (GLenum)scope->blend_dst_rgb,
                            (GLenum)scope->blend_src_alpha, (GLenum)scope->blend_dst_alpha);
        glBlendEquationSeparate((GLenum)scope->blend_equation_rgb, (GLenum)scope->blend_equation_alpha);
        set_enabled(GL_DEPTH_TEST, scope->depth_test);
        glDepthMask(scope->depth_mask);
        set_enabled(GL_CULL_FACE, scope->cull_face);
    }
}

void plume_gl_scope_end(plume_gl_scope *scope) {
    restore_groups(scope);
    glUseProgram((GLuint)scope->program);
    for (GLuint i = 0; i < PLUME_SCOPE_SSBO_SLOTS; ++i) {
        GLuint buffer = (GLuint)scope->ssbo_slot_buffer[i];
        /* A whole-buffer binding reports size 0: rebind it the same way. */
        if (buffer != 0 && scope->ssbo_slot_size[i] > 0)
            glBindBufferRange(GL_SHADER_STORAGE_BUFFER, i, buffer, (GLintptr)scope->ssbo_slot_start[i],
                              (GLsizeiptr)scope->ssbo_slot_size[i]);
        else glBindBufferBase(GL_SHADER_STORAGE_BUFFER, i, buffer);
    }
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, (GLuint)scope->ssbo_generic);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, (GLuint)scope->dispatch_indirect);
    if (scope->debug_routed) {
        glDebugMessageCallback(scope->host_debug_callback, scope->host_debug_user);
        if (!scope->debug_synchronous) glDisable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    }
}
