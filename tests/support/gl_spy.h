/* A spy on the GL calls the module makes, through libepoxy's dispatch
 * pointers (epoxy_glFoo is a writable function pointer): it counts the calls,
 * checks that no query result is read before it is available, counts the
 * rewrites of buffers that unfinished dispatches may read, and can pretend
 * the context has no timer, or is a WebGL 2 browser's. */
#ifndef PLUME_GL_SPY_H
#define PLUME_GL_SPY_H

#include <epoxy/gl.h>
#include <stdbool.h>

enum { SPY_MAX_NAMES = 512 };

typedef struct gl_spy {
    long calls;                    /* every spied call */
    long result_reads;             /* GL_QUERY_RESULT reads */
    long result_reads_unavailable; /* ... of a query not yet available: would have waited */
    long availability_false;       /* GL_QUERY_RESULT_AVAILABLE answered false */
    long fence_waits_with_timeout; /* glClientWaitSync with a timeout: would have waited */
    long fence_not_ready;          /* glClientWaitSync answered GL_TIMEOUT_EXPIRED */
    long debug_pushes, debug_pops;
    long timestamps, fences;
    char debug_group_names[8][32];
    int fake_timer_bits;           /* >= 0: GL_QUERY_COUNTER_BITS answers this */
    bool fences_pending;           /* glClientWaitSync with timeout 0 answers GL_TIMEOUT_EXPIRED:
                                      the GPU seems never to finish */
    long rewrites_in_flight;       /* CPU-side writes (glBufferData, glBufferSubData,
                                      glClearBufferSubData) into a buffer that a dispatch not
                                      known to be complete had on a storage binding */
    GLuint last_rewritten;
    char last_rewritten_label[64];
    long get_strings;              /* glGetString and glGetStringi calls (on a threaded driver each waits for its thread) */
    bool context_lost;             /* glGetError answers GL_CONTEXT_LOST and glGetGraphicsResetStatus
                                      GL_UNKNOWN_CONTEXT_RESET, as after a GPU reset */
    const char *fake_version;      /* non-NULL: glGetString(GL_VERSION) answers it (a WebGL 2 browser's) */
    long fixed_index_restart_uses; /* glIsEnabled, glEnable, glDisable of GL_PRIMITIVE_RESTART_FIXED_INDEX
                                      (not in calls: the state scope's own are not news elsewhere) */
    GLuint queries[SPY_MAX_NAMES], buffers[SPY_MAX_NAMES];
    int query_count, buffer_count;
} gl_spy;

extern gl_spy spy;

/* Zeroes the counters and routes the spied GL calls through the spy. */
void spy_install(void);
/* Puts libepoxy's own pointers back. */
void spy_remove(void);
/* The driver's glGetIntegerv while the spy is installed, not counted. */
void spy_uncounted_get_integerv(GLenum pname, GLint *data);

#endif
