/* Drawing at low resolution (render/lowres.c): a wrapper any draw path can
 * run its draw inside. lowres_begin downsamples the host's depth and binds a
 * target of 1/2 or 1/4 of the viewport's width and height; the path draws
 * into it (lowres_target); lowres_end blends it onto the host's framebuffer
 * with a depth-aware upsample. The wrapper takes a view (its env, state
 * buffer for the drawn count, profiler) and its own state: a system's
 * (lowres_of, an attachment) or a draw group's. Not part of the API. */
#ifndef PLUME_RENDER_LOWRES_H
#define PLUME_RENDER_LOWRES_H

#include "render/draw_path.h"
#include "render/screen_scratch.h"

enum { LOWRES_FACTORS = SCREEN_SCRATCH_LOWRES_FACTORS }; /* 1/2 and 1/4 */

enum { LOWRES_DOWNSAMPLE_HOST_SIZE, LOWRES_DOWNSAMPLE_DEPTH_CONVENTION, LOWRES_DOWNSAMPLE_HOST_DEPTH, LOWRES_DOWNSAMPLE_UNIFORMS };
enum {
    LOWRES_COMPOSITE_LOWRES_SIZE, LOWRES_COMPOSITE_VIEWPORT_ORIGIN, LOWRES_COMPOSITE_HOST_SIZE,
    LOWRES_COMPOSITE_INVERSE_PROJECTION, LOWRES_COMPOSITE_EDGE_RATIO, LOWRES_COMPOSITE_PARTICLES,
    LOWRES_COMPOSITE_LOWRES_DEPTH, LOWRES_COMPOSITE_HOST_DEPTH, LOWRES_COMPOSITE_DEPTH_CONVENTION,
    LOWRES_COMPOSITE_COVER, /* SCREEN_COVER_UNIFORMS from here: the tiles' composite's */
    /* The compute upsample's (lowres_upsample.comp, tiled_target.glsl). */
    LOWRES_COMPOSITE_OVER_HOST = LOWRES_COMPOSITE_COVER + SCREEN_COVER_UNIFORMS, LOWRES_COMPOSITE_HOST_CLIP,
    LOWRES_COMPOSITE_UNIFORMS
};

/* The composite over the whole viewport, and over the tiles a tiled draw
 * names (render/tile_cover.vert: the tiles with particles and their
 * neighbours; built by the first upsample after a tiled draw), raster or,
 * onto an RGBA16F texture of the host's, in compute (upsample_onto_host). */
typedef struct lowres_programs {
    GLuint downsample, composite, composite_tiles, upsample_onto_host;
    GLint downsample_at[LOWRES_DOWNSAMPLE_UNIFORMS], composite_at[LOWRES_COMPOSITE_UNIFORMS],
        composite_tiles_at[LOWRES_COMPOSITE_UNIFORMS], upsample_onto_host_at[LOWRES_COMPOSITE_UNIFORMS];
} lowres_programs;

typedef struct lowres_state {
    lowres_programs programs[LOWRES_FACTORS]; /* built on first use */
    /* The full-screen passes' indirect arguments, set on the GPU from the
     * drawn count (lowres_args.comp), and the program that sets them. */
    GLuint args_program; /* the buffer is the context's (screen_scratch.h) */
    /* The targets are the context's (screen_scratch.h), shared by every
     * system and group: set once this state counts among their users. */
    bool joined_scratch;
    GLuint vertex_array;  /* empty: the full-screen passes have no vertices */
    GLuint depth_sampler; /* nearest, no compare */
} lowres_state;

/* What lowres_begin saved of the host's state for lowres_end. */
typedef struct lowres_pass {
    int factor;
    GLint viewport[4];
    GLint host_framebuffer, depth_function;
    GLboolean scissor;
    uint32_t depth_convention; /* the host depth's (plume_depth_convention) */
    const lowres_targets *targets; /* the context's, for this factor and viewport */
    GLuint args_buffer;            /* the context's */
} lowres_pass;

/* The system's low-resolution state, an attachment made on its first low
 * draw (NULL, logged: out of memory). */
lowres_state *lowres_of(const particle_view *view);
uint32_t lowres_list_gl_objects(const lowres_state *r, plume_gl_object *out, uint32_t capacity);
/* Deletes its GL objects (the GL context current) and leaves the context's
 * shared targets (the last user frees them). */
void lowres_release(lowres_state *r, plume_context *context);

/* Steps 1 and 2 of a draw at 1/`factor` (2 or 4): the depth downsample (in
 * `depth_convention`, plume_depth_convention: the farthest is the smallest
 * depth where reversed), then
 * the low-resolution particle target cleared and bound as the draw
 * framebuffer (viewport its size, the host's depth function) for a path to
 * draw into. Needs frame->depth_texture; the caller's scope has
 * PLUME_SCOPE_DRAW | PLUME_SCOPE_TEXTURES saved and the raster state
 * neutral. The passes run as many times as the view's drawn count says
 * (none for nothing drawn), timed as the view's draw sub-stages. */
plume_result lowres_begin(lowres_state *r, const particle_view *view, const plume_frame_desc *frame,
                          uint32_t depth_convention, int factor, lowres_pass *pass);
/* The target a path draws into between begin and end: the particles'
 * texture, tested against the downsampled depth, faded against its copy. */
draw_target lowres_target(const lowres_pass *pass);
/* Step 3: the target blended onto the host's framebuffer with the
 * depth-aware upsample, over the viewport or, after a tiled draw, the tiles
 * `cover` names (NULL: the viewport); the host's framebuffer, viewport and
 * scissor back. After a tiled draw onto an RGBA16F texture of the host's
 * (draw_find_host_colour) the upsample blends onto it in compute, through
 * image unit 0 (the tiled draw saved it in the caller's scope): true then. */
bool lowres_end(lowres_state *r, const particle_view *view, const plume_frame_desc *frame, const mat4 projection,
                const lowres_pass *pass, const screen_cover *cover);

#endif
