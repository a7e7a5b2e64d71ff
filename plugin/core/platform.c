/* The module's calls into the operating system (platform.h). */
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* RTLD_DEFAULT and RTLD_NOLOAD in glibc's dlfcn.h */
#endif
#include "platform.h"

#include <stddef.h>
#include <string.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

/* timespec_get is missing from MinGW's default C runtime (msvcrt). */
uint64_t plume_platform_ticks(void) {
    LARGE_INTEGER count;
    QueryPerformanceCounter(&count);
    return (uint64_t)count.QuadPart;
}
#else
#include <time.h>

uint64_t plume_platform_ticks(void) {
    struct timespec now = {0, 0};
    timespec_get(&now, TIME_UTC);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}
#endif

/* ---- Is a GL context current? ---------------------------------------------
 * Each window system's "current context" function, found in its library only
 * where the process already loaded it (libepoxy, the host or the driver did):
 * loading a library here would make a context current nowhere. */
#if defined(_WIN32)
typedef void *(WINAPI *current_context_fn)(void); /* WGL's and EGL's calling convention */

static current_context_fn loaded_function(const char *library, const char *name) {
    HMODULE module = GetModuleHandleA(library); /* NULL unless already loaded */
    return module ? (current_context_fn)(void (*)(void))GetProcAddress(module, name) : NULL;
}
#else
#include <dlfcn.h>

typedef void *(*current_context_fn)(void);

static current_context_fn loaded_function(const char *library, const char *name) {
    void *handle = library ? dlopen(library, RTLD_LAZY | RTLD_NOLOAD) : RTLD_DEFAULT;
    if (!handle) return NULL;
    current_context_fn function;
    void *symbol = dlsym(handle, name);
    memcpy(&function, &symbol, sizeof function); /* ISO C has no object-to-function pointer cast */
    if (library) dlclose(handle);                /* drops the reference RTLD_NOLOAD took */
    return function;
}
#endif

typedef struct current_context_source {
    const char *library; /* NULL: any symbol the process has (static links, frameworks) */
    const char *function;
} current_context_source;

static const current_context_source CURRENT_CONTEXT_SOURCES[] = {
#if defined(_WIN32)
    {"opengl32.dll", "wglGetCurrentContext"},
    {"libEGL.dll", "eglGetCurrentContext"}, /* ANGLE */
#elif defined(__APPLE__)
    {NULL, "CGLGetCurrentContext"},
#else
    {"libEGL.so.1", "eglGetCurrentContext"},
    {"libEGL.so", "eglGetCurrentContext"},
    {"libGLX.so.0", "glXGetCurrentContext"}, /* libglvnd */
    {"libGL.so.1", "glXGetCurrentContext"},
    {"libGL.so", "glXGetCurrentContext"},
    {NULL, "eglGetCurrentContext"},
    {NULL, "glXGetCurrentContext"},
#endif
};

bool plume_platform_gl_context_is_current(void) {
    /* EGL_NO_CONTEXT, GLX's, WGL's and CGL's "none" are all a null pointer. */
    for (size_t i = 0; i < sizeof CURRENT_CONTEXT_SOURCES / sizeof CURRENT_CONTEXT_SOURCES[0]; ++i) {
        current_context_fn current = loaded_function(CURRENT_CONTEXT_SOURCES[i].library,
                                                     CURRENT_CONTEXT_SOURCES[i].function);
        if (current && current()) return true;
    }
    return false;
}
