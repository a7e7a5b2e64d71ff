/* What differs between operating systems and compilers, in one place: the rest
 * of plugin/ is ISO C11 and OpenGL (through libepoxy), and builds with gcc and
 * clang on Linux and macOS, with MinGW-w64 and with MSVC on Windows. */
#ifndef PLUME_PLATFORM_H
#define PLUME_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

/* printf-style checks of a function's format and arguments where the compiler
 * has them. MinGW's C99 printf (__USE_MINGW_ANSI_STDIO, on under -std=c11) is
 * its gcc's gnu_printf: plain printf there means Microsoft's, without %zu. */
#if defined(__MINGW32__) && defined(__MINGW_PRINTF_FORMAT)
#define PLUME_PRINTF_FORMAT(format_index, first_argument) \
    __attribute__((format(__MINGW_PRINTF_FORMAT, format_index, first_argument)))
#elif defined(__GNUC__)
#define PLUME_PRINTF_FORMAT(format_index, first_argument) \
    __attribute__((format(printf, format_index, first_argument)))
#else
#define PLUME_PRINTF_FORMAT(format_index, first_argument)
#endif

/* A fine-grained clock (nanoseconds or performance-counter ticks): two calls
 * a microsecond apart give different values. Only compared and mixed, never
 * converted to a time. */
uint64_t plume_platform_ticks(void);

/* A window system API's "current context" function (EGL's, GLX's, WGL's,
 * CGL's, the browser's), as found among the libraries the process loaded: the
 * module links none of them, and a library that is not loaded has no current
 * context. `library`: a reference to its library that the query holds (NULL:
 * none needed), so that the function stays callable while it is kept. */
typedef struct plume_current_context_query {
    void (*function)(void); /* called with the platform's convention; NULL: none found */
    void *library;
} plume_current_context_query;

/* The query of the first window system API whose context is current on the
 * calling thread ({NULL, NULL} where none is): a walk of the loaded
 * libraries and a look-up in one, about 3 % of a batch frame of 200 systems'
 * CPU on the GPU machine where every entry point asked it, too dear for
 * that. The caller keeps it (plume_check_gl_context: the context's program
 * cache) or releases it. */
plume_current_context_query plume_platform_find_current_context(void);
/* Whether `query` (found earlier) says a context is current now: one call. */
bool plume_platform_asks_current(plume_current_context_query query);
void plume_platform_release_current_context_query(plume_current_context_query query);

/* Whether glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION) and its user parameter
 * give back what the application set, so that a callback replaced for a
 * call can be put back. Wine's opengl32 (and Proton's) keeps the
 * application's callback to itself and gives the GL its own thunk, which is
 * what the GL reports: set back as an application callback it is called the
 * wrong way and faults inside the next debug message. Asked once per scope
 * capability check, keeps nothing. */
bool plume_platform_reports_debug_callback(void);

#endif
