/* The raster draw path (render/raster.c): the GL objects it owns and its
 * calls. A system holds one; the system's draw runs it. Not part of the API. */
#ifndef PLUME_RENDER_RASTER_H
#define PLUME_RENDER_RASTER_H

#include <cglm/cglm.h>

#include "core/plume_internal.h"
#include "plume/plume_particles.h"

typedef struct raster_locations {
    GLint view, projection, inverse_projection, camera_right, camera_up;
    GLint soft_fade_distance, viewport_size;
} raster_locations;

typedef struct raster_renderer {
    GLuint program;
    raster_locations locations;
    GLuint vertex_array;     /* empty: the draw pulls its vertices from SSBOs */
    GLuint sprite_sampler;
    GLuint depth_sampler;    /* reads the host's depth raw, whatever its compare mode */
} raster_renderer;

struct system_state;

/* Builds the draw program and makes the vertex array and samplers. */
plume_result raster_create(struct system_state *s);
/* Sets the appearance's uniforms (they never change after creation); after
 * the sprite is loaded. */
void raster_set_appearance(struct system_state *s);
/* The same uniforms (particle_appearance.glsl's, the sprite's) on another
 * program that draws the system's particles (the tiled path's, the fragment
 * path's). */
void raster_set_appearance_uniforms(const struct system_state *s, GLuint program);
/* The draw's light (system_state.light) on a program that draws the
 * system's particles (particle_appearance.glsl's lighting uniforms); the
 * program must be current (glUniform: every GL the draw paths run on). */
void raster_set_light_uniforms(const struct system_state *s, GLuint program);
/* The uniforms of particle_quad.glsl and particle_draw.frag that follow the
 * camera (the view, the projection, the soft fade against `scene_depth`,
 * bound to unit 1 through `depth_sampler`; 0: no fade) on the current
 * program, whose `at` they are: the raster draws of both GPU paths. */
void raster_set_view_uniforms(const struct system_state *s, const raster_locations *at, const mat4 view,
                              const mat4 projection, GLuint scene_depth, const float target_size[2],
                              GLuint depth_sampler);
/* The locations of those uniforms in a raster draw's program. */
raster_locations raster_find_locations(GLuint program);
/* The path's GL objects with a name, as plume_list_named_gl_objects. */
uint32_t raster_list_gl_objects(const raster_renderer *r, plume_gl_object *out, uint32_t capacity);
/* Deletes them (the GL context current). */
void raster_release(raster_renderer *r);
/* The draw into the bound framebuffer, after plume_gl_scope_neutral_raster
 * (the caller's scope also saves PLUME_SCOPE_TEXTURES). `scene_depth`: the
 * window depth the soft fade reads (0: no fade), covering `target_size`
 * pixels of the framebuffer. The draw's arguments
 * (a DrawArraysIndirectCommand) are at `indirect_offset` of `indirect_buffer`:
 * the system's state buffer's, or the tiled path's fallback. */
void raster_draw(struct system_state *s, const mat4 view, const mat4 projection, GLuint scene_depth,
                 const float target_size[2], GLuint indirect_buffer, GLintptr indirect_offset);
/* The sampler the module reads depth textures through (nearest, no compare). */
GLuint raster_depth_sampler(const raster_renderer *r);
/* The raster draws' samplers (both GPU paths; glGenSamplers, GL 3.3): the
 * sprite's (trilinear, clamped) and the host depth's (nearest, no compare). */
void raster_create_samplers(GLuint *sprite_sampler, GLuint *depth_sampler);

#endif
