/* The demo in a GLFW window: input to demo actions, the frame loop. */
#define GLFW_INCLUDE_NONE /* GL comes from libepoxy */
#include <GLFW/glfw3.h>
#include <stdio.h>

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

demo_window_result demo_run_window(const demo_options *options, demo_summary *summary) {
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) return DEMO_WINDOW_NO_DISPLAY;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, options->gl33 ? 3 : 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    GLFWwindow *window = glfwCreateWindow(options->width, options->height, "plume smoke demo", NULL, NULL);
    if (!window) {
        glfwTerminate();
        return DEMO_WINDOW_NO_DISPLAY;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    printf("GL: %s | %s\n", (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));

    int width, height;
    glfwGetFramebufferSize(window, &width, &height);
    window_input input = {0};
    bool ok = demo_app_create(options, width, height, &input.app);
    if (ok) {
        glfwSetWindowUserPointer(window, &input);
        glfwSetKeyCallback(window, on_key);
        glfwSetMouseButtonCallback(window, on_mouse_button);
        glfwSetCursorPosCallback(window, on_cursor);
        glfwSetScrollCallback(window, on_scroll);
    }
    double previous = glfwGetTime();
    for (uint32_t f = 0; ok && !glfwWindowShouldClose(window) && (!options->frames || f < options->frames); ++f) {
        double now = glfwGetTime();
        double elapsed = now - previous;
        previous = now;
        glfwGetFramebufferSize(window, &width, &height);
        demo_app_resize(input.app, width, height);
        /* A measured step, capped so a stall (a window drag) is no jump. */
        float dt = options->dt > 0 ? options->dt : (float)(elapsed < 0.1 ? elapsed : 0.1);
        ok = demo_app_frame(input.app, f ? dt : 0.0f, f ? elapsed * 1e3 : 0, 0);
        bool last = options->frames && f + 1 == options->frames;
        if (ok && last && options->out_png) ok = demo_app_write_png(input.app, 0, options->out_png);
        glfwSwapBuffers(window);
        glfwPollEvents();
    }
    if (input.app) demo_app_summary(input.app, summary);
    demo_app_destroy(input.app);
    glfwDestroyWindow(window);
    glfwTerminate();
    return ok ? DEMO_WINDOW_OK : DEMO_WINDOW_FAILED;
}
