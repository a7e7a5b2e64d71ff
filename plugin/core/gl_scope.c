/* Saves and restores the GL state a module call touches, and routes KHR_debug
 * messages raised during the call to the object's logger. The host's debug
 * callback is put back at the end, so the module never steals it. */
#include <stddef.h>

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

/* What a GL 3.3 context may lack: the scope saves only the state the
 * context has (naming the rest is an error there). */
static bool has_storage_buffers(void) {
    return epoxy_gl_version() >= 43 || epoxy_has_gl_extension("GL_ARB_shader_storage_buffer_object");
}

static bool has_debug_output(void) {
    return epoxy_gl_version() >= 43 || epoxy_has_gl_extension("GL_KHR_debug");
}

bool plume_has_indexed_blend(void) {
    return epoxy_gl_version() >= 40 || epoxy_has_gl_extension("GL_ARB_draw_buffers_blend");
}

static bool has_draw_indirect(void) {
    return epoxy_gl_version() >= 40 || epoxy_has_gl_extension("GL_ARB_draw_indirect");
}

bool plume_has_feedback_objects(void) {
    return epoxy_gl_version() >= 40 || epoxy_has_gl_extension("GL_ARB_transform_feedback2");
}

static bool has_fixed_index_restart(void) {
    return epoxy_gl_version() >= 43 || epoxy_has_gl_extension("GL_ARB_ES3_compatibility");
}

void plume_gl_scope_begin(plume_gl_scope *scope, const plume_env *env) {
    scope->env = env;
    scope->saved_groups = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &scope->program);
    scope->storage_buffers = has_storage_buffers();
    if (scope->storage_buffers) {
        glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &scope->ssbo_generic);
        glGetIntegerv(GL_DISPATCH_INDIRECT_BUFFER_BINDING, &scope->dispatch_indirect);
        for (GLuint i = 0; i < PLUME_SCOPE_SSBO_SLOTS; ++i) {
            glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, i, &scope->ssbo_slot_buffer[i]);
            glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, i, &scope->ssbo_slot_start[i]);
            glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, i, &scope->ssbo_slot_size[i]);
        }
    }
    scope->debug_routed = has_debug_output() && glIsEnabled(GL_DEBUG_OUTPUT);
    if (scope->debug_routed) {
        glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION, (void **)&scope->host_debug_callback);
        glGetPointerv(GL_DEBUG_CALLBACK_USER_PARAM, &scope->host_debug_user);
        scope->debug_synchronous = glIsEnabled(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glDebugMessageCallback(route_debug_message, env);
    }
}

/* GL_QUERY_BUFFER exists from GL 4.4 (or with ARB_query_buffer_object); on
 * an older GL there is none to save, and naming it is an error. */
static bool has_query_buffer(void) {
    return epoxy_gl_version() >= 44 || epoxy_has_gl_extension("GL_ARB_query_buffer_object");
}

static GLint clamp_limit(GLenum limit, GLint most) {
    GLint value = 0;
    glGetIntegerv(limit, &value);
    return value < most ? value : most;
}

/* The capabilities plume_gl_scope_neutral_raster turns off, with where the
 * scope keeps each. */
typedef struct saved_capability {
    GLenum capability;
    size_t offset;
} saved_capability;

static const saved_capability RASTER_CAPABILITIES[] = {
    {GL_RASTERIZER_DISCARD, offsetof(plume_gl_scope, rasterizer_discard)},
    {GL_STENCIL_TEST, offsetof(plume_gl_scope, stencil_test)},
    {GL_SAMPLE_ALPHA_TO_COVERAGE, offsetof(plume_gl_scope, alpha_to_coverage)},
    {GL_SAMPLE_ALPHA_TO_ONE, offsetof(plume_gl_scope, alpha_to_one)},
    {GL_SAMPLE_COVERAGE, offsetof(plume_gl_scope, sample_coverage)},
    {GL_SAMPLE_MASK, offsetof(plume_gl_scope, sample_mask)},
    {GL_DEPTH_CLAMP, offsetof(plume_gl_scope, depth_clamp)},
    {GL_COLOR_LOGIC_OP, offsetof(plume_gl_scope, color_logic_op)},
    {GL_POLYGON_OFFSET_FILL, offsetof(plume_gl_scope, polygon_offset_fill)},
    {GL_CULL_FACE, offsetof(plume_gl_scope, cull_face)},
    /* NVIDIA applies primitive restart to non-indexed draws too: vertex 3 of
     * the quad would break its second triangle (notes/gpu-findings.md). */
    {GL_PRIMITIVE_RESTART, offsetof(plume_gl_scope, primitive_restart)},
    {GL_PRIMITIVE_RESTART_FIXED_INDEX, offsetof(plume_gl_scope, primitive_restart_fixed_index)},
};
enum { RASTER_CAPABILITY_COUNT = sizeof RASTER_CAPABILITIES / sizeof RASTER_CAPABILITIES[0] };

/* GL_PRIMITIVE_RESTART_FIXED_INDEX is GL 4.3 (or ARB_ES3_compatibility). */
static bool capability_exists(const saved_capability *c) {
    return c->capability != GL_PRIMITIVE_RESTART_FIXED_INDEX || has_fixed_index_restart();
}

static GLboolean *capability_slot(plume_gl_scope *scope, const saved_capability *c) {
    return (GLboolean *)((char *)scope + c->offset);
}

static GLboolean saved_value(const plume_gl_scope *scope, const saved_capability *c) {
    return *(const GLboolean *)((const char *)scope + c->offset);
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
            glGetIntegerv(GL_TEXTURE_BINDING_3D, &scope->texture_3d[i]);
            glGetIntegerv(GL_TEXTURE_BINDING_2D_ARRAY, &scope->texture_2d_array[i]);
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
        glGetIntegerv(GL_UNPACK_SWAP_BYTES, &scope->unpack_swap_bytes);
    }
    if (fresh & PLUME_SCOPE_DRAW) {
        glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &scope->vertex_array);
        scope->draw_indirect = 0;
        if (has_draw_indirect()) glGetIntegerv(GL_DRAW_INDIRECT_BUFFER_BINDING, &scope->draw_indirect);
        /* Blend functions and equations of draw buffer 0 only: the draws write
         * no other buffer. Without indexed blending (GL 3.3 without
         * ARB_draw_buffers_blend) they are one state for all. Whether
         * blending is on is saved for every draw buffer (glIsEnabledi is GL
         * 3.0): on 3.3 glEnable(GL_BLEND) turns it on for all, and the
         * fragment path's simulate pass writes four. */
        scope->indexed_blend = plume_has_indexed_blend();
        if (scope->indexed_blend) {
            glGetIntegeri_v(GL_BLEND_SRC_RGB, 0, &scope->blend_src_rgb);
            glGetIntegeri_v(GL_BLEND_DST_RGB, 0, &scope->blend_dst_rgb);
            glGetIntegeri_v(GL_BLEND_SRC_ALPHA, 0, &scope->blend_src_alpha);
            glGetIntegeri_v(GL_BLEND_DST_ALPHA, 0, &scope->blend_dst_alpha);
            glGetIntegeri_v(GL_BLEND_EQUATION_RGB, 0, &scope->blend_equation_rgb);
            glGetIntegeri_v(GL_BLEND_EQUATION_ALPHA, 0, &scope->blend_equation_alpha);
        } else {
            glGetIntegerv(GL_BLEND_SRC_RGB, &scope->blend_src_rgb);
            glGetIntegerv(GL_BLEND_DST_RGB, &scope->blend_dst_rgb);
            glGetIntegerv(GL_BLEND_SRC_ALPHA, &scope->blend_src_alpha);
            glGetIntegerv(GL_BLEND_DST_ALPHA, &scope->blend_dst_alpha);
            glGetIntegerv(GL_BLEND_EQUATION_RGB, &scope->blend_equation_rgb);
            glGetIntegerv(GL_BLEND_EQUATION_ALPHA, &scope->blend_equation_alpha);
        }
        scope->depth_test = glIsEnabled(GL_DEPTH_TEST);
        glGetBooleanv(GL_DEPTH_WRITEMASK, &scope->depth_mask);
        for (int i = 0; i < RASTER_CAPABILITY_COUNT; ++i)
            if (capability_exists(&RASTER_CAPABILITIES[i]))
                *capability_slot(scope, &RASTER_CAPABILITIES[i]) = glIsEnabled(RASTER_CAPABILITIES[i].capability);
        scope->draw_buffers = clamp_limit(GL_MAX_DRAW_BUFFERS, PLUME_SCOPE_DRAW_BUFFERS);
        for (GLint i = 0; i < scope->draw_buffers; ++i) {
            glGetBooleani_v(GL_COLOR_WRITEMASK, (GLuint)i, scope->color_mask[i]);
            scope->blend[i] = glIsEnabledi(GL_BLEND, (GLuint)i);
        }
        scope->clip_distances = clamp_limit(GL_MAX_CLIP_DISTANCES, PLUME_SCOPE_CLIP_DISTANCES);
        for (GLint i = 0; i < scope->clip_distances; ++i)
            scope->clip_distance[i] = glIsEnabled(GL_CLIP_DISTANCE0 + (GLenum)i);
        GLint modes[2] = {GL_FILL, GL_FILL};
        glGetIntegerv(GL_POLYGON_MODE, modes);
        scope->polygon_mode = modes[0];
        glGetIntegerv(GL_VIEWPORT, scope->viewport);
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &scope->draw_framebuffer);
        glGetIntegerv(GL_DEPTH_FUNC, &scope->depth_func);
        scope->scissor_test = glIsEnabled(GL_SCISSOR_TEST);
    }
    if (fresh & PLUME_SCOPE_IMAGE_UNIT) {
        glGetIntegeri_v(GL_IMAGE_BINDING_NAME, 0, &scope->image_texture);
        glGetIntegeri_v(GL_IMAGE_BINDING_LEVEL, 0, &scope->image_level);
        glGetIntegeri_v(GL_IMAGE_BINDING_LAYERED, 0, &scope->image_layered);
        glGetIntegeri_v(GL_IMAGE_BINDING_LAYER, 0, &scope->image_layer);
        glGetIntegeri_v(GL_IMAGE_BINDING_ACCESS, 0, &scope->image_access);
        glGetIntegeri_v(GL_IMAGE_BINDING_FORMAT, 0, &scope->image_format);
    }
    if ((fresh & PLUME_SCOPE_QUERY_BUFFER) && has_query_buffer()) {
        glGetIntegerv(GL_QUERY_BUFFER_BINDING, &scope->query_buffer);
        glBindBuffer(GL_QUERY_BUFFER, 0);
    }
    if (fresh & PLUME_SCOPE_PIXEL_PACK) {
        glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &scope->pack_buffer);
        glGetIntegerv(GL_PACK_ALIGNMENT, &scope->pack_alignment);
        glGetIntegerv(GL_PACK_ROW_LENGTH, &scope->pack_row_length);
        glGetIntegerv(GL_PACK_SKIP_PIXELS, &scope->pack_skip_pixels);
        glGetIntegerv(GL_PACK_SKIP_ROWS, &scope->pack_skip_rows);
        glGetIntegerv(GL_PACK_SWAP_BYTES, &scope->pack_swap_bytes);
        glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &scope->read_framebuffer);
    }
    if (fresh & PLUME_SCOPE_TEXTURE_BUFFERS) {
        GLint active = 0;
        glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
        for (GLuint i = 0; i < PLUME_SCOPE_TEXTURE_UNITS; ++i) {
            glActiveTexture(GL_TEXTURE0 + i);
            glGetIntegerv(GL_TEXTURE_BINDING_BUFFER, &scope->texture_buffer[i]);
        }
        glActiveTexture((GLenum)active);
    }
    if (fresh & PLUME_SCOPE_TRANSFORM_FEEDBACK) {
        scope->feedback_objects = plume_has_feedback_objects();
        if (scope->feedback_objects) {
            glGetIntegerv(GL_TRANSFORM_FEEDBACK_BINDING, &scope->feedback_object);
        } else {
            glGetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 0, &scope->feedback_slot_buffer);
            glGetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_START, 0, &scope->feedback_slot_start);
            glGetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, 0, &scope->feedback_slot_size);
        }
        glGetIntegerv(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, &scope->feedback_generic);
    }
}

void plume_gl_scope_neutral_raster(plume_gl_scope *scope) {
    plume_gl_scope_save(scope, PLUME_SCOPE_DRAW);
    for (int i = 0; i < RASTER_CAPABILITY_COUNT; ++i)
        if (capability_exists(&RASTER_CAPABILITIES[i])) glDisable(RASTER_CAPABILITIES[i].capability);
    for (GLint i = 0; i < scope->clip_distances; ++i) glDisable(GL_CLIP_DISTANCE0 + (GLenum)i);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glColorMaski(0, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    for (GLint i = 1; i < scope->draw_buffers; ++i) glColorMaski((GLuint)i, GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
}

plume_result plume_check_host_state(const plume_env *env, const char *caller) {
    /* A GL without transform feedback objects (3.3) can neither pause a
     * capture nor say whether one is active: there a call under a capture
     * fails with the GL's error, logged. */
    if (!plume_has_feedback_objects()) return PLUME_OK;
    GLboolean active = GL_FALSE, paused = GL_FALSE;
    glGetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE, &active);
    glGetBooleanv(GL_TRANSFORM_FEEDBACK_PAUSED, &paused);
    if (active && !paused) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: transform feedback is active and not paused; pause or end it before calling plume", caller);
        return PLUME_ERROR_HOST_STATE;
    }
    return PLUME_OK;
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
            glBindTexture(GL_TEXTURE_3D, (GLuint)scope->texture_3d[i]);
            glBindTexture(GL_TEXTURE_2D_ARRAY, (GLuint)scope->texture_2d_array[i]);
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
        glPixelStorei(GL_UNPACK_SWAP_BYTES, scope->unpack_swap_bytes);
    }
    if (groups & PLUME_SCOPE_DRAW) {
        glBindVertexArray((GLuint)scope->vertex_array);
        if (has_draw_indirect()) glBindBuffer(GL_DRAW_INDIRECT_BUFFER, (GLuint)scope->draw_indirect);
        if (scope->indexed_blend) {
            glBlendFuncSeparatei(0, (GLenum)scope->blend_src_rgb, (GLenum)scope->blend_dst_rgb,
                                 (GLenum)scope->blend_src_alpha, (GLenum)scope->blend_dst_alpha);
            glBlendEquationSeparatei(0, (GLenum)scope->blend_equation_rgb, (GLenum)scope->blend_equation_alpha);
        } else {
            glBlendFuncSeparate((GLenum)scope->blend_src_rgb, (GLenum)scope->blend_dst_rgb,
                                (GLenum)scope->blend_src_alpha, (GLenum)scope->blend_dst_alpha);
            glBlendEquationSeparate((GLenum)scope->blend_equation_rgb, (GLenum)scope->blend_equation_alpha);
        }
        set_enabled(GL_DEPTH_TEST, scope->depth_test);
        glDepthMask(scope->depth_mask);
        for (int i = 0; i < RASTER_CAPABILITY_COUNT; ++i)
            if (capability_exists(&RASTER_CAPABILITIES[i]))
                set_enabled(RASTER_CAPABILITIES[i].capability, saved_value(scope, &RASTER_CAPABILITIES[i]));
        for (GLint i = 0; i < scope->draw_buffers; ++i) {
            glColorMaski((GLuint)i, scope->color_mask[i][0], scope->color_mask[i][1], scope->color_mask[i][2],
                         scope->color_mask[i][3]);
            if (scope->blend[i]) glEnablei(GL_BLEND, (GLuint)i);
            else glDisablei(GL_BLEND, (GLuint)i);
        }
        for (GLint i = 0; i < scope->clip_distances; ++i)
            set_enabled(GL_CLIP_DISTANCE0 + (GLenum)i, scope->clip_distance[i]);
        glPolygonMode(GL_FRONT_AND_BACK, (GLenum)scope->polygon_mode);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)scope->draw_framebuffer);
        glViewport(scope->viewport[0], scope->viewport[1], scope->viewport[2], scope->viewport[3]);
        glDepthFunc((GLenum)scope->depth_func);
        set_enabled(GL_SCISSOR_TEST, scope->scissor_test);
    }
    if ((groups & PLUME_SCOPE_QUERY_BUFFER) && has_query_buffer())
        glBindBuffer(GL_QUERY_BUFFER, (GLuint)scope->query_buffer);
    if (groups & PLUME_SCOPE_IMAGE_UNIT)
        glBindImageTexture(0, (GLuint)scope->image_texture, scope->image_level, (GLboolean)scope->image_layered,
                           scope->image_layer, (GLenum)scope->image_access, (GLenum)scope->image_format);
    if (groups & PLUME_SCOPE_PIXEL_PACK) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)scope->pack_buffer);
        glPixelStorei(GL_PACK_ALIGNMENT, scope->pack_alignment);
        glPixelStorei(GL_PACK_ROW_LENGTH, scope->pack_row_length);
        glPixelStorei(GL_PACK_SKIP_PIXELS, scope->pack_skip_pixels);
        glPixelStorei(GL_PACK_SKIP_ROWS, scope->pack_skip_rows);
        glPixelStorei(GL_PACK_SWAP_BYTES, scope->pack_swap_bytes);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)scope->read_framebuffer);
    }
    if (groups & PLUME_SCOPE_TEXTURE_BUFFERS) {
        GLint active = 0;
        glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
        for (GLuint i = 0; i < PLUME_SCOPE_TEXTURE_UNITS; ++i) {
            glActiveTexture(GL_TEXTURE0 + i);
            glBindTexture(GL_TEXTURE_BUFFER, (GLuint)scope->texture_buffer[i]);
        }
        glActiveTexture((GLenum)active);
    }
    if (groups & PLUME_SCOPE_TRANSFORM_FEEDBACK) {
        if (scope->feedback_objects) {
            glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, (GLuint)scope->feedback_object);
        } else {
            GLuint buffer = (GLuint)scope->feedback_slot_buffer;
            if (buffer != 0 && scope->feedback_slot_size > 0)
                glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer, (GLintptr)scope->feedback_slot_start,
                                  (GLsizeiptr)scope->feedback_slot_size);
            else glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
        }
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, (GLuint)scope->feedback_generic);
    }
}

void plume_gl_scope_end(plume_gl_scope *scope) {
    restore_groups(scope);
    glUseProgram((GLuint)scope->program);
    for (GLuint i = 0; scope->storage_buffers && i < PLUME_SCOPE_SSBO_SLOTS; ++i) {
        GLuint buffer = (GLuint)scope->ssbo_slot_buffer[i];
        /* A whole-buffer binding reports size 0: rebind it the same way. */
        if (buffer != 0 && scope->ssbo_slot_size[i] > 0)
            glBindBufferRange(GL_SHADER_STORAGE_BUFFER, i, buffer, (GLintptr)scope->ssbo_slot_start[i],
                              (GLsizeiptr)scope->ssbo_slot_size[i]);
        else glBindBufferBase(GL_SHADER_STORAGE_BUFFER, i, buffer);
    }
    if (scope->storage_buffers) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, (GLuint)scope->ssbo_generic);
        glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, (GLuint)scope->dispatch_indirect);
    }
    if (scope->debug_routed) {
        glDebugMessageCallback(scope->host_debug_callback, scope->host_debug_user);
        if (!scope->debug_synchronous) glDisable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    }
}
