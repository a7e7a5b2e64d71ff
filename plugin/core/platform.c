/* The module's calls into the operating system (platform.h). */
#include "platform.h"

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
