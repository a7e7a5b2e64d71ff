/* What the demo asks of the operating system that POSIX and Windows spell
 * differently (demo.h): the program's own folder, making a folder. */
#define _POSIX_C_SOURCE 200809L
#include "demo.h"

#include <string.h>

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

bool demo_binary_folder(char *out, size_t size) {
    DWORD length = size > 1 ? GetModuleFileNameA(NULL, out, (DWORD)size) : 0;
    char *separator = length > 0 && length < size ? strrchr(out, '\\') : NULL;
    if (separator) *separator = '\0';
    return separator != NULL;
}

void demo_make_folder(const char *path) { CreateDirectoryA(path, NULL); }
#else
#include <sys/stat.h>
#include <unistd.h>

bool demo_binary_folder(char *out, size_t size) {
    ssize_t n = size > 1 ? readlink("/proc/self/exe", out, size - 1) : -1;
    char *slash = n > 0 ? (out[n] = '\0', strrchr(out, '/')) : NULL;
    if (slash) *slash = '\0';
    return slash != NULL;
}

void demo_make_folder(const char *path) { mkdir(path, 0777); }
#endif
