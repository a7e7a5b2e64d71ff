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

/* Wine's ntdll exports its version; Windows' does not. */
bool plume_platform_reports_debug_callback(void) {
    HMODULE ntdll = GetModuleHandleA("ntdll.dll");
    return !(ntdll && GetProcAddress(ntdll, "wine_get_version"));
}

/* timespec_get is missing from MinGW's default C runtime (msvcrt). */
uint64_t plume_platform_ticks(void) {
    LARGE_INTEGER count;
    QueryPerformanceCounter(&count);
    return (uint64_t)count.QuadPart;
}
#else
#include <time.h>

bool plume_platform_reports_debug_callback(void) { return true; }

uint64_t plume_platform_ticks(void) {
    struct timespec now = {0, 0};
    timespec_get(&now, TIME_UTC);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}
#endif

/* ---- Is a GL context current? ---------------------------------------------
 * Each window system's "current context" function, found in its library only
 * where the process already loaded it (libepoxy, the host or the driver did):
 * a library that is not loaded has no current context, and loading one here
 * would cost a search of the file system on every call. */
#if defined(__EMSCRIPTEN__)
#include <emscripten/html5.h>

/* The browser's WebGL context (the web page's build, web/): the query is
 * always the same one. */
static void webgl_current_context(void) {}

bool plume_platform_asks_current(plume_current_context_query query) {
    return query.function && emscripten_webgl_get_current_context() != 0;
}

plume_current_context_query plume_platform_find_current_context(void) {
    plume_current_context_query query = {webgl_current_context, NULL};
    return plume_platform_asks_current(query) ? query : (plume_current_context_query){NULL, NULL};
}

void plume_platform_release_current_context_query(plume_current_context_query query) { (void)query; }
#elif defined(_WIN32)
typedef void *(WINAPI *current_context_fn)(void); /* WGL's and EGL's calling convention */

bool plume_platform_asks_current(plume_current_context_query query) {
    return query.function && ((current_context_fn)query.function)() != NULL;
}

/* `function` of a module already loaded, where it says a context is
 * current: the module held (a reference of the query's own) until released. */
static plume_current_context_query current_in_module(const char *module_name, const char *function) {
    HMODULE module = NULL; /* none unless already loaded */
    if (!GetModuleHandleExA(0, module_name, &module)) return (plume_current_context_query){NULL, NULL};
    plume_current_context_query query = {(void (*)(void))GetProcAddress(module, function), module};
    if (plume_platform_asks_current(query)) return query;
    FreeLibrary(module);
    return (plume_current_context_query){NULL, NULL};
}

void plume_platform_release_current_context_query(plume_current_context_query query) {
    if (query.library) FreeLibrary((HMODULE)query.library);
}

plume_current_context_query plume_platform_find_current_context(void) {
    plume_current_context_query query = current_in_module("opengl32.dll", "wglGetCurrentContext");
    return query.function ? query : current_in_module("libEGL.dll", "eglGetCurrentContext"); /* ANGLE */
}
#else
#include <dlfcn.h>

typedef void *(*current_context_fn)(void);

/* EGL_NO_CONTEXT and GLX's and CGL's "none" are all a null pointer. */
bool plume_platform_asks_current(plume_current_context_query query) {
    return query.function && ((current_context_fn)query.function)() != NULL;
}

/* `handle`'s `function`, where it says a context is current (the query
 * keeps `library`, a reference of its own or NULL). */
static plume_current_context_query current_in_handle(void *handle, void *library, const char *function) {
    void *symbol = dlsym(handle, function);
    plume_current_context_query query = {NULL, library};
    memcpy(&query.function, &symbol, sizeof query.function); /* ISO C has no object-to-function pointer cast */
    return symbol && plume_platform_asks_current(query) ? query : (plume_current_context_query){NULL, NULL};
}

void plume_platform_release_current_context_query(plume_current_context_query query) {
    if (query.library) dlclose(query.library);
}

#if defined(__APPLE__)
plume_current_context_query plume_platform_find_current_context(void) {
    return current_in_handle(RTLD_DEFAULT, NULL, "CGLGetCurrentContext"); /* the OpenGL framework */
}
#else
#include <link.h>

/* The window system libraries libepoxy dispatches through, by their file
 * names' start (libGL.so.1 has GLX; libglvnd splits it into libGLX.so.0). */
static const struct {
    const char *file_prefix;
    const char *function;
} CURRENT_CONTEXT_SOURCES[] = {
    {"libEGL.so", "eglGetCurrentContext"},
    {"libGLX.so", "glXGetCurrentContext"},
    {"libGL.so", "glXGetCurrentContext"},
};
enum { SOURCE_COUNT = sizeof CURRENT_CONTEXT_SOURCES / sizeof CURRENT_CONTEXT_SOURCES[0], LOADED_PATH = 512 };

typedef struct loaded_sources {
    char path[SOURCE_COUNT][LOADED_PATH]; /* empty: not loaded */
} loaded_sources;

/* dl_iterate_phdr's callback: notes the path of each source loaded. (The
 * libraries are opened after the walk, outside the loader's lock it holds.) */
static int note_loaded_source(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    loaded_sources *loaded = data;
    const char *slash = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    const char *file = slash ? slash + 1 : info->dlpi_name;
    for (size_t i = 0; file && i < SOURCE_COUNT; ++i) {
        size_t length = strlen(CURRENT_CONTEXT_SOURCES[i].file_prefix);
        if (!loaded->path[i][0] && strncmp(file, CURRENT_CONTEXT_SOURCES[i].file_prefix, length) == 0 &&
            strlen(info->dlpi_name) < LOADED_PATH)
            strcpy(loaded->path[i], info->dlpi_name);
    }
    return 0;
}

plume_current_context_query plume_platform_find_current_context(void) {
    loaded_sources loaded;
    for (size_t i = 0; i < SOURCE_COUNT; ++i) loaded.path[i][0] = '\0';
    dl_iterate_phdr(note_loaded_source, &loaded);
    for (size_t i = 0; i < SOURCE_COUNT; ++i) {
        /* By the path the loader knows it under: found among the loaded
         * objects, never searched for. */
        void *handle = loaded.path[i][0] ? dlopen(loaded.path[i], RTLD_LAZY | RTLD_NOLOAD) : NULL;
        if (!handle) continue;
        /* The reference RTLD_NOLOAD took is the query's. */
        plume_current_context_query query = current_in_handle(handle, handle, CURRENT_CONTEXT_SOURCES[i].function);
        if (query.function) return query;
        dlclose(handle);
    }
    /* A host that linked a window system library statically. */
    plume_current_context_query query = current_in_handle(RTLD_DEFAULT, NULL, "eglGetCurrentContext");
    return query.function ? query : current_in_handle(RTLD_DEFAULT, NULL, "glXGetCurrentContext");
}
#endif
#endif
