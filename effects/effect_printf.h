/* printf-style checks of the effects library's message builders, where the
 * compiler has them. MinGW's C99 printf (on under -std=c11: the suite's
 * Windows build, tests/windows/plume_tests.mk) is its gcc's gnu_printf:
 * plain printf there means Microsoft's, without %zu (as in
 * plugin/core/platform.h). */
#ifndef PLUME_EFFECT_PRINTF_H
#define PLUME_EFFECT_PRINTF_H

#if defined(__MINGW32__) && defined(__MINGW_PRINTF_FORMAT)
#define EFFECT_PRINTF_FORMAT(format_index, first_argument) \
    __attribute__((format(__MINGW_PRINTF_FORMAT, format_index, first_argument)))
#elif defined(__GNUC__)
#define EFFECT_PRINTF_FORMAT(format_index, first_argument) \
    __attribute__((format(printf, format_index, first_argument)))
#else
#define EFFECT_PRINTF_FORMAT(format_index, first_argument)
#endif

#endif
