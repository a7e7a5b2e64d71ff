/* plume_demo: a smoke column rising from a chimney, drifting in the wind.
 * With a display it opens a window; without one (or with --offscreen) it
 * renders a number of frames through headless EGL, writes a PNG of the last
 * one and prints a timing summary. See --help. Built for the web
 * (tools/web_build.sh), the window is the page's canvas. */
#include <stdio.h>
#include <stdlib.h>

#include "demo.h"
#include "demo_window.h"

#ifdef __EMSCRIPTEN__
#include "web_page.h"

/* A web page (tools/web_build.sh): the page's canvas is the window, and
 * WebGL 2 (OpenGL ES 3.0, no compute shaders) runs the fragment path;
 * nothing runs offscreen there (no EGL). */
static void fit_platform(demo_options *options) { options->gl33 = true; }
static bool have_display(void) { return true; }

/* The page says when the demo stopped before its first frame (a bad
 * option: the log under it says which). */
static int stopped(int status) {
    if (status) web_page_show(NULL, false);
    return status;
}

static int run_offscreen(demo_options *options) {
    (void)options;
    fprintf(stderr, "plume_demo: this browser gives no WebGL 2 context\n");
    return 1;
}
#else
#include "headless_gl.h"

static void fit_platform(demo_options *options) { (void)options; }
static int stopped(int status) { return status; }

static bool have_display(void) {
    const char *x11 = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY");
    return (x11 && *x11) || (wayland && *wayland);
}

static int run_offscreen(demo_options *options) {
    headless_gl gl;
    char error[256];
    bool created = options->gl33 ? headless_gl_create_version(&gl, 3, 3, false, NULL, error, sizeof error)
                                 : headless_gl_create(&gl, false, NULL, error, sizeof error);
    if (!created) {
        fprintf(stderr, "plume_demo: no headless GL context: %s\n", error);
        return 1;
    }
    if (demo_options_finish(options, true, headless_gl_describe()))
        printf("plume_demo: software renderer: %dx%d and %u particles unless --size / --particles say otherwise\n",
               options->width, options->height, options->particles);
    printf("plume_demo offscreen: %s, %dx%d, %u frames of %.4f s, draw path %s at %s resolution\n",
           headless_gl_describe(), options->width, options->height, options->frames, options->dt,
           demo_path_name(options->path), demo_resolution_name(options->resolution));
    demo_summary summary = {0};
    bool ok = demo_run_offscreen(options, &summary);
    demo_summary_print(&summary);
    if (ok && options->out_png) printf("wrote %s\n", options->out_png);
    if (ok && options->profile_csv) printf("wrote %s\n", options->profile_csv);
    headless_gl_destroy(&gl);
    return ok ? 0 : 1;
}
#endif

int main(int argc, char **argv) {
    demo_options options;
    demo_options_default(&options);
    fit_platform(&options);
    int parsed = demo_options_parse(argc, argv, &options);
    if (parsed) return stopped(parsed == 1 ? 0 : 2);
    if (options.offscreen || !have_display()) return run_offscreen(&options);

    demo_options_finish(&options, false, NULL);
    if (options.dump_programs) fprintf(stderr, "plume_demo: --dump-programs is for --offscreen runs; ignored\n");
    demo_summary summary = {0};
    demo_window_result result = demo_run_window(&options, &summary);
    if (result == DEMO_WINDOW_NO_DISPLAY) {
        fprintf(stderr, "plume_demo: no window could be opened; rendering offscreen instead\n");
        return run_offscreen(&options);
    }
    demo_summary_print(&summary);
    return result == DEMO_WINDOW_OK ? 0 : 1;
}
