/* The demo in a GLFW window: input to demo actions, the frame loop. */
#define GLFW_INCLUDE_NONE /* GL comes from libepoxy */
#include <GLFW/glfw3.h>
#include <stdio.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>

#include "web_page.h"
#endif

#include "demo_window.h"

typedef struct window_input {
    demo_app *app;
    bool dragging;
    double last_x, last_y;
} window_input;

static void on_key(GLFWwindow *window, int key, int scancode, int action, int mods) {
    (void)scancode, (void)mods;
    if (action != GLFW_PRESS) return;
    window_input *input = glfwGetWindowUserPointer(window);
    switch (key) {
    case GLFW_KEY_ESCAPE: glfwSetWindowShouldClose(window, GLFW_TRUE); break;
    case GLFW_KEY_SPACE: demo_app_act(input->app, DEMO_TOGGLE_PAUSE); break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD: demo_app_act(input->app, DEMO_MORE_PARTICLES); break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: demo_app_act(input->app, DEMO_FEWER_PARTICLES); break;
    case GLFW_KEY_1:
    case GLFW_KEY_2:
    case GLFW_KEY_3:
    case GLFW_KEY_4: demo_app_set_level(input->app, key - GLFW_KEY_1); break;
    case GLFW_KEY_S: demo_app_act(input->app, DEMO_TOGGLE_SORT); break;
    case GLFW_KEY_L: demo_app_act(input->app, DEMO_NEXT_RESOLUTION); break;
    case GLFW_KEY_T: demo_app_act(input->app, DEMO_NEXT_PATH); break;
    case GLFW_KEY_R: demo_app_act(input->app, DEMO_RESET); break;
    case GLFW_KEY_H: demo_app_act(input->app, DEMO_TOGGLE_HUD); break;
    case GLFW_KEY_E: demo_app_act(input->app, DEMO_NEXT_EFFECT); break;
    case GLFW_KEY_J: demo_app_act(input->app, DEMO_TOGGLE_JOINT); break;
    case GLFW_KEY_M: demo_app_act(input->app, DEMO_TOGGLE_MANY); break;
    case GLFW_KEY_F: demo_app_fire_at(input->app, input->last_x, input->last_y); break;
    default: break;
    }
}

static void on_mouse_button(GLFWwindow *window, int button, int action, int mods) {
    (void)mods;
    window_input *input = glfwGetWindowUserPointer(window);
    if (button == GLFW_MOUSE_BUTTON_RIGHT && action == GLFW_PRESS) {
        double x, y;
        glfwGetCursorPos(window, &x, &y);
        demo_app_fire_at(input->app, x, y);
    }
    if (button != GLFW_MOUSE_BUTTON_LEFT) return;
    input->dragging = action == GLFW_PRESS;
    glfwGetCursorPos(window, &input->last_x, &input->last_y);
}

static void on_cursor(GLFWwindow *window, double x, double y) {
    window_input *input = glfwGetWindowUserPointer(window);
    if (input->dragging) demo_app_orbit(input->app, x - input->last_x, y - input->last_y);
    input->last_x = x;
    input->last_y = y;
}

static void on_scroll(GLFWwindow *window, double dx, double dy) {
    (void)dx;
    window_input *input = glfwGetWindowUserPointer(window);
    demo_app_zoom(input->app, dy);
}

static void on_glfw_error(int code, const char *message) { fprintf(stderr, "glfw (0x%x): %s\n", code, message); }

/* The window's run: the loop's state between frames (the browser calls
 * one frame at a time, so it outlives demo_run_window there). */
typedef struct window_run {
    demo_options options;
    demo_summary *summary;
    GLFWwindow *window;
    window_input input;
    double previous;
    uint32_t frame;
    bool ok;
} window_run;

/* One frame; false when the loop ends (closed, the frames asked drawn, or a
 * failure). */
static bool window_frame(window_run *run) {
    const demo_options *options = &run->options;
    if (!run->ok || glfwWindowShouldClose(run->window) || (options->frames && run->frame >= options->frames))
        return false;
    uint32_t f = run->frame++;
    double now = glfwGetTime();
    double elapsed = now - run->previous;
    run->previous = now;
    int width, height;
    glfwGetFramebufferSize(run->window, &width, &height);
    demo_app_resize(run->input.app, width, height);
    /* A measured step, capped so a stall (a window drag) is no jump. */
    float dt = options->dt > 0 ? options->dt : (float)(elapsed < 0.1 ? elapsed : 0.1);
    run->ok = demo_app_frame(run->input.app, f ? dt : 0.0f, f ? elapsed * 1e3 : 0, 0);
    bool last = options->frames && f + 1 == options->frames;
    if (run->ok && last && options->out_png) run->ok = demo_app_write_png(run->input.app, 0, options->out_png);
    glfwSwapBuffers(run->window);
    glfwPollEvents();
    return run->ok;
}

static demo_window_result window_close(window_run *run) {
    if (run->input.app) demo_app_summary(run->input.app, run->summary);
    demo_app_destroy(run->input.app);
    run->input.app = NULL;
    glfwDestroyWindow(run->window);
    glfwTerminate();
    return run->ok ? DEMO_WINDOW_OK : DEMO_WINDOW_FAILED;
}

#ifdef __EMSCRIPTEN__
/* In a browser the page's frame callback drives the loop (a loop of our own
 * would never give the page back), and each frame's figures go into the
 * page's text (demo/web_page.c). */
static void browser_frame(void *argument) {
    window_run *run = argument;
    bool going = window_frame(run);
    if (run->input.app) web_page_show(run->input.app, run->ok);
    if (going) return;
    emscripten_cancel_main_loop();
    window_close(run);
}
#endif

demo_window_result demo_run_window(const demo_options *options, demo_summary *summary) {
    /* Static: in a browser the loop runs after this call has returned. */
    static window_run run;
    run = (window_run){.options = *options, .summary = summary};
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) return DEMO_WINDOW_NO_DISPLAY;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, options->gl33 ? 3 : 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    run.window = glfwCreateWindow(options->width, options->height, "plume smoke demo", NULL, NULL);
    if (!run.window) {
        glfwTerminate();
        return DEMO_WINDOW_NO_DISPLAY;
    }
    glfwMakeContextCurrent(run.window);
    printf("GL: %s | %s\n", (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));

    int width, height;
    glfwGetFramebufferSize(run.window, &width, &height);
    run.ok = demo_app_create(options, width, height, &run.input.app);
    if (run.ok) {
        glfwSetWindowUserPointer(run.window, &run.input);
        glfwSetKeyCallback(run.window, on_key);
        glfwSetMouseButtonCallback(run.window, on_mouse_button);
        glfwSetCursorPosCallback(run.window, on_cursor);
        glfwSetScrollCallback(run.window, on_scroll);
    }
    run.previous = glfwGetTime();
#ifdef __EMSCRIPTEN__
    if (!run.ok) web_page_show(NULL, false);
    /* Never returns: the browser calls browser_frame at its display's rate. */
    if (run.ok) emscripten_set_main_loop_arg(browser_frame, &run, 0, 1);
#else
    glfwSwapInterval(1);
    while (window_frame(&run)) {}
#endif
    return window_close(&run);
}
