#include "bloom.h"

#include <string.h>

#include "gl_texture.h"
#include "gl_util.h"

/* A full-screen triangle from gl_VertexID (no vertex buffer). */
static const char *FULLSCREEN_VERTEX_SHADER =
    "out vec2 v_uv;\n"
    "void main() {\n"
    "    vec2 corner = vec2(float((gl_VertexID & 1) << 2), float((gl_VertexID & 2) << 1));\n"
    "    v_uv = corner * 0.5;\n"
    "    gl_Position = vec4(corner - 1.0, 0.0, 1.0);\n"
    "}\n";

/* 13 bilinear taps over a 6x6 texel footprint of the level above, weighted
 * so that no single bright texel makes a square: smooth at every level. The
 * first level keeps only the light over white (a soft knee about 1: the
 * daylit scene stays crisp, what is brighter than white glows) and tames a
 * lone pixel far brighter than anything around it (a spark's core) so it
 * glows instead of flickering. */
static const char *DOWN_FRAGMENT_SHADER =
    "in vec2 v_uv;\n"
    "uniform sampler2D u_source;\n"
    "uniform vec2 u_texel;\n"
    "uniform bool u_first;\n"
    "out vec4 out_color;\n"
    "vec3 tap(float x, float y) {\n"
    "    vec3 c = texture(u_source, v_uv + vec2(x, y) * u_texel).rgb;\n"
    "    if (!u_first) return c;\n"
    "    float bright = max(max(c.r, c.g), c.b);\n"
    "    float knee = clamp(bright - 0.6, 0.0, 0.8);\n"
    "    float over = max(knee * knee / 1.6, bright - 1.0) / max(bright, 1e-4);\n"
    "    return c * over / (1.0 + 0.1 * bright);\n"
    "}\n"
    "void main() {\n"
    "    vec3 sum = tap(0.0, 0.0) * 0.125;\n"
    "    sum += (tap(-2.0, 2.0) + tap(2.0, 2.0) + tap(-2.0, -2.0) + tap(2.0, -2.0)) * 0.03125;\n"
    "    sum += (tap(0.0, 2.0) + tap(-2.0, 0.0) + tap(2.0, 0.0) + tap(0.0, -2.0)) * 0.0625;\n"
    "    sum += (tap(-1.0, 1.0) + tap(1.0, 1.0) + tap(-1.0, -1.0) + tap(1.0, -1.0)) * 0.125;\n"
    "    out_color = vec4(max(sum, vec3(0.0)), 1.0);\n"
    "}\n";

/* A 3x3 tent over the level below, added into the level above. */
static const char *UP_FRAGMENT_SHADER =
    "in vec2 v_uv;\n"
    "uniform sampler2D u_source;\n"
    "uniform vec2 u_texel;\n"
    "out vec4 out_color;\n"
    "vec3 tap(float x, float y) { return texture(u_source, v_uv + vec2(x, y) * u_texel).rgb; }\n"
    "void main() {\n"
    "    vec3 sum = tap(0.0, 0.0) * 4.0;\n"
    "    sum += (tap(-1.0, 0.0) + tap(1.0, 0.0) + tap(0.0, -1.0) + tap(0.0, 1.0)) * 2.0;\n"
    "    sum += tap(-1.0, -1.0) + tap(1.0, -1.0) + tap(-1.0, 1.0) + tap(1.0, 1.0);\n"
    "    out_color = vec4(sum / 16.0, 1.0);\n"
    "}\n";

bool bloom_create(bloom *b, int width, int height) {
    memset(b, 0, sizeof *b);
    b->down_program = demo_program_create("demo bloom down", FULLSCREEN_VERTEX_SHADER, DOWN_FRAGMENT_SHADER);
    b->up_program = demo_program_create("demo bloom up", FULLSCREEN_VERTEX_SHADER, UP_FRAGMENT_SHADER);
    glGenVertexArrays(1, &b->vertex_array);
    glGenSamplers(1, &b->sampler);
    glSamplerParameteri(b->sampler, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glSamplerParameteri(b->sampler, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glSamplerParameteri(b->sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(b->sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    int w = width, h = height;
    for (int level = 0; level < BLOOM_LEVELS && w > 16 && h > 16; ++level) {
        w = (w + 1) / 2, h = (h + 1) / 2;
        b->widths[level] = w, b->heights[level] = h;
        b->textures[level] = host_texture_2d(GL_R11F_G11F_B10F, w, h, "demo bloom level");
        glGenFramebuffers(1, &b->framebuffers[level]);
        glBindFramebuffer(GL_FRAMEBUFFER, b->framebuffers[level]);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, b->textures[level], 0);
        b->levels = level + 1;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (b->down_program && b->up_program) return true;
    bloom_destroy(b);
    return false;
}

void bloom_destroy(bloom *b) {
    glDeleteFramebuffers(b->levels, b->framebuffers);
    glDeleteTextures(b->levels, b->textures);
    glDeleteProgram(b->down_program);
    glDeleteProgram(b->up_program);
    glDeleteVertexArrays(1, &b->vertex_array);
    glDeleteSamplers(1, &b->sampler);
    memset(b, 0, sizeof *b);
}

/* One full-screen pass of `program` from `source` (source_w x source_h)
 * into level `level`. */
static void pass(const bloom *b, GLuint program, GLuint source, int source_w, int source_h, int level) {
    glBindFramebuffer(GL_FRAMEBUFFER, b->framebuffers[level]);
    glViewport(0, 0, b->widths[level], b->heights[level]);
    glUseProgram(program);
    glUniform2f(glGetUniformLocation(program, "u_texel"), 1.0f / (float)source_w, 1.0f / (float)source_h);
    glBindTexture(GL_TEXTURE_2D, source);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

void bloom_run(const bloom *b, GLuint scene_color, int width, int height) {
    if (b->levels == 0) return;
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glActiveTexture(GL_TEXTURE0);
    glBindSampler(0, b->sampler);
    glBindVertexArray(b->vertex_array);
    glUseProgram(b->down_program);
    glUniform1i(glGetUniformLocation(b->down_program, "u_source"), 0);
    for (int level = 0; level < b->levels; ++level) {
        glUseProgram(b->down_program);
        glUniform1i(glGetUniformLocation(b->down_program, "u_first"), level == 0);
        if (level == 0) pass(b, b->down_program, scene_color, width, height, 0);
        else pass(b, b->down_program, b->textures[level - 1], b->widths[level - 1], b->heights[level - 1], level);
    }
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    glUseProgram(b->up_program);
    glUniform1i(glGetUniformLocation(b->up_program, "u_source"), 0);
    for (int level = b->levels - 1; level > 0; --level)
        pass(b, b->up_program, b->textures[level], b->widths[level], b->heights[level], level - 1);
    glDisable(GL_BLEND);
    glBindSampler(0, 0);
    glBindVertexArray(0);
    glBindTexture(GL_TEXTURE_2D, 0);
}
