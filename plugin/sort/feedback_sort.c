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
 * The bitonic network (for_each_pass) is the benchmark's baseline
 * (plume_feedback_use_bitonic_network): up to m stages a pass, 2^20 in 46
 * passes. Transform feedback writes a vertex's outputs next to each other,
 * so after a pass whose group spans position bits [f, f + m) a pair's
 * storage index is its position with those bits moved to the bottom: the
 * layout, a permutation of position bits, tracked here pass by pass
 * (plan_pass). A merge level ends with the pass on bits [0, m), which leaves
 * the identity, so every level starts and ends in position order. The first
 * pass sorts blocks of 2^m by every level up to m at once and pads from the
 * count to the power of two.
 *
 * Around the network: a buffer sort copies the host's pairs into the first
 * buffer (glCopyBufferSubData) and back (or, with a GPU count, writes them
 * back through a geometry shader that emits only the pairs under the count);
 * a texture sort reads the host's texture into the first buffer with
 * glReadPixels and writes the sorted pairs back with glTexSubImage2D, both
 * through pixel buffers. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "feedback_sort.h"
#include "fragment_sort.h"
#include "shared/plume_gpu_layout.h"

enum {
    PAIR_BYTES = 8,
    MAX_RUNS = PLUME_FEEDBACK_SORT_MAX_RUNS,
    MAX_GROUP = 1 << FEEDBACK_SORT_MAX_GROUP_BITS,
    DEFINES_BYTES = 1 << 16
};

static const char *const NETWORK_UNIFORMS[] = {
    "u_count",     "u_count_from_buffer", "u_count_index",   "u_local_sort",    "u_run_count",  "u_run_shift",
    "u_run_mask",  "u_run_target",        "u_member_offset", "u_direction_bit", "u_top_bit",    "u_host_counts",
    "u_ascending", NULL};
enum {
    U_COUNT, U_COUNT_FROM_BUFFER, U_COUNT_INDEX, U_LOCAL_SORT, U_RUN_COUNT, U_RUN_SHIFT,
    U_RUN_MASK, U_RUN_TARGET, U_MEMBER_OFFSET, U_DIRECTION_BIT, U_TOP_BIT, U_HOST_COUNTS,
    U_ASCENDING, NETWORK_LOCATIONS
};
static const char *const MERGE_UNIFORMS[] = {"u_total", "u_run_bits", NULL};
enum { M_TOTAL, M_RUN_BITS, MERGE_LOCATIONS };
static const char *const WRITE_UNIFORMS[] = {"u_count", "u_count_index", "u_host_counts", NULL};
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

typedef struct plan_state {
    uint32_t log_n, group_bits;
    uint32_t layout[32];            /* storage bit of each position bit */
} plan_state;

/* The pass on position bits [first, first + group_bits), from the current
 * layout, which it then updates: vertex v's bit i stands for the i-th
 * position bit outside the group, and its members are stored from v * 2^m. */
static feedback_pass plan_pass(plan_state *p, uint32_t first, bool local_sort, uint32_t level, uint32_t top_bit) {
    uint32_t m = p->group_bits;
    feedback_pass pass = {.group_bits = m, .local_sort = local_sort, .direction_bit = (GLint)(level - m),
                          .top_bit = (GLint)top_bit};
    uint32_t next[32];
    uint32_t i = 0;
    for (uint32_t bit = 0; bit < p->log_n; ++bit) {
        if (bit >= first && bit < first + m) continue;
        int r = pass.run_count - 1;
        if (r >= 0 && p->layout[bit] == (uint32_t)pass.run_target[r] + plume_log2(pass.run_mask[r] + 1)) {
            pass.run_mask[r] = pass.run_mask[r] << 1 | 1u;
        } else if (pass.run_count < MAX_RUNS) { /* the plans below need at most 3 */
            pass.run_shift[pass.run_count] = (GLint)i;
            pass.run_target[pass.run_count] = (GLint)p->layout[bit];
            pass.run_mask[pass.run_count++] = 1u;
        }
        next[bit] = m + i++;
    }
    for (uint32_t j = 0; j < (1u << m); ++j)
        for (uint32_t t = 0; t < m; ++t)
            if (j >> t & 1u) pass.member_offset[j] |= 1u << p->layout[first + t];
    for (uint32_t t = 0; t < m; ++t) next[first + t] = t;
    memcpy(p->layout, next, sizeof(uint32_t) * p->log_n);
    return pass;
}

typedef void (*run_pass_fn)(const feedback_sort *s, const feedback_pass *pass, void *user);

/* Plans the network of 2^log_n pairs and calls `run` (when not NULL) for each
 * pass; returns how many there are. Level L's L stages (bits L-1 .. 0) go in
 * runs of m from the top; the last run of a level is on bits [0, m). */
static uint32_t for_each_pass(const feedback_sort *s, uint32_t log_n, run_pass_fn run, void *user) {
    if (log_n == 0) return 0;
    plan_state p = {.log_n = log_n, .group_bits = s->group_bits < log_n ? s->group_bits : log_n};
    for (uint32_t bit = 0; bit < log_n; ++bit) p.layout[bit] = bit;
    uint32_t m = p.group_bits, passes = 1;
    feedback_pass pass = plan_pass(&p, 0, true, m, m - 1);
    if (run) run(s, &pass, user);
    for (uint32_t level = m + 1; level <= log_n; ++level)
        for (int32_t high = (int32_t)level - 1; high >= 0; ++passes) {
            uint32_t first = high + 1 >= (int32_t)m ? (uint32_t)high + 1 - m : 0;
            pass = plan_pass(&p, first, false, level, (uint32_t)high - first);
            if (run) run(s, &pass, user);
            high = (int32_t)first - 1;
        }
    return passes;
}

/* ---- The merge sort's plan ----------------------------------------------------- */

/* plume_feedback_use_bitonic_network: the benchmark's baseline. */
static bool bitonic_network;

void plume_feedback_use_bitonic_network(bool bitonic) {
    bitonic_network = bitonic;
}

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

uint32_t feedback_sort_pass_count(const feedback_sort *s, uint32_t count) {
    if (count < 2) return 0;
    if (!bitonic_network) return merge_pass_count(s, count);
    return for_each_pass(s, plume_log2(plume_next_pow2(count)), NULL, NULL);
}

static plume_result build_network_programs(feedback_sort *s, uint32_t up_to);

uint32_t feedback_sort_group_bits(const feedback_sort *s) {
    return s->group_bits;
}

void feedback_sort_set_group_bits(feedback_sort *s, uint32_t group_bits) {
    if (group_bits >= 1 && group_bits <= s->max_group_bits && build_network_programs(s, group_bits) == PLUME_OK)
        s->group_bits = group_bits;
}

/* ---- Running ------------------------------------------------------------------- */

void feedback_sort_prepare_state(const feedback_sort *s, plume_gl_scope *scope) {
    plume_gl_scope_save(scope, FEEDBACK_SORT_SCOPE_GROUPS);
    plume_gl_scope_neutral_raster(scope);
    glEnable(GL_RASTERIZER_DISCARD);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, s->draw_framebuffer);
    if (s->feedback) glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, s->feedback);
    glBindVertexArray(s->vertex_array);
}

void feedback_sort_record(const feedback_sort *s, GLuint buffer, uint32_t vertices, uint32_t bytes) {
    (void)s;
    glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer, 0, (GLsizeiptr)bytes);
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, (GLsizei)vertices);
    glEndTransformFeedback();
    /* The buffer is bound nowhere else while it is read next. */
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
}

/* After the write-back program, the only one with a geometry shader (see
 * feedback_unused.frag): program 0 next drops Mesa's reference to it for that
 * stage, which the next program, having none, would otherwise inherit. */
static void leave_geometry_program(void) {
    glUseProgram(0);
}

static void call_hook(const sort_pass_hook *hook, const char *kind) {
    if (hook && hook->function) hook->function(hook->user, kind);
}

/* plume_feedback_retarget_each_pass: the benchmark's baseline. */
static bool retarget_each_pass;

void plume_feedback_retarget_each_pass(bool retarget) {
    retarget_each_pass = retarget;
}

GLuint feedback_sort_buffer_texture(const feedback_sort *s, GLuint buffer) {
    return s->pairs_textures[buffer == s->buffers[1]];
}

/* Binds the buffer texture over `buffer` (one of the two) to unit 0. Each
 * buffer has its own, attached at creation, so a pass changes a binding,
 * not a texture's storage: glTexBuffer on a texture that earlier draws still
 * read may cost the driver a new texture descriptor, or a wait, every pass
 * (the benchmark's retarget rows time that way against this one). */
static void read_pairs_from(const feedback_sort *s, GLuint buffer) {
    glActiveTexture(GL_TEXTURE0);
    if (retarget_each_pass) {
        glBindTexture(GL_TEXTURE_BUFFER, s->pairs_textures[0]);
        glTexBuffer(GL_TEXTURE_BUFFER, GL_RG32UI, buffer);
        return;
    }
    glBindTexture(GL_TEXTURE_BUFFER, feedback_sort_buffer_texture(s, buffer));
}

/* After a sort: each pairs texture over its own buffer again (the
 * retargeting baseline moved the first). */
static void end_reads(const feedback_sort *s) {
    if (retarget_each_pass) read_pairs_from(s, s->buffers[0]);
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
    call_hook(run->hook, pass->local_sort ? "feedback local sort" : "feedback merge");
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
        call_hook(run->hook, "feedback merge path");
        feedback_sort_record(s, s->buffers[run->current ^ 1], run->n >> m, run->n * PAIR_BYTES);
        run->current ^= 1;
    }
}

/* Sorts the pairs in the first buffer; returns the index of the buffer that
 * holds them sorted. */
static uint32_t run_network(const feedback_sort *s, network_run *run) {
    run->current = 0;
    if (run->count < 2) return run->current;
    if (!bitonic_network) {
        run_merge_sort(s, run);
    } else {
        run->n = plume_next_pow2(run->count);
        for_each_pass(s, plume_log2(run->n), run_network_pass, run);
    }
    return run->current;
}

GLuint feedback_sort_input_buffer(const feedback_sort *s) {
    return s->buffers[0];
}

GLuint feedback_sort_network(const feedback_sort *s, uint32_t count, const sort_pass_hook *hook) {
    network_run run = {.count = count, .hook = hook};
    return s->buffers[run_network(s, &run)];
}

static void copy_pairs(GLuint from, GLuint to, uint32_t count) {
    glBindBuffer(GL_COPY_READ_BUFFER, from);
    glBindBuffer(GL_COPY_WRITE_BUFFER, to);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)count * PAIR_BYTES);
}

void feedback_sort_buffer(const feedback_sort *s, GLuint buffer, uint32_t count, GLuint count_buffer,
                          uint32_t count_index, const sort_pass_hook *hook) {
    call_hook(hook, "feedback copy");
    copy_pairs(buffer, s->buffers[0], count);
    if (count_buffer) read_counts_from(s, count_buffer);
    network_run run = {.count = count, .count_from_buffer = count_buffer != 0, .count_index = count_index,
                       .hook = hook};
    GLuint sorted = s->buffers[run_network(s, &run)];
    call_hook(hook, "feedback copy");
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
    end_reads(s);
    call_hook(hook, NULL);
}

void feedback_sort_texture(const feedback_sort *s, GLuint texture, uint32_t width, uint32_t count,
                           const sort_pass_hook *hook) {
    call_hook(hook, "feedback copy");
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s->read_framebuffer);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, s->buffers[0]);
    sort_transfer_rows(width, count, false);
    /* Holds no reference to the host's objects between calls. */
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    GLuint sorted = feedback_sort_network(s, count, hook);
    call_hook(hook, "feedback copy");
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, sorted);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    sort_transfer_rows(width, count, true);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    end_reads(s);
    call_hook(hook, NULL);
}

/* ---- Creation ------------------------------------------------------------------ */

typedef struct text {
    char *at;
    size_t used, size;
} text;

static void put(text *t, const char *format, ...) {
    if (t->used >= t->size) return;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(t->at + t->used, t->size - t->used, format, args);
    va_end(args);
    t->used = n < 0 ? t->size : t->used + (size_t)n;
}

/* The macros feedback_sort.vert expands, for groups of 2^m pairs x0 ..: each
 * one line (GLSL 3.30 has no line continuation), every index a constant. */
static void network_defines(text *t, uint32_t m) {
    uint32_t size = 1u << m;
    put(t, "#define GROUP_BITS %u\n#define GROUP_SIZE %u\n#define DECLARE_OUTPUTS", m, size);
    for (uint32_t j = 0; j < size / 2; ++j) put(t, " flat out uvec4 out_pairs%u;", j);
    put(t, "\n#define LOAD_GROUP");
    for (uint32_t j = 0; j < size; ++j) put(t, " uvec2 x%u = texelFetch(u_pairs, int(base | u_member_offset[%u])).rg;", j, j);
    put(t, "\n#define PAD_GROUP");
    for (uint32_t j = 0; j < size; ++j) put(t, " if (first + %uu >= count) x%u = PAD_PAIR;", j, j);
    /* Level l sorts blocks of 2^l: ascending where bit l of the position is
     * 0, a constant of the member below the top level, bit 0 of v at it. */
    put(t, "\n#define LOCAL_SORT");
    for (uint32_t level = 1; level <= m; ++level)
        for (uint32_t bit = level; bit-- > 0;)
            for (uint32_t j = 0; j < size; ++j)
                if (!(j >> bit & 1u))
                    put(t, " exchange(x%u, x%u, %s);", j, j | 1u << bit,
                        level == m ? "up" : (j >> level & 1u) ? "false" : "true");
    /* Stages on member bits top_bit .. 0 (a variable of the shader). */
    put(t, "\n#define MERGE_STAGES");
    for (uint32_t bit = m; bit-- > 0;) {
        put(t, " if (top_bit >= %u) {", bit);
        for (uint32_t j = 0; j < size; ++j)
            if (!(j >> bit & 1u)) put(t, " exchange(x%u, x%u, up);", j, j | 1u << bit);
        put(t, " }");
    }
    /* feedback_merge.vert: the lesser of A's pair t and B's GROUP_SIZE-1-t. */
    put(t, "\n#define HALF_CLEAN");
    for (uint32_t j = 0; j < size; ++j)
        put(t, " uvec2 x%u = lesser(run_pair(a + %uu, a_end), run_pair(b + %uu, b_end));", j, j, size - 1 - j);
    put(t, "\n#define STORE_GROUP");
    for (uint32_t j = 0; j < size / 2; ++j) put(t, " out_pairs%u = uvec4(x%u, x%u);", j, 2 * j, 2 * j + 1);
    put(t, "\n");
}

static void find_locations(GLuint program, const char *const *names, GLint *locations) {
    for (int u = 0; names[u]; ++u) locations[u] = glGetUniformLocation(program, names[u]);
}

/* One program for groups of 2^m pairs, from `vertex_file` (after
 * pair_order.glsl) with the macros in `t`: its outputs out_pairs0 .. */
static plume_result build_group_program(const feedback_sort *s, uint32_t m, const char *vertex_file, const char *what,
                                        const text *t, GLuint *out) {
    char names[MAX_GROUP / 2][24];
    const char *varyings[MAX_GROUP / 2];
    for (uint32_t j = 0; j < (1u << m) / 2; ++j) {
        snprintf(names[j], sizeof names[j], "out_pairs%u", j);
        varyings[j] = names[j];
    }
    char label[80];
    snprintf(label, sizeof label, "plume feedback sort: %s, groups of %u pairs", what, 1u << m);
    const plume_shader_stage stages[2] = {
        {GL_VERTEX_SHADER, {"sort/pair_order.glsl", vertex_file}},
        {GL_FRAGMENT_SHADER, {"sort/feedback_unused.frag"}},
    };
    if (t->used >= t->size) return PLUME_ERROR_OUT_OF_MEMORY;
    return plume_build_feedback_program_330(s->env, label, stages, 2, t->at, varyings, (int)(1u << m) / 2, out);
}

/* The network's programs for groups of 2^1 .. 2^up_to pairs that are not
 * built yet (a sort of a small count uses groups of its whole power of two),
 * and the merge pass for groups of 2^up_to. */
static plume_result build_network_programs(feedback_sort *s, uint32_t up_to) {
    text t = {.at = plume_alloc(s->env, DEFINES_BYTES), .size = DEFINES_BYTES};
    if (!t.at) return PLUME_ERROR_OUT_OF_MEMORY;
    plume_result r = PLUME_OK;
    for (uint32_t m = 1; m <= up_to && r == PLUME_OK; ++m) {
        bool merge = m == up_to && !s->merge_programs[m - 1];
        if (s->network_programs[m - 1] && !merge) continue;
        t.used = 0;
        network_defines(&t, m);
        if (!s->network_programs[m - 1]) {
            r = build_group_program(s, m, "sort/feedback_sort.vert", "network", &t, &s->network_programs[m - 1]);
            if (r != PLUME_OK) break;
            find_locations(s->network_programs[m - 1], NETWORK_UNIFORMS, s->network_locations[m - 1]);
            glUseProgram(s->network_programs[m - 1]);
            glUniform1i(s->network_locations[m - 1][U_HOST_COUNTS], 1); /* u_pairs stays on unit 0 */
        }
        if (merge) {
            r = build_group_program(s, m, "sort/feedback_merge.vert", "merge", &t, &s->merge_programs[m - 1]);
            if (r != PLUME_OK) break;
            find_locations(s->merge_programs[m - 1], MERGE_UNIFORMS, s->merge_locations[m - 1]);
        }
    }
    plume_free(s->env, t.at);
    return r;
}

static plume_result build_programs(feedback_sort *s) {
    plume_result r = build_network_programs(s, s->group_bits);
    if (r != PLUME_OK) return r;
    const plume_shader_stage stages[3] = {
        {GL_VERTEX_SHADER, {"sort/feedback_write.vert"}},
        {GL_GEOMETRY_SHADER, {"sort/feedback_write.geom"}},
        {GL_FRAGMENT_SHADER, {"sort/feedback_unused.frag"}},
    };
    const char *varyings[] = {"out_pair"};
    r = plume_build_feedback_program_330(s->env, "plume feedback sort: indirect write-back", stages, 3, NULL,
                                         varyings, 1, &s->write_program);
    if (r != PLUME_OK) return r;
    find_locations(s->write_program, WRITE_UNIFORMS, s->write_locations);
    glUseProgram(s->write_program);
    glUniform1i(s->write_locations[W_HOST_COUNTS], 1);
    leave_geometry_program();
    return PLUME_OK;
}

bool feedback_sort_fits(uint32_t capacity) {
    GLint texels = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &texels);
    return texels > 0 && plume_next_pow2(capacity < 2 ? 2 : capacity) <= (uint32_t)texels;
}

plume_result feedback_sort_create(const plume_env *env, uint32_t capacity, feedback_sort **out) {
    static const char *CALLER = "plume_sorter_create";
    feedback_sort *s = plume_alloc(env, sizeof *s);
    *out = s;
    if (!s) return PLUME_ERROR_OUT_OF_MEMORY;
    s->env = env;
    s->capacity = capacity;
    /* A group of 2^m pairs is 2^(m+1) output components, all recorded. */
    GLint components = 0, outputs = 0;
    glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS, &components);
    glGetIntegerv(GL_MAX_VERTEX_OUTPUT_COMPONENTS, &outputs);
    if (outputs < components) components = outputs;
    s->max_group_bits = 1;
    while (s->max_group_bits < FEEDBACK_SORT_MAX_GROUP_BITS && (2 << (s->max_group_bits + 1)) <= components)
        ++s->max_group_bits;
    s->group_bits = FEEDBACK_SORT_DEFAULT_GROUP_BITS < s->max_group_bits ? FEEDBACK_SORT_DEFAULT_GROUP_BITS
                                                                         : s->max_group_bits;
    plume_result r = build_programs(s);
    if (r != PLUME_OK) return r;
    size_t bytes = (size_t)plume_next_pow2(capacity < 2 ? 2 : capacity) * PAIR_BYTES;
    glGenBuffers(2, s->buffers);
    for (int i = 0; i < 2; ++i) {
        glBindBuffer(GL_COPY_WRITE_BUFFER, s->buffers[i]);
        glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_COPY);
    }
    /* Bound once each, so that the names are objects (glIs* knows them). */
    GLuint textures[4];
    glGenTextures(4, textures);
    s->pairs_textures[0] = textures[0];
    s->pairs_textures[1] = textures[1];
    s->count_texture = textures[2];
    s->draw_texture = textures[3];
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, s->draw_texture);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0); /* NULL data: no upload */
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, 1, 1, 0, GL_RED, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &s->draw_framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, s->draw_framebuffer);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, s->draw_texture, 0);
    for (int i = 0; i < 2; ++i) {
        glBindTexture(GL_TEXTURE_BUFFER, s->pairs_textures[i]);
        glTexBuffer(GL_TEXTURE_BUFFER, GL_RG32UI, s->buffers[i]);
    }
    glBindTexture(GL_TEXTURE_BUFFER, s->count_texture);
    glGenFramebuffers(1, &s->read_framebuffer);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s->read_framebuffer);
    glGenVertexArrays(1, &s->vertex_array);
    glBindVertexArray(s->vertex_array);
    if (plume_has_feedback_objects()) {
        glGenTransformFeedbacks(1, &s->feedback);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, s->feedback);
    }
    return plume_drain_gl_errors(env, CALLER);
}

enum { FEEDBACK_SORT_GL_OBJECTS = 11 + 2 * FEEDBACK_SORT_MAX_GROUP_BITS };

uint32_t feedback_sort_list_gl_objects(const feedback_sort *s, plume_gl_object *out, uint32_t capacity) {
    if (!s) return 0;
    plume_gl_object all[FEEDBACK_SORT_GL_OBJECTS] = {
        {GL_BUFFER, s->buffers[0]},         {GL_BUFFER, s->buffers[1]},
        {GL_TEXTURE, s->pairs_textures[0]}, {GL_TEXTURE, s->pairs_textures[1]},
        {GL_TEXTURE, s->count_texture},
        {GL_FRAMEBUFFER, s->read_framebuffer}, {GL_VERTEX_ARRAY, s->vertex_array},
        {GL_TRANSFORM_FEEDBACK, s->feedback}, {GL_PROGRAM, s->write_program},
        {GL_FRAMEBUFFER, s->draw_framebuffer}, {GL_TEXTURE, s->draw_texture},
    };
    uint32_t n = 11;
    for (int m = 0; m < FEEDBACK_SORT_MAX_GROUP_BITS; ++m) {
        all[n++] = (plume_gl_object){GL_PROGRAM, s->network_programs[m]};
        all[n++] = (plume_gl_object){GL_PROGRAM, s->merge_programs[m]};
    }
    return plume_list_named_gl_objects(all, n, out, capacity);
}

void feedback_sort_destroy(feedback_sort *s) {
    if (!s) return;
    plume_gl_object owned[FEEDBACK_SORT_GL_OBJECTS];
    plume_delete_gl_objects(owned, feedback_sort_list_gl_objects(s, owned, FEEDBACK_SORT_GL_OBJECTS));
    plume_free(s->env, s);
}
