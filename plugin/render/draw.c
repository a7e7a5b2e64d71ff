/* plume_system_draw: checks the frame, saves the host's state and runs the
 * draw path the frame asks for (raster or tiled, at full, half or quarter
 * resolution; the fragment path's own draw on the fragment path) inside the
 * profiler's draw stage. */
#include <math.h>
#include <string.h>

#include "particles/fragment_particles.h"

static const char *const DRAW_STAGE_GROUPS[PLUME_DRAW_STAGE_COUNT] = {
    "plume draw: tiled project",   "plume draw: tiled scan",      "plume draw: tiled entries",
    "plume draw: tiled entry sort", "plume draw: tiled ranges",   "plume draw: tiled composite",
    "plume draw: tiled resolve",   "plume draw: tiled blend",     "plume draw: depth downsample",
    "plume draw: low-resolution composite"};

void draw_stage_begin(system_state *s, plume_draw_stage stage) {
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, DRAW_STAGE_GROUPS[stage]);
    profiler_draw_stage_begin(s->profiler, stage);
}

void draw_stage_end(system_state *s, plume_draw_stage stage) {
    profiler_draw_stage_end(s->profiler, stage);
    glPopDebugGroup();
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

void draw_blend_premultiplied(void) {
    if (!plume_has_indexed_blend()) {
        glEnable(GL_BLEND);
        glBlendFuncSeparate(GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        glBlendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
        return;
    }
    glEnablei(GL_BLEND, 0);
    glBlendFuncSeparatei(0, GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glBlendEquationSeparatei(0, GL_FUNC_ADD, GL_FUNC_ADD);
}

void draw_blend_particles_over_depth(void) {
    draw_blend_premultiplied();
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

/* The full-resolution raster path: the soft fade reads the host's depth
 * texture, which covers frame->viewport_size (default: the viewport). */
static void draw_full(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection) {
    float size[2];
    draw_depth_size(frame, size);
    raster_draw(s, view, projection, frame->depth_texture, size, s->state_buffer, STATE_DRAW_ARGS_OFFSET);
}

/* Both the low resolutions and the tiled path read the host's depth texture
 * (the only depth the module can read): without one, the draw is the
 * full-resolution raster draw, and each missing piece is said once. */
static void warn_once(system_state *s, bool *warned, const char *what) {
    if (*warned) return;
    plume_log(&s->env, PLUME_LOG_WARNING, "plume_system_draw: %s needs the frame's depth_texture; %s", what,
              "drawing with the full-resolution raster path");
    *warned = true;
}

/* The fragment path draws with its own raster draw at full resolution (its
 * low-resolution draw is not written yet, and the tiled path needs compute
 * shaders): a frame asking for less, or for the tiled path, gets it, with one
 * warning for each. */
static void draw_fragment_path(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection,
                               plume_gl_scope *scope) {
    if (frame->draw_resolution != PLUME_DRAW_FULL && !s->fragment->warned_draw_resolution) {
        plume_log(&s->env, PLUME_LOG_WARNING,
                  "plume_system_draw: draw_resolution %u is the compute path's; the fragment path draws at full "
                  "resolution",
                  frame->draw_resolution);
        s->fragment->warned_draw_resolution = true;
    }
    if (frame->draw_path == PLUME_DRAW_PATH_TILED && !s->fragment->warned_draw_path) {
        plume_log(&s->env, PLUME_LOG_WARNING,
                  "plume_system_draw: draw_path PLUME_DRAW_PATH_TILED needs compute shaders; the fragment path "
                  "draws with its raster draw");
        s->fragment->warned_draw_path = true;
    }
    plume_gl_scope_save(scope, FRAGMENT_PARTICLES_SCOPE_GROUPS);
    float size[2];
    draw_depth_size(frame, size);
    fragment_particles_draw(s, view, projection, frame->depth_texture, size);
}

plume_result plume_system_draw(plume_context *context, plume_system handle, const plume_frame_desc *frame) {
    static const char *CALLER = "plume_system_draw";
    system_state *system;
    mat4 view, projection;
    plume_result r = particles_find_frame_system(context, handle, CALLER, frame, &system, view, projection);
    if (r != PLUME_OK) return r;
    if ((r = plume_check_gl_context(&system->env, CALLER)) != PLUME_OK) return r;
    if (frame->depth_texture != 0 && !glIsTexture(frame->depth_texture)) {
        plume_log(&system->env, PLUME_LOG_ERROR, "%s: depth_texture %u is not a texture", CALLER,
                  frame->depth_texture);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if ((r = plume_check_host_state(&system->env, CALLER)) != PLUME_OK) return r;
    system->light = draw_frame_light(frame);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &system->env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_TEXTURES);
    plume_gl_scope_neutral_raster(&scope);
    profiler_stage_begin(system->profiler, PLUME_STAGE_DRAW);
    if (system->fragment) {
        draw_fragment_path(system, frame, view, projection, &scope);
        profiler_stage_end(system->profiler, PLUME_STAGE_DRAW);
        plume_gl_scope_end(&scope);
        return plume_drain_gl_errors(&system->env, CALLER);
    }
    bool has_depth = frame->depth_texture != 0;
    if (frame->draw_resolution != PLUME_DRAW_FULL && !has_depth)
        warn_once(system, &system->lowres.warned_without_depth, "a low draw_resolution");
    if (frame->draw_path == PLUME_DRAW_PATH_TILED && !has_depth)
        warn_once(system, &system->tiled.warned_without_depth, "the tiled draw path");
    int factor = !has_depth || frame->draw_resolution == PLUME_DRAW_FULL ? 1
                 : frame->draw_resolution == PLUME_DRAW_HALF           ? 2
                                                                        : 4;
    bool drawn = false;
    if (frame->draw_path == PLUME_DRAW_PATH_TILED && has_depth) {
        r = tiled_draw(system, frame, view, projection, factor, &scope);
        /* A GL without what the path needs was told once: raster. */
        drawn = !(r == PLUME_ERROR_GL_UNSUPPORTED && system->tiled.unavailable);
        if (!drawn) r = PLUME_OK;
    }
    if (!drawn) {
        if (factor == 1) draw_full(system, frame, view, projection);
        else r = lowres_draw(system, frame, view, projection, factor);
    }
    profiler_stage_end(system->profiler, PLUME_STAGE_DRAW);
    plume_gl_scope_end(&scope);
    plume_result gl = plume_drain_gl_errors(&system->env, CALLER);
    return r != PLUME_OK ? r : gl;
}
