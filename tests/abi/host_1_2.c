/* A host built against the 1.2 headers (tests/abi/include_1_2, as shipped
 * with ABI 1.2, never edited) on today's library, through the plugin table
 * it asks for: its descriptors have 1.2's sizes and layouts, so the library
 * must read and write only that much of them, at 1.2's offsets.
 *
 * The system descriptor is allocated at exactly its 1.2 size (a read or a
 * write past it is a heap overflow under AddressSanitizer) and followed, in
 * a second copy, by guard bytes that must survive plume_system_get_desc.
 * Its logger, look and sort settings sit after the sprite's texture desc,
 * whose size 1.3 must not change: a bad descriptor's message must reach
 * this descriptor's logger, and the look must read back as given. Then a
 * frame's update and draw, and the live count.
 *
 * Run by tools/run.sh test (the sanitizer build); exit status 0 when every
 * check holds, 1 otherwise, each failure printed. */
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../host/headless_gl.h"
#include "plume/plume_plugin.h"

#if PLUME_ABI_MAJOR != 1 || PLUME_ABI_MINOR != 2
#error "this host must be built against the 1.2 headers (tests/abi/include_1_2)"
#endif

static int failures;

static void check(int ok, const char *what) {
    printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    failures += !ok;
}

typedef struct log_count {
    int errors;
    char last[512];
} log_count;

static void count_log(plume_log_level level, const char *message, void *user) {
    log_count *count = user;
    if (level == PLUME_LOG_ERROR) ++count->errors;
    snprintf(count->last, sizeof count->last, "%s", message);
}

/* A 1.2 descriptor with a logger, a look and a sort setting that 1.2 has. */
static void fill_desc(plume_system_desc *desc, log_count *log) {
    memset(desc, 0, sizeof *desc);
    desc->capacity = 1000;
    desc->seed = 5;
    desc->emitters[0] = (plume_emitter_desc){.rate = 400.0f, .lifetime = {2.0f, 2.0f}, .speed = {0.1f, 0.3f},
                                             .size = {0.05f, 0.1f}};
    desc->appearance.texture.columns = 1;
    desc->logger = (plume_logger){count_log, log};
    desc->blend_mode = PLUME_BLEND_ADDITIVE;
    desc->orientation = PLUME_ORIENT_VELOCITY_STRETCHED;
    desc->stretch_factor = 0.2f;
    desc->sort_mode = PLUME_SORT_MODE_DISTANCE;
    desc->sort_key_bits = 16;
}

int main(void) {
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        printf("no GL context: %s\n", error);
        return 1;
    }
    const plume_api *api = NULL;
    log_count table_log = {0}, system_log = {0};
    plume_logger logger = {count_log, &table_log};
    check(plume_get_api(1, 2, &logger, &api) == PLUME_OK && api, "plume_get_api(1, 2)");
    if (!api) return 1;
    printf("the library: ABI %u.%u; this host: 1.2, a plume_system_desc of %zu bytes\n", api->version_major,
           api->version_minor, sizeof(plume_system_desc));
    plume_context *context = NULL;
    plume_context_desc context_desc = {.logger = logger};
    check(api->context_create(&context_desc, &context) == PLUME_OK, "a context");

    /* A bad descriptor: its message reaches the descriptor's own logger. */
    plume_system_desc *desc = malloc(sizeof *desc);
    fill_desc(desc, &system_log);
    desc->capacity = 0;
    plume_system system = {0};
    check(api->system_create(context, desc, &system) == PLUME_ERROR_INVALID_ARGUMENT && system.id == 0,
          "a capacity of 0 is refused");
    check(system_log.errors == 1 && strstr(system_log.last, "capacity") != NULL,
          "its message reached the 1.2 descriptor's logger");
    printf("      (%d errors there: \"%s\")\n", system_log.errors, system_log.last);

    fill_desc(desc, &system_log);
    check(api->system_create(context, desc, &system) == PLUME_OK && system.id != 0, "a system from a 1.2 descriptor");
    free(desc);

    /* Read back at 1.2's size, twice: into exactly that much heap, and into
     * a copy followed by guard bytes. */
    plume_system_desc *back = malloc(sizeof *back);
    struct {
        plume_system_desc desc;
        unsigned char guard[2048];
    } guarded;
    memset(&guarded, 0xA5, sizeof guarded);
    check(api->system_get_desc(context, system, back) == PLUME_OK, "plume_system_get_desc into a 1.2 descriptor");
    check(api->system_get_desc(context, system, &guarded.desc) == PLUME_OK, "... and into one with guard bytes after it");
    int guard_intact = 1;
    for (size_t i = 0; i < sizeof guarded.guard; ++i) guard_intact = guard_intact && guarded.guard[i] == 0xA5;
    check(guard_intact, "nothing written past the 1.2 descriptor");
    check(back->blend_mode == PLUME_BLEND_ADDITIVE && back->orientation == PLUME_ORIENT_VELOCITY_STRETCHED &&
              back->sort_mode == PLUME_SORT_MODE_DISTANCE && back->sort_key_bits == 16 &&
              back->logger.func == count_log && back->logger.user == &system_log && back->capacity == 1000,
          "the look, the sort and the logger read back as given");
    printf("      (blend_mode %u, orientation %u, sort_mode %u, sort_key_bits %u)\n", back->blend_mode,
           back->orientation, back->sort_mode, back->sort_key_bits);
    free(back);

    /* A 1.2 frame: an update and a draw into an offscreen target. */
    GLuint target = 0, colour = 0;
    glGenTextures(1, &colour);
    glBindTexture(GL_TEXTURE_2D, colour);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &target);
    glBindFramebuffer(GL_FRAMEBUFFER, target);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour, 0);
    glViewport(0, 0, 64, 64);
    plume_frame_desc frame = {.dt = 0.05f};
    plume_result r = PLUME_OK;
    for (int k = 0; k < 10 && r == PLUME_OK; ++k) {
        r = api->system_update(context, system, &frame);
        if (r == PLUME_OK) r = api->system_draw(context, system, &frame);
    }
    check(r == PLUME_OK, "ten frames of update and draw");
    plume_readback readback = {0};
    check(api->system_read_back(context, system, &readback) == PLUME_OK && readback.live_count == 200,
          "200 particles alive after 0.5 s at 400 a second");
    printf("      (%u alive)\n", readback.live_count);
    check(system_log.errors == 1 && table_log.errors == 0, "no other error");
    api->system_destroy(context, system);
    api->context_destroy(context);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &target);
    glDeleteTextures(1, &colour);
    headless_gl_destroy(&gl);
    printf("host_1_2: %s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
