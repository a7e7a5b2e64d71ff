/* The one interface of the sort backends: a const table of entry points per
 * backend, in the backend's own file (GLFW's platform table is the model).
 * The sorter (sorter.c) checks the arguments, opens the GL state scope, binds
 * the host's count for indirect compute sorts and picks a backend; a backend
 * plans, builds and dispatches. On the compute path a sorter holds the
 * bitonic backend, the radix one or both (PLUME_SORT_AUTOMATIC picks one per
 * call); on the fragment path one of the transform-feedback and render-pass
 * backends. Not part of the API. */
#ifndef PLUME_SORT_BACKEND_H
#define PLUME_SORT_BACKEND_H

#include "sort_tuning.h"

/* What a backend is made for. */
typedef struct sort_backend_desc {
    uint32_t capacity;
    uint32_t key_bits;      /* the radix sort's digits */
    uint32_t block_pairs;   /* the bitonic sort's block (0: it picks) */
    bool one_workgroup;     /* the radix sort's one-workgroup sort too */
    const sort_tuning *tuning;     /* the GL's (sort_tuning_of_gl) */
    const sort_settings *settings; /* the lab's, or all zero */
} sort_backend_desc;

/* Keys recorded straight into a fragment-path sort's input (the particle
 * system's key pass), where the backend has an input buffer: the buffer (8
 * bytes a pair); record draws `vertices` points with the bound program, whose
 * outputs transform feedback writes into `buffer` from its start;
 * sort_recorded sorts the first `count` pairs of the input and returns the
 * buffer holding them sorted; pairs_texture is the backend's RG32UI buffer
 * texture over such a buffer. */
typedef struct sort_recording {
    GLuint (*input_buffer)(const void *backend);
    void (*record)(const void *backend, GLuint buffer, uint32_t vertices, uint32_t bytes);
    GLuint (*sort_recorded)(const void *backend, uint32_t count);
    GLuint (*pairs_texture)(const void *backend, GLuint buffer);
} sort_recording;

typedef struct sort_backend {
    const char *name;
    /* The backend's sorts: the compute path's (a GL memory barrier follows
     * them) or the fragment path's (the GL orders its own copies and draws). */
    bool compute;
    plume_sort_algorithm order; /* whose order it sorts in (plume_sorter_algorithm_for) */

    /* Checks the GL's limits and builds programs and buffers. *out is set
     * whenever memory was had, also on failure: free it with destroy. Logs
     * through `env`, which must outlive the backend. Binds
     * GL_COPY_WRITE_BUFFER and what scope_groups names. */
    plume_result (*create)(const plume_env *env, const sort_backend_desc *desc, void **out);
    void (*destroy)(void *backend);
    uint32_t (*list_gl_objects)(const void *backend, plume_gl_object *out, uint32_t capacity);

    /* Dispatches, draws or render passes that sorting `count` pairs issues. */
    uint32_t (*pass_count)(const void *backend, uint32_t count);
    /* The bitonic sort's block (NULL elsewhere). */
    uint32_t (*block_pairs)(const void *backend);
    /* The largest count sorted by one workgroup (NULL or 0: none). */
    uint32_t (*one_workgroup_limit)(const void *backend);

    /* The GL state groups its creation and sorts change beyond
     * GL_COPY_WRITE_BUFFER, and (NULL: none) what a sort sets first:
     * prepare_state saves the groups itself. */
    uint32_t scope_groups;
    void (*prepare_state)(const void *backend, plume_gl_scope *scope);

    /* Sorts `count` (2 .. capacity) pairs of `pairs_buffer` in place. */
    void (*sort_direct)(void *backend, GLuint pairs_buffer, uint32_t count, const sort_pass_hook *hook);
    /* Sorts as many pairs as the host's count says, at most max_count: the
     * uint at `count_index` of the buffer bound at
     * PLUME_BINDING_SORT_HOST_COUNT (compute), or of `count_buffer` (the
     * fragment path reads it through a buffer texture). */
    void (*sort_indirect)(void *backend, GLuint pairs_buffer, GLuint count_buffer, uint32_t count_index,
                          uint32_t max_count, const sort_pass_hook *hook);
    /* Fragment path (NULL elsewhere): sorts the first `count` pairs of an
     * RG32UI texture `width` texels wide in place. */
    void (*sort_texture)(void *backend, GLuint texture, uint32_t width, uint32_t count, const sort_pass_hook *hook);

    /* Fragment path (NULL elsewhere), for the lab: the stages or position
     * bits a pass holds at most. set_group_bits may build a program: the
     * caller's scope saves PLUME_SCOPE_DRAW. */
    void (*set_group_bits)(void *backend, uint32_t group_bits);
    uint32_t (*group_bits)(const void *backend);

    const sort_recording *recording; /* NULL where keys cannot be recorded into the input */
} sort_backend;

extern const sort_backend SORT_BITONIC_BACKEND;   /* bitonic.c */
extern const sort_backend SORT_RADIX_BACKEND;     /* radix.c */
extern const sort_backend SORT_FEEDBACK_BACKEND;  /* feedback_sort.c: transform feedback (GL 3.3) */
extern const sort_backend SORT_FRAGMENT_BACKEND;  /* fragment_sort.c: render passes (GL 3.3) */

/* Whether this GL's buffer textures hold the transform-feedback backend's
 * buffers for `capacity` pairs (feedback_sort.c); else the fragment path
 * sorts with render passes. */
bool feedback_sort_fits(uint32_t capacity);
/* Whether radix sorters of `capacity` made with `tuning` and `settings` sort
 * by Onesweep (else reduce-then-scan): the sorter's crossover depends on it. */
bool radix_chooses_onesweep(uint32_t capacity, const sort_tuning *tuning, const sort_settings *settings);
/* The digit passes a sort of `key_bits` (1 .. 32) runs: 2, 3 or 4. */
uint32_t radix_digit_passes(uint32_t key_bits);
/* Whether this GL can give the radix sort's phase clocks (sort_settings). */
bool radix_has_phase_clocks(void);

#endif
