// What a particle looks like at its age: size, colour and opacity over life,
// and its flipbook frames. The raster draws' vertex shaders
// (particle_quad.glsl, both GPU paths) and the tiled path's projection pass
// all use it, so that they draw the same particles. No storage blocks here:
// GLSL 330 builds it too.
// A program is built with the defines of its system's look
// (particles_look_defines): PLUME_LOOK_ORIENTED, PLUME_LOOK_LIT,
// PLUME_LOOK_EMISSIVE, PLUME_LOOK_ADDITIVE. Without one, its term is a
// constant here (camera-facing, no emitted light, no additive part) and the
// code that reads it folds away: the default look costs what it did before
// the look. The fragment path builds it without any (it draws the default
// look only).
#include "particles/particle_common.glsl"
#include "render/flipbook_cell.glsl"

// PLUME_APPEARANCE_TABLE: the includer reads the appearance from a table of
// systems (render/draw_group_table.comp) under these names, defined before
// the include; no uniforms for it here.
#ifndef PLUME_APPEARANCE_TABLE
// Curves over the life fraction: key times and values, key_count >= 1.
uniform float u_size_times[PLUME_GPU_MAX_CURVE_KEYS];
uniform float u_size_values[PLUME_GPU_MAX_CURVE_KEYS];
uniform int u_size_count;
uniform float u_opacity_times[PLUME_GPU_MAX_CURVE_KEYS];
uniform float u_opacity_values[PLUME_GPU_MAX_CURVE_KEYS];
uniform int u_opacity_count;
uniform float u_color_times[PLUME_GPU_MAX_CURVE_KEYS];
uniform vec4 u_color_values[PLUME_GPU_MAX_CURVE_KEYS];
uniform int u_color_count;
// The blend mode's additive part k over life (plume_blend_mode): constant 0
// for premultiplied, 1 for additive.
uniform float u_additive_times[PLUME_GPU_MAX_CURVE_KEYS];
uniform float u_additive_values[PLUME_GPU_MAX_CURVE_KEYS];
uniform int u_additive_count;
// Emitted light over life (rgb times a); none: a single black key.
uniform float u_emissive_times[PLUME_GPU_MAX_CURVE_KEYS];
uniform vec4 u_emissive_values[PLUME_GPU_MAX_CURVE_KEYS];
uniform int u_emissive_count;
uniform uvec2 u_flipbook;        // columns, rows
uniform vec2 u_flipbook_cell;     // a frame's size in the atlas: 1 / u_flipbook
uniform bool u_frame_blend;
// The sprite is the host's GL_TEXTURE_2D_ARRAY: a frame per layer (u_flipbook
// is then {layers, 1}), sampled at the quad's own uv.
uniform bool u_sprite_is_array;
#endif

// Piecewise linear; holds the first value before the first key and the last
// after the last. Each segment the life has entered sets the value (the
// last one entered wins; clamped, a segment passed gives its end key), in a
// loop of constant length without an exit: a shader evaluates several
// curves, and loops of `count` with early returns, one after another, sent
// LLVM's loop analysis (llvmpipe's JIT) into minutes per program. Within a
// segment the expression is the one of a search for it, so the values are
// the same.
float segment_fraction(float times[PLUME_GPU_MAX_CURVE_KEYS], int k, float t) {
    return clamp((t - times[k - 1]) / max(times[k] - times[k - 1], 1e-30), 0.0, 1.0);
}

float curve_value(float times[PLUME_GPU_MAX_CURVE_KEYS], float values[PLUME_GPU_MAX_CURVE_KEYS], int count, float t) {
    float value = values[0];
    for (int k = 1; k < PLUME_GPU_MAX_CURVE_KEYS; ++k)
        if (k < count && t > times[k - 1]) value = mix(values[k - 1], values[k], segment_fraction(times, k, t));
    return value;
}

vec4 gradient_value(float times[PLUME_GPU_MAX_CURVE_KEYS], vec4 values[PLUME_GPU_MAX_CURVE_KEYS], int count,
                    float t) {
    vec4 value = values[0];
    for (int k = 1; k < PLUME_GPU_MAX_CURVE_KEYS; ++k)
        if (k < count && t > times[k - 1]) value = mix(values[k - 1], values[k], segment_fraction(times, k, t));
    return value;
}

// The atlas coordinates of `corner_uv` (0..1 over the quad, v down from the
// image's top) in the flipbook's cell `cell` (column, row).
vec2 cell_uv(uvec2 cell, vec2 corner_uv) {
    return (vec2(cell) + corner_uv) * u_flipbook_cell;
}

// The texture coordinates of `corner_uv` in flipbook frame `frame`.
vec2 frame_uv(uint frame, vec2 corner_uv) {
    if (u_sprite_is_array) return corner_uv;
    return flipbook_frame_uv(frame, u_flipbook.x, u_flipbook_cell, corner_uv);
}

// A quad's two flipbook frames in one word, as the tiled path's splats
// carry them. An atlas of at most 256 columns and rows gives each frame's
// cell (column | row << 8, 16 bits a frame), so that the composite finds
// them without computing a cell for every pixel and quad (a tenth of its
// time at the demo's 64 K, H200); any other sprite the frames' indices.
bool frames_word_holds_cells() {
    return !u_sprite_is_array && u_flipbook.x <= 256u && u_flipbook.y <= 256u;
}

uint frames_word(uint frame, uint next) {
    if (!frames_word_holds_cells()) return frame | next << 16;
    uvec2 cell = flipbook_cell(frame, u_flipbook.x, u_flipbook_cell.x);
    uvec2 next_cell = flipbook_cell(next, u_flipbook.x, u_flipbook_cell.x);
    return cell.x | cell.y << 8 | next_cell.x << 16 | next_cell.y << 24;
}

// The atlas cell of frames_word's frame (which 0) or next frame (which 1).
uvec2 frames_word_cell(uint word, uint which) {
    uint bits = which == 0u ? word & 0xFFFFu : word >> 16;
    return frames_word_holds_cells() ? uvec2(bits & 0xFFu, bits >> 8) : flipbook_cell(bits, u_flipbook.x, u_flipbook_cell.x);
}

uniform vec3 u_sprite_cover_reach;  // a frame's texels across and down; the farthest a motion slides a read (quad units)

// The level of detail of a read whose texel coordinates change by dx and dy
// a pixel: GL's, rho the longer derivative's length, without the
// approximations GL allows an implementation (anywhere from the largest
// derivative to the sum of each coordinate's largest). Every draw of a
// sprite's quads (raster, tiled, draw groups, trails; meshes sample
// theirs otherwise) reads it at this level through textureLod: the paths
// read alike on any GL, and the tiled path's cover of a sprite's frames
// (splat_cover.glsl) holds every read.
// Precise where GLSL has it (the compute path's programs): the tiled
// projection and entries pass must find the same level from the same words.
#if __VERSION__ >= 400
#define LOD_PRECISE precise
#else
#define LOD_PRECISE
#endif
float texel_lod(vec2 dx, vec2 dy) {
    LOD_PRECISE float longer = max(max(dot(dx, dx), dot(dy, dy)), 1e-30);
    LOD_PRECISE float lod = 0.5 * log2(longer);
    return lod;
}

// The same for a read of a frame whose quad coordinates change by d_dx and
// d_dy a pixel.
float quad_sprite_lod(vec2 d_dx, vec2 d_dy) {
    LOD_PRECISE vec2 dx = d_dx * u_sprite_cover_reach.xy, dy = d_dy * u_sprite_cover_reach.xy;
    return texel_lod(dx, dy);
}

// The flipbook's motion (plume_flipbook_motion): frame k's texel says where
// its content is in frame k + 1, in frames, bytes of 128 meaning none.
uniform sampler2D u_flipbook_motion; // unit PLUME_TEXTURE_UNIT_FLIPBOOK_MOTION
uniform bool u_has_motion;
uniform float u_motion_strength;

// The motion of the frame in atlas cell `cell` at `corner_uv`, in the
// quad's coordinates (zero without motion). Read at the sprite's level of
// detail `lod` (texel_lod; the motion is the sprite's size): its level 0
// under a small splat spreads the reads over many more texels, and the
// cache misses cost the tiled composite a tenth of its time at 1 M puffs.
vec2 flipbook_motion(uvec2 cell, vec2 corner_uv, float lod) {
    if (!u_has_motion) return vec2(0.0);
    vec2 bytes = textureLod(u_flipbook_motion, cell_uv(cell, corner_uv), lod).rg;
    return clamp((bytes * 255.0 - 128.0) / 127.0, -1.0, 1.0) * u_motion_strength;
}

// The atlas coordinates at `corner_uv` of the frames in cells `cell` and
// `next_cell`, each slid along the first frame's motion there
// (flipbook_motion): the first back by the blend fraction, the next forward
// by the rest, so the cross-fade follows the content instead of ghosting
// it. Without motion, cell_uv of each.
void slid_frame_uvs(uvec2 cell, uvec2 next_cell, float frame_mix, vec2 corner_uv, vec2 motion, out vec2 uv_frame,
                    out vec2 uv_next) {
    uv_frame = cell_uv(cell, clamp(corner_uv - frame_mix * motion, 0.0, 1.0));
    uv_next = cell_uv(next_cell, clamp(corner_uv + (1.0 - frame_mix) * motion, 0.0, 1.0));
}

struct Appearance {
    float size;          // quad edge, world units
    vec4 color;          // straight alpha, opacity applied
    uint frame, next;    // flipbook frames cross-faded
    float frame_mix;     // 0: `frame` only
    float additive;      // the part of the light that adds: covers a * (1 - additive)
    vec3 emissive;       // light emitted, added to the (lit) colour
};

Appearance particle_appearance(ParticleMotion p, ParticleTraits t) {
    Appearance a;
    float life = clamp(p.age / p.lifetime, 0.0, 1.0);
    a.size = t.size * curve_value(u_size_times, u_size_values, u_size_count, life);
    a.color = gradient_value(u_color_times, u_color_values, u_color_count, life);
    a.color.a *= curve_value(u_opacity_times, u_opacity_values, u_opacity_count, life);
#if __VERSION__ >= 420 // the compute path's draws; the fragment path (GLSL 330) has no emits
    a.color *= vec4(unpackHalf2x16(t.color_rg), unpackHalf2x16(t.color_ba)); // the emit's multiplier
#endif
#ifdef PLUME_LOOK_EMISSIVE
    vec4 emissive = gradient_value(u_emissive_times, u_emissive_values, u_emissive_count, life);
    a.emissive = emissive.rgb * emissive.a;
#else
    a.emissive = vec3(0.0);
#endif
#ifdef PLUME_LOOK_ADDITIVE
    a.additive = clamp(curve_value(u_additive_times, u_additive_values, u_additive_count, life), 0.0, 1.0);
#else
    a.additive = 0.0;
#endif
    uint frames = u_flipbook.x * u_flipbook.y;
    float frame = life * float(frames);
    a.frame = min(uint(frame), frames - 1u);
    a.next = min(a.frame + 1u, frames - 1u);
    a.frame_mix = u_frame_blend ? clamp(frame - float(a.frame), 0.0, 1.0) : 0.0;
    return a;
}

// Orientation (plume_orientation): the quad's two edges in world space.
#ifdef PLUME_LOOK_ORIENTED
#define LOOK_ORIENTATION u_orientation
#else
#define LOOK_ORIENTATION 0u  // camera-facing: quad_edges folds to the view plane's axes
#endif
#ifndef PLUME_APPEARANCE_TABLE
uniform uint u_orientation;
uniform vec3 u_orientation_axis;  // unit: WORLD_AXIS's axis, WORLD_FACING's normal
uniform vec3 u_stretch;           // VELOCITY_STRETCHED: factor (s / unit), lowest and highest length / size
#endif

struct QuadEdges {
    vec3 across;  // corner.x runs along it: the quad's width
    vec3 along;   // corner.y: its length
};

vec3 unit_or(vec3 v, vec3 fallback) {
    float length_squared = dot(v, v);
    return length_squared > 1e-12 ? v * inversesqrt(length_squared) : fallback;
}

// The quad's edges for a particle of drawn size `size` moving at `velocity`,
// turned by `rotation` where the mode turns (camera- and world-facing),
// for a camera whose view plane has axes `right` and `up`. The velocity
// modes and the world axis turn the quad about its length axis towards the
// camera (its width is across that axis and the view direction); a length
// axis along the view direction falls back to the view plane's axes.
QuadEdges quad_edges(vec3 velocity, float rotation, float size, vec3 right, vec3 up) {
    vec3 back = cross(right, up);
    vec3 across = right, along = up;
    float length = size;
    bool turns = true;
    uint orientation = LOOK_ORIENTATION;
    if (orientation == 1u || orientation == 2u || orientation == 3u) {
        vec3 axis = orientation == 3u ? u_orientation_axis : unit_or(velocity, vec3(0.0));
        vec3 width = unit_or(cross(axis, back), vec3(0.0));
        if (dot(width, width) > 0.0) {
            across = width;
            along = axis;
        }
        if (orientation == 1u)
            length = size * clamp(1.0 + u_stretch.x * sqrt(dot(velocity, velocity)), u_stretch.y, u_stretch.z);
        turns = false;
    } else if (orientation == 4u) {
        vec3 n = u_orientation_axis;
        across = normalize(cross(abs(n.y) < 0.999 ? vec3(0.0, 1.0, 0.0) : vec3(0.0, 0.0, 1.0), n));
        along = cross(n, across);
    }
    if (turns) {
        float c = cos(rotation), s = sin(rotation);
        vec3 turned_across = c * across + s * along;
        along = -s * across + c * along;
        across = turned_across;
    }
    return QuadEdges(across * size, along * length);
}

// The quad's corner `corner` (each coordinate +-0.5) in world space.
vec3 quad_corner(vec3 centre, vec2 corner, QuadEdges edges) {
    return centre + edges.across * corner.x + edges.along * corner.y;
}

// Lighting (plume_system_desc.lit and the frame's light).
uniform vec3 u_light_direction;  // unit, towards the light; zero: no directional light
uniform vec3 u_light_color;
uniform vec3 u_ambient_color;

// The light's direction in the quad's frame: x along its width, y along its
// length, z its normal towards the camera (back: the view's back axis).
vec3 quad_light(QuadEdges edges, vec3 back) {
    vec3 x = normalize(edges.across), y = normalize(edges.along);
    vec3 z = normalize(cross(x, y));
    if (dot(z, back) < 0.0) z = -z;
    return vec3(dot(u_light_direction, x), dot(u_light_direction, y), dot(u_light_direction, z));
}

// The one lighting model of every lit particle, sprite or mesh: ambient plus
// the directional light on a surface of unit normal `normal` (`light`: the
// unit direction towards the light in the normal's frame).
vec3 normal_lighting(vec3 normal, vec3 light) {
    return u_ambient_color + u_light_color * max(dot(normal, light), 0.0);
}

// The light reaching quad coordinates st (0..1 along the width and length)
// of a half sphere bulging from the quad: its normal is (x, y, sqrt(1 - x^2 -
// y^2)) at (x, y) = 2 st - 1, lying flat beyond the circle (the rim).
vec3 sphere_lighting(vec2 st, vec3 light) {
    vec2 xy = st * 2.0 - 1.0;
    float r2 = dot(xy, xy);
    // Inside the circle (x, y, sqrt(1 - r^2)) is a unit vector already.
    vec3 normal = r2 < 1.0 ? vec3(xy, sqrt(1.0 - r2)) : vec3(xy * inversesqrt(r2), 0.0);
    return normal_lighting(normal, light);
}
