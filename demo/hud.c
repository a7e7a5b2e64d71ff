#include "hud.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gl_util.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_easy_font.h>
#pragma GCC diagnostic pop

typedef struct hud_vertex {
    float x, y;
    hud_color color;
} hud_vertex;

/* stb_easy_font's output: quads of four of these. */
typedef struct easy_font_vertex {
    float x, y, z;
    uint8_t color[4];
} easy_font_vertex;

enum { HUD_MAX_VERTICES = 6 * 16384, EASY_FONT_LINE_HEIGHT = 12 };

struct hud {
    GLuint program, vertex_array, vertex_buffer;
    GLint viewport_location;
    int width, height;
    uint32_t count;
    hud_vertex vertices[HUD_MAX_VERTICES];
    easy_font_vertex glyph_quads[4 * 4096];
};

static const char *VERTEX_SHADER =
    "layout(location = 0) in vec2 a_position;\n"
    "layout(location = 1) in vec4 a_color;\n"
    "uniform vec2 u_viewport;\n"
    "out vec4 v_color;\n"
    "void main() {\n"
    "    v_color = a_color;\n"
    "    gl_Position = vec4(a_position / u_viewport * vec2(2.0, -2.0) + vec2(-1.0, 1.0), 0.0, 1.0);\n"
    "}\n";

static const char *FRAGMENT_SHADER =
    "in vec4 v_color;\n"
    "out vec4 out_color;\n"
    "void main() { out_color = v_color; }\n";

bool hud_create(hud **out) {
    *out = NULL;
    hud *h = calloc(1, sizeof *h);
    if (!h) return false;
    h->program = demo_program_create("demo hud", VERTEX_SHADER, FRAGMENT_SHADER);
    if (!h->program) {
        free(h);
        return false;
    }
    h->viewport_location = glGetUniformLocation(h->program, "u_viewport");
    glGenVertexArrays(1, &h->vertex_array);
    glGenBuffers(1, &h->vertex_buffer);
    glBindVertexArray(h->vertex_array);
    glBindBuffer(GL_ARRAY_BUFFER, h->vertex_buffer);
    glBufferData(GL_ARRAY_BUFFER, sizeof h->vertices, NULL, GL_STREAM_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(hud_vertex), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(hud_vertex), (void *)offsetof(hud_vertex, color));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    *out = h;
    return true;
}

void hud_destroy(hud *h) {
    if (!h) return;
    glDeleteVertexArrays(1, &h->vertex_array);
    glDeleteBuffers(1, &h->vertex_buffer);
    glDeleteProgram(h->program);
    free(h);
}

void hud_begin(hud *h, int width, int height) {
    h->width = width;
    h->height = height;
    h->count = 0;
}

/* Two triangles for the quad a b c d (in order around it). */
static void push_quad(hud *h, const float xy[4][2], hud_color color) {
    if (h->count + 6 > HUD_MAX_VERTICES) return;
    static const int ORDER[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < 6; ++k) h->vertices[h->count++] = (hud_vertex){xy[ORDER[k]][0], xy[ORDER[k]][1], color};
}

void hud_rect(hud *h, float x, float y, float width, float height, hud_color color) {
    const float xy[4][2] = {{x, y}, {x + width, y}, {x + width, y + height}, {x, y + height}};
    push_quad(h, xy, color);
}

float hud_text(hud *h, float x, float y, float scale, const char *text, hud_color color) {
    /* stb_easy_font takes a mutable string; it does not write to it. */
    char *mutable_text = (char *)text;
    int quads = stb_easy_font_print(0, 0, mutable_text, NULL, h->glyph_quads, sizeof h->glyph_quads);
    for (int q = 0; q < quads; ++q) {
        float xy[4][2];
        for (int k = 0; k < 4; ++k) {
            xy[k][0] = x + h->glyph_quads[4 * q + k].x * scale;
            xy[k][1] = y + h->glyph_quads[4 * q + k].y * scale;
        }
        push_quad(h, xy, color);
    }
    return hud_text_width(scale, text);
}

float hud_text_width(float scale, const char *text) { return (float)stb_easy_font_width((char *)text) * scale; }

float hud_line_height(float scale) { return EASY_FONT_LINE_HEIGHT * scale; }

void hud_end(hud *h) {
    if (h->count == 0) return;
    glBindBuffer(GL_ARRAY_BUFFER, h->vertex_buffer);
    /* Orphan the previous frame's storage so the upload never waits on it. */
    glBufferData(GL_ARRAY_BUFFER, sizeof h->vertices, NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(h->count * sizeof(hud_vertex)), h->vertices);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glUseProgram(h->program);
    glUniform2f(h->viewport_location, (float)h->width, (float)h->height);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glBindVertexArray(h->vertex_array);
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)h->count);
    glBindVertexArray(0);
    glDisable(GL_BLEND);
}
