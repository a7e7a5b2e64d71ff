#define _POSIX_C_SOURCE 200809L
#include "test_env.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "headless_gl.h"

static headless_gl context;
static bool context_ready;
static uint64_t seed, random_state;

enum { LOG_CAPACITY = 64 * 1024 };
static char log_text[LOG_CAPACITY];
static bool log_full;
static size_t log_length;
static int log_errors;
static bool errors_expected;

static void GLAPIENTRY test_debug_callback(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                           const GLchar *message, const void *user) {
    (void)source, (void)id, (void)length, (void)user;
    if (type == GL_DEBUG_TYPE_ERROR || severity == GL_DEBUG_SEVERITY_HIGH) {
        fprintf(stderr, "GL debug error outside the module: %s\n", message);
        ++log_errors;
    }
}

void test_env_init(void) {
    if (context_ready) return;
    /* Unbuffered: what a test printed is in the log even when the process
     * dies. Under wine, with the output a pipe, the Windows suite also lost
     * its output and exited 5 in about half the runs of some seeds of
     * test_draw_group_tiled_matches_raster with a fresh shader cache; never
     * in seven such runs unbuffered (the cause not found). */
    setvbuf(stdout, NULL, _IONBF, 0);
    char error[256];
    /* PLUME_TEST_GL=3.3: a 3.3 core context (with Mesa's
     * MESA_GL_VERSION_OVERRIDE=3.3 and the extensions hidden, as
     * tools/run.sh's fragment-path run does). */
    const char *version = getenv("PLUME_TEST_GL");
    int major = 0, minor = 0;
    /* PLUME_TEST_GL=es3.0: an OpenGL ES 3.0 context (tests/run_gles3.sh). */
    bool created = version && sscanf(version, "es%d.%d", &major, &minor) == 2
                       ? headless_gl_create_es(&context, major, minor, error, sizeof error)
                   : version && sscanf(version, "%d.%d", &major, &minor) == 2
                       ? headless_gl_create_version(&context, major, minor, true, NULL, error, sizeof error)
                       : headless_gl_create(&context, true, NULL, error, sizeof error);
    if (!created) {
        fprintf(stderr, "no headless GL context: %s\n", error);
        exit(1);
    }
    context_ready = true;
    if (epoxy_gl_version() >= 43 || epoxy_has_gl_extension("GL_KHR_debug")) {
        glEnable(GL_DEBUG_OUTPUT);
        glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glDebugMessageCallback(test_debug_callback, NULL);
    }
    const char *fixed = getenv("PLUME_TEST_SEED");
    seed = fixed ? strtoull(fixed, NULL, 0) : ((uint64_t)time(NULL) << 20) ^ (uint64_t)clock() ^ (uint64_t)getpid();
    random_state = seed;
    printf("GL: %s\n", headless_gl_describe());
    printf("random seed: %llu (rerun with PLUME_TEST_SEED=%llu)\n", (unsigned long long)seed,
           (unsigned long long)seed);
    fflush(stdout);
}

int test_setup(void **state) {
    (void)state;
    log_length = 0;
    log_text[0] = '\0';
    log_full = false;
    log_errors = 0;
    errors_expected = false;
    while (glGetError() != GL_NO_ERROR) {}
    return 0;
}

int test_teardown(void **state) {
    (void)state;
    int failures = 0;
    for (GLenum error; (error = glGetError()) != GL_NO_ERROR;) {
        fprintf(stderr, "GL error 0x%04x left by the test\n", error);
        ++failures;
    }
    if (log_errors > 0 && !errors_expected) {
        fprintf(stderr, "unexpected error messages:\n%s", log_text);
        ++failures;
    }
    return failures ? -1 : 0;
}

/* The messages tests search (test_log_contains): all but the debug level,
 * which is only the GL driver's notifications routed by the GL scope (the
 * NVIDIA driver's buffer-placement chatter filled the log within a few dozen
 * updates, and the messages after it were lost). A full log says so. */
static void record_message(plume_log_level level, const char *message, void *user) {
    (void)user;
    if (getenv("PLUME_TEST_VERBOSE")) fprintf(stderr, "log[%d]: %s\n", (int)level, message);
    if (level == PLUME_LOG_ERROR) ++log_errors;
    if (level == PLUME_LOG_DEBUG) return;
    int written = snprintf(log_text + log_length, LOG_CAPACITY - log_length, "[%d] %s\n", (int)level, message);
    if (written > 0 && (size_t)written < LOG_CAPACITY - log_length) log_length += (size_t)written;
    else if (!log_full) {
        log_full = true;
        fprintf(stderr, "test log full (%d bytes): later messages cannot be searched\n", (int)LOG_CAPACITY);
    }
}

plume_logger test_logger(void) { return (plume_logger){record_message, NULL}; }
void test_log_expect_errors(void) { errors_expected = true; }
int test_log_error_count(void) { return log_errors; }
bool test_log_contains(const char *text) { return test_log_count(text) > 0; }
int test_log_count(const char *text) {
    int count = 0;
    for (const char *at = log_text; *text && (at = strstr(at, text)) != NULL; at += strlen(text)) ++count;
    return count;
}

uint64_t test_seed(void) { return seed; }

uint32_t test_forced_path(void) {
    const char *path = getenv("PLUME_TEST_PATH");
    return path && !strcmp(path, "fragment") ? PLUME_PATH_FRAGMENT : PLUME_PATH_AUTO;
}

static uint64_t splitmix64(void) {
    uint64_t z = (random_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint32_t test_random_u32(void) { return (uint32_t)(splitmix64() >> 32); }
uint32_t test_random_below(uint32_t bound) { return bound ? (uint32_t)((splitmix64() >> 32) % bound) : 0; }
float test_random_float(float low, float high) {
    return low + (high - low) * (float)((splitmix64() >> 40) * (1.0 / 16777216.0));
}

GLuint test_buffer_create(size_t bytes, const void *data) {
    GLuint buffer = 0;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
    glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, data, GL_DYNAMIC_COPY);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    return buffer;
}

GLuint test_texture_create_levels(GLenum format, int width, int height, int levels) {
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexStorage2D(GL_TEXTURE_2D, levels, format, width, height);
    glBindTexture(GL_TEXTURE_2D, 0);
    return texture;
}

GLuint test_texture_create(GLenum format, int width, int height) {
    return test_texture_create_levels(format, width, height, 1);
}

void test_buffer_read(GLuint buffer, size_t offset, size_t bytes, void *out) {
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    if (!epoxy_is_desktop_gl()) { /* OpenGL ES reads buffers only by mapping them */
        const void *mapped = bytes ? glMapBufferRange(GL_COPY_READ_BUFFER, (GLintptr)offset, (GLsizeiptr)bytes,
                                                      GL_MAP_READ_BIT) : NULL;
        if (mapped) memcpy(out, mapped, bytes);
        if (mapped) glUnmapBuffer(GL_COPY_READ_BUFFER);
    } else {
        glGetBufferSubData(GL_COPY_READ_BUFFER, (GLintptr)offset, (GLsizeiptr)bytes, out);
    }
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
}

void test_read_uint_texture(GLuint texture, int width, int height, int components, uint32_t *out) {
    /* Through a framebuffer, as OpenGL ES reads textures: integer texels as RGBA_INTEGER. */
    uint32_t *rgba = malloc(sizeof *rgba * 4 * (size_t)width * (size_t)height);
    if (!rgba) abort();
    GLuint framebuffer = 0;
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, width, height, GL_RGBA_INTEGER, GL_UNSIGNED_INT, rgba);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &framebuffer);
    for (size_t i = 0; i < (size_t)width * (size_t)height; ++i)
        for (int c = 0; c < components; ++c) out[i * (size_t)components + (size_t)c] = rgba[4 * i + (size_t)c];
    free(rgba);
}

void test_buffer_write(GLuint buffer, size_t offset, size_t bytes, const void *data) {
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
    glBufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)offset, (GLsizeiptr)bytes, data);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

test_target test_target_begin(int size, const float clear[4]) {
    test_target t = {.size = size};
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &t.previous_framebuffer);
    glGetIntegerv(GL_VIEWPORT, t.previous_viewport);
    glGenTextures(1, &t.color);
    glBindTexture(GL_TEXTURE_2D, t.color);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, size, size);
    glBindTexture(GL_TEXTURE_2D, 0);
    glGenFramebuffers(1, &t.framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.color, 0);
    assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    glViewport(0, 0, size, size);
    glClearColor(clear[0], clear[1], clear[2], clear[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    return t;
}

void test_target_end(test_target *t, float *rgba) {
    if (rgba) glReadPixels(0, 0, t->size, t->size, GL_RGBA, GL_FLOAT, rgba);
    glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)t->previous_framebuffer);
    glViewport(t->previous_viewport[0], t->previous_viewport[1], t->previous_viewport[2], t->previous_viewport[3]);
    glDeleteFramebuffers(1, &t->framebuffer);
    glDeleteTextures(1, &t->color);
}

/* Each block carries its size in front, so frees can be checked. */
static void *counting_allocate(size_t size, void *user) {
    test_allocator_stats *stats = user;
    size_t *block = malloc(size + sizeof(size_t) * 2);
    if (!block) return NULL;
    block[0] = size;
    ++stats->live_blocks;
    ++stats->total_allocations;
    return block + 2;
}
static void *counting_reallocate(void *old, size_t size, void *user) {
    test_allocator_stats *stats = user;
    if (!old) return counting_allocate(size, user);
    size_t *block = realloc((size_t *)old - 2, size + sizeof(size_t) * 2);
    if (!block) return NULL;
    block[0] = size;
    ++stats->total_allocations;
    return block + 2;
}
static void counting_deallocate(void *old, void *user) {
    test_allocator_stats *stats = user;
    if (!old) return;
    --stats->live_blocks;
    free((size_t *)old - 2);
}

plume_allocator test_counting_allocator(test_allocator_stats *stats) {
    return (plume_allocator){counting_allocate, counting_reallocate, counting_deallocate, stats};
}

static headless_gl old_context;

bool test_with_es_context(int major, int minor) {
    char error[256];
    if (!headless_gl_create_es(&old_context, major, minor, error, sizeof error)) {
        fprintf(stderr, "no OpenGL ES %d.%d context: %s\n", major, minor, error);
        headless_gl_make_current(&context);
        return false;
    }
    return true;
}

void test_restore_main_context(void) {
    headless_gl_destroy(&old_context);
    test_make_main_context_current();
}

void test_make_main_context_current(void) { headless_gl_make_current(&context); }

/* The kinds in census-bit order. */
static const uint32_t census_types[8] = {GL_BUFFER,       GL_PROGRAM, GL_SHADER,      GL_QUERY,
                                         GL_VERTEX_ARRAY, GL_TEXTURE, GL_FRAMEBUFFER, GL_SAMPLER};

/* Whether `name` is an object of `type` its owner has not deleted. A
 * program or shader deleted while the GL still holds it stays a name until
 * released, flagged (GL_DELETE_STATUS): Mesa holds the last program each
 * stage ran until another program of that stage runs, so a host's deleted
 * compute program (and its shader) can outlive its test until the next
 * test's first dispatch. Flagged objects count as gone. */
static bool gl_is(uint32_t type, GLuint name) {
    GLint deleted = GL_FALSE;
    switch (type) {
    case GL_BUFFER: return glIsBuffer(name);
    case GL_PROGRAM:
        if (!glIsProgram(name)) return false;
        glGetProgramiv(name, GL_DELETE_STATUS, &deleted);
        return deleted == GL_FALSE;
    case GL_SHADER:
        if (!glIsShader(name)) return false;
        glGetShaderiv(name, GL_DELETE_STATUS, &deleted);
        return deleted == GL_FALSE;
    case GL_QUERY: return glIsQuery(name);
    case GL_VERTEX_ARRAY: return glIsVertexArray(name);
    case GL_TEXTURE: return glIsTexture(name);
    case GL_FRAMEBUFFER: return glIsFramebuffer(name);
    case GL_SAMPLER: return glIsSampler(name);
    case GL_TRANSFORM_FEEDBACK: return glIsTransformFeedback(name);
    }
    fail_msg("unexpected GL object type 0x%04x", type);
    return false;
}

bool test_gl_object_alive(plume_gl_object object) { return gl_is(object.type, object.name); }

unsigned char test_census_bit(uint32_t type) {
    for (unsigned i = 0; i < 8; ++i)
        if (census_types[i] == type) return (unsigned char)(1u << i);
    fail_msg("unexpected GL object type 0x%04x", type);
    return 0;
}

void test_take_gl_census(test_gl_census *census) {
    census->kinds[0] = 0;
    for (GLuint name = 1; name < TEST_CENSUS_NAMES; ++name) {
        unsigned char kinds = 0;
        for (unsigned i = 0; i < 8; ++i) kinds |= (unsigned char)(gl_is(census_types[i], name) << i);
        census->kinds[name] = kinds;
    }
}

void test_assert_same_census(const test_gl_census *expected, const test_gl_census *now, const char *what) {
    for (GLuint name = 1; name < TEST_CENSUS_NAMES; ++name)
        if (expected->kinds[name] != now->kinds[name])
            fail_msg("%s: GL name %u has kinds 0x%02x alive, 0x%02x expected", what, name, now->kinds[name],
                     expected->kinds[name]);
}
