/* The transform-feedback backend behind a fragment-path sorter
 * (feedback_sort.c): a merge sort as vertex passes whose outputs transform
 * feedback writes into buffers, with the rasterizer discarding everything (GL 3.3 core: buffer textures, transform feedback, a geometry
 * shader for indirect counts). The sorter (sorter.c) checks the arguments
 * and opens the GL state scope; this file plans, builds and draws. Not part
 * of the API. */
#ifndef PLUME_SORT_FEEDBACK_SORT_H
#define PLUME_SORT_FEEDBACK_SORT_H

#include "sort_internal.h"

typedef struct feedback_sort feedback_sort;

enum {
    /* Position bits a vertex's group spans at most: 2^6 pairs are 128 output
     * components, where GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS and
     * GL_MAX_VERTEX_OUTPUT_COMPONENTS allow them (NVIDIA); by default 2^5,
     * 64 components, GL 3.3's least limits. */
    FEEDBACK_SORT_MAX_GROUP_BITS = 6,
    FEEDBACK_SORT_DEFAULT_GROUP_BITS = 5
};

/* Whether this GL's buffer textures hold a network for `capacity` pairs
 * (GL_MAX_TEXTURE_BUFFER_SIZE texels; GL 3.3 promises only 65536). */
bool feedback_sort_fits(uint32_t capacity);
/* Builds programs and buffers for `capacity` pairs. *out is set whenever
 * memory was had, also on failure: free it with feedback_sort_destroy. Logs
 * through `env`, which must outlive it. */
plume_result feedback_sort_create(const plume_env *env, uint32_t capacity, feedback_sort **out);
void feedback_sort_destroy(feedback_sort *s);
uint32_t feedback_sort_list_gl_objects(const feedback_sort *s, plume_gl_object *out, uint32_t capacity);
/* Draws that sorting `count` pairs issues (sort passes only, not the copies
 * in and out): 1 + log2 of the count's groups of 2^m, rounded up. */
uint32_t feedback_sort_pass_count(const feedback_sort *s, uint32_t count);
/* Position bits a vertex's group spans at most, 1 .. the GL's limit (at most
 * FEEDBACK_SORT_MAX_GROUP_BITS), building the programs for it if
 * creation did not (it builds up to the default); for the benchmark. The
 * caller's scope saves PLUME_SCOPE_DRAW (the program binding). */
void feedback_sort_set_group_bits(feedback_sort *s, uint32_t group_bits);
uint32_t feedback_sort_group_bits(const feedback_sort *s);

/* The GL state the sorts change, for the caller's scope: after
 * plume_gl_scope_begin, feedback_sort_prepare_state saves these groups, makes
 * the raster state neutral, discards rasterization and binds the sorter's
 * own transform feedback object (where the GL has them). */
#define FEEDBACK_SORT_SCOPE_GROUPS                                                                              \
    (PLUME_SCOPE_TEXTURES | PLUME_SCOPE_DRAW | PLUME_SCOPE_PIXEL_PACK | PLUME_SCOPE_PIXEL_UNPACK |              \
     PLUME_SCOPE_TEXTURE_BUFFERS | PLUME_SCOPE_COPY_BUFFERS | PLUME_SCOPE_TRANSFORM_FEEDBACK)
void feedback_sort_prepare_state(const feedback_sort *s, plume_gl_scope *scope);

/* Sorts the first `count` pairs of the host's `buffer` in place. With
 * `count_buffer` (not 0) the count is the uint at `count_index` of it, at
 * most `count`: the pairs from it on are neither read nor written. */
void feedback_sort_buffer(const feedback_sort *s, GLuint buffer, uint32_t count, GLuint count_buffer,
                          uint32_t count_index, const sort_pass_hook *hook);
/* Sorts the first `count` pairs of an RG32UI texture `width` texels wide in
 * place (pair i at column i % width, row i / width). */
void feedback_sort_texture(const feedback_sort *s, GLuint texture, uint32_t width, uint32_t count,
                           const sort_pass_hook *hook);

/* ---- For the particle system's fragment path ----
 * The network's input buffer (8 bytes a pair); feedback_sort_record draws
 * `vertices` points with the bound program, whose outputs transform feedback
 * writes into `buffer` from its start; feedback_sort_network sorts the first
 * `count` pairs of the input buffer and returns the buffer holding them
 * sorted (one of the sorter's two). */
GLuint feedback_sort_input_buffer(const feedback_sort *s);
void feedback_sort_record(const feedback_sort *s, GLuint buffer, uint32_t vertices, uint32_t bytes);
GLuint feedback_sort_network(const feedback_sort *s, uint32_t count, const sort_pass_hook *hook);
/* The sorter's buffer texture (RG32UI) over `buffer`, one of its two: the
 * draw reads the sorted list through it. */
GLuint feedback_sort_buffer_texture(const feedback_sort *s, GLuint buffer);

#endif
