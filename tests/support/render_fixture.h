/* What the draw-path tests share (tests/render/): a camera, a host frame with
 * a depth attachment and a depth texture (optionally an occluder's edge), a
 * smoke-like cloud of particles, one update and draw into a fresh frame, and
 * image measures. Compiled into plume_tests and, through the plugin table,
 * into plume_plugin_host. */
#ifndef PLUME_RENDER_FIXTURE_H
#define PLUME_RENDER_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include <cglm/cglm.h>

#include "plume/plume_draw_group.h"
#include "plume/plume_particles.h"

enum { RENDER_WIDTH = 128, RENDER_HEIGHT = 96 };
extern const float RENDER_BACKGROUND[4];

typedef struct render_camera {
    mat4 view, projection;
} render_camera;

/* 60 degrees, looking down -z from the origin, near 0.5, far 50. */
render_camera render_make_camera(void);
/* render_make_camera's view through an infinite reversed perspective
 * (infinite_reversed_perspective): for a host in the reversed depth
 * convention (set_host_depth_convention). */
render_camera render_make_reversed_camera(void);
/* The window depth of a point `distance` in front of the camera, in the
 * clip depth mode the GL is in. */
float render_window_depth(const render_camera *c, float distance);

/* A soft cloud of `count` frozen, semi-transparent puffs in a box around
 * `centre`; `sprite`: a soft round 2x2 flipbook instead of solid squares. */
plume_system render_cloud(const float centre[3], float extent, float size, uint32_t count, uint32_t seed,
                          bool sprite);
/* The same cloud, its descriptor changed by `adjust` (NULL: none) before
 * the system is made (a blend mode, an orientation). */
plume_system render_cloud_with(const float centre[3], float extent, float size, uint32_t count, uint32_t seed,
                               bool sprite, void (*adjust)(plume_system_desc *desc));

/* One update for `frame`'s camera (dt 0.001), then its draw into a fresh
 * RENDER_WIDTH x RENDER_HEIGHT RGBA32F host frame cleared to the background
 * whose depth is 1, and `occluder_depth` where x < occluder_width; with
 * `with_depth` the frame gets a copy of that depth as its depth_texture.
 * The picture goes to `rgba` (4 floats a pixel). */
void render_frame(plume_system system, const render_camera *c, plume_frame_desc frame, bool with_depth,
                  int occluder_width, float occluder_depth, float *rgba);
/* render_frame's draw without its update: the same particles drawn again
 * (another path, resolution or threshold), as a host drawing one state
 * into a second view does. */
void render_draw(plume_system system, const render_camera *c, plume_frame_desc frame, bool with_depth,
                 int occluder_width, float occluder_depth, float *rgba);

/* Two systems of one cloud (render_cloud's, sprites) drawn by render_frame
 * with frames `a` and `b` into image_a and image_b, then destroyed: one
 * picture by two paths. */
void render_draw_both(const float centre[3], float extent, float size, uint32_t count, uint32_t seed,
                      plume_frame_desc a, plume_frame_desc b, int occluder_width, float occluder_depth,
                      float *image_a, float *image_b);
/* A frame for the tiled path at `resolution` (plume_draw_resolution), early
 * termination at `threshold` where `terminate`, else off. */
plume_frame_desc render_tiled_frame(uint32_t resolution, bool terminate, float threshold);

/* render_draw for `count` systems in turn, each with its frames[i] (the
 * camera's matrices and the depth texture filled in), into one host frame
 * whose viewport is `viewport` (x, y, width, height; NULL: the whole
 * frame); no occluder. */
void render_draw_many(const plume_system *systems, uint32_t count, const render_camera *c,
                      const plume_frame_desc *frames, const int *viewport, float *rgba);

/* render_draw for a batch (plume_batch_draw; `systems` NULL with `count` 0:
 * every live system), its systems updated before. */
void render_draw_batch(const plume_system *systems, uint32_t count, const render_camera *c, plume_frame_desc frame,
                       bool with_depth, float *rgba);
/* The same, returning what plume_batch_draw returned. */
plume_result render_try_batch(const plume_system *systems, uint32_t count, const render_camera *c,
                              plume_frame_desc frame, bool with_depth, float *rgba);
/* render_draw for a draw group (its systems updated before). */
void render_draw_group(plume_draw_group group, const render_camera *c, plume_frame_desc frame, bool with_depth,
                       int occluder_width, float occluder_depth, float *rgba);

/* The host frames that follow: their colour's internal format (0: the
 * default, GL_RGBA32F) and mip levels (0: 1; the frame is level 0), and
 * what the host does just before and just after each of the module's draws
 * into them (NULL: nothing), such as a scissor or conditional rendering. */
void render_set_host_frame(uint32_t color_format, int levels, void (*before_draw)(void), void (*after_draw)(void));

/* A RENDER_WIDTH x RENDER_HEIGHT RGBA float image (free it). */
float *render_new_image(void);
/* Peak signal-to-noise ratio of the colour channels, dB (99: identical). */
double render_psnr(const float *a, const float *b);
/* The largest difference of any channel of any pixel. */
float render_largest_difference(const float *a, const float *b);
/* Pixels of which some channel differs by more than `bound`. */
int render_pixels_differing(const float *a, const float *b, float bound);
/* The tiled path's picture `b` against the raster path's `a`: within
 * `bound` at all but RENDER_TILED_OUTLIERS pixels, and within twice it
 * there (NVIDIA's raster back end rounds a pixel or two of a seed over the
 * bound; an order or coverage fault moves hundreds by far more). Prints
 * nothing; *largest and *over (may be NULL) say what it found. */
enum { RENDER_TILED_OUTLIERS = 8 };
bool render_within_tiled_bound(const float *a, const float *b, float bound, float *largest, int *over);
/* Pixels whose red differs from the background's by more than 0.05: in
 * the whole image, or in its columns [x0, x1). */
int render_covered_pixels(const float *rgba);
int render_covered_pixels_in_columns(const float *rgba, int x0, int x1);

#endif
