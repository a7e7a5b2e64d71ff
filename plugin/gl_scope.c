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
    glGetIntegerv(GL_CURRENT_PROGRAM, &scope->program);
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &scope->ssbo_generic);
    glGetIntegerv(GL_DISPATCH_INDIRECT_BUFFER_BINDING, &scope->dispatch_indirect);
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &scope->copy_read);
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &scope->copy_write);
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

void plume_gl_scope_end(plume_gl_scope *scope) {
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
    glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)scope->copy_read);
    glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)scope->copy_write);
    if (scope->debug_routed) {
        glDebugMessageCallback(scope->host_debug_callback, scope->host_debug_user);
        if (!scope->debug_synchronous) glDisable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    }
}
