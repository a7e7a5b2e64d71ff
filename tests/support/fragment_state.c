/* See fragment_state.h. */
#include "fragment_state.h"

void read_watched_state(watched_state *w) {
    /* OpenGL ES 3.0 has no buffer textures: their binding reads as 0 there. */
#define READ(name)                                                                                                    \
    w->name##_value = 0;                                                                                              \
    if (name != GL_TEXTURE_BINDING_BUFFER || epoxy_is_desktop_gl()) glGetIntegerv(name, &w->name##_value);
    WATCHED_INTEGERS(READ)
#undef READ
    glGetIntegerv(GL_VIEWPORT, w->viewport);
    glGetBooleanv(GL_COLOR_WRITEMASK, w->color_mask);
    GLint active = 0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    glActiveTexture(GL_TEXTURE1);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &w->unit1_texture);
    glActiveTexture((GLenum)active);
}


void bind_host_objects(host_objects *host) {
    glGenTextures(3, host->textures);
    glGenFramebuffers(2, host->framebuffers);
    glGenBuffers(2, host->buffers);
    glGenVertexArrays(1, &host->vertex_array);
    glGenSamplers(1, &host->sampler);
    /* A framebuffer the draws can draw into: a 4x4 colour texture. */
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, host->textures[0]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, host->framebuffers[0]);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, host->textures[0], 0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, host->textures[1]);
    if (epoxy_is_desktop_gl()) glBindTexture(GL_TEXTURE_BUFFER, host->textures[2]); /* none on OpenGL ES 3.0 */
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, host->textures[0]);
    glBindSampler(0, host->sampler);
    glActiveTexture(GL_TEXTURE2);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, host->framebuffers[0]);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, host->framebuffers[1]);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, host->buffers[0]);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, host->buffers[1]);
    glBindVertexArray(host->vertex_array);
    glPixelStorei(GL_PACK_ALIGNMENT, 8);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 3);
    glPixelStorei(GL_PACK_ROW_LENGTH, 5);
    glViewport(3, 4, 50, 60);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, 1, 1);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ZERO, GL_SRC_COLOR);
    glBlendEquation(GL_FUNC_REVERSE_SUBTRACT);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_FRONT_AND_BACK);
    glEnable(GL_RASTERIZER_DISCARD);
    glColorMask(GL_FALSE, GL_TRUE, GL_FALSE, GL_FALSE);
}

void unbind_host_objects(host_objects *host) {
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ZERO);
    glBlendEquation(GL_FUNC_ADD);
    glDisable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glDisable(GL_RASTERIZER_DISCARD);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindVertexArray(0);
    glBindSampler(0, 0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, 0);
    if (epoxy_is_desktop_gl()) glBindTexture(GL_TEXTURE_BUFFER, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glDeleteTextures(3, host->textures);
    glDeleteFramebuffers(2, host->framebuffers);
    glDeleteBuffers(2, host->buffers);
    glDeleteVertexArrays(1, &host->vertex_array);
    glDeleteSamplers(1, &host->sampler);
}
