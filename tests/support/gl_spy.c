/* See gl_spy.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "gl_spy.h"
#include "test_platform.h"

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
    X(glFlush, PFNGLFLUSHPROC)                                                                                       \
    X(glDispatchCompute, PFNGLDISPATCHCOMPUTEPROC)                                                                   \
    X(glBufferSubData, PFNGLBUFFERSUBDATAPROC)                                                                       \
    X(glClearBufferSubData, PFNGLCLEARBUFFERSUBDATAPROC)                                                             \
    X(glFinish, PFNGLFINISHPROC)                                                                                     \
    X(glIsEnabled, PFNGLISENABLEDPROC)                                                                               \
    X(glEnable, PFNGLENABLEPROC)                                                                                     \
    X(glDisable, PFNGLDISABLEPROC)

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
/* ---- Rewrites of buffers that a dispatch not known to be complete may read ----
 * Each dispatch is numbered, and the buffers on the bindings of its
 * program's storage blocks are marked with its number; glFinish, or a fence found signalled,
 * completes the dispatches issued before it. A CPU-side write into a buffer
 * (glBufferData, glBufferSubData, glClearBufferSubData) marked by a dispatch
 * not yet complete counts as a rewrite in flight. */
enum { SPY_TRACKED = 1024, SPY_FENCES = 256 };
static struct {
    GLuint name;
    unsigned long long read_by;
} tracked[SPY_TRACKED];
static struct {
    GLsync sync;
    unsigned long long after;
} fence_marks[SPY_FENCES];
static unsigned long long dispatches, completed;
/* Resolved once, uncounted: epoxy's lazy resolvers would read the GL's
 * version string at their first call. */
static PFNGLGETINTEGERI_VPROC real_glGetIntegeri_v;
static PFNGLGETOBJECTLABELPROC real_glGetObjectLabel;
static PFNGLGETPROGRAMINTERFACEIVPROC real_glGetProgramInterfaceiv;
static PFNGLGETPROGRAMRESOURCEIVPROC real_glGetProgramResourceiv;

static void mark_read(GLuint name) {
    int free_entry = -1;
    for (int i = 0; i < SPY_TRACKED; ++i) {
        if (tracked[i].name == name) {
            tracked[i].read_by = dispatches;
            return;
        }
        if (free_entry < 0 && tracked[i].name == 0) free_entry = i;
    }
    if (free_entry >= 0) tracked[free_entry].name = name, tracked[free_entry].read_by = dispatches;
}

static GLenum binding_query(GLenum target) {
    switch (target) {
    case GL_SHADER_STORAGE_BUFFER: return GL_SHADER_STORAGE_BUFFER_BINDING;
    case GL_COPY_WRITE_BUFFER: return GL_COPY_WRITE_BUFFER_BINDING;
    case GL_COPY_READ_BUFFER: return GL_COPY_READ_BUFFER_BINDING;
    case GL_ARRAY_BUFFER: return GL_ARRAY_BUFFER_BINDING;
    case GL_UNIFORM_BUFFER: return GL_UNIFORM_BUFFER_BINDING;
    case GL_DRAW_INDIRECT_BUFFER: return GL_DRAW_INDIRECT_BUFFER_BINDING;
    case GL_DISPATCH_INDIRECT_BUFFER: return GL_DISPATCH_INDIRECT_BUFFER_BINDING;
    default: return 0;
    }
}

static void check_rewrite(GLenum target) {
    GLenum query = binding_query(target);
    if (!query) return;
    GLint name = 0;
    real_glGetIntegerv(query, &name);
    for (int i = 0; i < SPY_TRACKED && name; ++i)
        if (tracked[i].name == (GLuint)name && tracked[i].read_by > completed) {
            ++spy.rewrites_in_flight;
            spy.last_rewritten = (GLuint)name;
            real_glGetObjectLabel(GL_BUFFER, (GLuint)name, sizeof spy.last_rewritten_label, NULL, spy.last_rewritten_label);
        }
}

static void GLAPIENTRY spy_glDispatchCompute(GLuint x, GLuint y, GLuint z) {
    ++spy.calls, ++dispatches;
    /* The buffers on the bindings of the program's storage blocks. */
    GLint program = 0, blocks = 0;
    real_glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    if (program) real_glGetProgramInterfaceiv((GLuint)program, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &blocks);
    for (GLint k = 0; k < blocks; ++k) {
        const GLenum property = GL_BUFFER_BINDING;
        GLint binding = -1, name = 0;
        real_glGetProgramResourceiv((GLuint)program, GL_SHADER_STORAGE_BLOCK, (GLuint)k, 1, &property, 1, NULL, &binding);
        if (binding >= 0) real_glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, (GLuint)binding, &name);
        if (name) mark_read((GLuint)name);
    }
    real_glDispatchCompute(x, y, z);
}
static void GLAPIENTRY spy_glFinish(void) { ++spy.calls, completed = dispatches, real_glFinish(); }
static void GLAPIENTRY spy_glBufferData(GLenum target, GLsizeiptr size, const void *data, GLenum usage) {
    check_rewrite(target);
    ++spy.calls, real_glBufferData(target, size, data, usage);
}
static void GLAPIENTRY spy_glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void *data) {
    check_rewrite(target);
    ++spy.calls, real_glBufferSubData(target, offset, size, data);
}
static void GLAPIENTRY spy_glClearBufferSubData(GLenum target, GLenum internal, GLintptr offset, GLsizeiptr size,
                                                GLenum format, GLenum type, const void *data) {
    check_rewrite(target);
    ++spy.calls, real_glClearBufferSubData(target, internal, offset, size, format, type, data);
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
    GLsync sync = real_glFenceSync(condition, flags);
    for (int i = 0; i < SPY_FENCES; ++i)
        if (!fence_marks[i].sync) {
            fence_marks[i].sync = sync, fence_marks[i].after = dispatches;
            break;
        }
    return sync;
}

/* A fence found signalled completes what was issued before it. */
static void fence_signalled(GLsync sync) {
    for (int i = 0; i < SPY_FENCES; ++i)
        if (fence_marks[i].sync == sync && fence_marks[i].after > completed) completed = fence_marks[i].after;
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
    if (status == GL_ALREADY_SIGNALED || status == GL_CONDITION_SATISFIED) fence_signalled(sync);
    return status;
}
static void GLAPIENTRY spy_glDeleteSync(GLsync sync) {
    for (int i = 0; i < SPY_FENCES; ++i)
        if (fence_marks[i].sync == sync) fence_marks[i].sync = NULL;
    ++spy.calls, real_glDeleteSync(sync);
}
static void GLAPIENTRY spy_glPushDebugGroup(GLenum source, GLuint id, GLsizei length, const GLchar *message) {
    if (spy.debug_pushes < 8) snprintf(spy.debug_group_names[spy.debug_pushes], 32, "%s", message);
    ++spy.calls, ++spy.debug_pushes, real_glPushDebugGroup(source, id, length, message);
}
static void GLAPIENTRY spy_glPopDebugGroup(void) { ++spy.calls, ++spy.debug_pops, real_glPopDebugGroup(); }
static void GLAPIENTRY spy_glGetIntegerv(GLenum pname, GLint *data) { ++spy.calls, real_glGetIntegerv(pname, data); }
static const GLubyte *GLAPIENTRY spy_glGetString(GLenum name) {
    ++spy.calls, ++spy.get_strings;
    if (name == GL_VERSION && spy.fake_version) return (const GLubyte *)spy.fake_version;
    return real_glGetString(name);
}
static GLboolean GLAPIENTRY spy_glIsEnabled(GLenum capability) {
    spy.fixed_index_restart_uses += capability == GL_PRIMITIVE_RESTART_FIXED_INDEX;
    return real_glIsEnabled(capability);
}
static void GLAPIENTRY spy_glEnable(GLenum capability) {
    spy.fixed_index_restart_uses += capability == GL_PRIMITIVE_RESTART_FIXED_INDEX;
    real_glEnable(capability);
}
static void GLAPIENTRY spy_glDisable(GLenum capability) {
    spy.fixed_index_restart_uses += capability == GL_PRIMITIVE_RESTART_FIXED_INDEX;
    real_glDisable(capability);
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
    memset(tracked, 0, sizeof tracked);
    memset(fence_marks, 0, sizeof fence_marks);
    dispatches = completed = 0;
    spy.fake_timer_bits = -1;
    real_glGetIntegeri_v = (PFNGLGETINTEGERI_VPROC)test_gl_driver_function("glGetIntegeri_v");
    real_glGetObjectLabel = (PFNGLGETOBJECTLABELPROC)test_gl_driver_function("glGetObjectLabel");
    real_glGetProgramInterfaceiv =
        (PFNGLGETPROGRAMINTERFACEIVPROC)test_gl_driver_function("glGetProgramInterfaceiv");
    real_glGetProgramResourceiv = (PFNGLGETPROGRAMRESOURCEIVPROC)test_gl_driver_function("glGetProgramResourceiv");
    /* The driver's own entry points: epoxy's pointers may still be lazy
     * resolvers that would overwrite the spy on their first call. */
#define INSTALL(name, type)                                                                                            \
    real_##name = (type)test_gl_driver_function(#name);                                                              \
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
