/* The frame benchmark's command line. */
#include "frame_bench_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plume_lab.h"

static const char *const BLEND_NAMES[] = {"premultiplied", "additive", "premultiplied_additive", NULL};
static const char *const ORIENTATION_NAMES[] = {"camera_facing", "velocity_stretched", "velocity_aligned",
                                                "world_axis", "world_facing", NULL};
static const char *const SORT_MODE_NAMES[] = {"view_depth", "distance", "oldest_first", "youngest_first", "none",
                                              NULL};

/* The index of `value` in `names` (NULL-terminated) into *out. */
static bool parse_name(const char *value, const char *const *names, uint32_t *out) {
    for (uint32_t i = 0; names[i]; ++i)
        if (strcmp(value, names[i]) == 0) return *out = i, true;
    return false;
}

void usage(void) {
    fprintf(stderr, "usage: plume_frame_bench [--counts N,N,...] [--frames N] [--warmup N|steady] [--max-warmup N] [--size WxH] [--csv FILE]"
                    " [--frames-csv FILE] [--turbulence S] [--look-away] [--no-cull]"
                    " [--resolution full|half|quarter] [--path raster|tiled] [--tile 8|16|32]"
                    " [--chunk K|unchunked] [--min-alpha A] [--batch N] [--whole-splat-batch] [--footprint F] [--cover-every-tile] [--box-tiles] [--whole-tile-lists] [--no-termination] [--blend MODE] [--orientation MODE]"
                    " [--hit-lists on|off]"
                    " [--sort-mode MODE] [--lit] [--smoke] [--world off|on|both] [--radix-threads 256|512|1024]"
                    " [--sort-key-bits 16..32]\n");
}

static bool parse_counts(const char *text, options *o) {
    o->count_total = 0;
    const char *p = text;
    while (*p) {
        char *end;
        unsigned long value = strtoul(p, &end, 10);
        if (end == p || value == 0 || value > (1ul << 26) || o->count_total == MAX_COUNTS) return false;
        o->counts[o->count_total++] = (uint32_t)value;
        p = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0') return false;
    }
    return o->count_total > 0;
}

bool parse_options(int argc, char **argv, options *o) {
    *o = (options){.counts = {16384, 65536, 262144, 1048576}, .count_total = 4, .frames = 300, .warmup = FRAME_BENCH_WARMUP_STEADY, .max_warmup = 1800,
                   .width = 1280, .height = 720, .turbulence = 1.0f, .path = PLUME_DRAW_PATH_RASTER};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--lit") == 0 || strcmp(arg, "--smoke") == 0) {
            if (arg[2] == 'l') o->lit = true;
            else o->smoke = true;
            continue;
        }
        if (strcmp(arg, "--cover-every-tile") == 0 || strcmp(arg, "--box-tiles") == 0 ||
            strcmp(arg, "--whole-tile-lists") == 0 || strcmp(arg, "--whole-splat-batch") == 0) {
            if (arg[2] == 'c') o->knobs.cover_every_tile = true;
            else if (arg[2] == 'b') o->knobs.box_tiles = true;
            else if (strcmp(arg, "--whole-tile-lists") == 0) o->knobs.whole_tile_lists = true;
            else o->knobs.whole_splat_batch = true;
            continue;
        }
        if (strcmp(arg, "--look-away") == 0 || strcmp(arg, "--no-cull") == 0 ||
            strcmp(arg, "--no-termination") == 0) {
            if (arg[2] == 'l') o->look_away = true;
            else if (arg[5] == 'c') o->no_cull = true;
            else o->no_termination = true;
            continue;
        }
        if (!value) return false;
        ++i;
        if (strcmp(arg, "--world") == 0) {
            if (strcmp(value, "off") == 0) o->world_first = o->world_last = 0;
            else if (strcmp(value, "on") == 0) o->world_first = o->world_last = 1;
            else if (strcmp(value, "both") == 0) o->world_first = 0, o->world_last = 1;
            else return false;
        } else if (strcmp(arg, "--resolution") == 0) {
            static const char *const names[] = {"full", "half", "quarter"};
            bool known = false;
            for (uint32_t r = 0; r < 3; ++r)
                if (strcmp(value, names[r]) == 0) o->resolution = r, known = true;
            if (!known) return false;
        } else if (strcmp(arg, "--path") == 0) {
            if (strcmp(value, "raster") == 0) o->path = PLUME_DRAW_PATH_RASTER;
            else if (strcmp(value, "tiled") == 0) o->path = PLUME_DRAW_PATH_TILED;
            else if (strcmp(value, "automatic") == 0) o->path = PLUME_DRAW_PATH_AUTOMATIC;
            else return false;
        } else if (strcmp(arg, "--entry-sort") == 0) {
            if (strcmp(value, "automatic") == 0) o->entry_sort = PLUME_SORT_AUTOMATIC;
            else if (strcmp(value, "bitonic") == 0) o->entry_sort = PLUME_SORT_BITONIC;
            else if (strcmp(value, "radix") == 0) o->entry_sort = PLUME_SORT_RADIX;
            else return false;
        } else if (strcmp(arg, "--radix-threads") == 0) {
            uint32_t threads = (uint32_t)strtoul(value, NULL, 10);
            if (threads != 256 && threads != 512 && threads != 1024) return false;
            o->radix_threads = threads;
        } else if (strcmp(arg, "--sort-key-bits") == 0) {
            o->sort_key_bits = (uint32_t)strtoul(value, NULL, 10);
            if (o->sort_key_bits < 16 || o->sort_key_bits > 32) return false;
        } else if (strcmp(arg, "--tile") == 0) {
            o->tile_size = (uint32_t)strtoul(value, NULL, 10);
            if (o->tile_size != 8 && o->tile_size != 16 && o->tile_size != 32) return false;
        } else if (strcmp(arg, "--chunk") == 0) {
            char *end;
            unsigned long entries = strtoul(value, &end, 10);
            if (strcmp(value, "unchunked") == 0) o->chunk_entries = PLUME_LAB_TILED_UNCHUNKED;
            else if (*end == '\0' && entries > 0 && entries <= (1ul << 24)) o->chunk_entries = (uint32_t)entries;
            else return false;
        } else if (strcmp(arg, "--min-alpha") == 0) {
            char *end;
            o->knobs.min_alpha = strtof(value, &end);
            if (*end != '\0' || !(o->knobs.min_alpha >= 0.0f && o->knobs.min_alpha < 1.0f)) return false;
        } else if (strcmp(arg, "--footprint") == 0) {
            char *end;
            o->knobs.footprint = strtof(value, &end);
            if (*end != '\0' || !(o->knobs.footprint >= 0.0f && o->knobs.footprint <= 0.5f)) return false;
        } else if (strcmp(arg, "--batch") == 0) {
            o->knobs.batch = (uint32_t)strtoul(value, NULL, 10);
            if (o->knobs.batch % 32 != 0 || o->knobs.batch > 256) return false;
        } else if (strcmp(arg, "--hit-lists") == 0) {
            if (strcmp(value, "on") == 0) o->knobs.hit_lists = 1;
            else if (strcmp(value, "off") == 0) o->knobs.hit_lists = -1;
            else return false;
        } else if (strcmp(arg, "--blend") == 0) {
            if (!parse_name(value, BLEND_NAMES, &o->blend_mode)) return false;
        } else if (strcmp(arg, "--orientation") == 0) {
            if (!parse_name(value, ORIENTATION_NAMES, &o->orientation)) return false;
        } else if (strcmp(arg, "--sort-mode") == 0) {
            if (!parse_name(value, SORT_MODE_NAMES, &o->sort_mode)) return false;
        } else if (strcmp(arg, "--counts") == 0) {
            if (!parse_counts(value, o)) return false;
        } else if (strcmp(arg, "--frames") == 0) {
            o->frames = (uint32_t)strtoul(value, NULL, 10);
            if (o->frames == 0) return false;
        } else if (strcmp(arg, "--warmup") == 0) {
            o->warmup = strcmp(value, "steady") == 0 ? FRAME_BENCH_WARMUP_STEADY : (uint32_t)strtoul(value, NULL, 10);
        } else if (strcmp(arg, "--max-warmup") == 0) {
            o->max_warmup = (uint32_t)strtoul(value, NULL, 10);
        } else if (strcmp(arg, "--size") == 0) {
            if (sscanf(value, "%dx%d", &o->width, &o->height) != 2 || o->width <= 0 || o->height <= 0) return false;
        } else if (strcmp(arg, "--csv") == 0) {
            o->csv_path = value;
        } else if (strcmp(arg, "--frames-csv") == 0) {
            o->frames_csv_path = value;
        } else if (strcmp(arg, "--turbulence") == 0) {
            char *end;
            o->turbulence = strtof(value, &end);
            if (*end != '\0' || !(o->turbulence >= 0.0f)) return false;
        } else {
            return false;
        }
    }
    return true;
}
