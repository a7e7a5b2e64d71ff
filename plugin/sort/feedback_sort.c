/* The transform-feedback backend of a fragment-path sorter (feedback_sort.h).
 *
 * The fragment sort (fragment_sort.c) writes every pair of every pass as a
 * fragment, through the raster back end: on a GPU whose ROPs are few (the
 * H100) a pass of 2^20 RG32UI fragments costs ~150 us, 20 times what moving
 * its bytes costs. Here no pass reaches the rasterizer: a pass is a
 * glDrawArrays(GL_POINTS) with GL_RASTERIZER_DISCARD, each vertex reads
 * through a buffer texture, works on a group of 2^m pairs in registers and
 * transform feedback writes its 2^m outputs next to each other into the other
 * buffer of a ping-pong pair.
 *
 * The sort is a merge sort (run_merge_sort). Its first pass sorts every group
 * of 2^m pairs (feedback_sort.vert's local sort, every block ascending) and
 * pads from the count on; each later pass merges the runs two by two
 * (feedback_merge.vert: a vertex finds where its 2^m outputs start on the
 * merge path by a binary search over the two runs, then keeps the 2^m least
 * of the next 2^m of each run and sorts them with a bitonic merge). The runs
 * cover the count rounded up to a group, not its power of two, and there is
 * a pass for each doubling up to it: 2^16 pairs take 12 passes, 2^20 16.
 * A pass costs the H100 ~16 us before it does anything (notes/
 * fragment-path.md), so passes, not the work in them, set the time at small
 * counts.
 *
 * The first pass is the bitonic network's local sort of every group (the
 * whole network as passes of m stages each measured 1.5 to 1.95 times
 * slower than this merge sort, notes/fragment-path.md).
 *
 * Around the network: a buffer sort copies the host's pairs into the first
 * buffer (glCopyBufferSubData) and back (or, with a GPU count, writes them
 * back through a geometry shader that emits only the pairs under the count);
 * a texture sort reads the host's texture into the first buffer with
 * glReadPixels and writes the sorted pairs back with glTexSubImage2D, both
 * through pixel buffers.
 *
 * Its programs, buffers and textures are made in feedback_sort_resources.c. */
#include <string.h>

#include "feedback_sort_internal.h"

/* ---- The plan ------------------------------------------------------------------ */

/* One pass: its group's size, where its vertices find their members, and its
 * stages. */
typedef struct feedback_pass {
    uint32_t group_bits;
    bool local_sort;
    bool ascending;                 /* local sort: every block ascending (the merge sort's first pass) */
    GLint run_count;
    GLint run_shift[MAX_RUNS], run_target[MAX_RUNS];
    GLuint run_mask[MAX_RUNS];
    GLuint member_offset[MAX_GROUP];
    GLint direction_bit, top_bit;
} feedback_pass;

/* ---- The merge sort's plan ----------------------------------------------------- */

/* The merge sort's group: 2^m pairs, or the count's power of two where that
 * is smaller (a count of at most a group is sorted by the first pass). */
static uint32_t merge_group_bits(const feedback_sort *s, uint32_t count) {
    uint32_t log_n = plume_log2(count);
    return s->group_bits < log_n ? s->group_bits : log_n;
}

/* The pairs its passes cover: the count rounded up to whole groups, not to
 * its power of two. */
static uint32_t merge_total(uint32_t count, uint32_t group_bits) {
    return (count + (1u << group_bits) - 1u) >> group_bits << group_bits;
}

/* The first pass sorts every group, each later one doubles the runs. */
static uint32_t merge_pass_count(const feedback_sort *s, uint32_t count) {
    uint32_t m = merge_group_bits(s, count);
    return 1 + plume_log2(merge_total(count, m) >> m);
}

static uint32_t feedback_sort_pass_count(const void *backend, uint32_t count) {
    return count < 2 ? 0 : merge_pass_count(backend, count);
}

static uint32_t feedback_sort_group_bits(const void *backend) {
    const feedback_sort *s = backend;
    return s->group_bits;
}

static void feedback_sort_set_group_bits(void *backend, uint32_t group_bits) {
    feedback_sort *s = backend;
    if (group_bits >= 1 && group_bits <= s->max_group_bits && feedback_sort_build_network_programs(s, group_bits) == PLUME_OK)
        s->group_bits = group_bits;
}

/* ---- Running ------------------------------------------------------------------- */

static void feedback_sort_prepare_state(const void *backend, plume_gl_scope *scope) {
    const feedback_sort *s = backend;
    plume_gl_scope_save(scope, FEEDBACK_SORT_SCOPE_GROUPS);
    plume_gl_scope_neutral_raster(scope);
    glEnable(GL_RASTERIZER_DISCARD);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, s->draw_framebuffer);
    if (s->feedback) glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, s->feedback);
    glBindVertexArray(s->vertex_array);
}

static void feedback_sort_record(const void *backend, GLuint buffer, uint32_t vertices, uint32_t bytes) {
    (void)backend;
    glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer, 0, (GLsizeiptr)bytes);
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, (GLsizei)vertices);
    glEndTransformFeedback();
    /* The buffer is bound nowhere else while it is read next. */
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
}

static GLuint feedback_sort_buffer_texture(const void *backend, GLuint buffer) {
    const feedback_sort *s = backend;
    return s->pairs_textures[buffer == s->buffers[1]];
}

/* Binds the buffer texture over `buffer` (one of the two) to unit 0. Each
 * buffer has its own, attached at creation, so a pass changes a binding,
 * not a texture's storage: glTexBuffer on a texture that earlier draws still
 * read may cost the driver a new texture descriptor, or a wait, every pass
 * (measured slower: notes/fragment-path.md, the retarget rows). */
static void read_pairs_from(const feedback_sort *s, GLuint buffer) {
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, feedback_sort_buffer_texture(s, buffer));
}

/* The host's count buffer on unit 1, or nothing. */
static void read_counts_from(const feedback_sort *s, GLuint count_buffer) {
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_BUFFER, s->count_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_R32UI, count_buffer);
}

typedef struct network_run {
    uint32_t n;
    uint32_t count;                 /* pairs read by the first pass, the rest padding */
    bool count_from_buffer;         /* at most the uint at count_index of unit 1's buffer */
    uint32_t count_index;
    uint32_t current;               /* the buffer holding the last pass's output */
    const sort_pass_hook *hook;
} network_run;

static void run_network_pass(const feedback_sort *s, const feedback_pass *pass, void *user) {
    network_run *run = user;
    uint32_t m = pass->group_bits;
    const GLint *at = s->network_locations[m - 1];
    glUseProgram(s->network_programs[m - 1]);
    glUniform1i(at[U_LOCAL_SORT], pass->local_sort);
    if (pass->local_sort) {
        glUniform1i(at[U_ASCENDING], pass->ascending);
        glUniform1ui(at[U_COUNT], run->count);
        glUniform1i(at[U_COUNT_FROM_BUFFER], run->count_from_buffer);
        glUniform1i(at[U_COUNT_INDEX], (GLint)run->count_index);
    }
    glUniform1i(at[U_RUN_COUNT], pass->run_count);
    if (pass->run_count > 0) {
        glUniform1iv(at[U_RUN_SHIFT], pass->run_count, pass->run_shift);
        glUniform1uiv(at[U_RUN_MASK], pass->run_count, pass->run_mask);
        glUniform1iv(at[U_RUN_TARGET], pass->run_count, pass->run_target);
    }
    glUniform1uiv(at[U_MEMBER_OFFSET], (GLsizei)(1u << m), pass->member_offset);
    glUniform1i(at[U_DIRECTION_BIT], pass->direction_bit);
    glUniform1i(at[U_TOP_BIT], pass->top_bit);
    read_pairs_from(s, s->buffers[run->current]);
    sort_call_hook(run->hook, pass->local_sort ? "feedback local sort" : "feedback merge");
    feedback_sort_record(s, s->buffers[run->current ^ 1], run->n >> m, run->n * PAIR_BYTES);
    run->current ^= 1;
}

/* The merge sort: the network's local sort of every group, ascending, then
 * merge passes (feedback_merge.vert) until one run holds them all. */
static void run_merge_sort(const feedback_sort *s, network_run *run) {
    uint32_t m = merge_group_bits(s, run->count);
    run->n = merge_total(run->count, m);
    feedback_pass local = {.group_bits = m, .local_sort = true, .ascending = true, .run_count = 1,
                           .run_mask = {~0u}, .run_target = {(GLint)m}, .top_bit = (GLint)m - 1};
    for (uint32_t j = 0; j < (1u << m); ++j) local.member_offset[j] = j;
    run_network_pass(s, &local, run);
    if (run->n == 1u << m) return;
    const GLint *at = s->merge_locations[m - 1];
    glUseProgram(s->merge_programs[m - 1]);
    glUniform1ui(at[M_TOTAL], run->n);
    for (uint32_t run_bits = m; (1u << run_bits) < run->n; ++run_bits) {
        glUniform1ui(at[M_RUN_BITS], run_bits);
        read_pairs_from(s, s->buffers[run->current]);
        sort_call_hook(run->hook, "feedback merge path");
        feedback_sort_record(s, s->buffers[run->current ^ 1], run->n >> m, run->n * PAIR_BYTES);
        run->current ^= 1;
    }
}

/* Sorts the pairs in the first buffer; returns the index of the buffer that
 * holds them sorted. */
static uint32_t run_network(const feedback_sort *s, network_run *run) {
    run->current = 0;
    if (run->count >= 2) run_merge_sort(s, run);
    return run->current;
}

static GLuint feedback_sort_input_buffer(const void *backend) {
    const feedback_sort *s = backend;
    return s->buffers[0];
}

static GLuint feedback_sort_network(const feedback_sort *s, uint32_t count, const sort_pass_hook *hook) {
    network_run run = {.count = count, .hook = hook};
    return s->buffers[run_network(s, &run)];
}

static GLuint feedback_sort_recorded(const void *backend, uint32_t count) {
    return feedback_sort_network(backend, count, NULL);
}

static void copy_pairs(GLuint from, GLuint to, uint32_t count) {
    glBindBuffer(GL_COPY_READ_BUFFER, from);
    glBindBuffer(GL_COPY_WRITE_BUFFER, to);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)count * PAIR_BYTES);
}

/* Sorts the first `count` pairs of the host's `buffer` in place. With
 * `count_buffer` (not 0) the count is the uint at `count_index` of it, at
 * most `count`: the pairs from it on are neither read nor written. */
static void feedback_sort_buffer(void *backend, GLuint buffer, GLuint count_buffer, uint32_t count_index,
                                 uint32_t count, const sort_pass_hook *hook) {
    const feedback_sort *s = backend;
    sort_call_hook(hook, "feedback copy");
    copy_pairs(buffer, s->buffers[0], count);
    if (count_buffer) read_counts_from(s, count_buffer);
    network_run run = {.count = count, .count_from_buffer = count_buffer != 0, .count_index = count_index,
                       .hook = hook};
    GLuint sorted = s->buffers[run_network(s, &run)];
    sort_call_hook(hook, "feedback copy");
    if (!count_buffer) {
        copy_pairs(sorted, buffer, count);
    } else {
        const GLint *at = s->write_locations;
        glUseProgram(s->write_program);
        glUniform1ui(at[W_COUNT], count);
        glUniform1i(at[W_COUNT_INDEX], (GLint)count_index);
        read_pairs_from(s, sorted);
        feedback_sort_record(s, buffer, count, count * PAIR_BYTES);
        read_counts_from(s, 0);
        leave_geometry_program();
    }
    sort_call_hook(hook, NULL);
}

static void feedback_sort_direct(void *backend, GLuint buffer, uint32_t count, const sort_pass_hook *hook) {
    feedback_sort_buffer(backend, buffer, 0, 0, count, hook);
}

static void feedback_sort_texture(void *backend, GLuint texture, uint32_t width, uint32_t count,
                                  const sort_pass_hook *hook) {
    const feedback_sort *s = backend;
    sort_call_hook(hook, "feedback copy");
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s->read_framebuffer);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, s->buffers[0]);
    sort_transfer_rows(s->env, width, count, false);
    /* Holds no reference to the host's objects between calls. */
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    GLuint sorted = feedback_sort_network(s, count, hook);
    sort_call_hook(hook, "feedback copy");
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, sorted);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    sort_transfer_rows(s->env, width, count, true);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    sort_call_hook(hook, NULL);
}

static const sort_recording FEEDBACK_RECORDING = {
    .input_buffer = feedback_sort_input_buffer,
    .record = feedback_sort_record,
    .sort_recorded = feedback_sort_recorded,
    .pairs_texture = feedback_sort_buffer_texture,
};

const sort_backend SORT_FEEDBACK_BACKEND = {
    .name = "transform feedback",
    .order = PLUME_SORT_BITONIC,
    .create = feedback_sort_create,
    .destroy = feedback_sort_destroy,
    .list_gl_objects = feedback_sort_list_gl_objects,
    .pass_count = feedback_sort_pass_count,
    .scope_groups = FEEDBACK_SORT_SCOPE_GROUPS,
    .prepare_state = feedback_sort_prepare_state,
    .sort_direct = feedback_sort_direct,
    .sort_indirect = feedback_sort_buffer,
    .sort_texture = feedback_sort_texture,
    .set_group_bits = feedback_sort_set_group_bits,
    .group_bits = feedback_sort_group_bits,
    .recording = &FEEDBACK_RECORDING,
};
