/* What the transform-feedback sort's two files share (feedback_sort.c: the
 * plan and the passes of a sort; feedback_sort_resources.c: its programs,
 * buffers and textures, their creation and end). Not part of the API. */
#ifndef PLUME_SORT_FEEDBACK_SORT_INTERNAL_H
#define PLUME_SORT_FEEDBACK_SORT_INTERNAL_H

#include "feedback_sort.h"
#include "shared/plume_gpu_layout.h"

enum {
    PAIR_BYTES = 8,
    MAX_RUNS = PLUME_FEEDBACK_SORT_MAX_RUNS,
    MAX_GROUP = 1 << FEEDBACK_SORT_MAX_GROUP_BITS,
    DEFINES_BYTES = 1 << 16
};

enum {
    U_COUNT, U_COUNT_FROM_BUFFER, U_COUNT_INDEX, U_LOCAL_SORT, U_RUN_COUNT, U_RUN_SHIFT,
    U_RUN_MASK, U_RUN_TARGET, U_MEMBER_OFFSET, U_DIRECTION_BIT, U_TOP_BIT, U_HOST_COUNTS,
    U_ASCENDING, NETWORK_LOCATIONS
};
enum { M_TOTAL, M_RUN_BITS, MERGE_LOCATIONS };
enum { W_COUNT, W_COUNT_INDEX, W_HOST_COUNTS, WRITE_LOCATIONS };

struct feedback_sort {
    const plume_env *env;
    uint32_t capacity;
    uint32_t group_bits;            /* position bits a group spans at most */
    uint32_t max_group_bits;        /* what the GL's output limits allow, up to FEEDBACK_SORT_MAX_GROUP_BITS */
    GLuint buffers[2];              /* ping-pong, next_pow2(capacity) pairs each */
    /* Buffer textures over buffers[0] and buffers[1], attached once: a pass
     * binds the one over its source (see read_pairs_from). */
    GLuint pairs_textures[2];
    GLuint count_texture;           /* the host's count buffer as a buffer texture */
    GLuint read_framebuffer;        /* the host's texture, attached while read */
    /* Bound for the draws: a GL checks the draw framebuffer even when it
     * discards every primitive, and the host's may be incomplete (or a
     * surfaceless context's default). One 1x1 texel, never written. */
    GLuint draw_framebuffer, draw_texture;
    GLuint vertex_array;            /* the passes have no attributes; core GL needs one bound */
    GLuint feedback;                /* the sorter's transform feedback object (GL 4.0), or 0 */
    GLuint network_programs[FEEDBACK_SORT_MAX_GROUP_BITS];
    GLint network_locations[FEEDBACK_SORT_MAX_GROUP_BITS][NETWORK_LOCATIONS];
    /* The merge sort's merge pass for groups of 2^m (feedback_merge.vert),
     * built for the group size in use only: smaller counts sort in the
     * first pass alone. */
    GLuint merge_programs[FEEDBACK_SORT_MAX_GROUP_BITS];
    GLint merge_locations[FEEDBACK_SORT_MAX_GROUP_BITS][MERGE_LOCATIONS];
    GLuint write_program;           /* indirect write-back: vertex and geometry shader */
    GLint write_locations[WRITE_LOCATIONS];
};

/* The network's programs for groups of 2^1 .. 2^up_to pairs that are not
 * built yet (a sort of a small count uses groups of its whole power of two),
 * and the merge pass for groups of 2^up_to. */
plume_result feedback_sort_build_network_programs(feedback_sort *s, uint32_t up_to);

/* After the write-back program, the only one with a geometry shader (see
 * feedback_unused.frag): program 0 next drops Mesa's reference to it for that
 * stage, which the next program, having none, would otherwise inherit. */
static inline void leave_geometry_program(void) { glUseProgram(0); }

#endif
