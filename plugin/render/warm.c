/* plume_context_warm_programs (plume_particles.h): the programs of a look,
 * built ahead of its systems by running one of them once, update and draws,
 * with the context's program cache keeping what it obtains. Running the real
 * calls, rather than listing programs here, keeps the warm-up true to what a
 * system builds as the module changes. */
#include <string.h>

#include "core/plume_internal.h"
#include "plume/plume_particles.h"

enum { WARM_SIZE = 64 }; /* the private framebuffer: the draws' programs do not depend on its size */

#define ALL_WARM_DRAWS (PLUME_WARM_RASTER | PLUME_WARM_TILED | PLUME_WARM_LOW_RESOLUTION)

/* The temporary system's logger: its errors go to the context's logger, its
 * warnings (a lit look without light, the first frame's) nowhere. */
static void errors_only(plume_log_level level, const char *message, void *user) {
    const plume_logger *forward = user;
    if (level == PLUME_LOG_ERROR) forward->func(level, message, forward->user);
}

/* The host's bindings the warm-up changes outside the module's own scopes. */
typedef struct host_bindings {
    GLint draw_framebuffer, read_framebuffer, viewport[4], active_texture, texture_2d;
} host_bindings;

static void save_host(host_bindings *h) {
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &h->draw_framebuffer);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &h->read_framebuffer);
    glGetIntegerv(GL_VIEWPORT, h->viewport);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &h->active_texture);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &h->texture_2d);
}

static void restore_host(const host_bindings *h) {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)h->draw_framebuffer);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)h->read_framebuffer);
    glViewport(h->viewport[0], h->viewport[1], h->viewport[2], h->viewport[3]);
    glActiveTexture((GLenum)h->active_texture);
    glBindTexture(GL_TEXTURE_2D, (GLuint)h->texture_2d);
}

static GLuint make_texture(GLenum format) {
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexStorage2D(GL_TEXTURE_2D, 1, format, WARM_SIZE, WARM_SIZE);
    return texture;
}

/* Updates `system` once and draws it as `draws` says into a private target
 * with a depth texture (the tiled path and low resolutions need one). */
static plume_result run_once(plume_context *context, plume_system system, uint32_t draws, bool compute) {
    host_bindings host;
    save_host(&host);
    glActiveTexture(GL_TEXTURE0);
    GLuint color = make_texture(GL_RGBA8), depth = make_texture(GL_DEPTH_COMPONENT32F), framebuffer = 0;
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    glViewport(0, 0, WARM_SIZE, WARM_SIZE);
    plume_frame_desc frame = {.dt = 1.0f / 60.0f, .depth_texture = depth, .light_direction = {0, 1, 0},
                              .light_color = {1, 1, 1}};
    plume_result result = plume_system_update(context, system, &frame);
    const uint32_t paths[2] = {PLUME_WARM_RASTER, PLUME_WARM_TILED};
    for (int p = 0; p < 2 && result == PLUME_OK; ++p) {
        if (!(draws & paths[p]) || (!compute && p > 0)) continue;
        frame.draw_path = p == 0 ? PLUME_DRAW_PATH_RASTER : PLUME_DRAW_PATH_TILED;
        for (uint32_t resolution = PLUME_DRAW_FULL; resolution <= PLUME_DRAW_QUARTER && result == PLUME_OK;
             ++resolution) {
            if (resolution != PLUME_DRAW_FULL && (!compute || !(draws & PLUME_WARM_LOW_RESOLUTION))) break;
            frame.draw_resolution = resolution;
            result = plume_system_draw(context, system, &frame);
        }
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &framebuffer);
    GLuint textures[2] = {color, depth};
    glDeleteTextures(2, textures);
    restore_host(&host);
    return result;
}

plume_result plume_context_warm_programs(plume_context *context, const plume_system_desc *desc, uint32_t draws) {
    static const char *CALLER = "plume_context_warm_programs";
    plume_env env;
    plume_result result = plume_object_env(context, CALLER, desc != NULL, true, desc ? &desc->logger : NULL,
                                           desc ? &desc->allocator : NULL, &env);
    if (result != PLUME_OK) return result;
    if (draws & ~(uint32_t)ALL_WARM_DRAWS) {
        plume_log(&env, PLUME_LOG_ERROR, "%s: draws 0x%x has bits outside plume_warm_draws (0x%x)", CALLER, draws,
                  (unsigned)ALL_WARM_DRAWS);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_gpu_path path;
    if ((result = plume_resolve_gpu_path(&env, CALLER, desc->path, &path)) != PLUME_OK) return result;
    plume_system_desc quiet = *desc;
    quiet.logger = (plume_logger){errors_only, &env.logger};
    plume_program_cache *cache = plume_context_programs(context);
    plume_program_cache_set_pinning(cache, true);
    plume_system system = {0};
    result = plume_system_create(context, &quiet, &system);
    if (result == PLUME_OK) result = run_once(context, system, draws ? draws : ALL_WARM_DRAWS, path == PLUME_PATH_COMPUTE);
    plume_system_destroy(context, system);
    plume_program_cache_set_pinning(cache, false);
    return result;
}
