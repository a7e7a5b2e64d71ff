/*
 * plume_look.h — how a particle system's particles look: curves and
 * gradients over life, the sprite and its flipbook, soft particles, and the
 * draw order, orientation and blend modes.
 *
 * Part of the particle system's API: include plume_particles.h, which
 * includes this header (plume_system_desc.appearance and the look fields of
 * plume_system_desc). docs/look.md shows each mode.
 */
#ifndef PLUME_LOOK_H
#define PLUME_LOOK_H

#include <stdbool.h>

#include "plume_common.h"
#include "plume_emitter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A piecewise-linear function of the particle's life fraction age/lifetime
 * in [0, 1]: keys with non-decreasing times in [0, 1]; before the first key
 * its value holds, after the last key the last value. */
typedef struct plume_curve_key {
    float time;                 /* life fraction, 0 .. 1 */
    float value;
} plume_curve_key;

typedef struct plume_curve {
    uint32_t key_count;         /* 0 .. PLUME_MAX_CURVE_KEYS; default: 0 = the constant 1 */
    plume_curve_key keys[PLUME_MAX_CURVE_KEYS];
} plume_curve;

typedef struct plume_color_key {
    float time;                 /* life fraction, 0 .. 1 */
    float rgba[4];              /* straight (not premultiplied) colour, each 0 .. 1 */
} plume_color_key;

typedef struct plume_gradient {
    uint32_t key_count;         /* 0 .. PLUME_MAX_CURVE_KEYS; default: 0 = constant white,
                                   opaque {1, 1, 1, 1} */
    plume_color_key keys[PLUME_MAX_CURVE_KEYS];
} plume_gradient;

/* The sprite: a file, or RGBA8 pixels in memory, or neither (each quad is then
 * a solid square). Either one may be a flipbook atlas of columns x rows
 * frames, read left to right, top to bottom, played once over each
 * particle's life. */
typedef struct plume_texture_desc {
    const char *path;           /* an image file stb_image decodes (PNG, TGA, JPEG, ...), read
                                   during create only; default: NULL (none) */
    const void *pixels;         /* RGBA8, straight alpha, rows from the top, width * height * 4
                                   bytes, read during create only; with `path` NULL only;
                                   default: NULL (none) */
    uint32_t width;             /* pixels' size; required with `pixels` */
    uint32_t height;
    uint32_t columns;           /* flipbook frames across; default: 1 */
    uint32_t rows;              /* flipbook frames down; default: 1 */
    bool disable_frame_blend;   /* default: false = consecutive frames are cross-faded by age;
                                   true: each frame shows whole */
} plume_texture_desc;

/* The sprite from a texture the host owns (plume_system_desc.host_sprite)
 * [since 1.3], instead of appearance.texture's path or pixels; its flipbook
 * layout and frame blending are appearance.texture's (columns, rows,
 * disable_frame_blend). The texture, a GL texture name of the context's
 * share group of the kind `target` names, is sampled through plume's own
 * sampler (trilinear, clamped) as premultiplied RGBA (a texture whose alpha
 * is 1 or whose colour is already multiplied by it), never deleted, changed
 * or bound afterwards by plume: the host keeps it alive, its contents
 * current, while the system draws (and a draw group copies it into its own
 * sprites when the group is created). It must be complete for mipmapped
 * filtering: every level down to 1x1 (glGenerateMipmap; immutable storage of
 * any number of levels) or GL_TEXTURE_MAX_LEVEL limiting the levels it has.
 * Its level 0 size is the sprite's (plume_system_get_desc's
 * appearance.texture width and height). With appearance.texture's path or
 * pixels: refused. Errors at creation, each with a message naming the field
 * (PLUME_ERROR_INVALID_ARGUMENT): a name that is not a texture, a texture of
 * another kind (a 3D texture; a buffer's name is no texture), a zero-sized
 * one, a depth or stencil one, an incomplete mip chain; not checked by
 * plume_system_desc_check (no GL). Not in effect files. (Kept out of
 * plume_texture_desc, whose size 1.0 - 1.2 hosts' descriptors have.) */
typedef struct plume_host_sprite {
    uint32_t texture; /* the GL texture name; default 0: none */
    /* Its kind: 0 (default) or GL_TEXTURE_2D (0x0DE1), a flipbook of
     * columns x rows frames as a file's; GL_TEXTURE_2D_ARRAY (0x8C1A), one
     * flipbook frame per layer (appearance.texture's columns and rows then
     * 0 or 1). */
    uint32_t target;
} plume_host_sprite;

/* A motion-vector flipbook's motion (plume_system_desc.flipbook_motion)
 * [since 1.3]: an image of the sprite's size and flipbook layout whose
 * texel in frame k says where that texel's content is in frame k + 1. Red
 * is the motion along the frame's width (right), green along its height
 * (down, as the image's rows); each byte m encodes clamp((m - 128) / 127,
 * -1, 1) times `strength`, in frames (1: a whole frame's width or height),
 * so 128 is no motion. Blue and alpha are ignored, and the image is not
 * premultiplied. Between frames k and k + 1 at blend fraction f, a pixel
 * at frame coordinates p shows frame k at p - f m and frame k + 1 at
 * p + (1 - f) m, cross-faded by f, with m the motion of frame k at p:
 * each frame slides along the motion, so a 16-frame puff plays smoothly at
 * any speed. Drawn so on the raster, tiled and fragment paths and at low
 * resolution; a draw group cross-fades its frames without the slide. Given
 * as the sprite is (one of a file, pixels or a host texture), read during
 * create only; refused (PLUME_ERROR_INVALID_ARGUMENT, a message naming the
 * field) without a flipbook sprite of more than one frame, with frame
 * blending off, with a GL_TEXTURE_2D_ARRAY sprite, of a size other than the
 * sprite's (checked when the system is created), with a negative strength
 * or more than one source. Threading: as plume_system_create. In effect
 * files: "flipbook_motion": {"path": ..., "strength": ...}. Default (zero):
 * none. */
typedef struct plume_flipbook_motion {
    const char *path;           /* an image file stb_image decodes; default NULL: none */
    const void *pixels;         /* RGBA8, rows from the top, width * height * 4 bytes; with
                                   `path` NULL only; default NULL: none */
    uint32_t width;             /* pixels' size; required with `pixels` */
    uint32_t height;
    uint32_t host_texture;      /* a GL_TEXTURE_2D of the context's share group, complete for
                                   mipmapped filtering, as appearance.texture.host_texture,
                                   its levels holding the motion downsampled (glGenerateMipmap):
                                   it is read at the level the sprite is; default 0: none */
    float strength;             /* the motion of a byte of 255, in frames: finite, >= 0;
                                   default 0: 1 */
} plume_flipbook_motion;

typedef struct plume_appearance {
    plume_curve size_over_life;     /* multiplies the birth size; default: constant 1 */
    plume_gradient color_over_life; /* default: constant opaque white */
    plume_curve opacity_over_life;  /* multiplies the colour's alpha; default: constant 1 */
    plume_texture_desc texture;     /* default: none (solid squares) */
    /* Soft particles: a fragment fades out over this distance (world units,
     * > 0) in front of the scene depth the draw is given; default: 0.5. */
    float soft_fade_distance;
} plume_appearance;

/* The draw order of a system's particles (plume_system_desc.sort_mode)
 * [since 1.2]; the first drawn is at the back. Every mode is a total order:
 * equal keys are drawn by ascending slot, so nothing trades places between
 * frames. The readback's draw_keys hold each mode's key (plume_depth_key of
 * the value named, PLUME_ORDER_DESCENDING unless said), to the system's
 * sort_key_bits.
 *   VIEW_DEPTH      (default) back to front along the view axis:
 *                   -(view * position).z;
 *   DISTANCE        back to front by the distance to the eye (spherical:
 *                   right across wide fields of view, where two particles
 *                   at one view depth can be at different distances);
 *   OLDEST_FIRST    by age, the oldest drawn first (under the younger);
 *   YOUNGEST_FIRST  by age, the youngest drawn first (PLUME_ORDER_ASCENDING
 *                   keys of the age);
 *   NONE            no sort: the update skips it and draws in ascending slot
 *                   order, as it does for PLUME_BLEND_ADDITIVE whatever the
 *                   mode (additive light needs no order). */
typedef enum plume_sort_mode {
    PLUME_SORT_MODE_VIEW_DEPTH = 0,
    PLUME_SORT_MODE_DISTANCE = 1,
    PLUME_SORT_MODE_OLDEST_FIRST = 2,
    PLUME_SORT_MODE_YOUNGEST_FIRST = 3,
    PLUME_SORT_MODE_NONE = 4
} plume_sort_mode;

/* Which way a system's quads face (plume_system_desc.orientation)
 * [since 1.2]. Each quad is centred on its particle, `size` wide; with the view
 * plane's axes right and up and the view direction (the camera's back axis):
 *   CAMERA_FACING       (default) the view plane's axes, turned by the
 *                       particle's rotation;
 *   VELOCITY_STRETCHED  the length along the velocity, stretched by speed
 *                       (stretch_factor, stretch_limits), the width across
 *                       the velocity and the view direction (the quad turns
 *                       about its velocity to face the camera as far as it
 *                       can): sparks, rain;
 *   VELOCITY_ALIGNED    as VELOCITY_STRETCHED, unstretched (size x size);
 *   WORLD_AXIS          the length along orientation_axis, turned about it
 *                       to face the camera: grass-like quads;
 *   WORLD_FACING        in the plane of normal orientation_axis, its width
 *                       along cross(Y, normal) (cross(Z, normal) for a
 *                       normal along Y), turned by the rotation: quads on
 *                       the ground or a wall.
 * The velocity modes ignore the rotation; a length axis along the view
 * direction (or a particle at rest) falls back to the view plane's axes. The
 * sprite, flipbook and soft fade follow the quad in every mode, on every draw
 * path. */
typedef enum plume_orientation {
    PLUME_ORIENT_CAMERA_FACING = 0,
    PLUME_ORIENT_VELOCITY_STRETCHED = 1,
    PLUME_ORIENT_VELOCITY_ALIGNED = 2,
    PLUME_ORIENT_WORLD_AXIS = 3,
    PLUME_ORIENT_WORLD_FACING = 4
} plume_orientation;

/* How a system's particles blend onto what is behind them
 * (plume_system_desc.blend_mode) [since 1.2]. With c the particle's straight
 * colour and a its alpha (texture, colour and opacity over life, soft fade),
 * every mode is one premultiplied blend, dst = c a + (1 - a (1 - k)) dst,
 * with k the additive part:
 *   PREMULTIPLIED           k = 0: "over" (default);
 *   ADDITIVE                k = 1: light added, nothing covered. The order
 *                           does not change the picture, so update does not
 *                           sort (the profile's sort_padded_count and
 *                           sort_passes are 0, plume_system_get_sort_algorithm
 *                           says AUTOMATIC) and the draw order is ascending
 *                           slot (a total order: nothing flickers);
 *   PREMULTIPLIED_ADDITIVE  k = additive_over_life at the particle's age: in
 *                           one draw, a fire's young core adds light and its
 *                           old smoke covers; sorted like PREMULTIPLIED.
 * The GL blend state is the same (GL_ONE, GL_ONE_MINUS_SRC_ALPHA) in every
 * mode, so each draw path and resolution draws each mode. */
typedef enum plume_blend_mode {
    PLUME_BLEND_PREMULTIPLIED = 0,
    PLUME_BLEND_ADDITIVE = 1,
    PLUME_BLEND_PREMULTIPLIED_ADDITIVE = 2
} plume_blend_mode;

/* Trails (plume_system_desc.trail) [since 1.3]: each particle leaves a
 * strip through its last positions, drawn as camera-facing quads, one per
 * segment between two points, each with its own sort key, so a trail that
 * crosses itself or passes through the system's sprites blends in order.
 * The points: the particle's position now, then up to K - 1 positions the
 * update recorded on the GPU, one each time the particle has gone `spacing`
 * (seconds of its age, or world units of its path) since the last; a
 * particle born in a slot starts a new trail there. Between points the strip
 * follows a centripetal Catmull-Rom curve (up to PLUME_TRAIL_SUBDIVISIONS
 * quads a segment, as many as the segment's curve on the screen needs: 1
 * where it strays under half a pixel from its chord, 2 under 2 pixels, else
 * 4; docs/look.md), its width across the curve and the direction to the eye, so
 * segments meet without gaps and the strip never twists; the last segment
 * of a full trail shrinks as the next point nears, so the tail never jumps.
 * Width, colour and opacity over the trail's length (0 at the particle, 1
 * at the K-th point) multiply the particle's size, colour and opacity at
 * its age (blend mode, soft fade, light and emitted light as the sprites').
 * The sprite's columns run along the trail (stretched over its K points, or
 * repeated every uv_tile_length world units of path, fixed to the path),
 * its rows across.
 *
 * Memory, with E = K - 1 entries a particle (+ 1 where the particles are
 * drawn): capacity x (16 K + 8 E) bytes made at creation (the points and
 * the segments' sort pairs), and once the segments' sort runs its radix
 * sort (plume_sort.h: by their bound, E times the drawn particles'), its
 * scratch, about capacity x E x 17 bytes at the default 24 key bits (9 at
 * 16); all freed with the system. 64 K particles of 16 points: 25 MB, 43 MB
 * with the radix scratch. The update also writes each drawn particle's E
 * keys and sorts them (a second sort, of E times the pairs); a trail system
 * is not culled (its trails reach past the particles' spheres).
 *
 * Refused at creation (PLUME_ERROR_INVALID_ARGUMENT, naming the field,
 * nothing made): points 1 or over PLUME_MAX_TRAIL_POINTS, a spacing <= 0 or
 * not finite, an unknown spacing_mode or uv_mode, uv_mode TILE with a
 * flipbook of several frames, a uv_tile_length <= 0 or not finite, curves as
 * appearance's, a sort_mode by age (OLDEST_FIRST, YOUNGEST_FIRST: a trail's
 * segments share their particle's age and could not be ordered), capacity x
 * points over 2^30, a ribbon whose points are not 2 or whose spacing_mode
 * is not TIME; on the fragment path (GL 3.3)
 * PLUME_ERROR_GL_UNSUPPORTED. Drawn by the raster and the tiled path at
 * every draw_resolution, in the same order (the tiled path composites each
 * segment's triangles as the raster path draws them; the automatic pick
 * counts a trail system's particles times their pairs, and stays raster
 * where the tiled path would make over 2^21 ranks at a quad a pair of the
 * particles drawn, about 240 MB: past that only PLUME_DRAW_PATH_TILED
 * draws it tiled; a self-shadowed trail system draws raster). The tiled
 * path's per-rank buffers of a trail system (the context's) follow the
 * triangles drawn, not the capacity: (16 x splat vec4s + 4) bytes a rank,
 * made on its first tiled draw for a quad (2 ranks) a pair of the particles
 * it may draw and grown to a quarter more than its frames need (read back
 * without waiting; a frame past them draws raster), and 4 bytes a pair of
 * capacity x (points - 1 + 1) (docs/look.md). In a draw group (plume_draw_group.h,
 * plume_batch_draw) its segments sort with the other systems' sprites into
 * one back-to-front order, raster and tiled. */
enum { PLUME_MAX_TRAIL_POINTS = 128, PLUME_TRAIL_SUBDIVISIONS = 4 };

typedef enum plume_trail_spacing {
    PLUME_TRAIL_SPACING_TIME = 0,     /* a point every `spacing` seconds of age */
    PLUME_TRAIL_SPACING_DISTANCE = 1  /* a point every `spacing` world units travelled */
} plume_trail_spacing;

typedef enum plume_trail_uv {
    PLUME_TRAIL_UV_STRETCH = 0,       /* the sprite once over the trail's K points */
    PLUME_TRAIL_UV_TILE = 1           /* repeated every uv_tile_length world units of path */
} plume_trail_uv;

typedef struct plume_trail_desc {
    uint32_t points;                  /* K, 2 .. PLUME_MAX_TRAIL_POINTS; default 0: no trail */
    uint32_t spacing_mode;            /* plume_trail_spacing; default TIME */
    float spacing;                    /* > 0: seconds or world units between recorded points */
    plume_curve width_over_length;    /* multiplies the particle's drawn size; default: constant 1 */
    plume_gradient color_over_length; /* multiplies its colour; default: constant opaque white */
    plume_curve opacity_over_length;  /* multiplies its opacity; default: constant 1 */
    uint32_t uv_mode;                 /* plume_trail_uv; default STRETCH */
    float uv_tile_length;             /* TILE: world units a repeat; default 0: 1 */
    bool hide_particles;              /* default false: each particle's own quad is drawn too,
                                         sorted with the segments */
    /* Ribbons instead of trails: the particles of each instance joined in
     * emission order into strips, particle n's segment running to particle
     * n - 1 where that one is alive, of the same instance and born at most
     * `spacing` seconds before it (spacing_mode TIME), so a death or a pause
     * in the emission breaks the ribbon; a system's instances give several
     * ribbons. Its emitters share one emission order: a ribbon wants an
     * emitter of its own (or an instance, or a system). points must be 2 (a
     * segment a particle); width, colour and opacity run from each
     * particle's own to its neighbour's (the curves over the length at
     * their start); the sprite once over each segment. The ribbon finds a
     * particle's neighbours through a table of capacity entries by
     * emission number: where two live particles' numbers differ by a
     * multiple of the capacity, one of them may break the ribbon. Default
     * false. */
    bool ribbon;
} plume_trail_desc;

/* Self-shadowing (plume_system_desc.self_shadow) [since 1.3]: each draw
 * first splats the drawn particles' opacity, as the light sees it, into a
 * small light-space opacity map (map_size x map_size texels across the
 * light, `slices` layers along it, fitted to the live particles' box), then
 * shades each particle with the frame's directional light times
 * exp(-optical depth between the particle and the light): a dense column is
 * dark on its side away from the light, thin haze lets the light through.
 * A particle adds strength x alpha x size^2 / (a texel's area) to the
 * optical depth of the texels and slice around its centre (bilinear across
 * the light, its own slice along it; half its own slice counts in front of
 * it); strength 1 takes each particle for a square of its size as opaque as
 * its alpha, a sprite covering a part f of its quad is about strength f.
 * The splat is at the centre: a particle much larger than a texel puts its
 * whole opacity into the texels round its centre, so large puffs over a
 * fine map want a far lower strength (the demo's metre-wide puffs over a
 * 64 x 64 map: 0.012) or a coarser map.
 * The ambient term and the emitted light are not shadowed. Needs lit and
 * the compute path; draws on the raster and tiled paths at every
 * draw_resolution; a draw group (plume_draw_group.h) draws its systems
 * unshadowed. Memory: 64 bytes + 4 x map_size^2 x slices bytes a system
 * (the defaults: 128 KiB), one buffer, made at the first shadowed draw;
 * the update grows the particles' box on the GPU for it. Cost: three
 * compute passes a draw, O(drawn particles) atomics and O(map texels);
 * timed by plume_self_shadow_bench against the same draw without it
 * (docs/look.md, "Self-shadowing"). Zero everywhere (default): off. */
typedef struct plume_self_shadow_desc {
    /* Optical depth a particle adds, a multiple of its alpha x its area over
     * a texel's: finite, 0 .. 64; 0 (default): no self-shadowing (the other
     * fields must then be 0). */
    float strength;
    /* Texels across the light on each side: 8 .. 256; 0: 64. */
    uint32_t map_size;
    /* Layers along the light: 2 .. 16; 0: 8. */
    uint32_t slices;
} plume_self_shadow_desc;

#ifdef __cplusplus
}
#endif

#endif
