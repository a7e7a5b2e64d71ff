/* An overlay of flat rectangles and stb_easy_font text in pixel coordinates
 * (origin top left), batched on the CPU and drawn in one call. */
#ifndef DEMO_HUD_H
#define DEMO_HUD_H

#include <stdbool.h>
#include <stdint.h>

typedef struct hud hud;

typedef struct hud_color {
    uint8_t r, g, b, a;   /* straight alpha */
} hud_color;

bool hud_create(hud **out);
void hud_destroy(hud *h);

/* Starts a batch for a framebuffer of width x height pixels. */
void hud_begin(hud *h, int width, int height);
void hud_rect(hud *h, float x, float y, float width, float height, hud_color color);
/* Text at (x, y) (its top left), glyphs `scale` times stb_easy_font's size
 * (about 6 x 12 pixels at scale 1); '\n' starts a new line. Returns the
 * width drawn in pixels. */
float hud_text(hud *h, float x, float y, float scale, const char *text, hud_color color);
/* Width in pixels `text` would take at `scale` (its longest line). */
float hud_text_width(float scale, const char *text);
/* Height of one line of text at `scale`. */
float hud_line_height(float scale);
/* Draws the batch into the bound framebuffer (blending on, depth test off
 * during the call; both left off). */
void hud_end(hud *h);

#endif
