/* Dispatch floor: what one compute dispatch costs the GPU before it sorts
 * anything, for sizes a sort pass covers. Each figure is the GL_TIME_ELAPSED
 * of 20 back-to-back dispatches divided by 20 (median of 31 after 200 untimed
 * ones), with glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT) between them as
 * between dependent sort passes, and without it.
 *
 * Shaders: an empty one (256 invocations a workgroup); one that reads and
 * writes every pair once (one pair an invocation); the same with 8 pairs an
 * invocation; and one that moves each workgroup's 2048 pairs through shared
 * memory (a sort pass with no compare). notes/sort-performance.md uses these
 * as the floor of a pass.
 *
 * Then what one query around one call reads (the one-workgroup sort's case,
 * notes/sort-performance.md): nothing between the query's ends, one empty
 * workgroup, and that workgroup followed by a storage barrier or by the
 * barrier the sorter issues after every sort (sorter.c's BARRIER_FOR_HOST).
 *
 * --graphics: instead, the floor of a pass of the fragment path's sort (GL
 * 3.3: vertex and fragment work, no compute) against a compute pass, for
 * n = 2^12 .. 2^20 pairs; each figure the GL_TIME_ELAPSED of 20 dependent
 * passes (each reads what the one before wrote: a ping-pong of two buffers
 * or textures) divided by 20, median of 31 after 200 untimed ones:
 *   - tf empty: one vertex that reads one pair of the last pass's buffer
 *     (a buffer texture) and transform feedback writes it to the other
 *     (GL_RASTERIZER_DISCARD), the target buffer's range bound on one
 *     transform feedback object before the pass and unbound after
 *     (feedback_sort.c's way): what a dependent pass costs doing nothing;
 *     "objects": a transform feedback object bound once to each buffer, a
 *     pass binding the object instead; "independent": each pass reading a
 *     third buffer that no pass writes;
 *   - fragment empty: a 1x1 draw reading one texel of the last pass's
 *     texture into the other;
 *   - tf copy: n / 32 vertices, each reading 32 pairs and writing them (64
 *     components, as the sort's groups of 2^5): a pass that moves n pairs;
 *   - fragment copy: a full-screen draw into an RG32UI texture 2048 pairs a
 *     row, each fragment reading its pair of the other texture;
 *   - compute copy: one pair an invocation from one storage buffer to the
 *     other, glMemoryBarrier between passes;
 * a buffer texture fixed to each buffer. Then the least a sort on the path
 * can cost: its passes times a copy pass of the same n (the merge sort:
 * 1 + log2(n / 32) passes, as transform feedback and as render passes; the
 * bitonic network: feedback_sort.c's count).
 *
 * Usage: plume_dispatch_floor [--graphics] (a real GPU: llvmpipe reads 0 for
 * compute). */
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless_gl.h"

enum { SHADERS = 4, RUNS = 31, DISPATCHES = 20, WARMUP = 200 };

static const char *const HEADER = "#version 430\n"
                                  "layout(std430, binding = 0) buffer Pairs { uvec2 pairs[]; };\n"
                                  "uniform uint u_count;\n"
                                  "layout(local_size_x = 256) in;\n";

static const char *const NAMES[SHADERS] = {"empty", "touch, 1 pair each", "touch, 8 pairs each",
                                           "shared, 2048 a group"};
static const char *const BODIES[SHADERS] = {
    "void main() {}\n",
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    if (i < u_count) pairs[i] = pairs[i].yx;\n"
    "}\n",
    "void main() {\n"
    "    uint base = gl_WorkGroupID.x * 2048u + gl_LocalInvocationID.x;\n"
    "    uvec2 v[8];\n"
    "    for (uint r = 0u; r < 8u; ++r) v[r] = pairs[base + r * 256u];\n"
    "    for (uint r = 0u; r < 8u; ++r) pairs[base + r * 256u] = v[r].yx;\n"
    "}\n",
    "shared uvec2 block[2048];\n"
    "void main() {\n"
    "    uint base = gl_WorkGroupID.x * 2048u, t = gl_LocalInvocationID.x;\n"
    "    for (uint r = 0u; r < 8u; ++r) block[t + r * 256u] = pairs[base + t + r * 256u];\n"
    "    barrier();\n"
    "    for (uint r = 0u; r < 8u; ++r) pairs[base + t + r * 256u] = block[(t ^ 1u) + r * 256u].yx;\n"
    "}\n",
};

static GLuint compile(GLenum stage, const char *header, const char *body) {
    const char *sources[2] = {header, body};
    GLuint shader = glCreateShader(stage);
    glShaderSource(shader, 2, sources, NULL);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        fprintf(stderr, "plume_dispatch_floor: shader does not compile:\n%s\n", log);
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

/* A program of `count` shaders (0 where one did not compile), with the
 * transform feedback varyings given (interleaved). */
static GLuint link(const GLuint *shaders, int count, const char *const *varyings, int varying_count) {
    GLuint program = glCreateProgram();
    bool compiled = true;
    for (int i = 0; i < count; ++i) {
        if (shaders[i]) glAttachShader(program, shaders[i]);
        compiled = compiled && shaders[i];
    }
    if (varying_count) glTransformFeedbackVaryings(program, varying_count, varyings, GL_INTERLEAVED_ATTRIBS);
    glLinkProgram(program);
    for (int i = 0; i < count; ++i) glDeleteShader(shaders[i]);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!compiled || !ok) {
        char log[2048] = "";
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        fprintf(stderr, "plume_dispatch_floor: program does not link:\n%s\n", log);
        glDeleteProgram(program);
        return 0;
    }
    return program;
}

static GLuint build(const char *body) {
    GLuint shader = compile(GL_COMPUTE_SHADER, HEADER, body);
    return link(&shader, 1, NULL, 0);
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* What one query reads around: nothing, one empty workgroup, and that
 * workgroup followed by either barrier. */
enum { ALONE_CASES = 4 };
static const char *const ALONE_NAMES[ALONE_CASES] = {"query only", "1 workgroup", "1 workgroup, storage barrier",
                                                     "1 workgroup, sorter's barrier"};

static double median_us(const GLuint *queries, int per_query) {
    double us[RUNS];
    for (int run = 0; run < RUNS; ++run) {
        GLuint64 ns = 0;
        glGetQueryObjectui64v(queries[run], GL_QUERY_RESULT, &ns);
        us[run] = (double)ns / 1e3 / per_query;
    }
    qsort(us, RUNS, sizeof us[0], compare_doubles);
    return us[RUNS / 2];
}

static void issue_alone(int alone_case) {
    static const GLbitfield SORTER_BARRIER =
        GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT;
    if (alone_case > 0) glDispatchCompute(1, 1, 1);
    if (alone_case == 2) glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    if (alone_case == 3) glMemoryBarrier(SORTER_BARRIER);
}

/* Median microseconds of one query around issue_alone(alone_case), the
 * queries apart (a copy of 4 KB between them, as the sort benchmark copies
 * its input). */
static double time_alone(int alone_case, const GLuint *queries) {
    for (int i = 0; i < WARMUP; ++i) issue_alone(alone_case);
    glFinish();
    for (int run = 0; run < RUNS; ++run) {
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, 4096);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        glBeginQuery(GL_TIME_ELAPSED, queries[run]);
        issue_alone(alone_case);
        glEndQuery(GL_TIME_ELAPSED);
    }
    return median_us(queries, 1);
}

/* Median microseconds per dispatch of `groups` workgroups. */
static double time_dispatches(GLuint groups, bool with_barrier, const GLuint *queries) {
    for (int i = 0; i < WARMUP; ++i) {
        glDispatchCompute(groups, 1, 1);
        if (with_barrier) glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    glFinish();
    for (int run = 0; run < RUNS; ++run) {
        glBeginQuery(GL_TIME_ELAPSED, queries[run]);
        for (int i = 0; i < DISPATCHES; ++i) {
            glDispatchCompute(groups, 1, 1);
            if (with_barrier) glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        }
        glEndQuery(GL_TIME_ELAPSED);
    }
    return median_us(queries, DISPATCHES);
}

/* ---- The graphics pipe's floor (--graphics) ------------------------------------ */

enum { GROUP_PAIRS = 32, GRAPHICS_MIN_LOG = 12, GRAPHICS_MAX_LOG = 20, TEXTURE_WIDTH = 2048 };

typedef struct graphics_floor {
    GLuint tf_empty, tf_copy, fragment_copy, compute_copy; /* programs */
    GLuint buffers[3], buffer_textures[3];                 /* ping-pong, 2^20 pairs each, and a source */
    GLuint textures[2], framebuffers[2];                   /* ping-pong, RG32UI, TEXTURE_WIDTH a row */
    GLuint draw_texture, draw_framebuffer;                 /* bound for the transform feedback draws */
    GLuint feedback, vertex_array;
    GLuint buffer_feedbacks[2];                            /* each bound to buffers[i] once */
    GLuint queries[RUNS];
} graphics_floor;

static const char *const VERTEX_HEADER = "#version 330 core\n";

/* Transform feedback of `vertices` points of `program` from buffer `source`
 * into buffer `target`: binding the target's range on one object around the
 * draw, or binding the object fixed to the target. */
static void feedback_pass(const graphics_floor *g, GLuint program, uint32_t vertices, uint32_t pairs, int source,
                          int target, bool bind_range) {
    glUseProgram(program);
    glBindTexture(GL_TEXTURE_BUFFER, g->buffer_textures[source]);
    if (bind_range) {
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, g->feedback);
        glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, g->buffers[target], 0, (GLsizeiptr)pairs * 8);
    } else {
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, g->buffer_feedbacks[target]);
    }
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, (GLsizei)vertices);
    glEndTransformFeedback();
    if (bind_range) glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
}

typedef enum graphics_pass {
    TF_EMPTY, TF_EMPTY_OBJECTS, TF_EMPTY_INDEPENDENT, FRAGMENT_EMPTY, TF_COPY, FRAGMENT_COPY, COMPUTE_COPY,
    GRAPHICS_PASSES
} graphics_pass;

static void run_pass(const graphics_floor *g, graphics_pass kind, uint32_t pairs, int from) {
    switch (kind) {
    case TF_EMPTY: feedback_pass(g, g->tf_empty, 1, 1, from, from ^ 1, true); break;
    case TF_EMPTY_OBJECTS: feedback_pass(g, g->tf_empty, 1, 1, from, from ^ 1, false); break;
    case TF_EMPTY_INDEPENDENT: feedback_pass(g, g->tf_empty, 1, 1, 2, from, true); break;
    case TF_COPY: feedback_pass(g, g->tf_copy, pairs / GROUP_PAIRS, pairs, from, from ^ 1, true); break;
    case FRAGMENT_EMPTY:
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, g->framebuffers[from ^ 1]);
        glViewport(0, 0, 1, 1);
        glBindTexture(GL_TEXTURE_2D, g->textures[from]);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        break;
    case FRAGMENT_COPY:
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, g->framebuffers[from ^ 1]);
        glViewport(0, 0, TEXTURE_WIDTH, (GLsizei)(pairs / TEXTURE_WIDTH));
        glBindTexture(GL_TEXTURE_2D, g->textures[from]);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        break;
    case COMPUTE_COPY:
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, g->buffers[from]);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, g->buffers[from ^ 1]);
        glDispatchCompute(pairs / 256, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        break;
    default: break;
    }
}

/* Median microseconds a pass of `kind` over `pairs`, each pass reading what
 * the one before wrote. */
static double time_graphics_passes(const graphics_floor *g, graphics_pass kind, uint32_t pairs) {
    bool feedback = kind <= TF_EMPTY_INDEPENDENT || kind == TF_COPY;
    if (feedback) {
        glEnable(GL_RASTERIZER_DISCARD);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, g->draw_framebuffer);
    }
    if (kind == FRAGMENT_COPY || kind == FRAGMENT_EMPTY) glUseProgram(g->fragment_copy);
    if (kind == COMPUTE_COPY) glUseProgram(g->compute_copy);
    int from = 0;
    for (int i = 0; i < WARMUP; ++i, from ^= 1) run_pass(g, kind, pairs, from);
    glFinish();
    for (int run = 0; run < RUNS; ++run) {
        glBeginQuery(GL_TIME_ELAPSED, g->queries[run]);
        for (int i = 0; i < DISPATCHES; ++i, from ^= 1) run_pass(g, kind, pairs, from);
        glEndQuery(GL_TIME_ELAPSED);
    }
    double us[RUNS];
    for (int run = 0; run < RUNS; ++run) {
        GLuint64 ns = 0;
        glGetQueryObjectui64v(g->queries[run], GL_QUERY_RESULT, &ns);
        us[run] = (double)ns / 1e3 / DISPATCHES;
    }
    glDisable(GL_RASTERIZER_DISCARD);
    qsort(us, RUNS, sizeof us[0], compare_doubles);
    return us[RUNS / 2];
}

static bool build_graphics_programs(graphics_floor *g) {
    static const char *const empty_varyings[] = {"out_pair"};
    GLuint empty = compile(GL_VERTEX_SHADER, VERTEX_HEADER,
                           "uniform usamplerBuffer u_pairs;\n"
                           "flat out uvec2 out_pair;\n"
                           "void main() { out_pair = texelFetch(u_pairs, gl_VertexID).rg; }\n");
    g->tf_empty = link(&empty, 1, empty_varyings, 1);
    /* 32 pairs a vertex, 16 uvec4 outputs: every index a constant. */
    char body[8192];
    size_t used = (size_t)snprintf(body, sizeof body, "uniform usamplerBuffer u_pairs;\n");
    char names[GROUP_PAIRS / 2][16];
    const char *varyings[GROUP_PAIRS / 2];
    for (int j = 0; j < GROUP_PAIRS / 2; ++j) {
        snprintf(names[j], sizeof names[j], "out_pairs%d", j);
        varyings[j] = names[j];
        used += (size_t)snprintf(body + used, sizeof body - used, "flat out uvec4 out_pairs%d;\n", j);
    }
    used += (size_t)snprintf(body + used, sizeof body - used, "void main() {\n    int base = gl_VertexID * %d;\n",
                             GROUP_PAIRS);
    for (int j = 0; j < GROUP_PAIRS / 2; ++j)
        used += (size_t)snprintf(body + used, sizeof body - used,
                                 "    out_pairs%d = uvec4(texelFetch(u_pairs, base + %d).rg, "
                                 "texelFetch(u_pairs, base + %d).rg);\n",
                                 j, 2 * j, 2 * j + 1);
    snprintf(body + used, sizeof body - used, "}\n");
    GLuint copy = compile(GL_VERTEX_SHADER, VERTEX_HEADER, body);
    g->tf_copy = link(&copy, 1, varyings, GROUP_PAIRS / 2);
    GLuint fragment[2] = {
        compile(GL_VERTEX_SHADER, VERTEX_HEADER,
                "void main() {\n"
                "    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);\n"
                "    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n"
                "}\n"),
        compile(GL_FRAGMENT_SHADER, VERTEX_HEADER,
                "uniform usampler2D u_pairs;\n"
                "out uvec2 out_pair;\n"
                "void main() { out_pair = texelFetch(u_pairs, ivec2(gl_FragCoord.xy), 0).rg; }\n"),
    };
    g->fragment_copy = link(fragment, 2, NULL, 0);
    GLuint compute = compile(GL_COMPUTE_SHADER, "#version 430\n",
                             "layout(local_size_x = 256) in;\n"
                             "layout(std430, binding = 0) readonly buffer Source { uvec2 source[]; };\n"
                             "layout(std430, binding = 1) writeonly buffer Target { uvec2 target[]; };\n"
                             "void main() { target[gl_GlobalInvocationID.x] = source[gl_GlobalInvocationID.x]; }\n");
    g->compute_copy = link(&compute, 1, NULL, 0);
    return g->tf_empty && g->tf_copy && g->fragment_copy && g->compute_copy;
}

static void create_graphics_objects(graphics_floor *g) {
    const uint32_t pairs = 1u << GRAPHICS_MAX_LOG, rows = pairs / TEXTURE_WIDTH;
    uint32_t *data = malloc(sizeof(uint32_t) * 2 * pairs);
    for (uint32_t i = 0; i < 2 * pairs; ++i) data[i] = i * 2654435761u;
    glGenBuffers(3, g->buffers);
    glGenTextures(3, g->buffer_textures);
    glGenTextures(2, g->textures);
    glGenFramebuffers(2, g->framebuffers);
    for (int i = 0; i < 3; ++i) {
        glBindBuffer(GL_COPY_WRITE_BUFFER, g->buffers[i]);
        glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)pairs * 8, data, GL_DYNAMIC_COPY);
        glBindTexture(GL_TEXTURE_BUFFER, g->buffer_textures[i]);
        glTexBuffer(GL_TEXTURE_BUFFER, GL_RG32UI, g->buffers[i]);
    }
    for (int i = 0; i < 2; ++i) {
        glBindTexture(GL_TEXTURE_2D, g->textures[i]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32UI, TEXTURE_WIDTH, (GLsizei)rows, 0, GL_RG_INTEGER, GL_UNSIGNED_INT,
                     data);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, g->framebuffers[i]);
        glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, g->textures[i], 0);
    }
    free(data);
    glGenTextures(1, &g->draw_texture);
    glBindTexture(GL_TEXTURE_2D, g->draw_texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, 1, 1, 0, GL_RED, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &g->draw_framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, g->draw_framebuffer);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, g->draw_texture, 0);
    glGenTransformFeedbacks(2, g->buffer_feedbacks);
    for (int i = 0; i < 2; ++i) {
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, g->buffer_feedbacks[i]);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, g->buffers[i]);
    }
    glGenTransformFeedbacks(1, &g->feedback);
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, g->feedback);
    glGenVertexArrays(1, &g->vertex_array);
    glBindVertexArray(g->vertex_array);
    glGenQueries(RUNS, g->queries);
    glActiveTexture(GL_TEXTURE0);
}

static void destroy_graphics_objects(graphics_floor *g) {
    GLuint programs[] = {g->tf_empty, g->tf_copy, g->fragment_copy, g->compute_copy};
    for (int i = 0; i < 4; ++i) glDeleteProgram(programs[i]);
    glDeleteBuffers(3, g->buffers);
    glDeleteTextures(3, g->buffer_textures);
    glDeleteTextures(2, g->textures);
    glDeleteTextures(1, &g->draw_texture);
    glDeleteFramebuffers(2, g->framebuffers);
    glDeleteFramebuffers(1, &g->draw_framebuffer);
    glDeleteTransformFeedbacks(1, &g->feedback);
    glDeleteTransformFeedbacks(2, g->buffer_feedbacks);
    glDeleteVertexArrays(1, &g->vertex_array);
    glDeleteQueries(RUNS, g->queries);
}

/* Passes of the fragment path's sorts of 2^log_n pairs, groups of 2^5. */
static uint32_t merge_sort_passes(uint32_t log_n) {
    return 1 + log_n - 5;
}

static uint32_t bitonic_network_passes(uint32_t log_n) {
    uint32_t passes = 1;
    for (uint32_t level = 6; level <= log_n; ++level) passes += (level + 4) / 5;
    return passes;
}

static int report_graphics_floor(void) {
    graphics_floor g = {0};
    if (!build_graphics_programs(&g)) return 1;
    create_graphics_objects(&g);
    printf("us a pass (median of %d, %d dependent passes each)\n", RUNS, DISPATCHES);
    static const char *const heads[GRAPHICS_PASSES] = {"tf empty", "tf empty obj", "tf empty indep",
                                                       "frag empty", "tf copy", "frag copy", "cs copy"};
    printf("%8s", "pairs");
    for (int k = 0; k < GRAPHICS_PASSES; ++k) printf(" %14s", heads[k]);
    printf(" %10s\n", "tf/cs copy");
    double floors[GRAPHICS_MAX_LOG + 1][GRAPHICS_PASSES];
    for (uint32_t log_n = GRAPHICS_MIN_LOG; log_n <= GRAPHICS_MAX_LOG; ++log_n) {
        uint32_t pairs = 1u << log_n;
        double *us = floors[log_n];
        printf("%8u", pairs);
        for (graphics_pass kind = 0; kind < GRAPHICS_PASSES; ++kind) {
            us[kind] = time_graphics_passes(&g, kind, pairs);
            printf(" %14.2f", us[kind]);
        }
        printf(" %10.1f\n", us[COMPUTE_COPY] > 0.0 ? us[TF_COPY] / us[COMPUTE_COPY] : 0.0);
    }
    printf("\nleast ms a sort can take: its passes x the copy pass of its n\n");
    printf("%8s %7s %12s %12s %8s %12s\n", "pairs", "merge", "merge (tf)", "merge (frag)", "bitonic", "bitonic (tf)");
    for (uint32_t log_n = GRAPHICS_MIN_LOG; log_n <= GRAPHICS_MAX_LOG; ++log_n) {
        uint32_t merge = merge_sort_passes(log_n), bitonic = bitonic_network_passes(log_n);
        const double *us = floors[log_n];
        printf("%8u %7u %12.3f %12.3f %8u %12.3f\n", 1u << log_n, merge, merge * us[TF_COPY] / 1e3,
               merge * us[FRAGMENT_COPY] / 1e3, bitonic, bitonic * us[TF_COPY] / 1e3);
    }
    GLenum error = glGetError();
    destroy_graphics_objects(&g);
    if (error != GL_NO_ERROR) {
        fprintf(stderr, "plume_dispatch_floor: GL error 0x%04x\n", error);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    bool graphics = argc > 1 && !strcmp(argv[1], "--graphics");
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "plume_dispatch_floor: %s\n", error);
        return 1;
    }
    printf("GL: %s | %s\n", (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
    if (graphics) {
        int status = report_graphics_floor();
        headless_gl_destroy(&gl);
        return status;
    }
    GLuint programs[SHADERS];
    for (int k = 0; k < SHADERS; ++k) {
        programs[k] = build(BODIES[k]);
        if (!programs[k]) return 1;
    }
    const uint32_t max_pairs = 1u << 22;
    GLuint buffer, queries[RUNS];
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)max_pairs * 8, NULL, GL_DYNAMIC_COPY);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
    glGenQueries(RUNS, queries);
    printf("%-22s %9s %8s %14s %14s\n", "shader", "pairs", "groups", "us, barrier", "us, none");
    for (uint32_t log_pairs = 10; log_pairs <= 22; log_pairs += 2) {
        uint32_t pairs = 1u << log_pairs;
        for (int k = 0; k < SHADERS; ++k) {
            GLuint groups = k >= 2 ? (pairs + 2047) / 2048 : (pairs + 255) / 256;
            glUseProgram(programs[k]);
            glUniform1ui(glGetUniformLocation(programs[k], "u_count"), pairs);
            double with_barrier = time_dispatches(groups, true, queries);
            double without = time_dispatches(groups, false, queries);
            printf("%-22s %9u %8u %14.2f %14.2f\n", NAMES[k], pairs, groups, with_barrier, without);
        }
    }
    GLuint scratch;
    glGenBuffers(1, &scratch);
    glBindBuffer(GL_COPY_WRITE_BUFFER, scratch);
    glBufferData(GL_COPY_WRITE_BUFFER, 4096, NULL, GL_DYNAMIC_COPY);
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    glUseProgram(programs[0]);
    printf("\none query around one call (median of %d, a 4 KB copy before each)\n", RUNS);
    for (int c = 0; c < ALONE_CASES; ++c) printf("%-30s %8.2f us\n", ALONE_NAMES[c], time_alone(c, queries));
    glDeleteBuffers(1, &scratch);
    glDeleteQueries(RUNS, queries);
    glDeleteBuffers(1, &buffer);
    for (int k = 0; k < SHADERS; ++k) glDeleteProgram(programs[k]);
    headless_gl_destroy(&gl);
    return 0;
}
