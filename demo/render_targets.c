#include "render_targets.h"

#include <stdio.h>
#include <string.h>

#include "gl_texture.h"
#include "gl_util.h"

/* A full-screen triangle from gl_VertexID (no vertex buffer). */
static const char *PRESENT_VERTEX_SHADER =
    "out vec2 v_uv;\n"
    "void main() {\n"
    "    vec2 corner = vec2(float((gl_VertexID & 1) << 2), float((gl_VertexID & 2) << 1));\n"
    "    v_uv = corner * 0.5;\n"
    "    gl_Position = vec4(corner - 1.0, 0.0, 1.0);\n"
    "}\n";

/* The HDR scene plus its glow (bloom.c), exposed and tonemapped by the ACES
 * filmic curve (Narkowicz's fit: bright sparks and fire roll off to white
 * instead of clipping, midtones keep their contrast), then gamma 2.2. */
static const char *PRESENT_FRAGMENT_SHADER =
    "in vec2 v_uv;\n"
    "uniform sampler2D u_color;\n"
    "uniform sampler2D u_bloom;\n"
    "uniform float u_bloom_strength;\n"
    "out vec4 out_color;\n"
    "vec3 aces(vec3 x) { return clamp(x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0); }\n"
    "void main() {\n"
    "    vec3 linear = texture(u_color, v_uv).rgb + u_bloom_strength * texture(u_bloom, v_uv).rgb;\n"
    "    vec3 mapped = aces(1.15 * max(linear, vec3(0.0)));\n"
    "    out_color = vec4(pow(mapped, vec3(1.0 / 2.2)), 1.0);\n"
    "}\n";

/* The glow's share of the picture: the chain sums its levels (each about
 * the light over white where it is broad). */
static const float BLOOM_STRENGTH = 0.2f;

static bool framebuffer_complete(GLuint framebuffer, const char *what) {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (status != GL_FRAMEBUFFER_COMPLETE) fprintf(stderr, "demo: %s framebuffer incomplete (0x%x)\n", what, status);
    return status == GL_FRAMEBUFFER_COMPLETE;
}

static void release_images(render_targets *t) {
    glDeleteFramebuffers(1, &t->scene_framebuffer);
    glDeleteFramebuffers(1, &t->depth_copy_framebuffer);
    GLuint textures[3] = {t->scene_color, t->scene_depth, t->depth_copy};
    glDeleteTextures(3, textures);
    bloom_destroy(&t->glow);
    t->scene_framebuffer = t->depth_copy_framebuffer = 0;
    t->scene_color = t->scene_depth = t->depth_copy = 0;
}

static bool make_images(render_targets *t, int width, int height) {
    t->width = width;
    t->height = height;
    t->scene_color = host_texture_2d(GL_RGBA16F, width, height, "demo scene colour");
    t->scene_depth = host_texture_2d(GL_DEPTH_COMPONENT32F, width, height, "demo scene depth");
    t->depth_copy = host_texture_2d(GL_DEPTH_COMPONENT32F, width, height, "demo scene depth copy");
    glGenFramebuffers(1, &t->scene_framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, t->scene_framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t->scene_color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, t->scene_depth, 0);
    glGenFramebuffers(1, &t->depth_copy_framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, t->depth_copy_framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, t->depth_copy, 0);
    const GLenum no_colour = GL_NONE;
    glDrawBuffers(1, &no_colour); /* glDrawBuffer is not in OpenGL ES (the WebGL page) */
    glReadBuffer(GL_NONE);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return bloom_create(&t->glow, width, height) && framebuffer_complete(t->scene_framebuffer, "scene") &&
           framebuffer_complete(t->depth_copy_framebuffer, "depth copy");
}

bool render_targets_create(render_targets *t, int width, int height) {
    memset(t, 0, sizeof *t);
    t->present_program = demo_program_create("demo present", PRESENT_VERTEX_SHADER, PRESENT_FRAGMENT_SHADER);
    glGenVertexArrays(1, &t->empty_vertex_array);
    if (t->present_program && make_images(t, width, height)) return true;
    render_targets_destroy(t);
    return false;
}

void render_targets_destroy(render_targets *t) {
    release_images(t);
    glDeleteProgram(t->present_program);
    glDeleteVertexArrays(1, &t->empty_vertex_array);
    memset(t, 0, sizeof *t);
}

bool render_targets_resize(render_targets *t, int width, int height) {
    if (width == t->width && height == t->height) return true;
    release_images(t);
    return make_images(t, width, height);
}

void render_targets_begin_scene(const render_targets *t, const float clear_rgb[3]) {
    glBindFramebuffer(GL_FRAMEBUFFER, t->scene_framebuffer);
    glViewport(0, 0, t->width, t->height);
    glDepthMask(GL_TRUE);
    glClearColor(clear_rgb[0], clear_rgb[1], clear_rgb[2], 1.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

void render_targets_copy_depth(const render_targets *t) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, t->scene_framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, t->depth_copy_framebuffer);
    glBlitFramebuffer(0, 0, t->width, t->height, 0, 0, t->width, t->height, GL_DEPTH_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, t->scene_framebuffer);
}

void render_targets_present(const render_targets *t, GLuint framebuffer) {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glViewport(0, 0, t->width, t->height);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    bloom_run(&t->glow, t->scene_color, t->width, t->height);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glViewport(0, 0, t->width, t->height);
    glUseProgram(t->present_program);
    glUniform1i(glGetUniformLocation(t->present_program, "u_color"), 0);
    glUniform1i(glGetUniformLocation(t->present_program, "u_bloom"), 1);
    glUniform1f(glGetUniformLocation(t->present_program, "u_bloom_strength"), t->glow.levels ? BLOOM_STRENGTH : 0.0f);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, t->glow.textures[0]);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, t->scene_color);
    glBindVertexArray(t->empty_vertex_array);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, 0);
}
