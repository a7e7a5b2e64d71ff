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
 * Usage: plume_dispatch_floor (a real GPU: llvmpipe reads 0 for compute). */
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>

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

static GLuint build(const char *body) {
    const char *sources[2] = {HEADER, body};
    GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
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
    GLuint program = glCreateProgram();
    glAttachShader(program, shader);
    glLinkProgram(program);
    glDeleteShader(shader);
    return program;
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

int main(void) {
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "plume_dispatch_floor: %s\n", error);
        return 1;
    }
    printf("GL: %s | %s\n", (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
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
