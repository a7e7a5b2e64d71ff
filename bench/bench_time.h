/* What the benchmarks share to time and summarise: the CPU's monotonic
 * clock, the GPU time between two timestamp queries, and the median of a
 * set of samples (plume_lab_median's, NaN for none so that a table shows
 * a missing figure as such). Header only: each benchmark is one program.
 * A file that includes it defines _POSIX_C_SOURCE first (clock_gettime). */
#ifndef PLUME_BENCH_TIME_H
#define PLUME_BENCH_TIME_H

#include <epoxy/gl.h>
#include <math.h>
#include <stdint.h>
#include <time.h>

#include "plume_lab.h"

static inline double bench_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Milliseconds between two GL_TIMESTAMP queries (waits for their results). */
static inline double bench_timestamps_ms(GLuint from, GLuint to) {
    GLuint64 a = 0, b = 0;
    glGetQueryObjectui64v(from, GL_QUERY_RESULT, &a);
    glGetQueryObjectui64v(to, GL_QUERY_RESULT, &b);
    return (double)(b - a) * 1e-6;
}

/* The median of `values` (sorted in place); NaN for none. */
static inline double bench_median(double *values, uint32_t count) {
    return count ? plume_lab_median(values, count) : NAN;
}

#endif
