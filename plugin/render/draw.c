/* plume_system_draw: checks the frame, saves the host's state and runs the
 * draw path the frame asks for inside the profiler's draw stage. */
#include "particles/fragment_particles.h"

/* The full-resolution raster path: the soft fade reads the host's depth
 * texture, which covers frame->viewport_size (default: the viewport). */
static void target_size(const plume_frame_desc *frame, float size[2]) {
    size[0] = (float)frame->viewport_size[0];
    size[1] = (float)frame->viewport_size[1];
    if (frame->viewport_size[0] <= 0 || frame->viewport_size[1] <= 0) {
        GLint viewport[4] = {0, 0, 1, 1};
        glGetIntegerv(GL_VIEWPORT, viewport);
        size[0] = (float)viewport[2];
        size[1] = (float)viewport[3];
    }
}

static void draw_full(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection) {
    float size[2];
    target_size(frame, size);
    raster_draw(s, view, projection, frame->depth_texture, size);
}

/* The fragment path draws at full resolution (its low-resolution draw is
 * not written yet): a frame asking for less gets it once, with a warning. */
static void draw_fragment_path(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection,
                               plume_gl_scope *scope) {
    if (frame->draw_resolution != PLUME_DRAW_FULL && !s->fragment->warned_draw_resolution) {
        plume_log(&s->env, PLUME_LOG_WARNING,
                  "plume_system_draw: draw_resolution %u is the compute path's; the fragment path draws at full "
                  "resolution",
                  frame->draw_resolution);
        s->fragment->warned_draw_resolution = true;
    }
    plume_gl_scope_save(scope, FRAGMENT_PARTICLES_SCOPE_GROUPS);
    float size[2];
    target_size(frame, size);
    fragment_particles_draw(s, view, projection, frame->depth_texture, size);
}

plume_result plume_system_draw(plume_context *context, plume_system handle, const plume_frame_desc *frame) {
    static const char *CALLER = "plume_system_draw";
    system_state *system;
    mat4 view, projection;
    plume_result r = particles_find_frame_system(context, handle, CALLER, frame, &system, view, projection);
    if (r != PLUME_OK) return r;
    if (frame->depth_texture != 0 && !glIsTexture(frame->depth_texture)) {
        plume_log(&system->env, PLUME_LOG_ERROR, "%s: depth_texture %u is not a texture", CALLER,
                  frame->depth_texture);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if ((r = plume_check_host_state(&system->env, CALLER)) != PLUME_OK) return r;
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
    if (frame->draw_resolution != PLUME_DRAW_FULL && frame->depth_texture == 0 &&
        !system->lowres.warned_without_depth) {
        plume_log(&system->env, PLUME_LOG_WARNING,
                  "%s: a low draw_resolution needs the frame's depth_texture; drawing at full resolution", CALLER);
        system->lowres.warned_without_depth = true;
    }
    if (frame->draw_resolution == PLUME_DRAW_FULL || frame->depth_texture == 0)
        draw_full(system, frame, view, projection);
    else
        r = lowres_draw(system, frame, view, projection, frame->draw_resolution == PLUME_DRAW_HALF ? 2 : 4);
    profiler_stage_end(system->profiler, PLUME_STAGE_DRAW);
    plume_gl_scope_end(&scope);
    plume_result gl = plume_drain_gl_errors(&system->env, CALLER);
    return r != PLUME_OK ? r : gl;
}
