/* The windowed demo (GLFW); only the demo program links it. */
#ifndef DEMO_WINDOW_H
#define DEMO_WINDOW_H

#include "demo.h"

typedef enum demo_window_result {
    DEMO_WINDOW_OK,
    DEMO_WINDOW_FAILED,      /* ran, or tried to, and something failed (reported) */
    DEMO_WINDOW_NO_DISPLAY   /* no window could be opened: run offscreen instead */
} demo_window_result;

/* Opens the window (GL 4.3 core) and runs until it closes or options->frames
 * frames were drawn; with frames and out_png set, writes the last frame. */
demo_window_result demo_run_window(const demo_options *options, demo_summary *summary);

#endif
