/* Saves and restores the GL state a module call touches, and routes KHR_debug
 * messages raised during the call to the object's logger. The host's debug
 * callback is put back at the end, so the module never steals it. */
#include <math.h>
#include <string.h>

#include "plume_internal.h"
#include "shared/plume_gpu_layout.h"

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

/* epoxy_gl_version() is the ES version on OpenGL ES (30 for ES 3.0). */
static bool has_draw_indirect(void) {
    if (plume_gl_is_es()) return epoxy_gl_version() >= 31;
    return epoxy_gl_version() >= 40 || epoxy_has_gl_extension("GL_ARB_draw_indirect");
}

/* OpenGL ES 3.0 has transform feedback objects, pause and resume. */
bool plume_has_feedback_objects(void) {
    return plume_gl_is_es() || epoxy_gl_version() >= 40 || epoxy_has_gl_extension("GL_ARB_transform_feedback2");
}

/* WebGL 2 is OpenGL ES 3.0 less some of its state (the browser names itself
 * in the version strings: "OpenGL ES 3.0 (WebGL 2.0 ...)", "OpenGL ES GLSL ES
 * 3.00 (WebGL GLSL ES 3.00 ...)"): it always restarts primitives at the fixed
 * index and has no enum for the capability, so naming it there is an error. */
static bool is_webgl(void) {
    const char *version = (const char *)glGetString(GL_VERSION);
    return version && strstr(version, "WebGL") != NULL;
}

static bool has_fixed_index_restart(bool webgl) {
    if (webgl) return false;
    return plume_gl_is_es() || epoxy_gl_version() >= 43 || epoxy_has_gl_extension("GL_ARB_ES3_compatibility");
}

/* What OpenGL ES 3.0 lacks of the desktop GL's state: buffer textures and
 * blending and color masks per draw buffer come with ES 3.2; polygon modes,
 * clip distances and byte swapping never. Asked once per context
 * (query_caps): every answer reads the version string, and on a threaded
 * driver each glGetString waits for the driver's thread (the scope asked
 * it dozens of times a call, which made a small system's frame five times
 * slower on NVIDIA). */
static bool has_es32_or_desktop_state(bool es) { return !es || epoxy_gl_version() >= 32; }

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

static void query_caps(plume_gl_caps *caps) {
    bool es = plume_gl_is_es(), webgl = es && is_webgl();
    *caps = (plume_gl_caps){.known = true,
                            .es = es,
                            .webgl = webgl,
                            .texture_buffers = has_es32_or_desktop_state(es),
                            .indexed_draw_buffer_state = has_es32_or_desktop_state(es),
                            .sample_mask = !es || epoxy_gl_version() >= 31,
                            .level_parameters = !es || epoxy_gl_version() >= 31,
                            .clip_control = !es && (epoxy_gl_version() >= 45 ||
                                                    epoxy_has_gl_extension("GL_ARB_clip_control")),
                            .reset_status = (!es && epoxy_gl_version() >= 45) || (es && epoxy_gl_version() >= 32) ||
                                            epoxy_has_gl_extension("GL_KHR_robustness"),
                            .pixel_store_parameters =
                                es ? PLUME_SCOPE_PIXEL_PARAMETERS - 1 : PLUME_SCOPE_PIXEL_PARAMETERS,
                            .storage_buffers = has_storage_buffers(),
                            .debug_output = has_debug_output(),
                            /* Not under wine (platform.h): the messages of
                             * a call then reach the host's own callback. */
                            .debug_routing = has_debug_output() && plume_platform_reports_debug_callback(),
                            .indexed_blend = plume_has_indexed_blend(),
                            .draw_indirect = has_draw_indirect(),
                            .feedback_objects = plume_has_feedback_objects(),
                            .fixed_index_restart = has_fixed_index_restart(webgl),
                            .query_buffer = has_query_buffer(),
                            .direct_state_access = epoxy_gl_version() >= 45,
                            .draw_buffers = has_es32_or_desktop_state(es)
                                                ? clamp_limit(GL_MAX_DRAW_BUFFERS, PLUME_SCOPE_DRAW_BUFFERS)
                                                : 1,
                            .clip_distances =
                                es ? 0 : clamp_limit(GL_MAX_CLIP_DISTANCES, PLUME_SCOPE_CLIP_DISTANCES)};
    if (caps->storage_buffers) {
        caps->ssbo_bindings =
            clamp_limit(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, PLUME_SCOPE_SSBO_SLOTS + PLUME_SCOPE_OPTIONAL_SSBO_SLOTS);
        glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &caps->storage_block_bytes);
    }
}

plume_gl_caps plume_env_gl_caps(const plume_env *env) {
    plume_gl_caps fresh;
    if (!env->programs) {
        query_caps(&fresh);
        return fresh;
    }
    plume_gl_caps *kept = plume_program_cache_gl_caps(env->programs);
    if (!kept->known) query_caps(kept);
    return *kept;
}

/* ---- Always saved: the program, SSBO bindings, the debug callback ---------- */

/* Indexed SSBO binding `slot` into the scope's place `at`. */
static void save_ssbo_slot(plume_gl_scope *scope, GLuint slot, GLuint at) {
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, slot, &scope->bindings.ssbo_slot_buffer[at]);
    glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, slot, &scope->bindings.ssbo_slot_start[at]);
    glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, slot, &scope->bindings.ssbo_slot_size[at]);
}

static void restore_ssbo_slot(const plume_gl_scope *scope, GLuint slot, GLuint at) {
    GLuint buffer = (GLuint)scope->bindings.ssbo_slot_buffer[at];
    /* A whole-buffer binding reports size 0: rebind it the same way. */
    if (buffer != 0 && scope->bindings.ssbo_slot_size[at] > 0)
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, slot, buffer, (GLintptr)scope->bindings.ssbo_slot_start[at],
                          (GLsizeiptr)scope->bindings.ssbo_slot_size[at]);
    else glBindBufferBase(GL_SHADER_STORAGE_BUFFER, slot, buffer);
}

static void save_bindings(plume_gl_scope *scope) {
    glGetIntegerv(GL_CURRENT_PROGRAM, &scope->bindings.program);
    scope->bindings.storage_buffers = scope->caps.storage_buffers;
    if (!scope->bindings.storage_buffers) return;
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &scope->bindings.ssbo_generic);
    glGetIntegerv(GL_DISPATCH_INDIRECT_BUFFER_BINDING, &scope->bindings.dispatch_indirect);
    GLint most = scope->caps.ssbo_bindings;
    scope->bindings.ssbo_slots = most < PLUME_SCOPE_SSBO_SLOTS ? most : PLUME_SCOPE_SSBO_SLOTS;
    for (GLuint i = 0; i < (GLuint)scope->bindings.ssbo_slots; ++i) save_ssbo_slot(scope, i, i);
}

static void restore_bindings(const plume_gl_scope *scope) {
    glUseProgram((GLuint)scope->bindings.program);
    if (!scope->bindings.storage_buffers) return;
    for (GLuint i = 0; i < (GLuint)scope->bindings.ssbo_slots; ++i) restore_ssbo_slot(scope, i, i);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, (GLuint)scope->bindings.ssbo_generic);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, (GLuint)scope->bindings.dispatch_indirect);
}

/* Routes the call's KHR_debug messages to the object's logger. */
static void save_debug(plume_gl_scope *scope, const plume_env *env) {
    scope->debug.routed = scope->caps.debug_routing && glIsEnabled(GL_DEBUG_OUTPUT);
    if (!scope->debug.routed) return;
    glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION, (void **)&scope->debug.host_callback);
    glGetPointerv(GL_DEBUG_CALLBACK_USER_PARAM, &scope->debug.host_user);
    scope->debug.synchronous = glIsEnabled(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDebugMessageCallback(route_debug_message, env);
}

static void restore_debug(const plume_gl_scope *scope) {
    if (!scope->debug.routed) return;
    glDebugMessageCallback(scope->debug.host_callback, scope->debug.host_user);
    if (!scope->debug.synchronous) glDisable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
}

/* ---- The groups plume_gl_scope_save adds ------------------------------------ */

static void set_enabled(GLenum capability, GLboolean enabled) {
    if (enabled) glEnable(capability);
    else glDisable(capability);
}

static void save_copy_buffers(plume_gl_scope *scope) {
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &scope->copy_buffers.read);
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &scope->copy_buffers.write);
}

static void restore_copy_buffers(const plume_gl_scope *scope) {
    glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)scope->copy_buffers.read);
    glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)scope->copy_buffers.write);
}

static void save_textures(plume_gl_scope *scope) {
    glGetIntegerv(GL_ACTIVE_TEXTURE, &scope->textures.active);
    for (GLuint i = 0; i < PLUME_SCOPE_TEXTURE_UNITS; ++i) {
        glActiveTexture(GL_TEXTURE0 + i);
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &scope->textures.texture_2d[i]);
        glGetIntegerv(GL_TEXTURE_BINDING_3D, &scope->textures.texture_3d[i]);
        glGetIntegerv(GL_TEXTURE_BINDING_2D_ARRAY, &scope->textures.texture_2d_array[i]);
        glGetIntegerv(GL_SAMPLER_BINDING, &scope->textures.sampler[i]);
    }
    glActiveTexture((GLenum)scope->textures.active);
}

static void restore_textures(const plume_gl_scope *scope) {
    for (GLuint i = 0; i < PLUME_SCOPE_TEXTURE_UNITS; ++i) {
        glActiveTexture(GL_TEXTURE0 + i);
        glBindTexture(GL_TEXTURE_2D, (GLuint)scope->textures.texture_2d[i]);
        glBindTexture(GL_TEXTURE_3D, (GLuint)scope->textures.texture_3d[i]);
        glBindTexture(GL_TEXTURE_2D_ARRAY, (GLuint)scope->textures.texture_2d_array[i]);
        glBindSampler(i, (GLuint)scope->textures.sampler[i]);
    }
    glActiveTexture((GLenum)scope->textures.active);
}

/* A pixel store: its buffer binding and parameters, in plume_scope_pixel_store's order. */
static const GLenum UNPACK_PARAMETERS[PLUME_SCOPE_PIXEL_PARAMETERS] = {
    GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_PIXELS, GL_UNPACK_SKIP_ROWS, GL_UNPACK_SWAP_BYTES};
static const GLenum PACK_PARAMETERS[PLUME_SCOPE_PIXEL_PARAMETERS] = {
    GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_PIXELS, GL_PACK_SKIP_ROWS, GL_PACK_SWAP_BYTES};

/* The pixel-store parameters the context has: all but byte swapping (the
 * last) on OpenGL ES. */
int plume_pixel_store_parameter_count(const plume_env *env) { return plume_env_gl_caps(env).pixel_store_parameters; }

static void save_pixel_store(const plume_gl_scope *scope, plume_scope_pixel_store *store, GLenum binding,
                             const GLenum *parameters) {
    glGetIntegerv(binding, &store->buffer);
    for (int i = 0; i < scope->caps.pixel_store_parameters; ++i) glGetIntegerv(parameters[i], &store->parameters[i]);
}

static void restore_pixel_store(const plume_gl_scope *scope, const plume_scope_pixel_store *store, GLenum target,
                                const GLenum *parameters) {
    glBindBuffer(target, (GLuint)store->buffer);
    for (int i = 0; i < scope->caps.pixel_store_parameters; ++i) glPixelStorei(parameters[i], store->parameters[i]);
}

static void save_pixel_unpack(plume_gl_scope *scope) {
    save_pixel_store(scope, &scope->unpack, GL_PIXEL_UNPACK_BUFFER_BINDING, UNPACK_PARAMETERS);
}

static void restore_pixel_unpack(const plume_gl_scope *scope) {
    restore_pixel_store(scope, &scope->unpack, GL_PIXEL_UNPACK_BUFFER, UNPACK_PARAMETERS);
}

/* The capabilities plume_gl_scope_neutral_raster turns off, in the order of
 * the scope's draw.raster_capabilities. */
static const GLenum RASTER_CAPABILITIES[] = {
    GL_RASTERIZER_DISCARD, GL_STENCIL_TEST, GL_SAMPLE_ALPHA_TO_COVERAGE, GL_SAMPLE_ALPHA_TO_ONE, GL_SAMPLE_COVERAGE,
    GL_SAMPLE_MASK, GL_DEPTH_CLAMP, GL_COLOR_LOGIC_OP, GL_POLYGON_OFFSET_FILL, GL_CULL_FACE,
    /* NVIDIA applies primitive restart to non-indexed draws too: vertex 3 of
     * the quad would break its second triangle (notes/gpu-findings.md). */
    GL_PRIMITIVE_RESTART, GL_PRIMITIVE_RESTART_FIXED_INDEX};
_Static_assert(sizeof RASTER_CAPABILITIES / sizeof RASTER_CAPABILITIES[0] == PLUME_SCOPE_RASTER_CAPABILITIES,
               "the scope keeps each capability");

/* GL_PRIMITIVE_RESTART_FIXED_INDEX is GL 4.3 (or ARB_ES3_compatibility) and
 * OpenGL ES, but not WebGL 2 (always on there); OpenGL ES lacks four of the
 * others (the sample mask until 3.1). */
static bool capability_exists(const plume_gl_scope *scope, GLenum capability) {
    if (capability == GL_PRIMITIVE_RESTART_FIXED_INDEX) return scope->caps.fixed_index_restart;
    if (scope->caps.es) {
        if (capability == GL_SAMPLE_MASK) return scope->caps.sample_mask;
        return capability != GL_SAMPLE_ALPHA_TO_ONE && capability != GL_DEPTH_CLAMP &&
               capability != GL_COLOR_LOGIC_OP && capability != GL_PRIMITIVE_RESTART;
    }
    return true;
}

static void save_draw(plume_gl_scope *scope) {
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &scope->draw.vertex_array);
    scope->draw.draw_indirect = 0;
    if (scope->caps.draw_indirect) glGetIntegerv(GL_DRAW_INDIRECT_BUFFER_BINDING, &scope->draw.draw_indirect);
    /* Blend functions and equations of draw buffer 0 only: the draws write
     * no other buffer. Without indexed blending (GL 3.3 without
     * ARB_draw_buffers_blend) they are one state for all. Whether
     * blending is on is saved for every draw buffer (glIsEnabledi is GL
     * 3.0): on 3.3 glEnable(GL_BLEND) turns it on for all, and the
     * fragment path's simulate pass writes four. */
    scope->draw.indexed_blend = scope->caps.indexed_blend;
    GLint *blend_state[] = {&scope->draw.blend_src_rgb,      &scope->draw.blend_dst_rgb,
                            &scope->draw.blend_src_alpha,    &scope->draw.blend_dst_alpha,
                            &scope->draw.blend_equation_rgb, &scope->draw.blend_equation_alpha};
    const GLenum blend_names[] = {GL_BLEND_SRC_RGB,   GL_BLEND_DST_RGB,        GL_BLEND_SRC_ALPHA,
                                  GL_BLEND_DST_ALPHA, GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA};
    for (int i = 0; i < 6; ++i) {
        if (scope->draw.indexed_blend) glGetIntegeri_v(blend_names[i], 0, blend_state[i]);
        else glGetIntegerv(blend_names[i], blend_state[i]);
    }
    scope->draw.depth_test = glIsEnabled(GL_DEPTH_TEST);
    glGetBooleanv(GL_DEPTH_WRITEMASK, &scope->draw.depth_mask);
    for (int i = 0; i < PLUME_SCOPE_RASTER_CAPABILITIES; ++i)
        if (capability_exists(scope, RASTER_CAPABILITIES[i]))
            scope->draw.raster_capabilities[i] = glIsEnabled(RASTER_CAPABILITIES[i]);
    /* Without state per draw buffer (ES 3.0) one mask and one switch, kept as buffer 0's. */
    scope->draw.draw_buffers = scope->caps.draw_buffers;
    for (GLint i = 0; i < scope->draw.draw_buffers; ++i) {
        if (!scope->caps.indexed_draw_buffer_state) {
            glGetBooleanv(GL_COLOR_WRITEMASK, scope->draw.color_mask[0]);
            scope->draw.blend[0] = glIsEnabled(GL_BLEND);
            break;
        }
        glGetBooleani_v(GL_COLOR_WRITEMASK, (GLuint)i, scope->draw.color_mask[i]);
        scope->draw.blend[i] = glIsEnabledi(GL_BLEND, (GLuint)i);
    }
    scope->draw.clip_distances = scope->caps.clip_distances;
    for (GLint i = 0; i < scope->draw.clip_distances; ++i)
        scope->draw.clip_distance[i] = glIsEnabled(GL_CLIP_DISTANCE0 + (GLenum)i);
    GLint modes[2] = {GL_FILL, GL_FILL};
    if (!scope->caps.es) glGetIntegerv(GL_POLYGON_MODE, modes);
    scope->draw.polygon_mode = modes[0];
    glGetIntegerv(GL_VIEWPORT, scope->draw.viewport);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &scope->draw.draw_framebuffer);
    glGetIntegerv(GL_DEPTH_FUNC, &scope->draw.depth_func);
    scope->draw.scissor_test = glIsEnabled(GL_SCISSOR_TEST);
}

static void restore_draw(const plume_gl_scope *scope) {
    glBindVertexArray((GLuint)scope->draw.vertex_array);
    if (scope->caps.draw_indirect) glBindBuffer(GL_DRAW_INDIRECT_BUFFER, (GLuint)scope->draw.draw_indirect);
    if (scope->draw.indexed_blend) {
        glBlendFuncSeparatei(0, (GLenum)scope->draw.blend_src_rgb, (GLenum)scope->draw.blend_dst_rgb,
                             (GLenum)scope->draw.blend_src_alpha, (GLenum)scope->draw.blend_dst_alpha);
        glBlendEquationSeparatei(0, (GLenum)scope->draw.blend_equation_rgb, (GLenum)scope->draw.blend_equation_alpha);
    } else {
        glBlendFuncSeparate((GLenum)scope->draw.blend_src_rgb, (GLenum)scope->draw.blend_dst_rgb,
                            (GLenum)scope->draw.blend_src_alpha, (GLenum)scope->draw.blend_dst_alpha);
        glBlendEquationSeparate((GLenum)scope->draw.blend_equation_rgb, (GLenum)scope->draw.blend_equation_alpha);
    }
    set_enabled(GL_DEPTH_TEST, scope->draw.depth_test);
    glDepthMask(scope->draw.depth_mask);
    for (int i = 0; i < PLUME_SCOPE_RASTER_CAPABILITIES; ++i)
        if (capability_exists(scope, RASTER_CAPABILITIES[i]))
            set_enabled(RASTER_CAPABILITIES[i], scope->draw.raster_capabilities[i]);
    for (GLint i = 0; i < scope->draw.draw_buffers; ++i) {
        const GLboolean *mask = scope->draw.color_mask[i];
        if (!scope->caps.indexed_draw_buffer_state) {
            glColorMask(mask[0], mask[1], mask[2], mask[3]);
            set_enabled(GL_BLEND, scope->draw.blend[0]);
            break;
        }
        glColorMaski((GLuint)i, mask[0], mask[1], mask[2], mask[3]);
        if (scope->draw.blend[i]) glEnablei(GL_BLEND, (GLuint)i);
        else glDisablei(GL_BLEND, (GLuint)i);
    }
    for (GLint i = 0; i < scope->draw.clip_distances; ++i)
        set_enabled(GL_CLIP_DISTANCE0 + (GLenum)i, scope->draw.clip_distance[i]);
    if (!scope->caps.es) glPolygonMode(GL_FRONT_AND_BACK, (GLenum)scope->draw.polygon_mode);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)scope->draw.draw_framebuffer);
    glViewport(scope->draw.viewport[0], scope->draw.viewport[1], scope->draw.viewport[2], scope->draw.viewport[3]);
    glDepthFunc((GLenum)scope->draw.depth_func);
    set_enabled(GL_SCISSOR_TEST, scope->draw.scissor_test);
}

static void save_query_buffer(plume_gl_scope *scope) {
    if (!scope->caps.query_buffer) return;
    glGetIntegerv(GL_QUERY_BUFFER_BINDING, &scope->query.buffer);
    glBindBuffer(GL_QUERY_BUFFER, 0);
}

static void restore_query_buffer(const plume_gl_scope *scope) {
    if (scope->caps.query_buffer) glBindBuffer(GL_QUERY_BUFFER, (GLuint)scope->query.buffer);
}

static void save_image_unit(plume_gl_scope *scope) {
    glGetIntegeri_v(GL_IMAGE_BINDING_NAME, 0, &scope->image.texture);
    glGetIntegeri_v(GL_IMAGE_BINDING_LEVEL, 0, &scope->image.level);
    glGetIntegeri_v(GL_IMAGE_BINDING_LAYERED, 0, &scope->image.layered);
    glGetIntegeri_v(GL_IMAGE_BINDING_LAYER, 0, &scope->image.layer);
    glGetIntegeri_v(GL_IMAGE_BINDING_ACCESS, 0, &scope->image.access);
    glGetIntegeri_v(GL_IMAGE_BINDING_FORMAT, 0, &scope->image.format);
}

static void restore_image_unit(const plume_gl_scope *scope) {
    glBindImageTexture(0, (GLuint)scope->image.texture, scope->image.level, (GLboolean)scope->image.layered,
                       scope->image.layer, (GLenum)scope->image.access, (GLenum)scope->image.format);
}

static void save_pixel_pack(plume_gl_scope *scope) {
    save_pixel_store(scope, &scope->pack.store, GL_PIXEL_PACK_BUFFER_BINDING, PACK_PARAMETERS);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &scope->pack.read_framebuffer);
}

static void restore_pixel_pack(const plume_gl_scope *scope) {
    restore_pixel_store(scope, &scope->pack.store, GL_PIXEL_PACK_BUFFER, PACK_PARAMETERS);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)scope->pack.read_framebuffer);
}

/* Both keep the active unit as it is: PLUME_SCOPE_TEXTURES, saved or not,
 * owns it. */
static void save_texture_buffers(plume_gl_scope *scope) {
    if (!scope->caps.texture_buffers) return;
    GLint active = 0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    for (GLuint i = 0; i < PLUME_SCOPE_TEXTURE_UNITS; ++i) {
        glActiveTexture(GL_TEXTURE0 + i);
        glGetIntegerv(GL_TEXTURE_BINDING_BUFFER, &scope->texture_buffers.texture_buffer[i]);
    }
    glActiveTexture((GLenum)active);
}

static void restore_texture_buffers(const plume_gl_scope *scope) {
    if (!scope->caps.texture_buffers) return;
    GLint active = 0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    for (GLuint i = 0; i < PLUME_SCOPE_TEXTURE_UNITS; ++i) {
        glActiveTexture(GL_TEXTURE0 + i);
        glBindTexture(GL_TEXTURE_BUFFER, (GLuint)scope->texture_buffers.texture_buffer[i]);
    }
    glActiveTexture((GLenum)active);
}

static void save_transform_feedback(plume_gl_scope *scope) {
    scope->feedback.objects = scope->caps.feedback_objects;
    if (scope->feedback.objects) {
        glGetIntegerv(GL_TRANSFORM_FEEDBACK_BINDING, &scope->feedback.object);
    } else {
        glGetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 0, &scope->feedback.slot_buffer);
        glGetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_START, 0, &scope->feedback.slot_start);
        glGetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, 0, &scope->feedback.slot_size);
    }
    glGetIntegerv(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, &scope->feedback.generic);
}

static void restore_transform_feedback(const plume_gl_scope *scope) {
    if (scope->feedback.objects) {
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, (GLuint)scope->feedback.object);
    } else {
        GLuint buffer = (GLuint)scope->feedback.slot_buffer;
        if (buffer != 0 && scope->feedback.slot_size > 0)
            glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer, (GLintptr)scope->feedback.slot_start,
                              (GLsizeiptr)scope->feedback.slot_size);
        else glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
    }
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, (GLuint)scope->feedback.generic);
}

/* The scope's places after the always-saved slots; a GL without that many
 * bindings (compute needs nine: spawn_create) has nothing to save there. */
static void save_optional_ssbo(plume_gl_scope *scope) {
    for (GLuint k = 0; k < PLUME_SCOPE_OPTIONAL_SSBO_SLOTS; ++k)
        if (scope->caps.ssbo_bindings > (GLint)(PLUME_SCOPE_OPTIONAL_SSBO_SLOT + k))
            save_ssbo_slot(scope, PLUME_SCOPE_OPTIONAL_SSBO_SLOT + k, PLUME_SCOPE_SSBO_SLOTS + k);
}

static void restore_optional_ssbo(const plume_gl_scope *scope) {
    for (GLuint k = 0; k < PLUME_SCOPE_OPTIONAL_SSBO_SLOTS; ++k)
        if (scope->caps.ssbo_bindings > (GLint)(PLUME_SCOPE_OPTIONAL_SSBO_SLOT + k))
            restore_ssbo_slot(scope, PLUME_SCOPE_OPTIONAL_SSBO_SLOT + k, PLUME_SCOPE_SSBO_SLOTS + k);
}

/* Every group plume_gl_scope_save takes, with its save and its restore;
 * plume_gl_scope_end restores in this order. */
static const struct scope_group {
    plume_gl_scope_group group;
    void (*save)(plume_gl_scope *scope);
    void (*restore)(const plume_gl_scope *scope);
} SCOPE_GROUPS[] = {
    {PLUME_SCOPE_COPY_BUFFERS, save_copy_buffers, restore_copy_buffers},
    {PLUME_SCOPE_TEXTURES, save_textures, restore_textures},
    {PLUME_SCOPE_PIXEL_UNPACK, save_pixel_unpack, restore_pixel_unpack},
    {PLUME_SCOPE_DRAW, save_draw, restore_draw},
    {PLUME_SCOPE_QUERY_BUFFER, save_query_buffer, restore_query_buffer},
    {PLUME_SCOPE_IMAGE_UNIT, save_image_unit, restore_image_unit},
    {PLUME_SCOPE_PIXEL_PACK, save_pixel_pack, restore_pixel_pack},
    {PLUME_SCOPE_TEXTURE_BUFFERS, save_texture_buffers, restore_texture_buffers},
    {PLUME_SCOPE_TRANSFORM_FEEDBACK, save_transform_feedback, restore_transform_feedback},
    {PLUME_SCOPE_OPTIONAL_SSBO, save_optional_ssbo, restore_optional_ssbo},
};
enum { SCOPE_GROUP_COUNT = sizeof SCOPE_GROUPS / sizeof SCOPE_GROUPS[0] };
_Static_assert(PLUME_SCOPE_OPTIONAL_SSBO == 1 << (SCOPE_GROUP_COUNT - 1), "a row for every group");

/* ---- The scope --------------------------------------------------------------- */

void plume_gl_scope_begin(plume_gl_scope *scope, const plume_env *env) {
    scope->env = env;
    scope->caps = plume_env_gl_caps(env);
    scope->saved_groups = 0;
    save_bindings(scope);
    save_debug(scope, env);
}

void plume_gl_scope_save(plume_gl_scope *scope, unsigned groups) {
    unsigned fresh = groups & ~scope->saved_groups;
    scope->saved_groups |= fresh;
    for (int g = 0; g < SCOPE_GROUP_COUNT; ++g)
        if (fresh & SCOPE_GROUPS[g].group) SCOPE_GROUPS[g].save(scope);
}

void plume_gl_scope_neutral_raster(plume_gl_scope *scope) {
    plume_gl_scope_save(scope, PLUME_SCOPE_DRAW);
    for (int i = 0; i < PLUME_SCOPE_RASTER_CAPABILITIES; ++i)
        if (capability_exists(scope, RASTER_CAPABILITIES[i])) glDisable(RASTER_CAPABILITIES[i]);
    for (GLint i = 0; i < scope->draw.clip_distances; ++i) glDisable(GL_CLIP_DISTANCE0 + (GLenum)i);
    if (scope->caps.es) {
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        if (!scope->caps.indexed_draw_buffer_state) return;
    } else {
        glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    }
    glColorMaski(0, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    for (GLint i = 1; i < scope->draw.draw_buffers; ++i)
        glColorMaski((GLuint)i, GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
}

void plume_gl_scope_end(plume_gl_scope *scope) {
    for (int g = 0; g < SCOPE_GROUP_COUNT; ++g)
        if (scope->saved_groups & SCOPE_GROUPS[g].group) SCOPE_GROUPS[g].restore(scope);
    restore_bindings(scope);
    restore_debug(scope);
}

plume_result plume_check_host_state(const plume_env *env, const char *caller) {
    plume_result context = plume_check_gl_context(env, caller);
    if (context != PLUME_OK) return context;
    /* A context lost to a GPU reset ignores every command and answers
     * queries with nothing: said first, instead of whatever its answers
     * would make of the call (a viewport of 0x0, a draw of nothing). */
    GLenum reset = plume_env_gl_caps(env).reset_status ? glGetGraphicsResetStatus() : GL_NO_ERROR;
    if (reset != GL_NO_ERROR) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: the GL context was lost to a GPU reset (glGetGraphicsResetStatus 0x%04x); destroy this "
                  "module's objects and make them again in a new context",
                  caller, reset);
        return PLUME_ERROR_GL;
    }
    /* A GL without transform feedback objects (3.3) can neither pause a
     * capture nor say whether one is active: there a call under a capture
     * fails with the GL's error, logged. */
    if (!plume_env_gl_caps(env).feedback_objects) return PLUME_OK;
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

/* The NDC depth `projection` gives the point at `view_depth` in front of the
 * eye (0, 0, -view_depth); NaN where it projects behind the eye. */
static float ndc_depth_at(const float *projection, float view_depth) {
    float z = -projection[10] * view_depth + projection[14];
    float w = -projection[11] * view_depth + projection[15];
    return w > 0.0f ? z / w : NAN;
}

uint32_t plume_depth_convention(const plume_env *env, const float *projection) {
    uint32_t convention = 0;
    if (plume_env_gl_caps(env).clip_control) {
        GLint mode = GL_NEGATIVE_ONE_TO_ONE;
        glGetIntegerv(GL_CLIP_DEPTH_MODE, &mode);
        if (mode == GL_ZERO_TO_ONE) convention |= PLUME_DEPTH_ZERO_TO_ONE;
    }
    /* Depth is monotonic in view depth for a perspective or orthographic
     * projection (an infinite far plane too): two points tell its direction. */
    if (ndc_depth_at(projection, 2.0f) < ndc_depth_at(projection, 1.0f)) convention |= PLUME_DEPTH_REVERSED;
    return convention;
}
