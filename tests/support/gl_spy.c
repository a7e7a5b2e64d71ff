/* See gl_spy.h. */
#include <epoxy/egl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "gl_spy.h"

gl_spy spy;

#define SPIED(X)                                                                                                     \
    X(glGenQueries, PFNGLGENQUERIESPROC)                                                                             \
    X(glDeleteQueries, PFNGLDELETEQUERIESPROC)                                                                       \
    X(glQueryCounter, PFNGLQUERYCOUNTERPROC)                                                                         \
    X(glGetQueryiv, PFNGLGETQUERYIVPROC)                                                                             \
    X(glGetQueryObjectiv, PFNGLGETQUERYOBJECTIVPROC)                                                                 \
    X(glGetQueryObjectuiv, PFNGLGETQUERYOBJECTUIVPROC)                                                               \
    X(glGetQueryObjecti64v, PFNGLGETQUERYOBJECTI64VPROC)                                                             \
    X(glGetQueryObjectui64v, PFNGLGETQUERYOBJECTUI64VPROC)                                                           \
    X(glGenBuffers, PFNGLGENBUFFERSPROC)                                                                             \
    X(glDeleteBuffers, PFNGLDELETEBUFFERSPROC)                                                                       \
    X(glBindBuffer, PFNGLBINDBUFFERPROC)                                                                             \
    X(glBufferData, PFNGLBUFFERDATAPROC)                                                                             \
    X(glGetBufferSubData, PFNGLGETBUFFERSUBDATAPROC)                                                                 \
    X(glCopyBufferSubData, PFNGLCOPYBUFFERSUBDATAPROC)                                                               \
    X(glObjectLabel, PFNGLOBJECTLABELPROC)                                                                           \
    X(glFenceSync, PFNGLFENCESYNCPROC)                                                                               \
    X(glClientWaitSync, PFNGLCLIENTWAITSYNCPROC)                                                                     \
    X(glDeleteSync, PFNGLDELETESYNCPROC)                                                                             \
    X(glPushDebugGroup, PFNGLPUSHDEBUGGROUPPROC)                                                                     \
    X(glPopDebugGroup, PFNGLPOPDEBUGGROUPPROC)                                                                       \
    X(glGetIntegerv, PFNGLGETINTEGERVPROC)                                                                           \
    X(glGetError, PFNGLGETERRORPROC)                                                                                 \
    X(glGetString, PFNGLGETSTRINGPROC)                                                                               \
    X(glGetStringi, PFNGLGETSTRINGIPROC)                                                                             \
    X(glGetGraphicsResetStatus, PFNGLGETGRAPHICSRESETSTATUSPROC)                                                     \
    X(glFlush, PFNGLFLUSHPROC)

#define DECLARE(name, type) static type real_##name, saved_##name;
SPIED(DECLARE)
#undef DECLARE

static bool query_available(GLuint id) {
    GLuint available = GL_FALSE;
    real_glGetQueryObjectuiv(id, GL_QUERY_RESULT_AVAILABLE, &available);
    return available != GL_FALSE;
}

/* A GL_QUERY_RESULT read of an unavailable query is counted and answered 0
 * instead of blocking. */
#define SPY_QUERY_OBJECT(name, type)                                                                                  \
    static void GLAPIENTRY spy_##name(GLuint id, GLenum pname, type *params) {                                        \
        ++spy.calls;                                                                                                  \
        if (pname == GL_QUERY_RESULT) {                                                                               \
            ++spy.result_reads;                                                                                       \
            if (!query_available(id)) {                                                                               \
                ++spy.result_reads_unavailable;                                                                       \
                *params = 0;                                                                                          \
                return;                                                                                               \
            }                                                                                                         \
        }                                                                                                             \
        real_##name(id, pname, params);                                                                               \
        if (pname == GL_QUERY_RESULT_AVAILABLE && *params == 0) ++spy.availability_false;                             \
    }
SPY_QUERY_OBJECT(glGetQueryObjectiv, GLint)
SPY_QUERY_OBJECT(glGetQueryObjectuiv, GLuint)
SPY_QUERY_OBJECT(glGetQueryObjecti64v, GLint64)
SPY_QUERY_OBJECT(glGetQueryObjectui64v, GLuint64)

static void record_names(GLuint *names, int *count, GLsizei n, const GLuint *ids) {
    for (GLsizei i = 0; i < n && *count < SPY_MAX_NAMES; ++i) names[(*count)++] = ids[i];
}

static void GLAPIENTRY spy_glGenQueries(GLsizei n, GLuint *ids) {
    ++spy.calls;
    real_glGenQueries(n, ids);
    record_names(spy.queries, &spy.query_count, n, ids);
}
static void GLAPIENTRY spy_glDeleteQueries(GLsizei n, const GLuint *ids) { ++spy.calls, real_glDeleteQueries(n, ids); }
static void GLAPIENTRY spy_glQueryCounter(GLuint id, GLenum target) {
    ++spy.calls, ++spy.timestamps, real_glQueryCounter(id, target);
}
static void GLAPIENTRY spy_glGetQueryiv(GLenum target, GLenum pname, GLint *params) {
    ++spy.calls;
    real_glGetQueryiv(target, pname, params);
    if (pname == GL_QUERY_COUNTER_BITS && spy.fake_timer_bits >= 0) *params = spy.fake_timer_bits;
}
static void GLAPIENTRY spy_glGenBuffers(GLsizei n, GLuint *ids) {
    ++spy.calls;
    real_glGenBuffers(n, ids);
    record_names(spy.buffers, &spy.buffer_count, n, ids);
}
static void GLAPIENTRY spy_glDeleteBuffers(GLsizei n, const GLuint *ids) { ++spy.calls, real_glDeleteBuffers(n, ids); }
static void GLAPIENTRY spy_glBindBuffer(GLenum target, GLuint id) { ++spy.calls, real_glBindBuffer(target, id); }
static void GLAPIENTRY spy_glBufferData(GLenum target, GLsizeiptr size, const void *data, GLenum usage) {
    ++spy.calls, real_glBufferData(target, size, data, usage);
}
static void GLAPIENTRY spy_glGetBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, void *data) {
    ++spy.calls, real_glGetBufferSubData(target, offset, size, data);
}
static void GLAPIENTRY spy_glCopyBufferSubData(GLenum read, GLenum write, GLintptr read_offset, GLintptr write_offset,
                                               GLsizeiptr size) {
    ++spy.calls, real_glCopyBufferSubData(read, write, read_offset, write_offset, size);
}
static void GLAPIENTRY spy_glObjectLabel(GLenum identifier, GLuint name, GLsizei length, const GLchar *label) {
    ++spy.calls, real_glObjectLabel(identifier, name, length, label);
}
static GLsync GLAPIENTRY spy_glFenceSync(GLenum condition, GLbitfield flags) {
    ++spy.calls, ++spy.fences;
    return real_glFenceSync(condition, flags);
}
static GLenum GLAPIENTRY spy_glClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) {
    ++spy.calls;
    if (timeout != 0) ++spy.fence_waits_with_timeout;
    if (spy.fences_pending && timeout == 0) {
        ++spy.fence_not_ready;
        return GL_TIMEOUT_EXPIRED;
    }
    GLenum status = real_glClientWaitSync(sync, flags, timeout);
    if (status == GL_TIMEOUT_EXPIRED) ++spy.fence_not_ready;
    return status;
}
static void GLAPIENTRY spy_glDeleteSync(GLsync sync) { ++spy.calls, real_glDeleteSync(sync); }
static void GLAPIENTRY spy_glPushDebugGroup(GLenum source, GLuint id, GLsizei length, const GLchar *message) {
    if (spy.debug_pushes < 8) snprintf(spy.debug_group_names[spy.debug_pushes], 32, "%s", message);
    ++spy.calls, ++spy.debug_pushes, real_glPushDebugGroup(source, id, length, message);
}
static void GLAPIENTRY spy_glPopDebugGroup(void) { ++spy.calls, ++spy.debug_pops, real_glPopDebugGroup(); }
static void GLAPIENTRY spy_glGetIntegerv(GLenum pname, GLint *data) { ++spy.calls, real_glGetIntegerv(pname, data); }
static const GLubyte *GLAPIENTRY spy_glGetString(GLenum name) {
    ++spy.calls, ++spy.get_strings;
    return real_glGetString(name);
}
static const GLubyte *GLAPIENTRY spy_glGetStringi(GLenum name, GLuint index) {
    ++spy.calls, ++spy.get_strings;
    return real_glGetStringi(name, index);
}
static void GLAPIENTRY spy_glFlush(void) { ++spy.calls, real_glFlush(); }
static GLenum GLAPIENTRY spy_glGetGraphicsResetStatus(void) {
    ++spy.calls;
    GLenum status = real_glGetGraphicsResetStatus();
    return spy.context_lost ? GL_UNKNOWN_CONTEXT_RESET : status;
}
static GLenum GLAPIENTRY spy_glGetError(void) {
    ++spy.calls;
    GLenum error = real_glGetError();
    return spy.context_lost ? GL_CONTEXT_LOST : error;
}

void spy_install(void) {
    memset(&spy, 0, sizeof spy);
    spy.fake_timer_bits = -1;
    /* The driver's own entry points: epoxy's pointers may still be lazy
     * resolvers that would overwrite the spy on their first call. */
#define INSTALL(name, type)                                                                                            \
    real_##name = (type)eglGetProcAddress(#name);                                                                     \
    assert_non_null(real_##name);                                                                                      \
    saved_##name = epoxy_##name;                                                                                       \
    epoxy_##name = spy_##name;
    SPIED(INSTALL)
#undef INSTALL
}

void spy_remove(void) {
#define REMOVE(name, type) epoxy_##name = saved_##name;
    SPIED(REMOVE)
#undef REMOVE
}

void spy_uncounted_get_integerv(GLenum pname, GLint *data) { real_glGetIntegerv(pname, data); }
