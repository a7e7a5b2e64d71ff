/* plume_system_draw: checks the frame, saves the host's state and runs the
 * system's draw path inside the profiler's draw stage. */
#include "particles/particles_internal.h"

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
    raster_draw(system, frame, view, projection);
    profiler_stage_end(system->profiler, PLUME_STAGE_DRAW);
    plume_gl_scope_end(&scope);
    return plume_drain_gl_errors(&system->env, CALLER);
}
