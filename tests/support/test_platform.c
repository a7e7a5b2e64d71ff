/* test_platform.h: POSIX (Linux, EGL) and Windows (WGL). */
#define _DEFAULT_SOURCE /* mkstemps, mkdtemp */
#include "test_platform.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <fcntl.h>
#include <io.h>
#include <stdint.h>

/* GetTempPath's folder without its trailing separator, and with '/' for
 * '\\' (Windows takes both): the tests write paths into JSON text as they
 * are, where a backslash would be an escape. */
static void temporary_folder(char *out, size_t size) {
    char folder[MAX_PATH + 1];
    DWORD length = GetTempPathA(sizeof folder, folder);
    if (length == 0 || length >= sizeof folder) snprintf(folder, sizeof folder, ".");
    else if (folder[length - 1] == '\\' || folder[length - 1] == '/') folder[length - 1] = '\0';
    for (char *c = folder; *c; ++c)
        if (*c == '\\') *c = '/';
    snprintf(out, size, "%s", folder);
}

/* Windows has neither mkstemps nor mkdtemp: names from the process id and
 * a counter, tried until one is new. */
static void make_unique(char *path, size_t size, const char *stem, const char *suffix, bool folder) {
    char base[MAX_PATH + 1];
    temporary_folder(base, sizeof base);
    static unsigned counter;
    for (int attempt = 0; attempt < 100; ++attempt) {
        snprintf(path, size, "%s/%s%lu_%u%s", base, stem, (unsigned long)GetCurrentProcessId(), counter++, suffix);
        if (folder ? CreateDirectoryA(path, NULL) != 0 : _close(_open(path, _O_CREAT | _O_EXCL | _O_WRONLY, 0600)) == 0)
            return;
    }
    fail_msg("no new temporary %s %s", folder ? "folder" : "file", path);
}

void test_temporary_file(char *path, size_t size, const char *stem, const char *suffix) {
    make_unique(path, size, stem, suffix, false);
}
void test_temporary_folder(char *path, size_t size, const char *stem) { make_unique(path, size, stem, "", true); }

/* wglGetProcAddress knows only what came after GL 1.1; the rest is
 * opengl32.dll's own export. */
bool test_replace_file(const char *from, const char *to) {
    return MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING) != 0;
}

bool test_has_child_processes(void) { return false; }

bool test_run_in_child(int (*body)(void *), void *argument, test_child_outcome *outcome) {
    (void)body, (void)argument;
    *outcome = (test_child_outcome){0};
    return false;
}

void *test_gl_driver_function(const char *name) {
    PROC function = wglGetProcAddress(name);
    if (!function) function = GetProcAddress(GetModuleHandleA("opengl32.dll"), name);
    return (void *)(uintptr_t)function;
}

#else
#include <epoxy/egl.h>
#include <sys/wait.h>
#include <unistd.h>

void test_temporary_file(char *path, size_t size, const char *stem, const char *suffix) {
    int written = snprintf(path, size, "/tmp/%sXXXXXX%s", stem, suffix);
    assert_true(written > 0 && (size_t)written < size);
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0) fail_msg("no new temporary file %s", path);
    close(fd);
}

void test_temporary_folder(char *path, size_t size, const char *stem) {
    int written = snprintf(path, size, "/tmp/%sXXXXXX", stem);
    assert_true(written > 0 && (size_t)written < size);
    if (!mkdtemp(path)) fail_msg("no new temporary folder %s", path);
}

bool test_replace_file(const char *from, const char *to) { return rename(from, to) == 0; }

bool test_has_child_processes(void) { return true; }

bool test_run_in_child(int (*body)(void *), void *argument, test_child_outcome *outcome) {
    fflush(NULL);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) _exit(body(argument)); /* _exit: the child leaves the parent's GL and memory alone */
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    *outcome = (test_child_outcome){.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0,
                                    .code = WIFEXITED(status) ? WEXITSTATUS(status) : -1};
    return true;
}

void *test_gl_driver_function(const char *name) { return (void *)eglGetProcAddress(name); }
#endif

bool test_glob_match(const char *glob, const char *name) {
    if (*glob == '\0') return *name == '\0';
    if (*glob == '*') return test_glob_match(glob + 1, name) || (*name && test_glob_match(glob, name + 1));
    return *name && (*glob == '?' || *glob == *name) && test_glob_match(glob + 1, name + 1);
}
