/* The GL state the fragment path's passes change (framebuffers, viewport,
 * textures and samplers, pixel transfers, vertex array, raster switches):
 * set to values of a hostile host's own, read back and compared after each
 * call. GL 3.3 core calls only. */
#ifndef PLUME_FRAGMENT_STATE_H
#define PLUME_FRAGMENT_STATE_H

#include <epoxy/gl.h>

/* What the passes change, set to values of the host's own, read back after. */
#define WATCHED_INTEGERS(X)                                                                                           \
    X(GL_DRAW_FRAMEBUFFER_BINDING) X(GL_READ_FRAMEBUFFER_BINDING) X(GL_CURRENT_PROGRAM) X(GL_ACTIVE_TEXTURE)          \
    X(GL_TEXTURE_BINDING_2D) X(GL_SAMPLER_BINDING) X(GL_VERTEX_ARRAY_BINDING) X(GL_PIXEL_PACK_BUFFER_BINDING)        \
    X(GL_PIXEL_UNPACK_BUFFER_BINDING) X(GL_PACK_ALIGNMENT) X(GL_UNPACK_ALIGNMENT) X(GL_UNPACK_ROW_LENGTH)            \
    X(GL_PACK_ROW_LENGTH) X(GL_TEXTURE_BINDING_BUFFER) X(GL_SCISSOR_TEST) X(GL_DEPTH_TEST) X(GL_BLEND)               \
    X(GL_CULL_FACE) X(GL_RASTERIZER_DISCARD) X(GL_DEPTH_WRITEMASK) X(GL_BLEND_SRC_RGB) X(GL_BLEND_DST_RGB)            \
    X(GL_BLEND_EQUATION_RGB)

typedef struct watched_state {
#define FIELD(name) GLint name##_value;
    WATCHED_INTEGERS(FIELD)
#undef FIELD
    GLint viewport[4];
    GLint unit1_texture;
    GLboolean color_mask[4];
} watched_state;

void read_watched_state(watched_state *w);

typedef struct host_objects {
    GLuint textures[3], framebuffers[2], buffers[2], vertex_array, sampler;
} host_objects;

/* Makes the host's objects and binds them, with odd pixel-store, viewport,
 * scissor, blend, depth, cull, discard and colour-mask settings. */
void bind_host_objects(host_objects *host);
/* Puts the tests' defaults back and deletes the host's objects. */
void unbind_host_objects(host_objects *host);

#endif
