/* The low-resolution draw path (render/lowres.c): the particles drawn at 1/2
 * or 1/4 of the viewport's width and height into the module's own targets,
 * against a downsample of the host's depth, then blended onto the host's
 * framebuffer with a depth-aware upsample. Not part of the API. */
#ifndef PLUME_RENDER_LOWRES_H
#define PLUME_RENDER_LOWRES_H

#include <cglm/cglm.h>

#include "core/plume_internal.h"
#include "plume/plume_particles.h"

enum { LOWRES_FACTORS = 2 }; /* 1/2 and 1/4 */

typedef struct lowres_programs {
    GLuint downsample, composite;
    GLint downsample_host_size, downsample_reversed;
    GLint composite_lowres_size, composite_viewport_origin, composite_host_size, composite_inverse_projection,
        composite_edge_ratio;
} lowres_programs;

typedef struct lowres_renderer {
    lowres_programs programs[LOWRES_FACTORS]; /* built on first use */
    /* The full-screen passes' indirect arguments, set on the GPU from the
     * drawn count (lowres_args.comp), and the program that sets them. */
    GLuint args_program, args_buffer;
    /* The targets, sized for the last draw's viewport and factor. */
    GLuint depth_framebuffer, particle_framebuffer;
    GLuint particles, depth, depth_copy; /* RGBA16F, DEPTH32F, R32F */
    int width, height, factor;
    bool warned_without_depth;
} lowres_renderer;

struct system_state;

uint32_t lowres_list_gl_objects(const lowres_renderer *r, plume_gl_object *out, uint32_t capacity);
void lowres_release(lowres_renderer *r);
/* What lowres_begin saved of the host's state for lowres_end. */
typedef struct lowres_pass {
    int factor;
    GLint viewport[4];
    GLint host_framebuffer, depth_function;
    GLboolean scissor;
} lowres_pass;

/* Steps 1 and 2 of a draw at 1/`factor` (2 or 4): the depth downsample, then
 * the low-resolution particle target cleared and bound as the draw
 * framebuffer (viewport its size, the host's depth function) for a path to
 * draw the particles into, against s->lowres.depth (attached) and
 * s->lowres.depth_copy (sampled). Same preconditions as lowres_draw. */
plume_result lowres_begin(struct system_state *s, const plume_frame_desc *frame, int factor, lowres_pass *pass);
/* Step 3: the target blended onto the host's framebuffer with the
 * depth-aware upsample; the host's framebuffer, viewport and scissor back. */
void lowres_end(struct system_state *s, const plume_frame_desc *frame, const mat4 projection,
                const lowres_pass *pass);
/* The draw at 1/`factor` resolution (2 or 4) of the viewport, into the
 * host's framebuffer; needs frame->depth_texture. The caller's scope has
 * PLUME_SCOPE_DRAW | PLUME_SCOPE_TEXTURES saved and the raster state neutral. */
plume_result lowres_draw(struct system_state *s, const plume_frame_desc *frame, const mat4 view,
                         const mat4 projection, int factor);

#endif
