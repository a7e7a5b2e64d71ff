/* Command line of the smoke demo. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "plume/plume_particles.h"

const uint32_t DEMO_COUNT_LEVELS[DEMO_COUNT_LEVEL_COUNT] = {16384, 65536, 262144, 1048576};

const char *demo_resolution_name(uint32_t resolution) {
    static const char *const NAMES[3] = {"full", "half", "quarter"};
    return resolution < 3 ? NAMES[resolution] : "?";
}

const char *demo_path_name(uint32_t path) {
    switch (path) {
    case PLUME_DRAW_PATH_DEFAULT:
    case PLUME_DRAW_PATH_AUTOMATIC: return "automatic";
    case PLUME_DRAW_PATH_RASTER: return "raster";
    case PLUME_DRAW_PATH_TILED: return "tiled";
    default: return "?";
    }
}

const uint32_t DEMO_PATHS[DEMO_PATH_COUNT] = {PLUME_DRAW_PATH_AUTOMATIC, PLUME_DRAW_PATH_RASTER,
                                              PLUME_DRAW_PATH_TILED};

static const char *USAGE =
    "usage: plume_demo [options]\n"
    "  --offscreen        render without a window (automatic when there is no display)\n"
    "  --frames N         stop after N frames (offscreen default 300; window: run until closed)\n"
    "  --out FILE         write the last frame as PNG, making missing folders (offscreen default\n"
    "                     build/smoke.png below the working folder)\n"
    "  --profile FILE     write one CSV row per measured frame: frame, live count,\n"
    "                     simulate/sort/draw GPU ms, CPU ms (then update GPU ms, capacity, sorting)\n"
    "  --particles N      particle capacity, e.g. 16K, 64K (default), 256K, 1M, or any number\n"
    "  --size WxH         framebuffer size (default 1280x720)\n"
    "  --dt S             fixed time step in seconds (offscreen default 1/60)\n"
    "  --no-sort          start with sorting off\n"
    "  --no-hud           no text or graph overlay (offscreen: the default, the PNG shows the scene)\n"
    "  --hud              the text and graph overlay (the window's default; offscreen: in the PNG)\n"
    "  --texture FILE     the smoke sprite (default demo/assets/smoke_puff.png, a 4x4 flipbook)\n"
    "  --resolution R     the particles' draw resolution: full (default), half or quarter\n"
    "  --path P           the particles' draw path: automatic (default: tiled where it pays,\n"
    "                     at 1/2 from 64 K unless --resolution is given), raster or tiled\n"
    "  --quality Q        with the automatic path: full (default), or may-lower (1/2 where it pays)\n"
    "  --tile T           the tiled path's tile size in pixels: 8 (default), 16 or 32\n"
    "  --chunk K          the entries a tiled composite workgroup walks at most (default 128),\n"
    "                     or 'unchunked' (a tile's whole run)\n"
    "  --camera X,Y,Z,YAW,PITCH,DISTANCE\n"
    "                     where the orbit camera starts: the point it looks at (metres), its yaw and\n"
    "                     pitch (degrees; yaw 0 looks along -z) and its distance (metres)\n"
    "  --look-away        the camera turned away from the smoke, which still simulates (what the\n"
    "                     smoke costs out of view)\n"
    "  --unlit            the smoke column unlit: the default look (what the scene's light costs)\n"
    "  --no-self-shadow   the smoke column lit but not shadowed by itself (what self-shadowing costs)\n"
    "  --dump-programs DIR with --offscreen: at the end, each GL program's binary as the driver gives\n"
    "                     it (glGetProgramBinary) into DIR (made if missing), named by its label\n"
    "  --effect E         a built-in effect, smoke (default), sparks (a grinder's sparks bouncing off\n"
    "                     the scene), debris (a blast's rocks, lit meshes tumbling and settling) or\n"
    "                     leaves (autumn leaves tumbling from the pillar, lit meshes drifting down), or an\n"
    "                     effect file (demo/effects/*.json), reloaded whenever it is\n"
    "                     saved; its capacity unless --particles is given\n"
    "  --save-effect FILE at the end, write the effect on show as an effect file\n"
    "  --many-effects     a few hundred small effects (torches, impacts, dust), one batch update and\n"
    "                     one batch draw (M switches it in a window)\n"
    "  --gameplay         impacts where you click (F or the right button; offscreen: scripted), an\n"
    "                     emitter orbiting the pillar, spark landings counted from events, a\n"
    "                     prewarmed campfire, 100 torches that are one system\n"
    "  --fire             a fire at the chimney's mouth, the smoke rising through it, both drawn in one\n"
    "                     back-to-front order by a draw group (J switches to one draw each)\n"
    "  --night            a moonlit scene: fire, sparks and fireflies light it (plume_system_write_lights)\n"
    "  --separate         with --fire: start with one draw each (the fire behind all the smoke)\n"
    "  --gl 3.3           ask for a GL 3.3 core context and run the module's fragment path (no compute;\n"
    "                     drawn with its raster draw at full resolution; effects with a world, and\n"
    "                     --fire, refused)\n"
    "keys: space pause, +/- or 1-4 particle count, S sorting, L draw resolution, T draw path, R reset,\n"
    "      H overlay, E the gallery's next effect, J one draw group or separate draws (--fire),\n"
    "      Esc quit;\n"
    "      drag to orbit, scroll to zoom\n";

void demo_options_default(demo_options *options) {
    *options = (demo_options){
        .width = 1280,
        .height = 720,
        .particles = 65536,
        .sort = true,
        .hud = true,
    };
}

bool demo_options_finish(demo_options *options, bool offscreen, const char *renderer) {
    options->offscreen = offscreen;
    if (offscreen && !options->hud_given) options->hud = false;
    if (offscreen) {
        if (options->frames == 0) options->frames = 300;
        if (options->dt == 0) options->dt = 1.0f / 60.0f;
        if (!options->out_png) options->out_png = "build/smoke.png";
    }
    bool software = renderer && (strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe"));
    bool lowered = false;
    if (software && !options->size_given) options->width = 640, options->height = 360, lowered = true;
    if (software && !options->particles_given) options->particles = DEMO_COUNT_LEVELS[0], lowered = true;
    return lowered;
}

/* "64K", "1M", "100000" -> count; false if not a count in 1 .. 2^28. */
static bool parse_count(const char *text, uint32_t *out) {
    char *end = NULL;
    unsigned long long value = strtoull(text, &end, 10);
    if (end == text) return false;
    if (*end == 'k' || *end == 'K') value *= 1024, ++end;
    else if (*end == 'm' || *end == 'M') value *= 1024 * 1024, ++end;
    if (*end != '\0' || value == 0 || value > (1ull << 28)) return false;
    *out = (uint32_t)value;
    return true;
}

int demo_options_parse(int argc, char **argv, demo_options *options) {
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes_value = true;
        bool ok = true;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            fputs(USAGE, stdout);
            return 1;
        } else if (!strcmp(arg, "--offscreen")) {
            options->offscreen = true, takes_value = false;
        } else if (!strcmp(arg, "--no-sort")) {
            options->sort = false, takes_value = false;
        } else if (!strcmp(arg, "--no-hud")) {
            options->hud = false, options->hud_given = true, takes_value = false;
        } else if (!strcmp(arg, "--hud")) {
            options->hud = true, options->hud_given = true, takes_value = false;
        } else if (!strcmp(arg, "--look-away")) {
            options->look_away = true, takes_value = false;
        } else if (!strcmp(arg, "--unlit")) {
            options->unlit = true, takes_value = false;
        } else if (!strcmp(arg, "--no-self-shadow")) {
            options->no_self_shadow = true, takes_value = false;
        } else if (!strcmp(arg, "--gameplay")) {
            options->gameplay = true, takes_value = false;
        } else if (!strcmp(arg, "--many-effects")) {
            options->many_effects = true, takes_value = false;
        } else if (!strcmp(arg, "--fire")) {
            options->fire = true, takes_value = false;
        } else if (!strcmp(arg, "--night")) {
            options->night = true, takes_value = false;
        } else if (!strcmp(arg, "--separate")) {
            options->separate = true, takes_value = false;
        } else if (!value) {
            ok = false;
        } else if (!strcmp(arg, "--frames")) {
            char *end = NULL;
            long frames = strtol(value, &end, 10);
            ok = *end == '\0' && frames > 0 && frames <= 100000000;
            options->frames = (uint32_t)frames;
        } else if (!strcmp(arg, "--out")) {
            options->out_png = value;
        } else if (!strcmp(arg, "--profile")) {
            options->profile_csv = value;
        } else if (!strcmp(arg, "--dump-programs")) {
            options->dump_programs = value;
        } else if (!strcmp(arg, "--particles")) {
            ok = parse_count(value, &options->particles);
            options->particles_given = true;
        } else if (!strcmp(arg, "--size")) {
            ok = sscanf(value, "%dx%d", &options->width, &options->height) == 2 && options->width >= 16 &&
                 options->height >= 16 && options->width <= 8192 && options->height <= 8192;
            options->size_given = true;
        } else if (!strcmp(arg, "--dt")) {
            char *end = NULL;
            options->dt = strtof(value, &end);
            ok = *end == '\0' && options->dt > 0 && options->dt <= 1;
        } else if (!strcmp(arg, "--resolution")) {
            ok = false;
            for (uint32_t r = 0; r < 3; ++r)
                if (!strcmp(value, demo_resolution_name(r))) options->resolution = r, ok = true;
        } else if (!strcmp(arg, "--path")) {
            ok = false;
            for (uint32_t p = 0; p < DEMO_PATH_COUNT; ++p)
                if (!strcmp(value, demo_path_name(DEMO_PATHS[p]))) options->path = DEMO_PATHS[p], ok = true;
        } else if (!strcmp(arg, "--quality")) {
            ok = !strcmp(value, "full") || !strcmp(value, "may-lower");
            options->quality = !strcmp(value, "may-lower") ? PLUME_DRAW_QUALITY_MAY_LOWER : PLUME_DRAW_QUALITY_FULL;
        } else if (!strcmp(arg, "--tile")) {
            char *end = NULL;
            unsigned long tile = strtoul(value, &end, 10);
            ok = *end == '\0' && (tile == 8 || tile == 16 || tile == 32);
            options->tile_size = (uint32_t)tile;
        } else if (!strcmp(arg, "--chunk")) {
            char *end = NULL;
            unsigned long entries = strtoul(value, &end, 10);
            ok = !strcmp(value, "unchunked") || (*end == '\0' && entries > 0 && entries <= (1ul << 24));
            options->chunk_entries = !strcmp(value, "unchunked") ? PLUME_TILED_UNCHUNKED : (uint32_t)entries;
        } else if (!strcmp(arg, "--effect")) {
            /* The built-in effects by name; anything else is an effect file. */
            bool sparks = !strcmp(value, "sparks"), debris = !strcmp(value, "debris"), leaves = !strcmp(value, "leaves");
            options->effect = sparks   ? DEMO_EFFECT_SPARKS
                              : debris ? DEMO_EFFECT_DEBRIS
                              : leaves ? DEMO_EFFECT_LEAVES
                                       : DEMO_EFFECT_SMOKE;
            options->effect_path = sparks || debris || leaves || !strcmp(value, "smoke") ? NULL : value;
        } else if (!strcmp(arg, "--camera")) {
            float *c = options->camera;
            char end = 0;
            ok = sscanf(value, "%f,%f,%f,%f,%f,%f%c", &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &end) == 6 &&
                 c[4] > -90.0f && c[4] < 90.0f && c[5] > 0.0f && c[5] <= 1000.0f;
            for (int k = 0; k < 6; ++k) ok = ok && isfinite(c[k]);
            options->camera_given = ok;
        } else if (!strcmp(arg, "--save-effect")) {
            options->save_effect = value;
        } else if (!strcmp(arg, "--gl")) {
            ok = !strcmp(value, "3.3");
            options->gl33 = ok;
        } else if (!strcmp(arg, "--texture")) {
            options->texture_path = value;
        } else {
            fprintf(stderr, "plume_demo: unknown option '%s' (see --help)\n", arg);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "plume_demo: bad or missing value for %s (see --help)\n", arg);
            return 2;
        }
        if (takes_value) ++i;
    }
    if (options->gl33 && options->effect != DEMO_EFFECT_SMOKE) {
        fprintf(stderr, "plume_demo: --effect sparks collides with the scene (plume_world), which needs the compute "
                        "path: not with --gl 3.3\n");
        return 2;
    }
    if (options->gl33 && options->many_effects) {
        fprintf(stderr, "plume_demo: --many-effects needs the compute path: not with --gl 3.3\n");
        return 2;
    }
    if (options->gl33 && options->gameplay) {
        fprintf(stderr, "plume_demo: --gameplay needs the compute path: not with --gl 3.3\n");
        return 2;
    }
    if (options->gl33 && options->fire) {
        fprintf(stderr, "plume_demo: --fire's draw group needs the compute path: not with --gl 3.3\n");
        return 2;
    }
    return 0;
}
