/* The demo without a window: frames rendered into a framebuffer of the
 * current GL context with a fixed time step, the last one written as PNG. */
#include <stdio.h>

#include "demo.h"
#include "frame_pacer.h"

bool demo_run_offscreen(const demo_options *options, demo_summary *summary) {
    GLuint framebuffer = 0, color = 0;
    glGenRenderbuffers(1, &color);
    glBindRenderbuffer(GL_RENDERBUFFER, color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, options->width, options->height);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);

    demo_app *app = NULL;
    ok = ok && demo_app_create(options, options->width, options->height, &app);
    /* Two frames in flight at most, as a swap chain would allow: CPU frame
     * times then mean something and the module's profiler sees every frame. */
    frame_pacer pacer;
    frame_pacer_init(&pacer, 2);
    double previous_start = 0;
    for (uint32_t f = 0; ok && f < options->frames; ++f) {
        frame_pacer_begin_frame(&pacer);
        double start = demo_now_ms();
        ok = demo_app_frame(app, options->dt, f ? start - previous_start : 0, framebuffer);
        frame_pacer_end_frame(&pacer);
        previous_start = start;
    }
    frame_pacer_destroy(&pacer);
    if (ok && options->out_png) ok = demo_app_write_png(app, framebuffer, options->out_png);
    if (app) demo_app_summary(app, summary);
    demo_app_destroy(app);
    glDeleteFramebuffers(1, &framebuffer);
    glDeleteRenderbuffers(1, &color);
    return ok;
}
