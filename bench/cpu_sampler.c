#define _GNU_SOURCE
#include "cpu_sampler.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

enum { SAMPLE_DEPTH = 32, MOST_SAMPLES = 1 << 16 };

typedef struct sample {
    void *frames[SAMPLE_DEPTH];
    int depth;
} sample;

/* Written by the signal handler on the sampled thread only. */
static sample *samples;
static volatile sig_atomic_t sample_count, inside;
static timer_t timer;
static bool running;

static void on_tick(int signal_number, siginfo_t *info, void *context) {
    (void)signal_number;
    (void)info;
    (void)context;
    if (!inside || sample_count >= MOST_SAMPLES) return;
    sample *s = &samples[sample_count];
    s->depth = backtrace(s->frames, SAMPLE_DEPTH);
    sample_count = sample_count + 1;
}

bool cpu_sampler_start(unsigned period_us) {
    samples = calloc(MOST_SAMPLES, sizeof *samples);
    if (!samples) return false;
    void *warm[4];
    backtrace(warm, 4); /* loads the unwinder outside the handler */
    struct sigaction action = {.sa_sigaction = on_tick, .sa_flags = SA_SIGINFO | SA_RESTART};
    sigemptyset(&action.sa_mask);
    struct sigevent event = {.sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGPROF};
    event._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    struct itimerspec every = {{0, (long)period_us * 1000}, {0, (long)period_us * 1000}};
    if (sigaction(SIGPROF, &action, NULL) != 0 || timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &timer) != 0 ||
        timer_settime(timer, 0, &every, NULL) != 0) {
        fprintf(stderr, "cpu_sampler: no thread CPU timer here\n");
        return false;
    }
    running = true;
    return true;
}

void cpu_sampler_enter(void) { inside = 1; }
void cpu_sampler_leave(void) { inside = 0; }

unsigned cpu_sampler_write(FILE *out) {
    if (!running) return 0;
    timer_delete(timer);
    running = false;
    inside = 0;
    /* The first two frames are the handler's and the signal's return. */
    for (sig_atomic_t i = 0; i < sample_count; ++i) {
        for (int f = 2; f < samples[i].depth; ++f) {
            Dl_info where;
            if (dladdr(samples[i].frames[f], &where) && where.dli_fname)
                fprintf(out, "%s%s+0x%lx", f > 2 ? " " : "", where.dli_fname,
                        (unsigned long)((uintptr_t)samples[i].frames[f] - (uintptr_t)where.dli_fbase));
            else
                fprintf(out, "%s?+%p", f > 2 ? " " : "", samples[i].frames[f]);
        }
        fputc('\n', out);
    }
    unsigned count = (unsigned)sample_count;
    free(samples);
    samples = NULL;
    sample_count = 0;
    return count;
}
