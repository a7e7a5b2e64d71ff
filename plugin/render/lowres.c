/* Drawing at low resolution, a wrapper around any path's draw: three
 * passes at 1/2 or 1/4 of the viewport's width and height (a quarter or a
 * sixteenth of its pixels, and so of the blending the raster path pays per
 * particle fragment):
 *   1. the host's depth texture downsampled, farthest per block
 *      (lowres_depth.frag says why), into a depth attachment and a colour
 *      copy of it;
 *   2. the particles, as a path draws them, into an RGBA16F target
 *      cleared to transparent, depth-tested against (1) and faded against its
 *      copy;
 *   3. that target blended onto the host's framebuffer with a depth-aware
 *      upsample (lowres_upsample.glsl), once per pixel: the viewport's, or
 *      after the tiled path the tiles it names (render/tile_cover.vert), by
 *      a raster pass (lowres_composite.frag) or, onto an RGBA16F texture of
 *      the host's, in compute (lowres_upsample.comp).
 * Blending premultiplied colours into a transparent target and the result
 * over the host's colour gives what blending each particle over the host's
 * colour gives (the "over" operator is associative). Passes 1 and 3 are
 * indirect draws whose instance count a one-invocation pass sets from the
 * GPU's drawn count (lowres_args.comp): with nothing drawn neither touches a
 * pixel, and the CPU never reads the count. Any path draws pass 2
 * (render/draw.c runs it between lowres_begin and lowres_end); so does a
 * draw group, with state of its own. */
#include <stdio.h>
#include <string.h>

#include "render/lowres.h"

_Static_assert(PLUME_BINDING_LOWRES_ARGS < PLUME_SCOPE_SSBO_SLOTS, "the GL state scope restores the arguments' binding");

enum { EDGE_PERCENT = 5 }; /* view depths further apart than 5% are a depth edge */

static int factor_index(int factor) { return factor == 2 ? 0 : 1; }

static const char *const DOWNSAMPLE_UNIFORMS[LOWRES_DOWNSAMPLE_UNIFORMS + 1] = {"u_host_size", "u_depth_convention",
                                                                             "u_host_depth", NULL};
static const char *const COMPOSITE_UNIFORMS[LOWRES_COMPOSITE_UNIFORMS + 1] = {
    "u_lowres_size",   "u_viewport_origin", "u_host_size",   "u_inverse_projection",
    "u_edge_ratio",    "u_particles",       "u_lowres_depth", "u_host_depth", "u_depth_convention",
    SCREEN_COVER_UNIFORM_NAMES, "u_over_host", "u_host_clip", NULL};

static void factor_defines(int factor, char defines[64]) {
    snprintf(defines, 64, "#define LOWRES_FACTOR %d\n", factor);
}

/* A composite program over the vertex stage `vertex` (the viewport's
 * triangle or the tiles' quads; NULL: the compute upsample onto the host's
 * colour), its uniforms found and its fixed ones set. */
static plume_result build_composite(const plume_env *env, int factor, const char *label, const char *vertex,
                                    GLuint *out, GLint at[LOWRES_COMPOSITE_UNIFORMS]) {
    char defines[64];
    factor_defines(factor, defines);
    plume_shader_stage stages[2] = {{GL_VERTEX_SHADER, vertex}, {GL_FRAGMENT_SHADER, "render/lowres_composite.frag"}};
    plume_shader_stage upsample = {GL_COMPUTE_SHADER, "render/lowres_upsample.comp"};
    plume_result r = vertex ? plume_build_program(env, label, stages, 2, defines, out)
                            : plume_build_program(env, label, &upsample, 1, defines, out);
    if (r != PLUME_OK) return r;
    plume_find_uniform_locations(*out, COMPOSITE_UNIFORMS, at);
    glProgramUniform1i(*out, at[LOWRES_COMPOSITE_PARTICLES], 0);
    glProgramUniform1i(*out, at[LOWRES_COMPOSITE_LOWRES_DEPTH], 1);
    glProgramUniform1i(*out, at[LOWRES_COMPOSITE_HOST_DEPTH], 2);
    glProgramUniform1f(*out, at[LOWRES_COMPOSITE_EDGE_RATIO], EDGE_PERCENT / 100.0f);
    return PLUME_OK;
}

/* The downsample and the viewport's composite; the tiles' composite is
 * built by the first upsample after a tiled draw (a raster-only host never
 * compiles it). */
static plume_result build_programs(const plume_env *env, int factor, lowres_programs *out) {
    char defines[64];
    factor_defines(factor, defines);
    plume_shader_stage downsample[2] = {{GL_VERTEX_SHADER, "render/fullscreen.vert"},
                                        {GL_FRAGMENT_SHADER, "render/lowres_depth.frag"}};
    plume_result r = plume_build_program(env, "plume draw: depth downsample", downsample, 2, defines,
                                         &out->downsample);
    if (r == PLUME_OK)
        r = build_composite(env, factor, "plume draw: low-resolution composite", "render/fullscreen.vert",
                            &out->composite, out->composite_at);
    if (r != PLUME_OK) return r;
    plume_find_uniform_locations(out->downsample, DOWNSAMPLE_UNIFORMS, out->downsample_at);
    glProgramUniform1i(out->downsample, out->downsample_at[LOWRES_DOWNSAMPLE_HOST_DEPTH], 2);
    return PLUME_OK;
}

/* The argument pass, shared by both factors, and the full-screen passes'
 * vertex array and depth sampler: made once. */
static plume_result ensure_args(lowres_state *r, const plume_env *env) {
    if (r->args_program) return PLUME_OK;
    plume_shader_stage stage = {GL_COMPUTE_SHADER, "render/lowres_args.comp"};
    plume_result result = plume_build_program(env, "plume draw: low-resolution arguments", &stage, 1, NULL,
                                              &r->args_program);
    if (result != PLUME_OK) return result;
    glGenVertexArrays(1, &r->vertex_array);
    GLuint unused_sprite_sampler = 0;
    draw_create_samplers(&unused_sprite_sampler, &r->depth_sampler);
    glDeleteSamplers(1, &unused_sprite_sampler);
    return plume_drain_gl_errors(env, "plume_system_draw (low-resolution arguments)");
}

plume_result lowres_begin(lowres_state *r, const particle_view *v, const plume_frame_desc *frame,
                          uint32_t depth_convention, int factor,
                          lowres_pass *pass) {
    lowres_programs *programs = &r->programs[factor_index(factor)];
    plume_result result = PLUME_OK;
    if (!programs->composite) result = build_programs(v->env, factor, programs);
    if (result == PLUME_OK) result = ensure_args(r, v->env);
    *pass = (lowres_pass){.factor = factor, .depth_function = GL_LESS};
    glGetIntegerv(GL_VIEWPORT, pass->viewport);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &pass->host_framebuffer);
    glGetIntegerv(GL_DEPTH_FUNC, &pass->depth_function);
    pass->depth_convention = depth_convention;
    pass->scissor = glIsEnabled(GL_SCISSOR_TEST);
    screen_scratch *shared = result == PLUME_OK ? screen_scratch_join(v->context, &r->joined_scratch) : NULL;
    if (result == PLUME_OK && !shared) result = PLUME_ERROR_OUT_OF_MEMORY;
    int w = (pass->viewport[2] + factor - 1) / factor, h = (pass->viewport[3] + factor - 1) / factor;
    if (result == PLUME_OK) result = screen_scratch_ensure_lowres(shared, v->env, factor_index(factor), w, h);
    if (result != PLUME_OK) return result;
    const lowres_targets *targets = pass->targets = &shared->lowres[factor_index(factor)];
    pass->args_buffer = shared->lowres_args_buffer;
    GLuint sampler = r->depth_sampler;

    /* 1. Farthest depth per block. Scissor off: the module's own targets are
     * drawn whole. */
    draw_stage_begin(v, PLUME_DRAW_STAGE_DOWNSAMPLE);
    particle_bind_storage(PLUME_BINDING_STATE, v->state);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_LOWRES_ARGS, pass->args_buffer);
    glUseProgram(r->args_program);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_COMMAND_BARRIER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, targets->depth_framebuffer);
    glViewport(0, 0, targets->width, targets->height);
    draw_bind_texture(2, frame->depth_texture, sampler);
    glUseProgram(programs->downsample);
    const GLint *at = programs->downsample_at;
    glProgramUniform2i(programs->downsample, at[LOWRES_DOWNSAMPLE_HOST_SIZE], pass->viewport[2], pass->viewport[3]);
    glProgramUniform1ui(programs->downsample, at[LOWRES_DOWNSAMPLE_DEPTH_CONVENTION], pass->depth_convention);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_ALWAYS);
    glDepthMask(GL_TRUE);
    glDisablei(GL_BLEND, 0);
    glBindVertexArray(r->vertex_array);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, pass->args_buffer);
    glDrawArraysIndirect(GL_TRIANGLES, NULL);
    draw_stage_end(v, PLUME_DRAW_STAGE_DOWNSAMPLE);

    /* 2. The particle target, cleared, bound for the particles. */
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, targets->particle_framebuffer);
    const float transparent[4] = {0, 0, 0, 0};
    glClearBufferfv(GL_COLOR, 0, transparent);
    glDepthFunc((GLenum)pass->depth_function);
    return PLUME_OK;
}

draw_target lowres_target(const lowres_pass *pass) {
    const lowres_targets *r = pass->targets;
    draw_target t = {.factor = pass->factor, .texture = r->particles, .width = r->width, .height = r->height,
                     .depth_function = pass->depth_function, .depth_texture = r->depth_copy,
                     .depth_size = {(float)r->width, (float)r->height}};
    memcpy(t.viewport, pass->viewport, sizeof t.viewport);
    return t;
}

/* The compute upsample onto the host's colour (lowres_upsample.comp), over
 * the tiles `cover` names: a workgroup for each tile of the target (a row of
 * them a row of workgroups: an 8K target at 1/2 has more tiles than one
 * dimension of a dispatch must take), those past the ranges pass's count
 * leaving at once. The composite's uniforms are set. */
static void upsample_onto_host(GLuint c, const GLint *at, const screen_cover *cover, int factor,
                               const GLint viewport[4], const host_colour *host) {
    screen_cover_bind(cover, c, &at[LOWRES_COMPOSITE_COVER], factor, viewport);
    glProgramUniform1i(c, at[LOWRES_COMPOSITE_OVER_HOST], 1);
    glProgramUniform4iv(c, at[LOWRES_COMPOSITE_HOST_CLIP], 1, host->clip);
    draw_bind_host_colour(host);
    glDispatchCompute(cover->tiles_across, cover->tiles_down, 1);
    /* The host's colour written: whatever the host does with it next. */
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
}

bool lowres_end(lowres_state *r, const particle_view *v, const plume_frame_desc *frame, const mat4 projection,
                const lowres_pass *pass, const screen_cover *cover) {
    lowres_programs *programs = &r->programs[factor_index(pass->factor)];
    /* Where the tiles' composite cannot be built (said in the log), the
     * viewport's covers them too. */
    if (cover && !programs->composite_tiles &&
        build_composite(v->env, pass->factor, "plume draw: low-resolution composite of tiles",
                        "render/tile_cover.vert", &programs->composite_tiles,
                        programs->composite_tiles_at) != PLUME_OK)
        cover = NULL;
    GLuint sampler = r->depth_sampler;
    const GLint *viewport = pass->viewport;
    /* 3. Onto the host's framebuffer, once per pixel. */
    draw_stage_begin(v, PLUME_DRAW_STAGE_UPSAMPLE);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)pass->host_framebuffer);
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    if (pass->scissor) glEnable(GL_SCISSOR_TEST); /* the host's scissor applies to the composite */
    host_colour host;
    bool onto_host = cover && !cover->raster_blend && draw_find_host_colour(v->env, viewport, &host);
    if (onto_host && !programs->upsample_onto_host &&
        build_composite(v->env, pass->factor, "plume draw: low-resolution upsample onto the host's colour", NULL,
                        &programs->upsample_onto_host, programs->upsample_onto_host_at) != PLUME_OK)
        onto_host = false;
    glDisable(GL_DEPTH_TEST);
    draw_blend_premultiplied(v->env);
    glBindVertexArray(r->vertex_array);
    const lowres_targets *targets = pass->targets;
    draw_bind_texture(0, targets->particles, sampler);
    draw_bind_texture(1, targets->depth_copy, sampler);
    draw_bind_texture(2, frame->depth_texture, sampler);
    GLuint c = onto_host ? programs->upsample_onto_host : cover ? programs->composite_tiles : programs->composite;
    const GLint *at = onto_host ? programs->upsample_onto_host_at
                      : cover   ? programs->composite_tiles_at
                                : programs->composite_at;
    glUseProgram(c);
    mat4 inverse;
    glm_mat4_inv((vec4 *)projection, inverse);
    glProgramUniformMatrix4fv(c, at[LOWRES_COMPOSITE_INVERSE_PROJECTION], 1, GL_FALSE, &inverse[0][0]);
    glProgramUniform2i(c, at[LOWRES_COMPOSITE_LOWRES_SIZE], targets->width, targets->height);
    glProgramUniform2i(c, at[LOWRES_COMPOSITE_VIEWPORT_ORIGIN], viewport[0], viewport[1]);
    glProgramUniform2i(c, at[LOWRES_COMPOSITE_HOST_SIZE], viewport[2], viewport[3]);
    glProgramUniform1ui(c, at[LOWRES_COMPOSITE_DEPTH_CONVENTION], pass->depth_convention);
    if (onto_host) {
        upsample_onto_host(c, at, cover, pass->factor, viewport, &host);
    } else if (cover) {
        screen_cover_bind(cover, c, &at[LOWRES_COMPOSITE_COVER], pass->factor, viewport);
        screen_cover_draw();
    } else {
        glBindBuffer(GL_DRAW_INDIRECT_BUFFER, pass->args_buffer);
        glDrawArraysIndirect(GL_TRIANGLES, NULL);
    }
    draw_stage_end(v, PLUME_DRAW_STAGE_UPSAMPLE);
    return onto_host;
}

enum { LOWRES_GL_OBJECTS = 4 * LOWRES_FACTORS + 3 };

uint32_t lowres_list_gl_objects(const lowres_state *r, plume_gl_object *out, uint32_t capacity) {
    plume_gl_object all[LOWRES_GL_OBJECTS];
    uint32_t n = 0;
    for (int i = 0; i < LOWRES_FACTORS; ++i) {
        all[n++] = (plume_gl_object){GL_PROGRAM, r->programs[i].downsample};
        all[n++] = (plume_gl_object){GL_PROGRAM, r->programs[i].composite};
        all[n++] = (plume_gl_object){GL_PROGRAM, r->programs[i].composite_tiles};
        all[n++] = (plume_gl_object){GL_PROGRAM, r->programs[i].upsample_onto_host};
    }
    all[n++] = (plume_gl_object){GL_PROGRAM, r->args_program};
    all[n++] = (plume_gl_object){GL_VERTEX_ARRAY, r->vertex_array};
    all[n++] = (plume_gl_object){GL_SAMPLER, r->depth_sampler};
    return plume_list_named_gl_objects(all, n, out, capacity);
}

void lowres_release(lowres_state *r, plume_context *context) {
    screen_scratch_leave(context, &r->joined_scratch);
    plume_gl_object owned[LOWRES_GL_OBJECTS];
    plume_delete_gl_objects(plume_context_env(context), owned, lowres_list_gl_objects(r, owned, LOWRES_GL_OBJECTS));
    memset(r, 0, sizeof *r);
}

static uint32_t list_attached(const void *state, plume_gl_object *out, uint32_t capacity) {
    return lowres_list_gl_objects(state, out, capacity);
}

static void release_attached(void *state, plume_context *context) { lowres_release(state, context); }

static const particle_attachment_class LOWRES_ATTACHMENT = {"low-resolution draw", release_attached, list_attached};

_Static_assert(sizeof(lowres_state) + 16 <= PARTICLE_ATTACHMENT_BYTES / 8, "fits its share of the system (draw.c)");

lowres_state *lowres_of(const particle_view *view) {
    return particle_view_attach(view, &LOWRES_ATTACHMENT, sizeof(lowres_state));
}
