/* What the tests need from the operating system that POSIX and Windows
 * spell differently, in one place (test_platform.c): temporary files and
 * folders, child processes, glob matching of
 * test names, and the GL driver's own entry points. */
#ifndef PLUME_TEST_PLATFORM_H
#define PLUME_TEST_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

/* The system's own folder separator, as its users write paths ("/" is
 * understood on Windows too, so only tests of path handling use this). */
#ifdef _WIN32
#define TEST_PATH_SEPARATOR "\\"
#else
#define TEST_PATH_SEPARATOR "/"
#endif

/* A new empty file named <temporary folder>/<stem>XXXXXX<suffix> (the X's
 * made unique) written into `path`; fails the test when none can be made.
 * The caller removes it. */
void test_temporary_file(char *path, size_t size, const char *stem, const char *suffix);
/* A new empty folder <temporary folder>/<stem>XXXXXX, the same way. */
void test_temporary_folder(char *path, size_t size, const char *stem);

/* True when `name` matches `glob` ('*' any run of characters, '?' one). */
bool test_glob_match(const char *glob, const char *name);

/* Renames `from` to `to`, replacing the file `to` in one step, as editors
 * save (rename() on POSIX; Windows' rename refuses an existing `to`). */
bool test_replace_file(const char *from, const char *to);

/* Runs body(argument) in a child process (fork), whose exit status is
 * body's result, and waits for it: an abort in there fails the test instead
 * of ending the runner. False, with nothing run, where there is no fork
 * (Windows): the caller skips. */
typedef struct test_child_outcome {
    int code;   /* the child's exit status; -1 when a signal ended it */
    int signal; /* the signal that ended it, or 0 */
} test_child_outcome;
bool test_run_in_child(int (*body)(void *), void *argument, test_child_outcome *outcome);
/* Whether test_run_in_child can run anything here. */
bool test_has_child_processes(void);

/* The driver's own entry point of a GL function (EGL's or WGL's
 * GetProcAddress), not epoxy's dispatch pointer. */
void *test_gl_driver_function(const char *name);

#endif
