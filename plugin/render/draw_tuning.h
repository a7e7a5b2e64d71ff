/* The automatic draw path's numbers (PLUME_DRAW_PATH_AUTOMATIC, render/draw.c
 * and render/draw_group.c pick with them), in one table, each with the
 * measurement it comes from. The count they compare is the last update's
 * bound on the drawn count (particle_view.sort_bound; a group's: the sum of
 * its systems'), known on the CPU without a readback. Not part of the API. */
#ifndef PLUME_RENDER_DRAW_TUNING_H
#define PLUME_RENDER_DRAW_TUNING_H

#include <stdint.h>

typedef struct draw_tuning {
    /* Tiled from this many particles: its fixed cost (the passes over the
     * capacity and the tiles, the entry sort's dispatches, the blend) is
     * about 0.19 ms on an H100 with nothing to draw, and the raster path
     * costs about 11.5 ns a particle (0.75 ms at 64 K, 11.9 ms at 1 M, the
     * tiled path 0.23 and 0.60), so raster is ahead below about 17 K
     * (notes/draw-at-scale.md, plume_frame_bench at 1280x720). With tiles
     * of 8 on an H200 they still cross at 16 K: raster 0.213 ms, tiled
     * 0.208 (notes/wave3-draws-h200.md, eighth session). */
    uint32_t tiled_from;
    /* Tiled, whatever the count, from this fill of the raster draw (its
     * samples over the viewport's pixels, measured now and then by an
     * occlusion query: render/fill_probe.h): the raster back end's cost
     * follows the pixels it blends. The gallery's dust storm, 11 K puffs
     * metres across, fills about 60 viewports (a count of samples any GL
     * gives alike: measured on llvmpipe) and drew in 6.51 ms raster against
     * 0.905 tiled on an H200, about 0.11 ms of raster a viewport's worth; the
     * demo's 16 K smoke column fills 25; snow settling 0.37 (0.26 ms
     * raster), rain 0.04 (0.087 ms). A fill of 4 costs about 0.45 ms of
     * raster there, twice the tiled path's fixed cost (notes/wave3-draws-h200.md). */
    float tiled_from_fill;
    /* Where the host lets the draw lower its resolution
     * (PLUME_DRAW_QUALITY_MAY_LOWER), 1/2 from this many: the demo at
     * 1280x720 in steady state on an H200, 64 K tiled 1.56 ms at full
     * resolution and 1.02 at 1/2 (issue #37); in the first 240 frames on an
     * H100 the two were equal at 64 K (0.62 ms) and 1/2 ahead from 256 K
     * (0.93 against 1.17). */
    uint32_t half_from;
    /* A trail system goes tiled by itself only up to this many ranks (the
     * triangles of its drawn pairs at a quad each, the least they need;
     * about 116 bytes of GPU memory each, made on the first tiled draw and
     * grown to what frames need): 64 K particles of 16 points are 2.1 M
     * ranks, 243 MB, where every pair took the worst case's 4 quads before
     * (8.4 M ranks, 973 MB, for a draw of 14.1 ms against raster's 47.2 on
     * an H200, notes/wave3-draws-h200.md). A module should not take a
     * gigabyte without being asked: past this, PLUME_DRAW_PATH_TILED asks.
     * A draw group with a trail system counts its items the same way. */
    uint32_t trail_tiled_most_ranks;
    /* A choice the automatic path made (tiled, 1/2) is kept until what took
     * it falls under this share of its threshold: the bound on the count
     * moves by a frame's births from one frame to the next (5% either way
     * for a steady 16 K effect of 0.25 s lives at 60 Hz, measured on
     * llvmpipe: tests/render/test_fill_probe.c), and a path that flips
     * between frames shows (the paths' pictures differ within their
     * bounds). */
    float keep_share;
    /* A mesh particle whose bounding sphere is under this many pixels across
     * is rasterized in compute (render/mesh_compute.h) where the frame's
     * path allows: its triangles then cover a few pixels each, which the
     * raster back end draws at a fraction of its rate. plume_mesh_bench's
     * 100 K 80-triangle rocks at 3840x2160 (12 to 69 pixels) on an H100:
     * the raster back end 19.8 ms, under 16 pixels in compute 20.7, under 32
     * 10.4, every rock (under 64) 8.9 (notes/wave3-draws-h200.md). */
    float mesh_compute_below_pixels;
} draw_tuning;

static const draw_tuning DRAW_TUNING = {.tiled_from = 16384, .tiled_from_fill = 4.0f, .half_from = 65536,
                                        .trail_tiled_most_ranks = 2u << 20, .keep_share = 0.75f,
                                        .mesh_compute_below_pixels = 64.0f};

#endif
