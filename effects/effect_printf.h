/* printf-style checks of the effects library's message builders, where the
 * compiler has them. The library is built with gcc and clang only (not for
 * Windows: Debian has no MinGW-w64 jansson), so plain printf is the format. */
#ifndef PLUME_EFFECT_PRINTF_H
#define PLUME_EFFECT_PRINTF_H

#if defined(__GNUC__)
#define EFFECT_PRINTF_FORMAT(format_index, first_argument) \
    __attribute__((format(printf, format_index, first_argument)))
#else
#define EFFECT_PRINTF_FORMAT(format_index, first_argument)
#endif

#endif
