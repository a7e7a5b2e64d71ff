#include "headless_gl_platform.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <stdio.h>
#include <string.h>

static EGLDisplay open_display(void) {
    /* One display per process is enough; EGL reference-counts eglInitialize. */
    if (epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_device") &&
        epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_device_enumeration")) {
        EGLDeviceEXT devices[16];
        EGLint device_count = 0;
        if (eglQueryDevicesEXT(16, devices, &device_count)) {
            for (EGLint i = 0; i < device_count; ++i) {
                EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
                if (display != EGL_NO_DISPLAY && eglInitialize(display, NULL, NULL)) return display;
            }
        }
    }
    EGLDisplay display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (display != EGL_NO_DISPLAY && eglInitialize(display, NULL, NULL)) return display;
    return EGL_NO_DISPLAY;
}

static bool create_context(headless_gl *gl, bool es, const int (*versions)[2], size_t version_count, bool debug,
                           const headless_gl *share, char *error, size_t error_size) {
    memset(gl, 0, sizeof *gl);
    EGLDisplay display = share ? share->display : open_display();
    if (display == EGL_NO_DISPLAY) {
        snprintf(error, error_size, "no EGL display could be initialised (device platform and default)");
        return false;
    }
    if (!eglBindAPI(es ? EGL_OPENGL_ES_API : EGL_OPENGL_API)) {
        snprintf(error, error_size, "eglBindAPI failed: this EGL has no %s", es ? "OpenGL ES" : "desktop OpenGL");
        return false;
    }
    bool surfaceless = epoxy_has_egl_extension(display, "EGL_KHR_surfaceless_context");
    const EGLint config_attributes[] = {EGL_SURFACE_TYPE, surfaceless ? 0 : EGL_PBUFFER_BIT,
                                        EGL_RENDERABLE_TYPE, es ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config;
    EGLint config_count = 0;
    if (!eglChooseConfig(display, config_attributes, &config, 1, &config_count) || config_count < 1) {
        snprintf(error, error_size, "no EGL config renders desktop OpenGL");
        return false;
    }
    EGLContext context = EGL_NO_CONTEXT;
    for (size_t i = 0; i < version_count && context == EGL_NO_CONTEXT; ++i) {
        const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, versions[i][0],
                                             EGL_CONTEXT_MINOR_VERSION, versions[i][1],
                                             EGL_CONTEXT_OPENGL_DEBUG, debug ? EGL_TRUE : EGL_FALSE,
                                             es ? EGL_NONE : EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                             EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
        context = eglCreateContext(display, config, share ? share->context : EGL_NO_CONTEXT, context_attributes);
    }
    if (context == EGL_NO_CONTEXT) {
        snprintf(error, error_size, "no OpenGL %d.%d+ core context (EGL error 0x%x)", versions[version_count - 1][0],
                 versions[version_count - 1][1], eglGetError());
        return false;
    }
    EGLSurface surface = EGL_NO_SURFACE;
    if (!surfaceless) {
        const EGLint pbuffer_attributes[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
        surface = eglCreatePbufferSurface(display, config, pbuffer_attributes);
    }
    gl->display = display;
    gl->context = context;
    gl->surface = surface;
    if (!headless_gl_make_current(gl)) {
        snprintf(error, error_size, "eglMakeCurrent failed (EGL error 0x%x)", eglGetError());
        headless_gl_destroy(gl);
        return false;
    }
    return true;
}

bool headless_gl_platform_create(headless_gl *gl, bool es, const int (*versions)[2], size_t version_count, bool debug,
                                 const headless_gl *share, char *error, size_t error_size) {
    bool created = create_context(gl, es, versions, version_count, debug, share, error, error_size);
    if (es) eglBindAPI(EGL_OPENGL_API); /* later contexts are desktop GL again */
    return created;
}

bool headless_gl_make_current(const headless_gl *gl) {
    return eglMakeCurrent(gl->display, gl->surface, gl->surface, gl->context);
}

void headless_gl_release_current(const headless_gl *gl) {
    eglMakeCurrent(gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

void headless_gl_destroy(headless_gl *gl) {
    if (!gl->display) return;
    eglMakeCurrent(gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (gl->surface) eglDestroySurface(gl->display, gl->surface);
    if (gl->context) eglDestroyContext(gl->display, gl->context);
    memset(gl, 0, sizeof *gl);
}
