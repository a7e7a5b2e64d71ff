/* What the particle system's fragment path takes from the sort: the GL state
 * its passes change, the viewport-covering draw over a range of texels, and
 * a fragment-path sorter's key input, for recording keys straight into the
 * sort (where the backend has one: transform feedback). No backend's own
 * type shows here. Not part of the API. */
#ifndef PLUME_SORT_FRAGMENT_PATH_H
#define PLUME_SORT_FRAGMENT_PATH_H

#include "sort_internal.h"

/* The GL state the render-pass sort's passes change: prepare_state saves
 * these groups, makes the raster state neutral and turns scissor and depth
 * tests off. */
#define FRAGMENT_SORT_SCOPE_GROUPS \
    (PLUME_SCOPE_TEXTURES | PLUME_SCOPE_DRAW | PLUME_SCOPE_PIXEL_PACK | PLUME_SCOPE_PIXEL_UNPACK | \
     PLUME_SCOPE_TEXTURE_BUFFERS)
/* What either fragment-path backend changes (the transform-feedback one's:
 * sort/feedback_sort.h, checked equal there). */
#define SORT_FRAGMENT_PATH_SCOPE_GROUPS (FRAGMENT_SORT_SCOPE_GROUPS | PLUME_SCOPE_COPY_BUFFERS | \
                                         PLUME_SCOPE_TRANSFORM_FEEDBACK)

/* Draws the viewport-covering triangle over texels [0, count) of a target
 * `width` texels wide (the bound program's fragments find their index from
 * gl_FragCoord; the caller binds a vertex array): whole rows, then the rest
 * of the last row. */
void fragment_sort_draw_range(uint32_t width, uint32_t count);

/* A fragment-path sorter's key input (sorter.c), NULL on the compute path.
 * Where the backend records keys (transform feedback) the key pass writes
 * into its input buffer; elsewhere (the render passes: OpenGL ES 3.0) into a
 * texture of the caller's, sorted in place by sort_key_input_sort_texture. */
typedef struct sort_key_input sort_key_input;
const sort_key_input *sort_key_input_of(const plume_context *context, plume_sorter sorter);
bool sort_key_input_records(const sort_key_input *input);
/* Sorts the first `count` pairs of an RG32UI texture `width` texels a row
 * in place (the caller's scope holds what prepare_state saved). */
void sort_key_input_sort_texture(const sort_key_input *input, GLuint texture, uint32_t width, uint32_t count);
/* After plume_gl_scope_begin: saves the groups the sort changes and sets the
 * state its passes (and the recording) need. */
void sort_key_input_prepare_state(const sort_key_input *input, plume_gl_scope *scope);
/* Where the backend records: the input buffer (8 bytes a pair). */
GLuint sort_key_input_buffer(const sort_key_input *input);
/* Draws `vertices` points with the bound program, whose outputs transform
 * feedback writes into `buffer` from its start (`bytes` of it). */
void sort_key_input_record(const sort_key_input *input, GLuint buffer, uint32_t vertices, uint32_t bytes);
/* Sorts the first `count` pairs of the input buffer; returns the buffer
 * holding them sorted (one of the sorter's). */
GLuint sort_key_input_sort(const sort_key_input *input, uint32_t count);
/* The sorter's RG32UI buffer texture over `buffer`, one of its own: the draw
 * reads the sorted list through it. */
GLuint sort_key_input_pairs_texture(const sort_key_input *input, GLuint buffer);

#endif
