/* The demo without a window: frames rendered into a framebuffer of the
 * current GL context with a fixed time step, the last one written as PNG. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "demo.h"
#include "frame_pacer.h"

/* Each GL program of the context, as glGetProgramBinary gives it, into
 * DIR/NAME_LABEL.bin (DIR made if missing): the driver's compiled code.
 * NVIDIA's is packed (no machine code a disassembler reads), Mesa's holds
 * its NIR. The drivers hand out program names as small integers in order
 * (the spec does not promise it), so the walk stops after a long run of
 * unused ones. */
static bool dump_programs(const char *dir) {
    if (epoxy_gl_version() < 41 && !epoxy_has_gl_extension("GL_ARB_get_program_binary")) {
        fprintf(stderr, "plume_demo: --dump-programs: this GL has no glGetProgramBinary\n");
        return false;
    }
    bool labels = epoxy_gl_version() >= 43 || epoxy_has_gl_extension("GL_KHR_debug");
    demo_make_folder(dir);
    int written = 0;
    for (GLuint name = 1, unused = 0; unused < 4096; ++name) {
        if (!glIsProgram(name)) {
            ++unused;
            continue;
        }
        unused = 0;
        GLint length = 0;
        glGetProgramiv(name, GL_PROGRAM_BINARY_LENGTH, &length);
        char label[128] = "", path[512];
        if (labels) glGetObjectLabel(GL_PROGRAM, name, (GLsizei)sizeof label, NULL, label);
        for (char *c = label; *c; ++c)
            if (!isalnum((unsigned char)*c)) *c = '_';
        void *binary = length > 0 ? malloc((size_t)length) : NULL;
        GLenum format = 0;
        if (binary) glGetProgramBinary(name, length, NULL, &format, binary);
        snprintf(path, sizeof path, "%s/%u_%s.bin", dir, name, label);
        FILE *f = binary ? fopen(path, "wb") : NULL;
        if (f) {
            written += fwrite(binary, 1, (size_t)length, f) == (size_t)length;
            fclose(f);
        } else if (binary) {
            fprintf(stderr, "plume_demo: --dump-programs: cannot write %s\n", path);
        }
        free(binary);
    }
    printf("wrote %d program binaries into %s\n", written, dir);
    return written > 0;
}

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
    if (ok && options->dump_programs) ok = dump_programs(options->dump_programs);
    if (app) demo_app_summary(app, summary);
    demo_app_destroy(app);
    glDeleteFramebuffers(1, &framebuffer);
    glDeleteRenderbuffers(1, &color);
    return ok;
}
