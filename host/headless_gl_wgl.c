/* headless_gl.h on Windows, through WGL instead of EGL (Windows has no
 * EGL): each context gets a hidden window of its own (never shown), whose
 * device context is what WGL renders to, and is made with
 * WGL_ARB_create_context (core profile; debug; ES through
 * WGL_EXT_create_context_es2_profile). WGL resolves that call only while
 * some context is current, so a legacy context on a bootstrap window is
 * made current first, once per creation, and deleted after. Contexts are
 * made current through opengl32's own wglMakeCurrent, then epoxy told
 * (epoxy_handle_external_wglMakeCurrent): epoxy's wrapper of it goes, once
 * a process has made a second context current, through a per-thread table
 * that a new thread fills only in that very wrapper: a new thread's first
 * call of it jumps to address 0. Under wine
 * (tests/check_wine_suite.sh) opengl32 hands all this to Mesa through GLX.
 * Built instead of headless_gl.c for Windows (tests/windows/plume_tests.mk). */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include "headless_gl_platform.h"

#include <epoxy/gl.h>
#include <epoxy/wgl.h>
#include <stdio.h>
#include <string.h>

/* opengl32's own, not epoxy's per-thread dispatch of them (see above). */
#undef wglCreateContext
#undef wglDeleteContext
#undef wglGetCurrentContext
#undef wglGetCurrentDC
#undef wglMakeCurrent

static bool make_current(HDC dc, HGLRC context) {
    if (!wglMakeCurrent(dc, context)) return false;
    epoxy_handle_external_wglMakeCurrent();
    return true;
}

static const char window_class_name[] = "plume_headless_gl";

/* A hidden window with a double-buffered RGBA pixel format set on its
 * device context; NULL window on failure. */
static HWND hidden_window(HDC *dc) {
    static ATOM window_class;
    if (!window_class) {
        WNDCLASSA description = {.style = CS_OWNDC, .lpfnWndProc = DefWindowProcA,
                                 .hInstance = GetModuleHandleA(NULL), .lpszClassName = window_class_name};
        window_class = RegisterClassA(&description);
        if (!window_class) return NULL;
    }
    HWND window = CreateWindowA(window_class_name, "plume", WS_OVERLAPPEDWINDOW, 0, 0, 16, 16, NULL, NULL,
                                GetModuleHandleA(NULL), NULL);
    if (!window) return NULL;
    *dc = GetDC(window);
    PIXELFORMATDESCRIPTOR format = {.nSize = sizeof format, .nVersion = 1,
                                    .dwFlags = PFD_DRAW_TO_WINDOW | PFD_SUPPORT_OPENGL | PFD_DOUBLEBUFFER,
                                    .iPixelType = PFD_TYPE_RGBA, .cColorBits = 32, .cDepthBits = 24,
                                    .cStencilBits = 8};
    int chosen = *dc ? ChoosePixelFormat(*dc, &format) : 0;
    if (!chosen || !SetPixelFormat(*dc, chosen, &format)) {
        if (*dc) ReleaseDC(window, *dc);
        DestroyWindow(window);
        return NULL;
    }
    return window;
}

static void destroy_window(HWND window, HDC dc) {
    if (dc) ReleaseDC(window, dc);
    if (window) DestroyWindow(window);
}

/* Makes a legacy context current on a window of its own, so that WGL's
 * extension calls resolve; the caller deletes both with end_bootstrap. */
typedef struct bootstrap { HWND window; HDC dc; HGLRC context; HGLRC previous; HDC previous_dc; } bootstrap;

static bool begin_bootstrap(bootstrap *b) {
    memset(b, 0, sizeof *b);
    b->previous = wglGetCurrentContext();
    b->previous_dc = wglGetCurrentDC();
    b->window = hidden_window(&b->dc);
    if (!b->window) return false;
    b->context = wglCreateContext(b->dc);
    return b->context && make_current(b->dc, b->context);
}

static void end_bootstrap(bootstrap *b) {
    if (wglGetCurrentContext() == b->context) make_current(b->previous_dc, b->previous);
    if (b->context) wglDeleteContext(b->context);
    destroy_window(b->window, b->dc);
}

bool headless_gl_platform_create(headless_gl *gl, bool es, const int (*versions)[2], size_t version_count, bool debug,
                                 const headless_gl *share, char *error, size_t error_size) {
    memset(gl, 0, sizeof *gl);
    bootstrap boot;
    if (!begin_bootstrap(&boot)) {
        snprintf(error, error_size, "no legacy WGL context on a hidden window (error %lu)", GetLastError());
        end_bootstrap(&boot);
        return false;
    }
    const char *missing = !epoxy_has_wgl_extension(boot.dc, "WGL_ARB_create_context") ? "WGL_ARB_create_context"
                          : es && !epoxy_has_wgl_extension(boot.dc, "WGL_EXT_create_context_es2_profile")
                              ? "WGL_EXT_create_context_es2_profile"
                              : NULL;
    HDC dc = NULL;
    HWND window = missing ? NULL : hidden_window(&dc);
    HGLRC context = NULL;
    for (size_t i = 0; window && i < version_count && !context; ++i) {
        const int attributes[] = {WGL_CONTEXT_MAJOR_VERSION_ARB, versions[i][0],
                                  WGL_CONTEXT_MINOR_VERSION_ARB, versions[i][1],
                                  WGL_CONTEXT_FLAGS_ARB, debug ? WGL_CONTEXT_DEBUG_BIT_ARB : 0,
                                  WGL_CONTEXT_PROFILE_MASK_ARB,
                                  es ? WGL_CONTEXT_ES2_PROFILE_BIT_EXT : WGL_CONTEXT_CORE_PROFILE_BIT_ARB, 0};
        context = wglCreateContextAttribsARB(dc, share ? (HGLRC)share->context : NULL, attributes);
    }
    end_bootstrap(&boot);
    if (!context) {
        if (missing) snprintf(error, error_size, "this WGL has no %s", missing);
        else if (!window) snprintf(error, error_size, "no hidden window with a GL pixel format");
        else
            snprintf(error, error_size, "no OpenGL%s %d.%d%s context (error 0x%lx)", es ? " ES" : "",
                     versions[version_count - 1][0], versions[version_count - 1][1], es ? "" : "+ core",
                     GetLastError());
        destroy_window(window, dc);
        return false;
    }
    gl->display = dc;
    gl->context = context;
    gl->surface = window;
    if (!headless_gl_make_current(gl)) {
        snprintf(error, error_size, "wglMakeCurrent failed (error %lu)", GetLastError());
        headless_gl_destroy(gl);
        return false;
    }
    return true;
}

bool headless_gl_make_current(const headless_gl *gl) {
    return make_current((HDC)gl->display, (HGLRC)gl->context);
}

void headless_gl_release_current(const headless_gl *gl) {
    (void)gl;
    make_current(NULL, NULL);
}

void headless_gl_destroy(headless_gl *gl) {
    if (!gl->context) return;
    if (wglGetCurrentContext() == (HGLRC)gl->context) make_current(NULL, NULL);
    wglDeleteContext((HGLRC)gl->context);
    destroy_window((HWND)gl->surface, (HDC)gl->display);
    memset(gl, 0, sizeof *gl);
}
