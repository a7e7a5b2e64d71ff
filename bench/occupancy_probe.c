/* How many workgroups of a compute program the GL keeps on one SM at once,
 * by invocations a workgroup, shared memory and live registers an
 * invocation: what decides whether a sort pass's workgroups overlap
 * (notes/sort-performance.md, "Inside a digit pass"). Each workgroup records
 * its SM (gl_SMIDNV, GL_NV_shader_thread_group) and its start and end clocks
 * (clock2x32ARB, GL_ARB_shader_clock: per SM), spinning ~40 000 cycles in
 * between; the most intervals that overlap on one SM is the residency.
 *
 * Usage: plume_occupancy_probe (a GL with both extensions, i.e. NVIDIA's;
 * elsewhere it says so and exits 0). */
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless_gl.h"

static GLuint build(unsigned threads, unsigned shared_words, unsigned regs) {
    char src[4096];
    snprintf(src, sizeof src,
             "#version 450\n#extension GL_ARB_shader_clock : require\n#extension GL_NV_shader_thread_group : require\n"
             "#pragma optionNV(unroll all)\n"
             "layout(local_size_x = %u) in;\n"
             "layout(std430, binding = 0) buffer Out { uint words[]; };\n"
             "#define SHARED_WORDS %uu\n#define REGS %u\n"
             "shared uint pad[SHARED_WORDS + 1u];\n"
             "uniform uint u_spin;\n"
             "void main() {\n"
             "  uint t = gl_LocalInvocationIndex;\n"
             "  uint start = clock2x32ARB().x;\n"
             "  for (uint i = t; i <= SHARED_WORDS; i += %uu) pad[i] = i * 7u + t;\n"
             "  barrier();\n"
             "  uint acc[REGS];\n"
             "  for (uint r = 0u; r < REGS; ++r) acc[r] = pad[(t * 13u + r) %% (SHARED_WORDS + 1u)] + r;\n"
             "  while (clock2x32ARB().x - start < u_spin)\n"
             "    for (uint r = 0u; r < REGS; ++r) acc[r] = acc[r] * 1664525u + acc[(r + 1u) %% REGS];\n"
             "  uint s = 0u;\n"
             "  for (uint r = 0u; r < REGS; ++r) s ^= acc[r];\n"
             "  pad[t %% (SHARED_WORDS + 1u)] = s;\n"
             "  barrier();\n"
             "  if (t == 0u) {\n"
             "    uint w = gl_WorkGroupID.x * 4u;\n"
             "    words[w] = gl_SMIDNV + 1u; words[w + 1u] = start; words[w + 2u] = clock2x32ARB().x;\n"
             "    words[w + 3u] = pad[0];\n"
             "  }\n"
             "}\n",
             threads, shared_words, regs, threads);
    const char *s = src;
    GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, 1, &s, NULL);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096];
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        fprintf(stderr, "compile: %s\n", log);
        return 0;
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, shader);
    glLinkProgram(program);
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    glDeleteShader(shader);
    if (!ok) {
        char log[4096];
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        fprintf(stderr, "link: %s\n", log);
        return 0;
    }
    return program;
}

typedef struct interval {
    unsigned sm, start, end;
} interval;

static int by_start(const void *a, const void *b) {
    const interval *x = a, *y = b;
    return x->sm != y->sm ? (x->sm < y->sm ? -1 : 1) : (x->start < y->start ? -1 : x->start > y->start);
}

int main(void) {
    headless_gl gl;
    char error[512];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    printf("GL: %s | %s\n", glGetString(GL_RENDERER), glGetString(GL_VERSION));
    if (!epoxy_has_gl_extension("GL_ARB_shader_clock") || !epoxy_has_gl_extension("GL_NV_shader_thread_group")) {
        printf("plume_occupancy_probe: this GL lacks GL_ARB_shader_clock or GL_NV_shader_thread_group\n");
        headless_gl_destroy(&gl);
        return 0;
    }
    GLint max_shared = 0;
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &max_shared);
    printf("max shared %d\n", max_shared);
    enum { GROUPS = 132 * 8 };
    GLuint buffer;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glBufferData(GL_SHADER_STORAGE_BUFFER, 16 * GROUPS, NULL, GL_DYNAMIC_COPY);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
    static const unsigned threads[] = {256, 512, 1024};
    /* Live registers an invocation (a spinning array the loop keeps whole). */
    static const unsigned shared_kb[] = {0, 8, 16, 24, 32, 40, 47};
    static const unsigned regs[] = {4, 32, 64, 100};
    printf("%8s %9s %6s %12s %12s\n", "threads", "shared KB", "regs", "max per SM", "mean per SM");
    for (size_t a = 0; a < sizeof threads / sizeof threads[0]; ++a)
        for (size_t b = 0; b < sizeof shared_kb / sizeof shared_kb[0]; ++b)
            for (size_t c = 0; c < sizeof regs / sizeof regs[0]; ++c) {
                unsigned words = shared_kb[b] ? shared_kb[b] * 256 - 1 : 1;
                GLuint program = build(threads[a], words, regs[c]);
                if (!program) continue;
                glUseProgram(program);
                glUniform1ui(glGetUniformLocation(program, "u_spin"), 40000u);
                for (int warm = 0; warm < 3; ++warm) {
                    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
                    glMemoryBarrier(GL_ALL_BARRIER_BITS);
                    glDispatchCompute(GROUPS, 1, 1);
                    glFinish();
                }
                unsigned *w = malloc(16 * GROUPS);
                glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, 16 * GROUPS, w);
                interval *iv = malloc(sizeof(interval) * GROUPS);
                unsigned n = 0;
                for (unsigned g = 0; g < GROUPS; ++g)
                    if (w[4 * g]) iv[n++] = (interval){w[4 * g] - 1, w[4 * g + 1], w[4 * g + 2]};
                qsort(iv, n, sizeof(interval), by_start);
                unsigned most = 0, sms = 0;
                double sum = 0;
                for (unsigned i = 0; i < n;) {
                    unsigned j = i, peak = 0;
                    while (j < n && iv[j].sm == iv[i].sm) ++j;
                    for (unsigned k = i; k < j; ++k) {
                        unsigned overlap = 0;
                        for (unsigned m = i; m < j; ++m)
                            if (iv[m].start <= iv[k].start && iv[k].start < iv[m].end) ++overlap;
                        if (overlap > peak) peak = overlap;
                    }
                    if (peak > most) most = peak;
                    sum += peak;
                    ++sms;
                    i = j;
                }
                printf("%8u %9u %6u %12u %12.2f   (%u groups on %u SMs)\n", threads[a], shared_kb[b], regs[c], most,
                       sms ? sum / sms : 0.0, n, sms);
                free(w);
                free(iv);
                glDeleteProgram(program);
            }
    headless_gl_destroy(&gl);
    return 0;
}
