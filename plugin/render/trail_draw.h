/* What a trail's draws share (render/trail_draw.c, the raster path; the
 * tiled path's projection, render/tiled.c): the uniforms of
 * render/trail_geometry.glsl. Not part of the API. */
#ifndef PLUME_RENDER_TRAIL_DRAW_H
#define PLUME_RENDER_TRAIL_DRAW_H
#include "render/draw_path.h"

typedef union trail_uniforms {
    struct {
        GLint entries, ring, eye, by_distance, spacing, uv_tile, uv_tile_length;
        GLint width_curve[3], opacity_curve[3], color_curve[3];
        GLint ribbon, capacity;
        GLint target; /* render/trail_curve.glsl's u_trail_target */
    };
    GLint at[19];
} trail_uniforms;

/* The locations in `program` (built with trail_geometry.glsl). */
void trail_find_uniforms(GLuint program, trail_uniforms *u);
/* The way to the frame's eye a strip faces (u_eye): the eye (w 1), or
 * under an orthographic projection the view's back axis (w 0). */
void trail_eye(const draw_frame *frame, float out[4]);
/* The system's trail and the frame's eye into the program in use. */
void trail_set_uniforms(const particle_view *v, const trail_uniforms *u, const draw_frame *frame);
/* The pixels of the target the strips are drawn into, for the choice of
 * each segment's quads (render/trail_curve.glsl's u_trail_target at
 * `location` of `program`); in a lab build where
 * plume_lab_trail_full_subdivisions is on, none (every segment at
 * PLUME_TRAIL_SUBDIVISIONS). */
void trail_set_target(GLuint program, GLint location, int width, int height);

#endif
