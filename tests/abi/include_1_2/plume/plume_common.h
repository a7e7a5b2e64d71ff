/*
 * plume_common.h — types shared by every part of the plume particle module:
 * result codes, the log callback and the host allocator.
 *
 * The module never aborts the host: every failure is a plume_result plus one
 * message through the log callback.
 */
#ifndef PLUME_COMMON_H
#define PLUME_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks a function of the public API. It carries no attribute on purpose: the
 * static library offers these functions directly, while the shared library
 * (libplume.so, built with -fvisibility=hidden; plume.dll on Windows) exports
 * one symbol only, the entry point plume_get_api() of plume_plugin.h, whose
 * versioned table holds them all. A second, unversioned surface of plain symbols would tie every
 * function's signature to the soname; the table lets the ABI grow instead. */
#define PLUME_API

typedef enum plume_result {
    PLUME_OK = 0,
    PLUME_ERROR_INVALID_ARGUMENT = 1,   /* a null pointer, a bad descriptor field */
    PLUME_ERROR_OUT_OF_MEMORY = 2,      /* host allocator or GL buffer allocation failed */
    PLUME_ERROR_GL_UNSUPPORTED = 3,     /* GL version, extension or limit too small */
    PLUME_ERROR_SHADER = 4,             /* a shader failed to compile or link */
    PLUME_ERROR_GL = 5,                 /* GL reported an error during the call */
    PLUME_ERROR_CAPACITY = 6,           /* a count above the object's capacity */
    PLUME_ERROR_IO = 7,                 /* a file could not be read or decoded */
    PLUME_ERROR_VERSION = 8,            /* plume_get_api: the library lacks the ABI version asked for */
    /* since 1.1: the host left GL state the module cannot work under without
     * touching the host's objects (transform feedback active and not paused);
     * the call did nothing */
    PLUME_ERROR_HOST_STATE = 9
} plume_result;

/* since 1.2: how an object runs on the GPU (plume_sorter_desc.path and, as
 * it is reported, plume_profile.path). */
typedef enum plume_gpu_path {
    /* Compute where the context has it (GL 4.3+), else fragment. */
    PLUME_PATH_AUTO = 0,
    /* Compute shaders over shader storage buffers (GL 4.3 core). */
    PLUME_PATH_COMPUTE = 1,
    /* No compute shaders, storage buffers, image load/store or atomic
     * counters (GL 3.3 core; macOS's GL 4.1): particles in textures updated
     * by fragment passes, sorts as vertex passes recorded by transform
     * feedback (render passes where the GL's buffer textures are too small). */
    PLUME_PATH_FRAGMENT = 2
} plume_gpu_path;

/* A short English name for a result code ("PLUME_ERROR_SHADER"); never NULL,
 * a static string. Threading: any thread. */
PLUME_API const char *plume_result_string(plume_result result);

typedef enum plume_log_level {
    PLUME_LOG_ERROR = 0,
    PLUME_LOG_WARNING = 1,
    PLUME_LOG_INFO = 2,
    PLUME_LOG_DEBUG = 3
} plume_log_level;

/* Receives every message of an object. `message` is valid only during the call. */
typedef void (*plume_log_fn)(plume_log_level level, const char *message, void *user);

typedef struct plume_logger {
    plume_log_fn func;   /* NULL: errors and warnings go to stderr */
    void *user;          /* passed back unchanged */
} plume_logger;

/* All three functions or none: a partly filled allocator is refused. */
typedef struct plume_allocator {
    void *(*allocate)(size_t size, void *user);
    void *(*reallocate)(void *block, size_t size, void *user);
    void (*deallocate)(void *block, void *user);
    void *user;
} plume_allocator;

#ifdef __cplusplus
}
#endif

#endif
