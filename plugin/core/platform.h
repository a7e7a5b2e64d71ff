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

/* Whether a GL context is current on the calling thread, asked of each window
 * system API that libepoxy dispatches through (EGL, GLX, WGL, CGL) and that
 * the process has loaded: the module links none of them, and a library that
 * is not loaded has no current context. Cheap enough for every entry point
 * (a loader look-up and one call per API); keeps nothing between calls. */
bool plume_platform_gl_context_is_current(void);

/* Whether glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION) and its user parameter
 * give back what the application set, so that a callback replaced for a
 * call can be put back. Wine's opengl32 (and Proton's) keeps the
 * application's callback to itself and gives the GL its own thunk, which is
 * what the GL reports: set back as an application callback it is called the
 * wrong way and faults inside the next debug message. Asked once per scope
 * capability check, keeps nothing. */
bool plume_platform_reports_debug_callback(void);

#endif
