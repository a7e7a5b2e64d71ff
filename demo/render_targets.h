/* Where a frame is drawn before it reaches the window (or the offscreen
 * image): a float colour buffer (faint puffs at a million particles survive
 * the blending) with a depth texture, a copy of that depth for the smoke to
 * sample while the depth buffer stays attached (sampling an attached texture
 * would be a feedback loop), and the pass that writes the result (with a
 * bloom, tonemapped, gamma-encoded) into the final framebuffer. */
#ifndef DEMO_RENDER_TARGETS_H
#define DEMO_RENDER_TARGETS_H

#include <epoxy/gl.h>
#include <stdbool.h>

#include "bloom.h"

typedef struct render_targets {
    int width, height;
    GLuint scene_framebuffer, scene_color, scene_depth;
    GLuint depth_copy_framebuffer, depth_copy;
    GLuint present_program, empty_vertex_array;
    bloom glow;              /* sized with the images */
} render_targets;

bool render_targets_create(render_targets *t, int width, int height);
void render_targets_destroy(render_targets *t);
/* Reallocates the images for a new size (no-op when unchanged). */
bool render_targets_resize(render_targets *t, int width, int height);

/* Binds the scene framebuffer, sets the viewport, clears to `clear_rgb`. */
void render_targets_begin_scene(const render_targets *t, const float clear_rgb[3]);
/* Copies the scene depth into `depth_copy` (the texture the smoke fades
 * against) and rebinds the scene framebuffer. */
void render_targets_copy_depth(const render_targets *t);
/* Writes the scene colour with its bloom, tonemapped (ACES) and
 * gamma-encoded, into `framebuffer` (0: the window) over its whole width x
 * height. */
void render_targets_present(const render_targets *t, GLuint framebuffer);

#endif
