/* plume_system_draw: checks the frame, saves the host's state and runs the
 * draw path the frame asks for (raster or tiled, at full resolution or
 * inside the low-resolution wrapper at half or quarter; the fragment path's
 * own draw on the fragment path) inside the profiler's draw stage; and what
 * every path shares (draw_path.h). */
#include <math.h>
#include <string.h>

#include "render/draw_tuning.h"
#include "render/fill_probe.h"
#include "render/lowres.h"
#include "render/self_shadow.h"
#include "render/tiled.h"

static const char *const DRAW_STAGE_GROUPS[PLUME_DRAW_STAGE_COUNT] = {
    "plume draw: tiled project",   "plume draw: tiled scan",      "plume draw: tiled entries",
    "plume draw: tiled entry sort", "plume draw: tiled ranges",   "plume draw: tiled composite",
    "plume draw: tiled resolve",   "plume draw: tiled blend",     "plume draw: depth downsample",
    "plume draw: low-resolution composite"};

void draw_stage_begin(const particle_view *view, plume_draw_stage stage) {
    plume_debug_group_begin(view->env, DRAW_STAGE_GROUPS[stage]);
    profiler_draw_stage_begin(view->profiler, stage);
}

void draw_stage_end(const particle_view *view, plume_draw_stage stage) {
    profiler_draw_stage_end(view->profiler, stage);
    plume_debug_group_end(view->env);
}

void draw_depth_size(const plume_frame_desc *frame, float size[2]) {
    size[0] = (float)frame->viewport_size[0];
    size[1] = (float)frame->viewport_size[1];
    if (frame->viewport_size[0] <= 0 || frame->viewport_size[1] <= 0) {
        GLint viewport[4] = {0, 0, 1, 1};
        glGetIntegerv(GL_VIEWPORT, viewport);
        size[0] = (float)viewport[2];
        size[1] = (float)viewport[3];
    }
}

/* Whether an image unit can read and write `level` of `texture`: a
 * framebuffer may render into a level that an image access would find
 * invalid (below the base level, past the maximum, or of a texture that is
 * not complete), and such accesses read zero and write nothing. An
 * immutable texture's levels from its base to its maximum; a mutable one's
 * base level, where its filter reads no other level. */
static bool image_unit_takes_level(GLuint texture, GLint level) {
    GLint immutable = GL_FALSE, levels = 0, base = 0, max = 1000, filter = GL_NEAREST_MIPMAP_LINEAR;
    glGetTextureParameteriv(texture, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable);
    glGetTextureParameteriv(texture, GL_TEXTURE_BASE_LEVEL, &base);
    glGetTextureParameteriv(texture, GL_TEXTURE_MAX_LEVEL, &max);
    if (immutable) {
        glGetTextureParameteriv(texture, GL_TEXTURE_IMMUTABLE_LEVELS, &levels);
        return base <= level && level <= max && level < levels;
    }
    glGetTextureParameteriv(texture, GL_TEXTURE_MIN_FILTER, &filter);
    return level == base && (filter == GL_NEAREST || filter == GL_LINEAR);
}

/* A blend pass on a raster back end costs about a quarter of a millisecond at
 * 1280x720 on an H200 where the compute passes blend nearly for free
 * (notes/wave3-draws-h200.md). */
bool draw_find_host_colour(const plume_env *env, const GLint viewport[4], host_colour *out) {
    if (!plume_env_gl_caps(env).direct_state_access) return false;
    GLint framebuffer = 0, buffer = GL_NONE;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
    glGetIntegerv(GL_DRAW_BUFFER0, &buffer);
    if (framebuffer == 0 || buffer < GL_COLOR_ATTACHMENT0 || buffer > GL_COLOR_ATTACHMENT0 + 31) return false;
    GLint type = GL_NONE, name = 0, level = 0, layered = GL_FALSE, target = GL_NONE, format = GL_NONE;
    GLenum at = (GLenum)buffer;
    glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, at, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type != GL_TEXTURE) return false;
    glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, at, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
    glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, at, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &level);
    glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, at, GL_FRAMEBUFFER_ATTACHMENT_LAYERED, &layered);
    glGetTextureParameteriv((GLuint)name, GL_TEXTURE_TARGET, &target);
    if (target != GL_TEXTURE_2D || layered) return false;
    glGetTextureLevelParameteriv((GLuint)name, level, GL_TEXTURE_INTERNAL_FORMAT, &format);
    if (format != GL_RGBA16F || !image_unit_takes_level((GLuint)name, level)) return false;
    *out = (host_colour){.texture = (GLuint)name, .level = level, .origin = {viewport[0], viewport[1]},
                         .clip = {viewport[0], viewport[1], viewport[0] + viewport[2], viewport[1] + viewport[3]}};
    if (glIsEnabled(GL_SCISSOR_TEST)) {
        GLint box[4];
        glGetIntegerv(GL_SCISSOR_BOX, box);
        GLint box_clip[4] = {box[0], box[1], box[0] + box[2], box[1] + box[3]};
        for (int i = 0; i < 2; ++i) out->clip[i] = out->clip[i] > box_clip[i] ? out->clip[i] : box_clip[i];
        for (int i = 2; i < 4; ++i) out->clip[i] = out->clip[i] < box_clip[i] ? out->clip[i] : box_clip[i];
    }
    return true;
}

void draw_bind_host_colour(const host_colour *host) {
    glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    glBindImageTexture(0, host->texture, host->level, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA16F);
}

void draw_blend_premultiplied(const plume_env *env) {
    if (!plume_env_gl_caps(env).indexed_blend) {
        glEnable(GL_BLEND);
        glBlendFuncSeparate(GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        glBlendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
        return;
    }
    glEnablei(GL_BLEND, 0);
    glBlendFuncSeparatei(0, GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glBlendEquationSeparatei(0, GL_FUNC_ADD, GL_FUNC_ADD);
}

void draw_blend_particles_over_depth(const plume_env *env) {
    draw_blend_premultiplied(env);
    glEnable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
}

frame_light draw_frame_light(const plume_frame_desc *frame) {
    frame_light light;
    memcpy(light.color, frame->light_color, sizeof light.color);
    memcpy(light.ambient, frame->ambient_color, sizeof light.ambient);
    float length = sqrtf(frame->light_direction[0] * frame->light_direction[0] +
                         frame->light_direction[1] * frame->light_direction[1] +
                         frame->light_direction[2] * frame->light_direction[2]);
    for (int i = 0; i < 3; ++i) light.direction[i] = length > 1e-20f ? frame->light_direction[i] / length : 0.0f;
    return light;
}

bool draw_frame_is_dark(const plume_frame_desc *frame) {
    bool directional = false, ambient = false, direction = false;
    for (int i = 0; i < 3; ++i) {
        directional = directional || frame->light_color[i] > 0.0f;
        ambient = ambient || frame->ambient_color[i] > 0.0f;
        direction = direction || frame->light_direction[i] != 0.0f;
    }
    return !ambient && !(directional && direction);
}

void draw_create_samplers(GLuint *sprite_sampler, GLuint *depth_sampler) {
    glGenSamplers(1, sprite_sampler);
    glSamplerParameteri(*sprite_sampler, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glSamplerParameteri(*sprite_sampler, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glSamplerParameteri(*sprite_sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(*sprite_sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glGenSamplers(1, depth_sampler);
    glSamplerParameteri(*depth_sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glSamplerParameteri(*depth_sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glSamplerParameteri(*depth_sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(*depth_sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(*depth_sampler, GL_TEXTURE_COMPARE_MODE, GL_NONE);
}

void draw_bind_texture(GLuint unit, GLuint texture, GLuint sampler) {
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(GL_TEXTURE_2D, texture);
    glBindSampler(unit, sampler);
}

void draw_bind_sprite(const particle_view *view, GLuint sampler) {
    if (!view->sprite_texture) return;
    if (view->motion_texture) draw_bind_texture(PLUME_TEXTURE_UNIT_FLIPBOOK_MOTION, view->motion_texture, sampler);
    if (!view->sprite_is_array) {
        draw_bind_texture(0, view->sprite_texture, sampler);
        return;
    }
    glActiveTexture(GL_TEXTURE0 + PLUME_TEXTURE_UNIT_SPRITE_ARRAY);
    glBindTexture(GL_TEXTURE_2D_ARRAY, view->sprite_texture);
    glBindSampler(PLUME_TEXTURE_UNIT_SPRITE_ARRAY, sampler);
}

/* ---- What the host hands the draw ----------------------------------------------- */

bool draw_viewport_is_empty(void) {
    GLint viewport[4] = {0, 0, 1, 1};
    glGetIntegerv(GL_VIEWPORT, viewport);
    return viewport[2] <= 0 || viewport[3] <= 0;
}

/* Sampling a texture attached to the framebuffer being drawn is a rendering
 * feedback loop (GL 4.6 core, 9.3.1): undefined results even with depth
 * writes off, since the raster path samples it where it tests against it. */
static bool attached_to_draw_framebuffer(GLuint texture) {
    GLint framebuffer = 0, type = GL_NONE, name = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
    if (framebuffer == 0) return false;
    glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                                          GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type != GL_TEXTURE) return false;
    glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                                          GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
    return (GLuint)name == texture;
}

plume_result draw_check_host_inputs(const plume_env *env, const char *caller, const plume_frame_desc *frame) {
    if (frame->viewport_size[0] < 0 || frame->viewport_size[1] < 0) {
        plume_log(env, PLUME_LOG_ERROR, "%s: viewport_size is %d x %d; it must be >= 0 (0, 0: the GL viewport's)",
                  caller, (int)frame->viewport_size[0], (int)frame->viewport_size[1]);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_result r = particles_check_depth_texture(env, caller, frame->depth_texture);
    if (r != PLUME_OK) return r;
    if (frame->depth_texture != 0 && attached_to_draw_framebuffer(frame->depth_texture)) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: depth_texture %u is attached to the draw framebuffer; sampling it there is a GL feedback "
                  "loop: pass a copy of the depth (docs/integration.md, a depth texture from any depth buffer)",
                  caller, frame->depth_texture);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return PLUME_OK;
}

/* ---- The pick --------------------------------------------------------------------- */

/* What the pick remembers per system: the warnings it gave. */
typedef struct draw_choices {
    bool warned_lowres_without_depth, warned_tiled_without_depth, warned_lit_without_light;
    fill_probe fill; /* the automatic path's measure of the raster draw's pixels */
    draw_decision kept; /* the automatic path's last choice */
} draw_choices;

/* Each attachment of render/ takes at most its share of the system's bytes:
 * the tiled path half, the others an eighth each (a slot's alignment
 * included); each file checks its own. */
_Static_assert(sizeof(draw_choices) + 16 <= PARTICLE_ATTACHMENT_BYTES / 8, "fits its share of the system");

static void release_choices(void *state, plume_context *context) {
    fill_probe_release(&((draw_choices *)state)->fill, plume_context_env(context));
}

static uint32_t list_choices(const void *state, plume_gl_object *out, uint32_t capacity) {
    return fill_probe_list(&((const draw_choices *)state)->fill, out, capacity);
}

static const particle_attachment_class DRAW_CHOICES = {"draw path choice", release_choices, list_choices};

/* Both the low resolutions and the tiled path read the host's depth texture
 * (the only depth the module can read): without one, the draw is the
 * full-resolution raster draw, and each missing piece is said once. */
static void warn_once(const particle_view *v, bool *warned, const char *what) {
    if (*warned) return;
    plume_log(v->env, PLUME_LOG_WARNING, "plume_system_draw: %s needs the frame's depth_texture; %s", what,
              "drawing with the full-resolution raster path");
    *warned = true;
}

draw_target draw_host_target(const plume_frame_desc *frame) {
    draw_target t = {.factor = 1, .depth_function = GL_LESS, .depth_texture = frame->depth_texture};
    t.viewport[2] = t.viewport[3] = 1;
    glGetIntegerv(GL_VIEWPORT, t.viewport);
    glGetIntegerv(GL_DEPTH_FUNC, &t.depth_function);
    t.width = t.viewport[2];
    t.height = t.viewport[3];
    t.depth_origin[0] = t.viewport[0];
    t.depth_origin[1] = t.viewport[1];
    draw_depth_size(frame, t.depth_size);
    return t;
}

/* `path` onto `target`, with the raster path where it cannot be made; the
 * path that drew and the resolution into the profile. */
static plume_result draw_with(const draw_path *path, const particle_view *v, const draw_frame *frame,
                              const draw_target *target, plume_gl_scope *scope) {
    plume_result r = path->draw(v, frame, target, NULL, scope);
    const draw_path *raster = v->trail.pair_buffer ? &trail_draw_path : &raster_draw_path;
    if (r == PLUME_ERROR_GL_UNSUPPORTED && path != raster) {
        path = raster;
        r = raster->draw(v, frame, target, NULL, scope);
    }
    draw_profile_choice(v->profiler, path == &tiled_draw_path, target->factor);
    return r;
}

void draw_profile_choice(plume_profiler *profiler, bool tiled, int factor) {
    profiler_set_u32(profiler, PROFILER_VALUE_DRAW_PATH, tiled ? PLUME_DRAW_PATH_TILED : PLUME_DRAW_PATH_RASTER);
    profiler_set_u32(profiler, PROFILER_VALUE_DRAW_RESOLUTION,
                     factor == 1 ? PLUME_DRAW_FULL : factor == 2 ? PLUME_DRAW_HALF : PLUME_DRAW_QUARTER);
}

bool draw_path_is_automatic(const plume_frame_desc *frame) {
    return frame->draw_path == PLUME_DRAW_PATH_DEFAULT || frame->draw_path == PLUME_DRAW_PATH_AUTOMATIC;
}

draw_decision draw_decide(const plume_frame_desc *frame, uint32_t drawn_bound, float fill, uint64_t trail_ranks,
                          draw_decision *kept) {
    bool has_depth = frame->depth_texture != 0, automatic = draw_path_is_automatic(frame);
    uint32_t resolution = frame->draw_resolution;
    bool tiled = frame->draw_path == PLUME_DRAW_PATH_TILED;
    if (automatic) {
        float tiled_share = kept && kept->tiled ? DRAW_TUNING.keep_share : 1.0f;
        float half_share = kept && kept->factor == 2 ? DRAW_TUNING.keep_share : 1.0f;
        tiled = has_depth && ((float)drawn_bound >= (float)DRAW_TUNING.tiled_from * tiled_share ||
                              fill >= DRAW_TUNING.tiled_from_fill * tiled_share);
        if (tiled && resolution == PLUME_DRAW_FULL && frame->draw_quality == PLUME_DRAW_QUALITY_MAY_LOWER &&
            (float)drawn_bound >= (float)DRAW_TUNING.half_from * half_share)
            resolution = PLUME_DRAW_HALF;
    }
    /* A segment's triangles are ranks, made for a quad a pair drawn: past
     * the tuning's most, tiled only when asked. */
    if (frame->draw_path != PLUME_DRAW_PATH_TILED && trail_ranks > DRAW_TUNING.trail_tiled_most_ranks) tiled = false;
    int factor = !has_depth || resolution == PLUME_DRAW_FULL ? 1 : resolution == PLUME_DRAW_HALF ? 2 : 4;
    draw_decision decision = {.tiled = tiled && has_depth, .factor = factor};
    if (kept && automatic) *kept = decision;
    return decision;
}

static plume_result draw_system(const particle_view *v, const draw_frame *frame, draw_choices *choices,
                                plume_gl_scope *scope) {
    const plume_frame_desc *desc = frame->desc;
    draw_target target = draw_host_target(desc);
    if (v->desc->path == PLUME_PATH_FRAGMENT) {
        draw_profile_choice(v->profiler, false, 1);
        return fragment_raster_draw_path.draw(v, frame, &target, NULL, scope);
    }
    if (v->mesh) return mesh_draw_path.draw(v, frame, &target, NULL, scope);
    bool has_depth = desc->depth_texture != 0;
    if (desc->draw_resolution != PLUME_DRAW_FULL && !has_depth)
        warn_once(v, &choices->warned_lowres_without_depth, "a low draw_resolution");
    if (desc->draw_path == PLUME_DRAW_PATH_TILED && !has_depth)
        warn_once(v, &choices->warned_tiled_without_depth, "the tiled draw path");
    plume_result shadow = self_shadow_prepare(v);
    if (shadow != PLUME_OK) return shadow;
    /* A trail system draws its segments and particles: as many primitives
     * as pairs, and the tiled path's projection has no room for a
     * self-shadow map (eight storage blocks). */
    bool trail = v->trail.pair_buffer != 0;
    /* The tiled path's ranks follow what is drawn: a quad a pair at least. */
    uint64_t trail_ranks = trail ? (uint64_t)v->sort_bound * v->trail.entries * 2 : 0;
    draw_decision decision = draw_decide(desc, trail ? v->sort_bound * v->trail.entries : v->sort_bound,
                                         fill_probe_fill_for(&choices->fill, desc, v->sort_bound, scope), trail_ranks,
                                         &choices->kept);
    int factor = decision.factor;
    const draw_path *path = decision.tiled ? &tiled_draw_path : &raster_draw_path;
    if (trail && (!decision.tiled || v->desc->self_shadow.strength > 0.0f)) path = &trail_draw_path;
    if (factor == 1) {
        /* The automatic path measures the raster draw's fill now and then. */
        bool probing = fill_probe_counts(desc) && path == &raster_draw_path &&
                       fill_probe_begin(&choices->fill, target.viewport[2] * target.viewport[3], v->sort_bound);
        plume_result r = draw_with(path, v, frame, &target, scope);
        if (probing) fill_probe_end();
        return r;
    }
    lowres_state *low = lowres_of(v);
    if (!low) return PLUME_ERROR_OUT_OF_MEMORY;
    lowres_pass pass;
    plume_result r = lowres_begin(low, v, desc, frame->depth_convention, factor, &pass);
    if (r != PLUME_OK) return r;
    target = lowres_target(&pass);
    plume_debug_group_begin(v->env, "plume draw: low-resolution particles");
    r = draw_with(path, v, frame, &target, scope);
    plume_debug_group_end(v->env);
    /* Only a tiled draw leaves a cover, so only its upsample blends onto
     * the host in compute: the answer is its renderer's (made by the draw),
     * as a draw group's is its own. */
    tiled_renderer *tiled = path == &tiled_draw_path ? tiled_of(v) : NULL;
    screen_cover cover;
    bool covered = tiled && tiled_take_cover(tiled, &cover);
    bool blended = lowres_end(low, v, desc, frame->projection, &pass, covered ? &cover : NULL);
    if (tiled) tiled->blended_onto_host = blended;
    return r;
}

plume_result plume_system_draw(plume_context *context, plume_system handle, const plume_frame_desc *frame) {
    static const char *CALLER = "plume_system_draw";
    particle_view view;
    draw_frame drawn = {.desc = frame};
    plume_result r = particles_find_frame_view(context, handle, CALLER, frame, &view, drawn.view, drawn.projection);
    if (r != PLUME_OK) return r;
    if ((r = plume_check_gl_context(view.env, CALLER)) != PLUME_OK) return r;
    if ((r = draw_check_host_inputs(view.env, CALLER, frame)) != PLUME_OK) return r;
    if ((r = plume_check_host_state(view.env, CALLER)) != PLUME_OK) return r;
    /* A minimised window: nothing to draw, nothing bound. */
    if (draw_viewport_is_empty()) return PLUME_OK;
    draw_choices *choices = particle_view_attach(&view, &DRAW_CHOICES, sizeof *choices);
    if (!choices) return PLUME_ERROR_OUT_OF_MEMORY;
    if (view.desc->lit && !choices->warned_lit_without_light && draw_frame_is_dark(frame)) {
        plume_log(view.env, PLUME_LOG_WARNING,
                  "%s: the system is lit but the frame has no light (light_color and ambient_color 0, or no "
                  "light_direction and ambient 0): its particles are black",
                  CALLER);
        choices->warned_lit_without_light = true;
    }
    view.light = draw_frame_light(frame);
    drawn.depth_convention = plume_depth_convention(view.env, &drawn.projection[0][0]);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, view.env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_TEXTURES);
    if (view.desc->self_shadow.strength > 0.0f || view.mesh) plume_gl_scope_save(&scope, PLUME_SCOPE_OPTIONAL_SSBO);
    plume_gl_scope_neutral_raster(&scope);
    profiler_stage_begin(view.profiler, PLUME_STAGE_DRAW);
    r = draw_system(&view, &drawn, choices, &scope);
    profiler_stage_end(view.profiler, PLUME_STAGE_DRAW);
    plume_gl_scope_end(&scope);
    PLUME_LAB_SYNC_POINT("draw_end");
    plume_result gl = plume_drain_gl_errors(view.env, CALLER);
    return r != PLUME_OK ? r : gl;
}
