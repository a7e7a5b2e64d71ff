/* The Windows build run, not only linked (tests/check_wine_run.sh runs it
 * under wine, whose opengl32 goes to Mesa): a hidden window and a WGL
 * context (a 4.x core one through WGL_ARB_create_context where the driver
 * has it), then plume through libplume.a: a sort on each path against qsort
 * on seeded random pairs of a non-power-of-two count, and on the compute
 * path a particle system's burst counted back. Prints what it did; exits 0
 * when every check held. */
#include <windows.h>
#include <epoxy/gl.h>
#include <epoxy/wgl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <plume/plume_context.h>
#include <plume/plume_particles.h>
#include <plume/plume_sort.h>

#include "../install/example_system.h"

typedef struct pair { uint32_t key, value; } pair;

static int compare_pairs(const void *a, const void *b) {
    const pair *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->value < y->value ? -1 : x->value > y->value;
}

static uint64_t random_state;
static uint32_t random_u32(void) {
    random_state = random_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(random_state >> 32);
}

/* A hidden window's device context with a pixel format WGL can render to. */
static HDC hidden_window_dc(void) {
    WNDCLASSA window_class = {.lpfnWndProc = DefWindowProcA, .hInstance = GetModuleHandleA(NULL),
                              .lpszClassName = "plume_wine_run"};
    RegisterClassA(&window_class);
    HWND window = CreateWindowA("plume_wine_run", "plume", WS_OVERLAPPEDWINDOW, 0, 0, 64, 64, NULL, NULL,
                                window_class.hInstance, NULL);
    if (!window) return NULL;
    HDC dc = GetDC(window);
    PIXELFORMATDESCRIPTOR format = {.nSize = sizeof format, .nVersion = 1,
                                    .dwFlags = PFD_DRAW_TO_WINDOW | PFD_SUPPORT_OPENGL | PFD_DOUBLEBUFFER,
                                    .iPixelType = PFD_TYPE_RGBA, .cColorBits = 32, .cDepthBits = 24};
    int chosen = ChoosePixelFormat(dc, &format);
    return chosen && SetPixelFormat(dc, chosen, &format) ? dc : NULL;
}

/* A legacy context first (WGL needs one current to find its extensions),
 * then a 4.6 .. 3.3 core one where WGL_ARB_create_context is there. */
static bool make_context(HDC dc) {
    HGLRC legacy = wglCreateContext(dc);
    if (!legacy || !wglMakeCurrent(dc, legacy)) return false;
    if (!epoxy_has_wgl_extension(dc, "WGL_ARB_create_context")) return true;
    const int versions[][2] = {{4, 6}, {4, 5}, {4, 3}, {3, 3}};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; ++i) {
        const int attributes[] = {WGL_CONTEXT_MAJOR_VERSION_ARB, versions[i][0], WGL_CONTEXT_MINOR_VERSION_ARB,
                                  versions[i][1], WGL_CONTEXT_PROFILE_MASK_ARB, WGL_CONTEXT_CORE_PROFILE_BIT_ARB, 0};
        HGLRC core = wglCreateContextAttribsARB(dc, NULL, attributes);
        if (core && wglMakeCurrent(dc, core)) {
            wglDeleteContext(legacy);
            return true;
        }
    }
    return wglMakeCurrent(dc, legacy) != FALSE;
}

/* Sorts `count` random pairs on `path`; 1 when they match qsort. */
static int sort_matches_qsort(plume_context *context, uint32_t path, uint32_t count) {
    pair *input = malloc(sizeof(pair) * count), *out = malloc(sizeof(pair) * count);
    if (!input || !out) return 0;
    for (uint32_t i = 0; i < count; ++i) input[i] = (pair){random_u32() & 0xFFFF, i};
    plume_sorter_desc desc = {.capacity = count, .path = path};
    plume_sorter sorter = {0};
    int ok = plume_sorter_create(context, &desc, &sorter) == PLUME_OK;
    GLuint buffer = 0;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
    glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)(sizeof(pair) * count), input, GL_DYNAMIC_COPY);
    ok = ok && plume_sort(context, sorter, buffer, count) == PLUME_OK;
    glGetBufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)(sizeof(pair) * count), out);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glDeleteBuffers(1, &buffer);
    plume_sorter_destroy(context, sorter);
    qsort(input, count, sizeof(pair), compare_pairs);
    ok = ok && memcmp(input, out, sizeof(pair) * count) == 0;
    printf("%s: %s sort of %u pairs against qsort\n", ok ? "ok" : "FAIL",
           path == PLUME_PATH_COMPUTE ? "compute-path" : "fragment-path", count);
    free(input);
    free(out);
    return ok;
}

/* The example burst of EXAMPLE_BURST particles, all alive after ten frames. */
static int burst_is_counted(plume_context *context) {
    plume_system_desc desc = example_system_desc();
    plume_frame_desc frame = example_frame();
    plume_system system = {0};
    plume_result result = plume_system_create(context, &desc, &system);
    for (int k = 0; k < 10 && result == PLUME_OK; ++k) result = plume_system_update(context, system, &frame);
    plume_readback counts = {0};
    if (result == PLUME_OK) result = plume_system_read_back(context, system, &counts);
    plume_system_destroy(context, system);
    int ok = result == PLUME_OK && counts.live_count == EXAMPLE_BURST;
    printf("%s: particle system: %s, %u of %d alive\n", ok ? "ok" : "FAIL", plume_result_string(result),
           counts.live_count, EXAMPLE_BURST);
    return ok;
}

int main(void) {
    HDC dc = hidden_window_dc();
    if (!dc || !make_context(dc)) {
        printf("FAIL: no WGL context\n");
        return 1;
    }
    printf("GL: %s | %s\n", (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
    const char *seed_text = getenv("PLUME_TEST_SEED");
    random_state = seed_text ? strtoull(seed_text, NULL, 0) : (uint64_t)GetTickCount64();
    printf("random seed: %llu (rerun with PLUME_TEST_SEED)\n", (unsigned long long)random_state);
    plume_context *context = NULL;
    if (plume_context_create(NULL, &context) != PLUME_OK) {
        printf("FAIL: plume_context_create\n");
        return 1;
    }
    int ok = sort_matches_qsort(context, PLUME_PATH_FRAGMENT, 12345);
    if (epoxy_gl_version() >= 43) ok &= sort_matches_qsort(context, PLUME_PATH_COMPUTE, 12345) & burst_is_counted(context);
    else printf("note: GL %d.%d: no compute path to run\n", epoxy_gl_version() / 10, epoxy_gl_version() % 10);
    plume_context_destroy(context);
    printf("%s\n", ok ? "wine run: all checks passed" : "wine run: FAILED");
    return ok ? 0 : 1;
}
