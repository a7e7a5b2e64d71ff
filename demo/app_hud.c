/* The demo application's HUD: one panel of text lines (counts, timings, the
 * effect on show, the keys) and a scrolling graph of frame and GPU stage
 * times, drawn over the frame (demo/app.c calls it each frame). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app_internal.h"

static const hud_color TEXT = {235, 238, 242, 255};
static const hud_color DIM = {170, 178, 190, 255};
static const hud_color ERROR_TEXT = {255, 120, 100, 255};
static const hud_color PANEL = {12, 14, 20, 170};
static const hud_color STAGE_COLORS[3] = {{90, 160, 255, 255}, {255, 160, 60, 255}, {110, 210, 120, 255}};
static const char *STAGE_NAMES[3] = {"sim", "sort", "draw"};

static void format_count(uint32_t n, char *out, size_t size) {
    if (n >= 1048576 && n % 1048576 == 0) snprintf(out, size, "%uM", n / 1048576);
    else if (n >= 1024 && n % 1024 == 0) snprintf(out, size, "%uK", n / 1024);
    else snprintf(out, size, "%u", n);
}

static void draw_graph(demo_app *app, float x, float y, float width, float height, float scale) {
    hud *h = app->hud;
    /* Scale: the next of 16.7, 33.3, 66.7 ... ms above the slowest frame shown. */
    double slowest = 0;
    for (uint32_t k = 0; k < app->graph_count; ++k) {
        const graph_sample *g = &app->graph[k];
        double gpu = g->stage_ms[0] + g->stage_ms[1] + g->stage_ms[2];
        slowest = fmax(slowest, fmax(g->frame_ms, gpu));
    }
    double top = 1000.0 / 60.0;
    while (top < slowest && top < 10000) top *= 2;
    hud_rect(h, x, y, width, height, (hud_color){0, 0, 0, 120});
    float bar = width / GRAPH_FRAMES;
    for (uint32_t k = 0; k < app->graph_count; ++k) {
        /* Oldest on the left, the newest at the right edge. */
        uint32_t index = (app->graph_next + GRAPH_FRAMES - app->graph_count + k) % GRAPH_FRAMES;
        const graph_sample *g = &app->graph[index];
        float bx = x + width - (float)(app->graph_count - k) * bar;
        float frame_h = (float)(fmin(g->frame_ms, top) / top) * height;
        hud_rect(h, bx, y + height - frame_h, bar, frame_h, (hud_color){120, 124, 135, 200});
        float base = y + height;
        for (int s = 0; s < 3; ++s) {
            float stage_h = (float)(fmin(g->stage_ms[s], top) / top) * height;
            hud_rect(h, bx, base - stage_h, bar, stage_h, STAGE_COLORS[s]);
            base -= stage_h;
        }
    }
    float target_y = y + height - (float)(1000.0 / 60.0 / top) * height;
    hud_rect(h, x, target_y, width, 1, (hud_color){255, 255, 255, 110});
    char text[64];
    snprintf(text, sizeof text, "%.1f ms", top);
    hud_text(h, x + 4, y + 2, scale, text, DIM);
    float lx = x;
    float ly = y + height + 4;
    lx += hud_text(h, lx, ly, scale, "frame (grey)  GPU: ", DIM);
    for (int s = 0; s < 3; ++s) {
        hud_rect(h, lx, ly + 2 * scale, 8 * scale, 7 * scale, STAGE_COLORS[s]);
        lx += 10 * scale;
        lx += hud_text(h, lx, ly, scale, STAGE_NAMES[s], DIM) + 8 * scale;
    }
}

/* Milliseconds with about three significant digits. */
static void format_ms(double ms, char *out, size_t size) {
    snprintf(out, size, ms < 10 ? "%.3f" : ms < 100 ? "%.2f" : "%.1f", ms);
}

/* "sim 0.210  sort 0.350  draw 1.20" from one statistic of each stage. */
static void format_stages(const plume_profile *p, bool p95, char *out, size_t size) {
    char ms[3][32];
    for (int s = 0; s < 3; ++s) {
        const plume_stage_timing *t = &p->stages[s];
        if (t->samples) format_ms(p95 ? t->p95_ms : t->mean_ms, ms[s], sizeof ms[s]);
        else snprintf(ms[s], sizeof ms[s], "-");
    }
    if (snprintf(out, size, "sim %s  sort %s  draw %s", ms[0], ms[1], ms[2]) < 0) out[0] = '\0';
}

enum { HUD_LINES = 7, HUD_EFFECT_LINE = 4 };

static void hud_lines(const demo_app *app, char lines[HUD_LINES][160]) {
    char capacity[32], frame_ms[32], cpu_ms[32], stages[96];
    format_count(smoke_system_capacity(app->smoke), capacity, sizeof capacity);
    /* With the fire drawn by one group (J: one draw each), the path asked;
     * else what the last profiled frame drew with (automatic: what it chose). */
    bool joint = app->options.fire && smoke_system_joint(app->smoke);
    bool ran = app->profile_available && !joint && app->profile.draw_path != 0;
    char path[48];
    bool automatic = !strcmp(demo_path_name(app->options.path), "automatic");
    snprintf(path, sizeof path, "%s%s", automatic && ran ? "automatic: " : "",
             demo_path_name(ran ? app->profile.draw_path : app->options.path));
    /* The fragment path's profile counts no drawn particles. */
    char drawn[32] = "";
    if (!app->options.gl33)
        snprintf(drawn, sizeof drawn, ", %u drawn", app->profile_available ? app->profile.drawn_count : app->live_count);
    snprintf(lines[0], 160, "%s particles, %u live%s   sort %s   draw %s %s%s%s", capacity, app->live_count, drawn,
             app->sorting ? smoke_system_sort_name(app->smoke) : "OFF", path,
             demo_resolution_name(ran ? app->profile.draw_resolution : app->options.resolution),
             app->options.fire ? (joint ? ", fire: one group" : ", fire: own draw") : "",
             app->paused ? "   PAUSED" : "");
    format_ms(app->last_frame_ms, frame_ms, sizeof frame_ms);
    format_ms(app->last_cpu_ms, cpu_ms, sizeof cpu_ms);
    double fps = app->last_frame_ms > 0 ? 1000.0 / app->last_frame_ms : 0;
    snprintf(lines[1], 160, "frame %s ms (%.0f fps)   cpu %s ms", frame_ms, fps, cpu_ms);
    const plume_profile *p = &app->profile;
    if (!app->profile_available) {
        snprintf(lines[2], 160, "GPU times: profiling is off");
        lines[3][0] = '\0';
    } else if (!p->timer_available) {
        snprintf(lines[2], 160, "GPU times: this driver has no GL timer");
        lines[3][0] = '\0';
    } else {
        format_stages(p, false, stages, sizeof stages);
        snprintf(lines[2], 160, "GPU ms mean  %s", stages);
        format_stages(p, true, stages, sizeof stages);
        snprintf(lines[3], 160, "GPU ms p95   %s", stages);
    }
    bool effect_error;
    /* Long enough for an error's place and field; the rest is in the log. */
    snprintf(lines[HUD_EFFECT_LINE], 160, "%.110s", effect_show_line(app->effect, &effect_error));
    if (app->gameplay) {
        gameplay_stats g;
        gameplay_get_stats(app->gameplay, &g);
        snprintf(lines[HUD_EFFECT_LINE], 160,
                 "impacts %u   spark landings %llu (CPU events, %llu dropped)   torches %u   campfire +%.0f s",
                 g.impacts, (unsigned long long)g.spark_landings, (unsigned long long)g.events_dropped, g.torches,
                 g.campfire_prewarm);
    }
    if (app->many) {
        many_effects_stats m;
        many_effects_get_stats(app->many, &m);
        snprintf(lines[HUD_EFFECT_LINE], 160,
                 "%u effects, one batch (%u torches, %u impacts, %u dust): CPU update %.2f ms, draw %.2f ms; GPU %.2f ms",
                 m.systems, m.torches, m.impacts, m.dust, m.update_cpu_ms, m.draw_cpu_ms, m.gpu_ms);
    }
    if (app->options.offscreen) {
        snprintf(lines[5], 160, "offscreen, fixed step %.4f s", app->options.dt);
        lines[6][0] = '\0';
    } else {
        snprintf(lines[5], 160, "space pause  +/- or 1-4 count  S sort  L resolution  T path  R reset  E effect  M many");
        snprintf(lines[6], 160, "H hide  drag: orbit  wheel: zoom  Esc quit");
    }
}

size_t demo_app_describe(const demo_app *app, char *out, size_t size) {
    char lines[HUD_LINES][160];
    hud_lines(app, lines);
    size_t used = 0;
    if (size) out[0] = '\0';
    for (int k = 0; k < HUD_LINES && used < size; ++k) {
        if (!lines[k][0]) continue;
        int written = snprintf(out + used, size - used, "%s%s", used ? "\n" : "", lines[k]);
        if (written < 0) break;
        used += (size_t)written;
    }
    return used < size ? used : size ? size - 1 : 0;
}

/* One panel in the bottom right corner, over the ground: the smoke rises
 * and drifts through the upper part of the picture. */
void demo_app_draw_hud(demo_app *app, GLuint framebuffer) {
    float scale = floorf(fmaxf(1.0f, (float)app->height / 480.0f) * 2.0f) * 0.5f;
    float line = hud_line_height(scale) + 2 * scale;
    char lines[HUD_LINES][160];
    hud_lines(app, lines);
    int line_count = 0;
    for (int k = 0; k < HUD_LINES; ++k)
        if (lines[k][0]) ++line_count;

    float graph_w = fminf(GRAPH_FRAMES * scale, (float)app->width - 24 * scale);
    float graph_h = 40 * scale;
    float pad = 6 * scale, margin = 6 * scale;
    float panel_h = (float)line_count * line + 4 * scale + graph_h + line + 2 * pad;
    float panel_w = graph_w;
    for (int k = 0; k < HUD_LINES; ++k) panel_w = fmaxf(panel_w, hud_text_width(scale, lines[k]));
    panel_w += 2 * pad;
    float left = (float)app->width - margin - panel_w, top = (float)app->height - margin - panel_h;
    float x = left + pad, y = top + pad;

    hud_begin(app->hud, app->width, app->height);
    hud_rect(app->hud, left, top, panel_w, panel_h, PANEL);
    for (int k = 0; k < HUD_LINES; ++k) {
        if (!lines[k][0]) continue;
        bool effect_error = false;
        if (k == HUD_EFFECT_LINE) effect_show_line(app->effect, &effect_error);
        hud_text(app->hud, x, y, scale, lines[k], effect_error ? ERROR_TEXT : k > HUD_EFFECT_LINE ? DIM : TEXT);
        y += line;
    }
    draw_graph(app, x, y + 4 * scale, graph_w, graph_h, scale);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glViewport(0, 0, app->width, app->height);
    hud_end(app->hud);
}
