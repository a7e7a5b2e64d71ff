/* The uniforms every program that draws a system's particles shares
 * (particle_appearance.glsl, particle_quad.glsl, particle_draw.frag): the
 * raster draws of both GPU paths, the tiled path's projection and
 * composite, a draw group's gather. Their locations are looked up once per
 * program (plume_find_uniform_locations); a name a program lacks is -1,
 * which glUniform ignores. Not part of the API. */
#ifndef PLUME_RENDER_PARTICLE_UNIFORMS_H
#define PLUME_RENDER_PARTICLE_UNIFORMS_H

#include "render/draw_path.h"

typedef enum particle_uniform {
    /* The appearance: set once per program and system (it never changes). */
    PU_SIZE_TIMES, PU_SIZE_VALUES, PU_SIZE_COUNT, PU_OPACITY_TIMES, PU_OPACITY_VALUES, PU_OPACITY_COUNT,
    PU_ADDITIVE_TIMES, PU_ADDITIVE_VALUES, PU_ADDITIVE_COUNT, PU_COLOR_TIMES, PU_COLOR_VALUES, PU_COLOR_COUNT,
    PU_EMISSIVE_TIMES, PU_EMISSIVE_VALUES, PU_EMISSIVE_COUNT, PU_LIT, PU_ORIENTATION, PU_ORIENTATION_AXIS,
    PU_STRETCH, PU_FLIPBOOK, PU_FRAME_BLEND, PU_HAS_TEXTURE, PU_SPRITE, PU_SCENE_DEPTH, PU_SPRITE_IS_ARRAY,
    PU_SPRITE_ARRAY, PU_FLIPBOOK_MOTION, PU_HAS_MOTION, PU_MOTION_STRENGTH,
    /* The frame: set by each draw. */
    PU_LIGHT_DIRECTION, PU_LIGHT_COLOR, PU_AMBIENT_COLOR, PU_VIEW, PU_PROJECTION, PU_INVERSE_PROJECTION,
    PU_CAMERA_RIGHT, PU_CAMERA_UP, PU_SOFT_FADE_DISTANCE, PU_VIEWPORT_SIZE, PU_DEPTH_CONVENTION,
    /* Self-shadowing (self_shadow.glsl): set with the light. */
    PU_SELF_SHADOW, PU_SHADOW_MAP_SIZE, PU_SHADOW_SLICES,
    /* The appearance's again (1 / PU_FLIPBOOK: the shaders divide by no uniform). */
    PU_FLIPBOOK_CELL,
    /* Where the sprite's frames can show (render/splat_cover.glsl). */
    PU_SPRITE_COVER_LEVELS, PU_SPRITE_COVER_REACH,
    PARTICLE_UNIFORMS
} particle_uniform;

typedef struct particle_uniforms {
    GLint at[PARTICLE_UNIFORMS];
} particle_uniforms;

/* A curve's keys at locations at[times_at] (times), at[times_at + 1]
 * (values) and its length at at[times_at + 2], on the current program; the
 * same for a colour curve (an RGBA a key). */
void particle_set_curve_uniforms(const GLint *at, int times_at, const plume_curve *curve);
void particle_set_gradient_uniforms(const GLint *at, int times_at, const plume_gradient *curve);
/* The locations in `program`, once it is built. */
void particle_find_uniforms(GLuint program, particle_uniforms *out);
/* The view's appearance (curves, flipbook, orientation, whether lit and
 * textured; the sprite on unit 0, the scene's depth on unit 1) on the
 * program in use (glUniform: every GL the draws run on). Set before each
 * draw or dispatch: systems of one look share their programs (the context's
 * program cache), so a program holds no system's appearance in between. */
void particle_set_appearance_uniforms(const particle_view *view, const particle_uniforms *at);
/* Of those, only what finds a frame's cell and where the frames can show
 * (the flipbook, whether the sprite is an array, the sprite's cover): all
 * the tiled entries pass reads. As the appearance's, on the current
 * program. */
void particle_set_frame_uniforms(const particle_view *view, const particle_uniforms *at);
/* The view's light on the current program, and whether it passes through
 * the self-shadow map (self_shadow_prepare bound it). */
void particle_set_light_uniforms(const particle_view *view, const particle_uniforms *at);
/* The uniforms that follow the camera (the frame's view and projection, the
 * soft fade against `scene_depth` in the frame's depth convention, bound to
 * unit 1 through `depth_sampler`; 0: no fade, covering `target_size` pixels)
 * on the current program: the raster draws of both GPU paths. */
void particle_set_view_uniforms(const particle_view *view, const particle_uniforms *at, const draw_frame *frame,
                                GLuint scene_depth, const float target_size[2], GLuint depth_sampler);

#endif
