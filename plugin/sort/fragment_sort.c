/* The render-pass backend of a fragment-path sorter (SORT_FRAGMENT_BACKEND):
 * the bitonic network of seeds 000 and 002 as render passes over RG32UI
 * textures, for contexts without compute shaders (GL 3.3 core) whose buffer
 * textures cannot hold the transform-feedback backend's buffers
 * (feedback_sort.c).
 *
 * Seeds 000 and 002 sort with one full-screen pass per stage of the bitonic
 * network: log2(n) (log2(n) + 1) / 2 passes, each reading two texels a
 * fragment. Here a pass holds up to k stages (k = 2 by default, up to 4): the pairs
 * whose positions differ only in k chosen bits form a group of 2^k, each
 * fragment reads its group and runs the pass's stages on it in registers
 * (shaders/sort/fragment_sort.frag). The first pass sorts blocks of 2^k by
 * every level up to k at once; each later level L runs its stages on bits
 * L-1 .. 0 in runs of k, so 2^20 pairs take 109 passes (k = 2; 57 with
 * k = 4) instead of 210. A pass
 * covers only the count's power of two, so the cost follows the count and no
 * pass is issued for levels above it.
 *
 * The network works in the sorter's two RG32UI textures (ping-pong, width a
 * power of two); a copy pass brings the pairs in from the host's texture (or
 * the staging texture a buffer was uploaded to), padding to the power of two
 * with PAD_PAIR, and another writes the sorted pairs back, leaving the texels
 * past the count alone. */
#include <stdio.h>
#include <string.h>

#include "shared/plume_gpu_layout.h"
#include "sort_backend.h"
#include "sort_fragment_path.h"

typedef struct fragment_sort fragment_sort;

/* Stages a pass holds at most (the pass reads 2^k texels a fragment); by
 * default the tuning's (sort_tuning.c). */
enum { FRAGMENT_SORT_MAX_GROUP_BITS = 4 };

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

enum {
    MAX_WIDTH_LOG2 = 11,    /* 2048 texels a row */
    PAIR_BYTES = 8,
    SORT_LOCATIONS = 5,     /* SORT_UNIFORMS, in order */
    COPY_LOCATIONS = 8      /* COPY_UNIFORMS, in order */
};

static const char *const SORT_UNIFORMS[SORT_LOCATIONS + 1] = {"u_width_log2",  "u_group_bits", "u_stage_count",
                                                              "u_stage_level", "u_stage_bit",  NULL};
enum { U_WIDTH_LOG2, U_GROUP_BITS, U_STAGE_COUNT, U_STAGE_LEVEL, U_STAGE_BIT };
static const char *const COPY_UNIFORMS[COPY_LOCATIONS + 1] = {
    "u_source_width", "u_target_width", "u_count", "u_count_from_buffer", "u_count_index",
    "u_discard_past_count", "u_source", "u_host_counts", NULL};
enum { U_SOURCE_WIDTH, U_TARGET_WIDTH, U_COUNT, U_COUNT_FROM_BUFFER, U_COUNT_INDEX, U_DISCARD, U_SOURCE, U_HOST_COUNTS };

struct fragment_sort {
    const plume_env *env;
    uint32_t capacity;
    uint32_t width_log2;            /* the network textures' width, log2 */
    uint32_t group_bits;            /* stages a pass holds at most */
    GLuint network_textures[2], network_framebuffers[2];
    GLuint staging_texture, staging_framebuffer; /* buffer sorts: the pairs as a texture */
    GLuint target_framebuffer;      /* the host's texture, attached while written */
    GLuint count_texture;           /* the host's count buffer as a buffer texture */
    GLuint vertex_array;            /* none of the passes has attributes; core GL needs one bound */
    GLuint sampler;                 /* nearest, base level: whatever sampler state the textures carry */
    GLuint sort_programs[FRAGMENT_SORT_MAX_GROUP_BITS];
    GLint sort_locations[FRAGMENT_SORT_MAX_GROUP_BITS][SORT_LOCATIONS];
    GLuint copy_program;
    GLint copy_locations[COPY_LOCATIONS];
};

/* One pass: the group's bits and its stages. */
typedef struct pass_plan {
    uint32_t bit_count;
    GLint bits[FRAGMENT_SORT_MAX_GROUP_BITS];
    GLint stage_count;
    GLint stage_level[PLUME_FRAGMENT_SORT_MAX_STAGES];
    GLint stage_bit[PLUME_FRAGMENT_SORT_MAX_STAGES];
} pass_plan;

typedef void (*run_pass_fn)(const fragment_sort *s, const pass_plan *pass, void *user);

/* Plans the network of 2^log_n pairs and calls `run` (when not NULL) for each
 * pass; returns how many there are. */
static uint32_t for_each_pass(const fragment_sort *s, uint32_t log_n, run_pass_fn run, void *user) {
    if (log_n == 0) return 0;
    uint32_t k = s->group_bits < log_n ? s->group_bits : log_n;
    uint32_t passes = 0;
    pass_plan pass = {.bit_count = k};
    for (uint32_t t = 0; t < k; ++t) pass.bits[t] = (GLint)t;
    for (uint32_t level = 1; level <= k; ++level)
        for (uint32_t bit = level; bit-- > 0;) {
            pass.stage_level[pass.stage_count] = (GLint)level;
            pass.stage_bit[pass.stage_count++] = (GLint)bit;
        }
    if (run) run(s, &pass, user);
    ++passes;
    for (uint32_t level = k + 1; level <= log_n; ++level) {
        for (int32_t high = (int32_t)level - 1; high >= 0;) {
            int32_t low = high - (int32_t)k + 1;
            if (low < 0) low = 0;
            /* Stages low .. high; a group of k bits, the ones below `low` made up when the run is short. */
            pass = (pass_plan){.bit_count = k};
            int32_t first_bit = high - (int32_t)k + 1 < 0 ? 0 : high - (int32_t)k + 1;
            for (uint32_t t = 0; t < k; ++t) pass.bits[t] = first_bit + (GLint)t;
            for (int32_t bit = high; bit >= low; --bit) {
                pass.stage_level[pass.stage_count] = (GLint)level;
                pass.stage_bit[pass.stage_count++] = bit - first_bit;
            }
            if (run) run(s, &pass, user);
            ++passes;
            high = low - 1;
        }
    }
    return passes;
}

/* Render passes that sorting `count` pairs issues (copies in and out
 * included). */
static uint32_t fragment_sort_pass_count(const void *backend, uint32_t count) {
    const fragment_sort *s = backend;
    if (count < 2) return 0;
    return for_each_pass(s, plume_log2(plume_next_pow2(count)), NULL, NULL) + 2; /* and the two copies */
}

static uint32_t fragment_sort_group_bits(const void *backend) {
    const fragment_sort *s = backend;
    return s->group_bits;
}

static void fragment_sort_set_group_bits(void *backend, uint32_t group_bits) {
    fragment_sort *s = backend;
    if (group_bits >= 1 && group_bits <= FRAGMENT_SORT_MAX_GROUP_BITS) s->group_bits = group_bits;
}

/* ---- Drawing ------------------------------------------------------------------ */

void fragment_sort_draw_range(uint32_t width, uint32_t count) {
    uint32_t rows = count / width, rest = count % width;
    if (rows > 0) {
        glViewport(0, 0, (GLsizei)width, (GLsizei)rows);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    if (rest > 0) {
        glViewport(0, (GLint)rows, (GLsizei)rest, 1);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
}

static void fragment_sort_prepare_state(const void *backend, plume_gl_scope *scope) {
    (void)backend;
    plume_gl_scope_save(scope, FRAGMENT_SORT_SCOPE_GROUPS);
    plume_gl_scope_neutral_raster(scope);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_DEPTH_TEST);
}

/* Binds `texture` for texelFetch on unit 0, through the sorter's sampler. */
static void bind_source(const fragment_sort *s, GLuint texture) {
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    glBindSampler(0, s->sampler);
}

typedef struct network_run {
    uint32_t n;
    uint32_t current;               /* network texture holding the last pass's output */
    const sort_pass_hook *hook;
} network_run;

static void run_sort_pass(const fragment_sort *s, const pass_plan *pass, void *user) {
    network_run *run = user;
    uint32_t k = pass->bit_count;
    const GLint *at = s->sort_locations[k - 1];
    glUseProgram(s->sort_programs[k - 1]);
    glUniform1i(at[U_WIDTH_LOG2], (GLint)s->width_log2);
    glUniform1iv(at[U_GROUP_BITS], (GLsizei)k, pass->bits);
    glUniform1i(at[U_STAGE_COUNT], pass->stage_count);
    glUniform1iv(at[U_STAGE_LEVEL], pass->stage_count, pass->stage_level);
    glUniform1iv(at[U_STAGE_BIT], pass->stage_count, pass->stage_bit);
    bind_source(s, s->network_textures[run->current]);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, s->network_framebuffers[run->current ^ 1]);
    sort_call_hook(run->hook, "fragment pass");
    fragment_sort_draw_range(1u << s->width_log2, run->n);
    run->current ^= 1;
}

/* Sorts the network's input texture (the first `count` pairs, padded up to
 * the power of two); returns the texture holding the result. */
static GLuint run_network(const fragment_sort *s, uint32_t count, const sort_pass_hook *hook) {
    network_run run = {.n = plume_next_pow2(count), .current = 0, .hook = hook};
    if (count >= 2) for_each_pass(s, plume_log2(run.n), run_sort_pass, &run);
    return s->network_textures[run.current];
}

/* A copy pass: `pairs`' count, from `source` (`source_width` a row) into the
 * bound draw framebuffer (`target_width` a row), over `range` texels. */
static void run_copy(const fragment_sort *s, const fragment_sort_pairs *pairs, GLuint source, uint32_t source_width,
                     uint32_t target_width, uint32_t range, bool discard_past_count) {
    const GLint *at = s->copy_locations;
    glUseProgram(s->copy_program);
    glUniform1ui(at[U_SOURCE_WIDTH], source_width);
    glUniform1ui(at[U_TARGET_WIDTH], target_width);
    glUniform1ui(at[U_COUNT], pairs->count);
    glUniform1i(at[U_COUNT_FROM_BUFFER], pairs->count_buffer != 0);
    glUniform1i(at[U_COUNT_INDEX], (GLint)pairs->count_index);
    glUniform1i(at[U_DISCARD], discard_past_count);
    bind_source(s, source);
    fragment_sort_draw_range(target_width, range);
}

/* Sorts the pairs of a texture in place. */
static void sort_pairs(const fragment_sort *s, const fragment_sort_pairs *pairs, const sort_pass_hook *hook) {
    if (pairs->count_buffer) {
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_BUFFER, s->count_texture);
        glTexBuffer(GL_TEXTURE_BUFFER, GL_R32UI, pairs->count_buffer);
        glBindSampler(1, 0);
    }
    uint32_t n = plume_next_pow2(pairs->count);
    glBindVertexArray(s->vertex_array);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, s->network_framebuffers[0]);
    sort_call_hook(hook, "fragment copy");
    run_copy(s, pairs, pairs->texture, pairs->width, 1u << s->width_log2, n, false);
    GLuint sorted = run_network(s, pairs->count, hook);
    GLuint target = pairs->texture == s->staging_texture ? s->staging_framebuffer : s->target_framebuffer;
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target);
    if (target == s->target_framebuffer)
        glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, pairs->texture, 0);
    sort_call_hook(hook, "fragment copy");
    run_copy(s, pairs, sorted, 1u << s->width_log2, pairs->width, pairs->count, true);
    /* Holds no reference to the host's objects between calls. */
    if (target == s->target_framebuffer)
        glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
    if (pairs->count_buffer) {
        glActiveTexture(GL_TEXTURE1);
        glTexBuffer(GL_TEXTURE_BUFFER, GL_R32UI, 0);
    }
    sort_call_hook(hook, NULL);
}

void sort_transfer_rows(const plume_env *env, uint32_t width, uint32_t count, bool upload) {
    uint32_t rows = count / width, rest = count % width;
    const GLintptr rest_offset = (GLintptr)rows * width * PAIR_BYTES;
    GLenum store[5] = {GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_PIXELS, GL_PACK_SKIP_ROWS,
                       GL_PACK_SWAP_BYTES};
    if (upload) store[0] = GL_UNPACK_ALIGNMENT, store[1] = GL_UNPACK_ROW_LENGTH, store[2] = GL_UNPACK_SKIP_PIXELS,
                store[3] = GL_UNPACK_SKIP_ROWS, store[4] = GL_UNPACK_SWAP_BYTES;
    glPixelStorei(store[0], 4);
    for (int i = 1; i < plume_pixel_store_parameter_count(env); ++i) glPixelStorei(store[i], 0);
    if (upload) {
        if (rows) glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, (GLsizei)width, (GLsizei)rows, GL_RG_INTEGER,
                                  GL_UNSIGNED_INT, NULL);
        if (rest) glTexSubImage2D(GL_TEXTURE_2D, 0, 0, (GLint)rows, (GLsizei)rest, 1, GL_RG_INTEGER, GL_UNSIGNED_INT,
                                  (const void *)rest_offset);
    } else {
        if (rows) glReadPixels(0, 0, (GLsizei)width, (GLsizei)rows, GL_RG_INTEGER, GL_UNSIGNED_INT, NULL);
        if (rest) glReadPixels(0, (GLint)rows, (GLsizei)rest, 1, GL_RG_INTEGER, GL_UNSIGNED_INT, (void *)rest_offset);
    }
}

static void fragment_sort_texture(void *backend, GLuint texture, uint32_t width, uint32_t count,
                                  const sort_pass_hook *hook) {
    const fragment_sort_pairs pairs = {.texture = texture, .width = width, .count = count};
    sort_pairs(backend, &pairs, hook);
}

/* Sorts the first `count` pairs of `buffer` (8 bytes each) in place, the
 * count clamped to the uint at `count_index` of `count_buffer` where that is
 * not 0: uploaded into the sorter's staging texture through
 * GL_PIXEL_UNPACK_BUFFER, sorted, read back through GL_PIXEL_PACK_BUFFER. */
static void fragment_sort_buffer(void *backend, GLuint buffer, GLuint count_buffer, uint32_t count_index,
                                 uint32_t count, const sort_pass_hook *hook) {
    const fragment_sort *s = backend;
    uint32_t width = 1u << s->width_log2;
    const fragment_sort_pairs pairs = {.texture = s->staging_texture, .width = width, .count = count,
                                       .count_buffer = count_buffer, .count_index = count_index};
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, s->staging_texture);
    sort_transfer_rows(s->env, width, count, true);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    sort_pairs(s, &pairs, hook);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s->staging_framebuffer);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, buffer);
    sort_transfer_rows(s->env, width, count, false);
}

static void fragment_sort_direct(void *backend, GLuint buffer, uint32_t count, const sort_pass_hook *hook) {
    fragment_sort_buffer(backend, buffer, 0, 0, count, hook);
}

/* ---- Creation ------------------------------------------------------------------ */

static plume_result create_pair_texture(fragment_sort *s, uint32_t width, uint32_t rows, const char *label,
                                        GLuint *texture, GLuint *framebuffer) {
    /* NULL data means no upload only with no pixel unpack buffer bound (the host may have one). */
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glGenTextures(1, texture);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, *texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32UI, (GLsizei)width, (GLsizei)rows, 0, GL_RG_INTEGER, GL_UNSIGNED_INT, NULL);
    glGenFramebuffers(1, framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, *framebuffer);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, *texture, 0);
    GLenum status = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER);
    plume_result r = plume_drain_gl_errors(s->env, label);
    if (r == PLUME_OK && status != GL_FRAMEBUFFER_COMPLETE) {
        plume_log(s->env, PLUME_LOG_ERROR, "%s: an RG32UI framebuffer of %ux%u is incomplete (status 0x%04x)", label,
                  width, rows, status);
        r = PLUME_ERROR_GL_UNSUPPORTED;
    }
    return r;
}

static plume_result build_programs(fragment_sort *s) {
    for (uint32_t k = 1; k <= FRAGMENT_SORT_MAX_GROUP_BITS; ++k) {
        char defines[64], label[64];
        snprintf(defines, sizeof defines, "#define GROUP_BITS %u\n", k);
        snprintf(label, sizeof label, "plume fragment sort: %u stage%s a pass", k, k > 1 ? "s" : "");
        const plume_shader_stage stages[2] = {
            {GL_VERTEX_SHADER, "sort/fragment_pass.vert"},
            {GL_FRAGMENT_SHADER, "sort/fragment_sort.frag"},
        };
        plume_result r = plume_build_program_330(s->env, label, stages, 2, defines, &s->sort_programs[k - 1]);
        if (r != PLUME_OK) return r;
        plume_find_uniform_locations(s->sort_programs[k - 1], SORT_UNIFORMS, s->sort_locations[k - 1]);
        /* u_pairs stays on unit 0 (the default). */
    }
    const plume_shader_stage stages[2] = {
        {GL_VERTEX_SHADER, "sort/fragment_pass.vert"},
        {GL_FRAGMENT_SHADER, "sort/fragment_copy.frag"},
    };
    plume_result r = plume_build_program_330(s->env, "plume fragment sort: copy", stages, 2, NULL, &s->copy_program);
    if (r != PLUME_OK) return r;
    plume_find_uniform_locations(s->copy_program, COPY_UNIFORMS, s->copy_locations);
    glUseProgram(s->copy_program);
    glUniform1i(s->copy_locations[U_SOURCE], 0);
    glUniform1i(s->copy_locations[U_HOST_COUNTS], 1);
    return PLUME_OK;
}

static plume_result fragment_sort_create(const plume_env *env, const sort_backend_desc *desc, void **out) {
    static const char *const CALLER = "plume_sorter_create";
    fragment_sort *s = plume_alloc(env, sizeof *s);
    *out = s;
    if (!s) return PLUME_ERROR_OUT_OF_MEMORY;
    s->env = env;
    uint32_t capacity = s->capacity = desc->capacity;
    s->group_bits = desc->tuning->fragment_group_bits;
    GLint max_size = 0, viewport[2] = {0, 0};
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, viewport);
    if (viewport[1] < max_size) max_size = viewport[1];
    uint32_t n = plume_next_pow2(capacity < 2 ? 2 : capacity);
    uint32_t width_log2 = plume_log2(n);
    if (width_log2 > MAX_WIDTH_LOG2) width_log2 = MAX_WIDTH_LOG2;
    while (width_log2 > 0 && (1u << width_log2) > (uint32_t)max_size) --width_log2;
    s->width_log2 = width_log2;
    uint32_t width = 1u << width_log2, rows = n / width;
    if (rows > (uint32_t)max_size) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: capacity %u needs %u rows of %u texels on the fragment path, over this GL's "
                  "GL_MAX_TEXTURE_SIZE / GL_MAX_VIEWPORT_DIMS of %d",
                  CALLER, capacity, rows, width, max_size);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_result r = build_programs(s);
    for (int i = 0; i < 2 && r == PLUME_OK; ++i)
        r = create_pair_texture(s, width, rows, CALLER, &s->network_textures[i], &s->network_framebuffers[i]);
    if (r == PLUME_OK)
        r = create_pair_texture(s, width, (capacity + width - 1) / width, CALLER, &s->staging_texture,
                                &s->staging_framebuffer);
    if (r != PLUME_OK) return r;
    /* Bound once each, so that the names are objects (glIs* knows them). */
    glGenFramebuffers(1, &s->target_framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, s->target_framebuffer);
    /* OpenGL ES 3.0 has no buffer textures: the sorter refuses a count from a buffer there (sorter.c). */
    if (!plume_gl_is_es()) {
        glGenTextures(1, &s->count_texture);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_BUFFER, s->count_texture);
        glActiveTexture(GL_TEXTURE0);
    }
    glGenVertexArrays(1, &s->vertex_array);
    glBindVertexArray(s->vertex_array);
    glGenSamplers(1, &s->sampler);
    glSamplerParameteri(s->sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glSamplerParameteri(s->sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return plume_drain_gl_errors(env, CALLER);
}

enum { FRAGMENT_SORT_GL_OBJECTS = 12 + FRAGMENT_SORT_MAX_GROUP_BITS };

static uint32_t fragment_sort_list_gl_objects(const void *backend, plume_gl_object *out, uint32_t capacity) {
    const fragment_sort *s = backend;
    plume_gl_object all[FRAGMENT_SORT_GL_OBJECTS] = {
        {GL_TEXTURE, s->network_textures[0]},     {GL_TEXTURE, s->network_textures[1]},
        {GL_FRAMEBUFFER, s->network_framebuffers[0]}, {GL_FRAMEBUFFER, s->network_framebuffers[1]},
        {GL_TEXTURE, s->staging_texture},         {GL_FRAMEBUFFER, s->staging_framebuffer},
        {GL_FRAMEBUFFER, s->target_framebuffer},  {GL_TEXTURE, s->count_texture},
        {GL_VERTEX_ARRAY, s->vertex_array},       {GL_SAMPLER, s->sampler},
        {GL_PROGRAM, s->copy_program},
    };
    uint32_t n = 11;
    for (int k = 0; k < FRAGMENT_SORT_MAX_GROUP_BITS; ++k) all[n++] = (plume_gl_object){GL_PROGRAM, s->sort_programs[k]};
    return plume_list_named_gl_objects(all, n, out, capacity);
}

static void fragment_sort_destroy(void *backend) {
    fragment_sort *s = backend;
    plume_gl_object owned[FRAGMENT_SORT_GL_OBJECTS];
    plume_delete_gl_objects(s->env, owned, fragment_sort_list_gl_objects(s, owned, FRAGMENT_SORT_GL_OBJECTS));
    plume_free(s->env, s);
}

const sort_backend SORT_FRAGMENT_BACKEND = {
    .name = "render passes",
    .order = PLUME_SORT_BITONIC,
    .create = fragment_sort_create,
    .destroy = fragment_sort_destroy,
    .list_gl_objects = fragment_sort_list_gl_objects,
    .pass_count = fragment_sort_pass_count,
    .scope_groups = FRAGMENT_SORT_SCOPE_GROUPS,
    .prepare_state = fragment_sort_prepare_state,
    .sort_direct = fragment_sort_direct,
    .sort_indirect = fragment_sort_buffer,
    .sort_texture = fragment_sort_texture,
    .set_group_bits = fragment_sort_set_group_bits,
    .group_bits = fragment_sort_group_bits,
};
