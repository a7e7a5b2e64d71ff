/* The low-resolution draw path: three passes at 1/2 or 1/4 of the viewport's
 * width and height (a quarter or a sixteenth of its pixels, and so of the
 * blending the raster path pays per particle fragment):
 *   1. the host's depth texture downsampled, farthest per block
 *      (lowres_depth.frag says why), into a depth attachment and a colour
 *      copy of it;
 *   2. the particles, as the raster path draws them, into an RGBA16F target
 *      cleared to transparent, depth-tested against (1) and faded against its
 *      copy;
 *   3. that target blended onto the host's framebuffer with a depth-aware
 *      upsample (lowres_composite.frag), once per pixel.
 * Blending premultiplied colours into a transparent target and the result
 * over the host's colour gives what blending each particle over the host's
 * colour gives (the "over" operator is associative). Passes 1 and 3 are
 * indirect draws whose instance count a one-invocation pass sets from the
 * GPU's drawn count (lowres_args.comp): with nothing drawn neither touches a
 * pixel, and the CPU never reads the count. */
#include <stdio.h>
#include <string.h>

#include "particles/particles_internal.h"

_Static_assert(PLUME_BINDING_LOWRES_ARGS < PLUME_SCOPE_SSBO_SLOTS, "the GL state scope restores the arguments' binding");

enum { EDGE_PERCENT = 5 }; /* view depths further apart than 5% are a depth edge */

static int factor_index(int factor) { return factor == 2 ? 0 : 1; }

static plume_result build_programs(system_state *s, int factor, lowres_programs *out) {
    char defines[64];
    snprintf(defines, sizeof defines, "#define LOWRES_FACTOR %d\n", factor);
    plume_shader_stage downsample[2] = {{GL_VERTEX_SHADER, "render/fullscreen.vert"},
                                        {GL_FRAGMENT_SHADER, "render/lowres_depth.frag"}};
    plume_shader_stage composite[2] = {{GL_VERTEX_SHADER, "render/fullscreen.vert"},
                                       {GL_FRAGMENT_SHADER, "render/lowres_composite.frag"}};
    plume_result r = plume_build_program(&s->env, "plume draw: depth downsample", downsample, 2, defines,
                                         &out->downsample);
    if (r == PLUME_OK)
        r = plume_build_program(&s->env, "plume draw: low-resolution composite", composite, 2, defines,
                                &out->composite);
    if (r != PLUME_OK) return r;
    GLuint d = out->downsample, c = out->composite;
    out->downsample_host_size = glGetUniformLocation(d, "u_host_size");
    out->downsample_reversed = glGetUniformLocation(d, "u_reversed");
    glProgramUniform1i(d, glGetUniformLocation(d, "u_host_depth"), 2);
    out->composite_lowres_size = glGetUniformLocation(c, "u_lowres_size");
    out->composite_viewport_origin = glGetUniformLocation(c, "u_viewport_origin");
    out->composite_host_size = glGetUniformLocation(c, "u_host_size");
    out->composite_inverse_projection = glGetUniformLocation(c, "u_inverse_projection");
    out->composite_edge_ratio = glGetUniformLocation(c, "u_edge_ratio");
    glProgramUniform1i(c, glGetUniformLocation(c, "u_particles"), 0);
    glProgramUniform1i(c, glGetUniformLocation(c, "u_lowres_depth"), 1);
    glProgramUniform1i(c, glGetUniformLocation(c, "u_host_depth"), 2);
    glProgramUniform1f(c, out->composite_edge_ratio, EDGE_PERCENT / 100.0f);
    return PLUME_OK;
}

/* The argument pass and its buffer, shared by both factors: made once. */
static plume_result ensure_args(system_state *s) {
    lowres_renderer *r = &s->lowres;
    if (r->args_program) return PLUME_OK;
    plume_shader_stage stage = {GL_COMPUTE_SHADER, "render/lowres_args.comp"};
    plume_result result = plume_build_program(&s->env, "plume draw: low-resolution arguments", &stage, 1, NULL,
                                              &r->args_program);
    if (result != PLUME_OK) return result;
    GLint host_binding = 0; /* the draw's scope leaves the copy buffers to whoever binds them */
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &host_binding);
    r->args_buffer = plume_make_gpu_buffer(4 * 4, "plume draw: low-resolution arguments");
    glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)host_binding);
    return plume_drain_gl_errors(&s->env, "plume_system_draw (low-resolution arguments)");
}

static GLuint make_target(GLenum format, int width, int height, const char *label) {
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexStorage2D(GL_TEXTURE_2D, 1, format, width, height);
    glObjectLabel(GL_TEXTURE, texture, -1, label);
    return texture;
}

static void delete_targets(lowres_renderer *r) {
    GLuint framebuffers[2] = {r->depth_framebuffer, r->particle_framebuffer};
    glDeleteFramebuffers(2, framebuffers);
    GLuint textures[3] = {r->particles, r->depth, r->depth_copy};
    glDeleteTextures(3, textures);
    r->depth_framebuffer = r->particle_framebuffer = r->particles = r->depth = r->depth_copy = 0;
    r->width = r->height = 0;
}

/* (Re)makes the targets for a width x height viewport at 1/factor. Binds
 * GL_DRAW_FRAMEBUFFER and unit 0's texture (the scope restores both). */
static plume_result ensure_targets(system_state *s, int width, int height, int factor) {
    lowres_renderer *r = &s->lowres;
    int w = (width + factor - 1) / factor, h = (height + factor - 1) / factor;
    if (r->particles && r->width == w && r->height == h) return PLUME_OK;
    delete_targets(r);
    glActiveTexture(GL_TEXTURE0); /* the host's active unit may be one the scope does not restore */
    r->particles = make_target(GL_RGBA16F, w, h, "plume draw: low-resolution particles");
    r->depth = make_target(GL_DEPTH_COMPONENT32F, w, h, "plume draw: low-resolution depth");
    r->depth_copy = make_target(GL_R32F, w, h, "plume draw: low-resolution depth (sampled)");
    glGenFramebuffers(1, &r->depth_framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r->depth_framebuffer);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, r->depth_copy, 0);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, r->depth, 0);
    bool complete = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glGenFramebuffers(1, &r->particle_framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r->particle_framebuffer);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, r->particles, 0);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, r->depth, 0);
    complete = complete && glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    r->width = w;
    r->height = h;
    r->factor = factor;
    if (!complete) {
        plume_log(&s->env, PLUME_LOG_ERROR, "plume_system_draw: the low-resolution targets (%dx%d) are incomplete",
                  w, h);
        delete_targets(r);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    return plume_drain_gl_errors(&s->env, "plume_system_draw (low-resolution targets)");
}

static void bind_texture(GLuint unit, GLuint texture, GLuint sampler) {
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(GL_TEXTURE_2D, texture);
    glBindSampler(unit, sampler);
}

plume_result lowres_begin(system_state *s, const plume_frame_desc *frame, int factor, lowres_pass *pass) {
    lowres_renderer *r = &s->lowres;
    lowres_programs *programs = &r->programs[factor_index(factor)];
    plume_result result = PLUME_OK;
    if (!programs->composite) result = build_programs(s, factor, programs);
    if (result == PLUME_OK) result = ensure_args(s);
    *pass = (lowres_pass){.factor = factor, .depth_function = GL_LESS};
    glGetIntegerv(GL_VIEWPORT, pass->viewport);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &pass->host_framebuffer);
    glGetIntegerv(GL_DEPTH_FUNC, &pass->depth_function);
    pass->scissor = glIsEnabled(GL_SCISSOR_TEST);
    if (result == PLUME_OK) result = ensure_targets(s, pass->viewport[2], pass->viewport[3], factor);
    if (result != PLUME_OK) return result;
    GLuint sampler = raster_depth_sampler(&s->raster);

    /* 1. Farthest depth per block. Scissor off: the module's own targets are
     * drawn whole. */
    draw_stage_begin(s, PLUME_DRAW_STAGE_DOWNSAMPLE);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_STATE, s->state_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_LOWRES_ARGS, r->args_buffer);
    glUseProgram(r->args_program);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_COMMAND_BARRIER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r->depth_framebuffer);
    glViewport(0, 0, r->width, r->height);
    bind_texture(2, frame->depth_texture, sampler);
    glUseProgram(programs->downsample);
    glProgramUniform2i(programs->downsample, programs->downsample_host_size, pass->viewport[2], pass->viewport[3]);
    bool reversed = pass->depth_function == GL_GREATER || pass->depth_function == GL_GEQUAL;
    glProgramUniform1i(programs->downsample, programs->downsample_reversed, reversed);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_ALWAYS);
    glDepthMask(GL_TRUE);
    glDisablei(GL_BLEND, 0);
    glBindVertexArray(s->raster.vertex_array);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, r->args_buffer);
    glDrawArraysIndirect(GL_TRIANGLES, NULL);
    draw_stage_end(s, PLUME_DRAW_STAGE_DOWNSAMPLE);

    /* 2. The particle target, cleared, bound for the particles. */
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r->particle_framebuffer);
    const float transparent[4] = {0, 0, 0, 0};
    glClearBufferfv(GL_COLOR, 0, transparent);
    glDepthFunc((GLenum)pass->depth_function);
    return PLUME_OK;
}

void lowres_end(system_state *s, const plume_frame_desc *frame, const mat4 projection, const lowres_pass *pass) {
    lowres_renderer *r = &s->lowres;
    const lowres_programs *programs = &r->programs[factor_index(pass->factor)];
    GLuint sampler = raster_depth_sampler(&s->raster);
    const GLint *viewport = pass->viewport;
    /* 3. Onto the host's framebuffer, once per pixel. */
    draw_stage_begin(s, PLUME_DRAW_STAGE_UPSAMPLE);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)pass->host_framebuffer);
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    if (pass->scissor) glEnable(GL_SCISSOR_TEST); /* the host's scissor applies to the composite */
    glDisable(GL_DEPTH_TEST);
    draw_blend_premultiplied();
    glBindVertexArray(s->raster.vertex_array);
    bind_texture(0, r->particles, sampler);
    bind_texture(1, r->depth_copy, sampler);
    bind_texture(2, frame->depth_texture, sampler);
    GLuint c = programs->composite;
    glUseProgram(c);
    mat4 inverse;
    glm_mat4_inv((vec4 *)projection, inverse);
    glProgramUniformMatrix4fv(c, programs->composite_inverse_projection, 1, GL_FALSE, &inverse[0][0]);
    glProgramUniform2i(c, programs->composite_lowres_size, r->width, r->height);
    glProgramUniform2i(c, programs->composite_viewport_origin, viewport[0], viewport[1]);
    glProgramUniform2i(c, programs->composite_host_size, viewport[2], viewport[3]);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, r->args_buffer);
    glDrawArraysIndirect(GL_TRIANGLES, NULL);
    draw_stage_end(s, PLUME_DRAW_STAGE_UPSAMPLE);
}

plume_result lowres_draw(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection,
                         int factor) {
    lowres_pass pass;
    plume_result result = lowres_begin(s, frame, factor, &pass);
    if (result != PLUME_OK) return result;
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: low-resolution particles");
    const float size[2] = {(float)s->lowres.width, (float)s->lowres.height};
    raster_draw(s, view, projection, s->lowres.depth_copy, size, s->state_buffer, STATE_DRAW_ARGS_OFFSET);
    glPopDebugGroup();
    lowres_end(s, frame, projection, &pass);
    return PLUME_OK;
}

enum { LOWRES_GL_OBJECTS = 2 * LOWRES_FACTORS + 7 };

uint32_t lowres_list_gl_objects(const lowres_renderer *r, plume_gl_object *out, uint32_t capacity) {
    plume_gl_object all[LOWRES_GL_OBJECTS];
    uint32_t n = 0;
    for (int i = 0; i < LOWRES_FACTORS; ++i) {
        all[n++] = (plume_gl_object){GL_PROGRAM, r->programs[i].downsample};
        all[n++] = (plume_gl_object){GL_PROGRAM, r->programs[i].composite};
    }
    all[n++] = (plume_gl_object){GL_FRAMEBUFFER, r->depth_framebuffer};
    all[n++] = (plume_gl_object){GL_FRAMEBUFFER, r->particle_framebuffer};
    all[n++] = (plume_gl_object){GL_TEXTURE, r->particles};
    all[n++] = (plume_gl_object){GL_TEXTURE, r->depth};
    all[n++] = (plume_gl_object){GL_TEXTURE, r->depth_copy};
    all[n++] = (plume_gl_object){GL_PROGRAM, r->args_program};
    all[n++] = (plume_gl_object){GL_BUFFER, r->args_buffer};
    return plume_list_named_gl_objects(all, n, out, capacity);
}

void lowres_release(lowres_renderer *r) {
    plume_gl_object owned[LOWRES_GL_OBJECTS];
    plume_delete_gl_objects(owned, lowres_list_gl_objects(r, owned, LOWRES_GL_OBJECTS));
    memset(r, 0, sizeof *r);
}
