/* A sampling CPU profiler inside a benchmark, for machines without perf (the
 * GPU machine): a timer on the calling thread's CPU time interrupts it every
 * `period_us` of its own CPU and, while the benchmark says it is inside the
 * calls it measures (cpu_sampler_enter / cpu_sampler_leave), keeps the
 * stack's return addresses. cpu_sampler_write puts one sample a line,
 * innermost first, each address as `object+offset` (the object's path and the
 * offset from its load address), for addr2line on the same binaries
 * (tools/cpu_samples.py folds them into a table). Linux only. */
#ifndef PLUME_BENCH_CPU_SAMPLER_H
#define PLUME_BENCH_CPU_SAMPLER_H

#include <stdbool.h>
#include <stdio.h>

/* Starts sampling the calling thread; false (said on stderr) where it
 * cannot. */
bool cpu_sampler_start(unsigned period_us);
void cpu_sampler_enter(void);
void cpu_sampler_leave(void);
/* Stops sampling and writes the samples kept; their count. */
unsigned cpu_sampler_write(FILE *out);

#endif
