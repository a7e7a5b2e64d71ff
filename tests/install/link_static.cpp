// Integration example for a C++ engine: plume linked statically
// (pkg-config plume) from C++11. C++ before C++20 has no designated
// initialisers, so each descriptor is value-initialised (every field 0: the
// defaults) and its fields are then assigned. The headless EGL context
// stands in for the engine's GL context, a framebuffer object for its
// scene target.
#include <plume/plume_particles.h>

#include <cstdio>
#include <cstring>

#include <epoxy/gl.h>

extern "C" {
#include "headless_gl.h"  // the test host's C helper; plume's headers need no wrapper
}

namespace {

const int kSize = 64;

// An engine's effect: one burst of particles that live for a while, so the
// live count after a few frames is known without a reference.
const uint32_t kBurst = 500;

plume_system_desc make_desc() {
    plume_system_desc desc{};  // value-initialised: every field takes its default
    desc.capacity = 1000;
    plume_emitter_desc &emitter = desc.emitters[0];
    emitter.burst_count = kBurst;
    emitter.lifetime.min = emitter.lifetime.max = 10.0f;
    emitter.speed.min = 0.5f;
    emitter.speed.max = 1.0f;
    emitter.spread = 3.14159f;
    emitter.size.min = emitter.size.max = 0.05f;
    desc.forces.gravity[1] = -1.0f;
    desc.blend_mode = PLUME_BLEND_PREMULTIPLIED;  // an enum stored in a uint32_t field
    return desc;
}

}  // namespace

int main() {
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, nullptr, error, sizeof error)) {
        std::fprintf(stderr, "no GL context: %s\n", error);
        return 1;
    }
    // The engine's scene target: a colour texture in a framebuffer object.
    GLuint color = 0, framebuffer = 0;
    glGenTextures(1, &color);
    glBindTexture(GL_TEXTURE_2D, color);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, kSize, kSize);
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    glViewport(0, 0, kSize, kSize);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);

    plume_context *context = nullptr;
    if (plume_context_create(nullptr, &context) != PLUME_OK) return 1;  // stderr logger, malloc
    const plume_system_desc desc = make_desc();
    plume_system system{};
    if (plume_system_create(context, &desc, &system) != PLUME_OK) return 1;

    // Every frame: update once, draw after the opaque scene.
    plume_frame_desc frame{};
    frame.dt = 1.0f / 60.0f;
    const float view[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -3, 1};  // the eye 3 units back
    std::memcpy(frame.view, view, sizeof frame.view);
    const float n = 0.1f, f = 100.0f;  // a 90-degree perspective, column-major
    const float projection[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -(f + n) / (f - n), -1, 0, 0, -2 * f * n / (f - n), 0};
    std::memcpy(frame.projection, projection, sizeof frame.projection);
    plume_result result = PLUME_OK;
    for (int k = 0; k < 10 && result == PLUME_OK; ++k) {
        result = plume_system_update(context, system, &frame);
        if (result == PLUME_OK) result = plume_system_draw(context, system, &frame);
    }
    plume_readback counts{};
    if (result == PLUME_OK) result = plume_system_read_back(context, system, &counts);

    // The particles drew something: some pixel is no longer the clear colour.
    unsigned char pixels[kSize * kSize * 4];
    glReadPixels(0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    int lit = 0;
    for (int i = 0; i < kSize * kSize; ++i) lit += pixels[4 * i] > 0;
    const bool ok = result == PLUME_OK && counts.live_count == kBurst && lit > 0;
    std::printf("c++: update and draw -> %s, %u particles alive, %d pixels drawn\n",
                plume_result_string(result), counts.live_count, lit);

    plume_system_destroy(context, system);
    plume_context_destroy(context);
    glDeleteFramebuffers(1, &framebuffer);
    glDeleteTextures(1, &color);
    headless_gl_destroy(&gl);
    return ok ? 0 : 1;
}
