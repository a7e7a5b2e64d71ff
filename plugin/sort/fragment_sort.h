/* The render-pass backend behind a fragment-path sorter (fragment_sort.c):
 * the bitonic network of seeds 000 and 002 as render passes over RG32UI
 * textures, for contexts without compute shaders (GL 3.3 core) whose buffer
 * textures cannot hold the transform-feedback backend's buffers
 * (feedback_sort.h), and for the benchmark. The sorter (sorter.c) checks the
 * arguments and saves the host's GL state; this file plans, builds and
 * draws. Not part of the API. */
#ifndef PLUME_SORT_FRAGMENT_SORT_H
#define PLUME_SORT_FRAGMENT_SORT_H

#include "sort_internal.h"

typedef struct fragment_sort fragment_sort;

enum {
    /* Stages a pass holds at most (the pass reads 2^k texels a fragment). */
    FRAGMENT_SORT_MAX_GROUP_BITS = 4,
    /* The default: 2 measured fastest on the H100 from 2^16 up (tied with 1
     * at 2^18 and 2^20; 3 and 4 are 2 to 5 times slower there: each fragment
     * runs its whole group's network), notes/fragment-path.md. */
    FRAGMENT_SORT_DEFAULT_GROUP_BITS = 2
};

/* Checks the GL's texture limits for `capacity`, builds programs, textures
 * and framebuffers. *out is set whenever memory was had, also on failure: free
 * it with fragment_sort_destroy. Logs through `env`, which must outlive it. */
plume_result fragment_sort_create(const plume_env *env, uint32_t capacity, fragment_sort **out);
void fragment_sort_destroy(fragment_sort *s);
uint32_t fragment_sort_list_gl_objects(const fragment_sort *s, plume_gl_object *out, uint32_t capacity);
/* Render passes that sorting `count` pairs issues (copies in and out
 * included). */
uint32_t fragment_sort_pass_count(const fragment_sort *s, uint32_t count);
/* Stages a pass holds at most, 1 .. FRAGMENT_SORT_MAX_GROUP_BITS (1: the
 * seeds' one stage a pass); for the benchmark. */
void fragment_sort_set_group_bits(fragment_sort *s, uint32_t group_bits);
uint32_t fragment_sort_group_bits(const fragment_sort *s);

/* The GL state the passes change, for the caller's scope:
 * plume_gl_scope_save(scope, FRAGMENT_SORT_SCOPE_GROUPS) then
 * fragment_sort_prepare_state(). */
#define FRAGMENT_SORT_SCOPE_GROUPS \
    (PLUME_SCOPE_TEXTURES | PLUME_SCOPE_DRAW | PLUME_SCOPE_PIXEL_PACK | PLUME_SCOPE_PIXEL_UNPACK | \
     PLUME_SCOPE_TEXTURE_BUFFERS)
void fragment_sort_prepare_state(plume_gl_scope *scope);

/* Where a sort's pairs are: a GL_RG32UI texture of `width` texels a row;
 * the count is `count`, or the uint at `count_index` of `count_buffer` (not
 * 0) clamped to `count`. */
typedef struct fragment_sort_pairs {
    GLuint texture;
    uint32_t width;
    uint32_t count;
    GLuint count_buffer;
    uint32_t count_index;
} fragment_sort_pairs;

/* Sorts the pairs of a texture in place. */
void fragment_sort_texture(const fragment_sort *s, const fragment_sort_pairs *pairs, const sort_pass_hook *hook);
/* Sorts the first `pairs->count` pairs of `buffer` (8 bytes each) in place:
 * uploaded into the sorter's staging texture through GL_PIXEL_UNPACK_BUFFER,
 * sorted, read back through GL_PIXEL_PACK_BUFFER (pairs->texture and width
 * are the sorter's own). */
void fragment_sort_buffer(const fragment_sort *s, GLuint buffer, fragment_sort_pairs *pairs,
                          const sort_pass_hook *hook);

/* Draws the viewport-covering triangle over texels [0, count) of a target
 * `width` texels wide (the bound program's fragments find their index from
 * gl_FragCoord; the caller binds a vertex array): whole rows, then the rest
 * of the last row. The particle system's simulate pass draws with it too. */
void fragment_sort_draw_range(uint32_t width, uint32_t count);

#endif
