/* The transform-feedback sort's resources (feedback_sort.c sorts with
 * them): the programs, whose network feedback_sort.vert and
 * feedback_merge.vert expand from macros generated here per group size (every
 * index a constant, so that the groups stay in registers), the ping-pong
 * buffers with a buffer texture each, and the framebuffers, vertex array and
 * transform feedback object the passes bind. */
#include <stdarg.h>
#include <stdio.h>

#include "feedback_sort_internal.h"

/* The programs' uniforms, in the order of their locations' enums
 * (feedback_sort_internal.h). */
static const char *const NETWORK_UNIFORMS[] = {
    "u_count",     "u_count_from_buffer", "u_count_index",   "u_local_sort",    "u_run_count",  "u_run_shift",
    "u_run_mask",  "u_run_target",        "u_member_offset", "u_direction_bit", "u_top_bit",    "u_host_counts",
    "u_ascending", NULL};
static const char *const MERGE_UNIFORMS[] = {"u_total", "u_run_bits", NULL};
static const char *const WRITE_UNIFORMS[] = {"u_count", "u_count_index", "u_host_counts", NULL};

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

/* One program for groups of 2^m pairs, from `vertex_file` with the macros in
 * `t`: its outputs out_pairs0 .. */
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
        {GL_VERTEX_SHADER, vertex_file},
        {GL_FRAGMENT_SHADER, "sort/feedback_unused.frag"},
    };
    if (t->used >= t->size) return PLUME_ERROR_OUT_OF_MEMORY;
    return plume_build_feedback_program_330(s->env, label, stages, 2, t->at, varyings, (int)(1u << m) / 2, out);
}

plume_result feedback_sort_build_network_programs(feedback_sort *s, uint32_t up_to) {
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
            plume_find_uniform_locations(s->network_programs[m - 1], NETWORK_UNIFORMS, s->network_locations[m - 1]);
            glUseProgram(s->network_programs[m - 1]);
            glUniform1i(s->network_locations[m - 1][U_HOST_COUNTS], 1); /* u_pairs stays on unit 0 */
        }
        if (merge) {
            r = build_group_program(s, m, "sort/feedback_merge.vert", "merge", &t, &s->merge_programs[m - 1]);
            if (r != PLUME_OK) break;
            plume_find_uniform_locations(s->merge_programs[m - 1], MERGE_UNIFORMS, s->merge_locations[m - 1]);
        }
    }
    plume_free(s->env, t.at);
    return r;
}

static plume_result build_programs(feedback_sort *s) {
    plume_result r = feedback_sort_build_network_programs(s, s->group_bits);
    if (r != PLUME_OK) return r;
    const plume_shader_stage stages[3] = {
        {GL_VERTEX_SHADER, "sort/feedback_write.vert"},
        {GL_GEOMETRY_SHADER, "sort/feedback_write.geom"},
        {GL_FRAGMENT_SHADER, "sort/feedback_unused.frag"},
    };
    const char *varyings[] = {"out_pair"};
    r = plume_build_feedback_program_330(s->env, "plume feedback sort: indirect write-back", stages, 3, NULL,
                                         varyings, 1, &s->write_program);
    if (r != PLUME_OK) return r;
    plume_find_uniform_locations(s->write_program, WRITE_UNIFORMS, s->write_locations);
    glUseProgram(s->write_program);
    glUniform1i(s->write_locations[W_HOST_COUNTS], 1);
    leave_geometry_program();
    return PLUME_OK;
}

bool feedback_sort_fits(uint32_t capacity) {
    /* OpenGL ES 3.0 has neither the buffer textures nor the geometry shader it needs. */
    if (plume_gl_is_es()) return false;
    GLint texels = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &texels);
    return texels > 0 && plume_next_pow2(capacity < 2 ? 2 : capacity) <= (uint32_t)texels;
}

plume_result feedback_sort_create(const plume_env *env, const sort_backend_desc *desc, void **out) {
    static const char *const CALLER = "plume_sorter_create";
    feedback_sort *s = plume_alloc(env, sizeof *s);
    *out = s;
    if (!s) return PLUME_ERROR_OUT_OF_MEMORY;
    s->env = env;
    uint32_t capacity = s->capacity = desc->capacity;
    /* A group of 2^m pairs is 2^(m+1) output components, all recorded. */
    GLint components = 0, outputs = 0;
    glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS, &components);
    glGetIntegerv(GL_MAX_VERTEX_OUTPUT_COMPONENTS, &outputs);
    if (outputs < components) components = outputs;
    s->max_group_bits = 1;
    while (s->max_group_bits < FEEDBACK_SORT_MAX_GROUP_BITS && (2 << (s->max_group_bits + 1)) <= components)
        ++s->max_group_bits;
    uint32_t tuned = desc->tuning->feedback_group_bits;
    s->group_bits = tuned < s->max_group_bits ? tuned : s->max_group_bits;
    plume_result r = build_programs(s);
    if (r != PLUME_OK) return r;
    size_t bytes = (size_t)plume_next_pow2(capacity < 2 ? 2 : capacity) * PAIR_BYTES;
    for (int i = 0; i < 2; ++i)
        s->buffers[i] = plume_make_gpu_buffer(s->env, (GLsizeiptr)bytes, "plume feedback sort: pairs");
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

uint32_t feedback_sort_list_gl_objects(const void *backend, plume_gl_object *out, uint32_t capacity) {
    const feedback_sort *s = backend;
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

void feedback_sort_destroy(void *backend) {
    feedback_sort *s = backend;
    plume_gl_object owned[FEEDBACK_SORT_GL_OBJECTS];
    plume_delete_gl_objects(s->env, owned, feedback_sort_list_gl_objects(s, owned, FEEDBACK_SORT_GL_OBJECTS));
    plume_free(s->env, s);
}
