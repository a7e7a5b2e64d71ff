/* The demo's glow: a bloom of the HDR scene colour (a chain of half-size
 * levels, each downsampled from the one above with a 13-tap filter, then
 * summed back up with a 3x3 tent, the usual game form), so additive sparks
 * and fire light the air around them. The present pass adds it to the scene
 * before the tonemap. Host-side code (the demo's picture), not the module. */
#ifndef DEMO_BLOOM_H
#define DEMO_BLOOM_H

#include <epoxy/gl.h>
#include <stdbool.h>

enum { BLOOM_LEVELS = 6 };

typedef struct bloom {
    int levels;                          /* made: half size, quarter, ... down to about 8 pixels */
    GLuint textures[BLOOM_LEVELS], framebuffers[BLOOM_LEVELS];
    int widths[BLOOM_LEVELS], heights[BLOOM_LEVELS];
    GLuint down_program, up_program, vertex_array, sampler;
} bloom;

bool bloom_create(bloom *b, int width, int height);
void bloom_destroy(bloom *b);
/* The chain for `scene_color` (width x height); afterwards textures[0] (half
 * size) holds the glow. Leaves the framebuffer, program and blend state
 * changed: the caller sets its own next. */
void bloom_run(const bloom *b, GLuint scene_color, int width, int height);

#endif
