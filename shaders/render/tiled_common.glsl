// Shared by the tiled draw's passes (render/tiled.c), built after the look's
// defines (particles_look_defines) and TILED_SPLAT_VEC4S.
//
// A splat is a drawn particle as the screen sees it, written per rank (its
// position in the back-to-front list) by the projection pass and read by the
// composite, TILED_SPLAT_VEC4S vec4s. Its layout depends on the look the
// programs are built for, so that a system pays only for what it uses; (s, t)
// are the quad's own coordinates (0..1 from its corner (-0.5, -0.5)).
//
// Camera-facing (no PLUME_LOOK_ORIENTED): the quad spans the view plane, so
// the map from pixel to quad is affine and one depth serves all of it:
//   [0] xy: the target pixel position of the corner (-0.5, -0.5); z: view
//       depth; w: window depth
//   [1] the inverse of the quad's two screen axes, column-major:
//       (s, t) = mat2([1]) * (pixel - [0].xy) runs over 0..1 on the quad
// Any orientation (PLUME_LOOK_ORIENTED): with w the clip w, a pixel p maps
// to h = to_quad * (p.x, p.y, 1) = (s, t, 1) / w (projective: the quad need
// not face the camera, its depth varies over it):
//   [0], [1], [2] xyz: the rows of to_quad; w: the row of clip z, so that
//       clip z / w = dot(([0].w, [1].w, [2].w), h)
//   [3] xyz: the row of view depth, view depth = dot([3].xyz, h) / h.z;
//       w: a draw group's (TILED_GROUP, always oriented) system index, as
//       uint bits (SPLAT_GROUP_SYSTEM; splat_spare_word)
// Both map from the corners snapped as a rasteriser snaps them (1/256
// pixel): the pixels a quad covers, and the quad coordinates it shades them
// with, are a rasteriser's. Then:
//   [SPLAT_COLOR] colour, straight alpha, opacity applied
//   [SPLAT_TILES] x: the first pixel of its pixels' box (x | y << 16), y:
//       the last (its tiles are theirs over the tile size), z: flipbook
//       frames (frames_word: cells or indices), as uint bits; w: the frames' cross-fade
//       (PLUME_LOOK_ADDITIVE: packUnorm2x16 bits of it and the blend mode's
//       additive part)
//   PLUME_LOOK_LIT or PLUME_LOOK_EMISSIVE, [SPLAT_LIGHT] xyz: the light's
//       direction in the quad's frame (quad_light); w: packUnorm4x8 bits of
//       the emitted light (rgb) and whether the particle is lit (a)
//   TILED_TRAIL (a trail system's segments, render/trail_geometry.glsl;
//   built oriented): a rank is one of a sorted segment pair's
//   PLUME_GPU_TRAIL_SUBDIVISIONS quads' two triangles, as the raster path
//   splits a quad (a particle's own quad: the pair's first rank, whole),
//   its map the oriented one through the triangle's corners, so that
//   (u, v) = (s, t) of the map run over u, v >= 0, u + v <= 1; [3] w: uint
//   bits, 0 for a particle's own quad, 1 for a segment quad's triangle
//   (0, 0), (1, 0), (1, 1) of its (s, t) (s across the strip, t along it
//   from its near end), 2 for its triangle (0, 0), (1, 1), (0, 1);
//   [SPLAT_COLOR] the near end's colour; [SPLAT_TRAIL] xy: the far end's
//   colour as packHalf2x16 bits, zw: the sprite's column coordinate at the
//   near and far ends. A draw group with a trail system (TILED_GROUP and
//   TILED_TRAIL): a segment record's ranks as a trail's, a sprite record's
//   its first rank (its far colour its own), [3] w both words
//   (splat_spare_word).
layout(std430, binding = PLUME_BINDING_TILED_CONTROL) buffer TiledControl { uint control[]; };

// The lab's knobs (plume_lab_tiled_set_knobs; render/tiled.c sets them on
// the projection and the composite), one uniform:
//   x: the opacity cull (0 in the product): a particle whose colour's
//      alpha, the most its sprite can cover a pixel by, is at most this adds
//      under it to any pixel, and touches no tile;
//   y: tight bounds (0.5 in the product: the quad): half the side of the
//      square round the quad's centre outside which the sprite is
//      transparent; the pixels' box is the footprint's, the splat's map the
//      quad's;
//   z: 1 lists a splat in every tile of its box (0 in the product: those
//      it may show in, splat_row_tiles).
uniform vec3 u_lab_knobs;

// The ranks the passes run over: a system's drawn particles (the state's
// drawn count), or a trail system's sorted pairs' quads (the trail's control
// words bound as the state).
#if defined(TILED_TRAIL) && defined(TILED_GROUP)
// A draw group with a trail system: its list's items are records, a
// segment's PLUME_GPU_TRAIL_SUBDIVISIONS quads' triangles or a sprite's quad
// (the item's first rank).
#define TILED_DRAWN_WORD PLUME_STATE_DRAWN_COUNT
#define TILED_RANKS_PER_ITEM (2u * uint(PLUME_GPU_TRAIL_SUBDIVISIONS))
#define TILED_FALLBACK_VERTICES (6u * uint(PLUME_GPU_TRAIL_SUBDIVISIONS)) // draw_group.vert's, with trails
#elif defined(TILED_TRAIL)
#define TILED_DRAWN_WORD PLUME_TRAIL_SORT_COUNT
#define TILED_RANKS_PER_ITEM (2u * uint(PLUME_GPU_TRAIL_SUBDIVISIONS))
#define TILED_FALLBACK_VERTICES (6u * uint(PLUME_GPU_TRAIL_SUBDIVISIONS)) // trail_draw.vert's, a pair
#else
#define TILED_DRAWN_WORD PLUME_STATE_DRAWN_COUNT
#define TILED_RANKS_PER_ITEM 1u
#define TILED_FALLBACK_VERTICES 6u
#endif
// With trails the ranks are dense: the ranks each drawn item (a trail's
// pair, a group's record) needs (a particle's or sprite's quad 1, a segment
// 2 a quad of the curve's, none where it draws nothing) counted, then
// scanned at u_items.z of the counts, so that rank i is the i-th
// triangle drawn (tiled_project.comp), in the items' order; a frame whose
// ranks outgrow those made draws with the fallback (render/tiled.c); an
// item takes TILED_RANKS_PER_ITEM at most. Elsewhere an item is a rank.
#ifdef TILED_TRAIL
#define TILED_DENSE_RANKS
#endif

// The ranks the passes run over (the prepare pass's).
uint drawn_ranks() { return control[PLUME_TILED_DRAWN_RANKS]; }

#ifdef PLUME_LOOK_ORIENTED
#define SPLAT_MAP_VEC4S 4
#else
#define SPLAT_MAP_VEC4S 2
#endif
#define SPLAT_COLOR_AT SPLAT_MAP_VEC4S
#define SPLAT_LIGHT_AT (SPLAT_COLOR_AT + 2)
#if defined(PLUME_LOOK_LIT) || defined(PLUME_LOOK_EMISSIVE)
#define SPLAT_HAS_LIGHT
#define SPLAT_TRAIL_AT (SPLAT_LIGHT_AT + 1)
#else
#define SPLAT_TRAIL_AT SPLAT_LIGHT_AT
#endif
#ifdef TILED_TRAIL
#ifndef PLUME_LOOK_ORIENTED
#error "a trail's splats are oriented: the map through any triangle's corners"
#endif
#define SPLAT_END (SPLAT_TRAIL_AT + 1)
#else
#define SPLAT_END SPLAT_TRAIL_AT
#endif
#if SPLAT_END != TILED_SPLAT_VEC4S
#error "the splat's size (tiled_resources.c: splat_vec4s) is not its layout's"
#endif

const uint SPLAT_VEC4S = uint(TILED_SPLAT_VEC4S);
const uint SPLAT_COLOR = uint(SPLAT_COLOR_AT);
const uint SPLAT_TILES = SPLAT_COLOR + 1u;
const uint SPLAT_LIGHT = uint(SPLAT_LIGHT_AT);
const uint SPLAT_TRAIL = uint(SPLAT_TRAIL_AT);
#ifdef TILED_GROUP
#ifndef PLUME_LOOK_ORIENTED
#error "a draw group's splats are oriented: their system index is in the map's spare word"
#endif
const uint SPLAT_GROUP_SYSTEM = 3u;
#endif

// The map's spare word ([3] w): a trail's triangle (0: a whole quad), a
// group's system index, or with both (TILED_GROUP and TILED_TRAIL: a group
// with a trail system) the system index | the triangle << 30.
#if defined(TILED_GROUP) && defined(TILED_TRAIL)
float splat_spare_word(uint system, uint triangle) { return uintBitsToFloat(system | triangle << 30u); }
uint splat_triangle(float word) { return floatBitsToUint(word) >> 30u; }
uint splat_system(float word) { return floatBitsToUint(word) & 0x3FFFFFFFu; }
#else
float splat_spare_word(uint system, uint triangle) { return uintBitsToFloat(system | triangle); }
uint splat_triangle(float word) { return floatBitsToUint(word); }
uint splat_system(float word) { return floatBitsToUint(word); }
#endif

// The splat's word of the frames' cross-fade (and the additive part).
float splat_mix_word(float frame_mix, float additive) {
#ifdef PLUME_LOOK_ADDITIVE
    return uintBitsToFloat(packUnorm2x16(vec2(frame_mix, additive)));
#else
    return frame_mix;
#endif
}

// The cross-fade and the additive part from that word.
vec2 splat_mix_and_additive(float word) {
#ifdef PLUME_LOOK_ADDITIVE
    return unpackUnorm2x16(floatBitsToUint(word));
#else
    return vec2(word, 0.0);
#endif
}

const uint TILE_SIZE = uint(TILED_TILE_SIZE);  // pixels across a tile (a define of the build)

// A chunk's partial of a pixel (tiled_composite.comp, tiled_resolve.comp):
// its premultiplied colour and the part it covers, 1 - transmittance, as
// halves. The cover, not the transmittance: a faint chunk's transmittance
// just under 1 would round by up to 2^-12 in a half, and a hot tile's
// hundreds of chunks multiply those errors; its cover keeps 11 bits of its
// own size. Half the bytes of floats, so smaller chunks (more of them) fit.
// A chunk whose pixel stopped early (`stopped`) has its cover negated: the
// resolve must stop after it, and its transmittance rounded may read as
// at least the threshold. Colours past the largest half are clamped to it.
uvec2 pack_partial(vec3 color, float transmittance, bool stopped) {
    float cover = 1.0 - transmittance;
    color = min(color, vec3(65504.0));
    return uvec2(packHalf2x16(color.rg), packHalf2x16(vec2(color.b, stopped ? -cover : cover)));
}

// The partial's colour and cover, and whether its pixel stopped early.
vec4 unpack_partial(uvec2 partial, out bool stopped) {
    vec4 over = vec4(unpackHalf2x16(partial.x), unpackHalf2x16(partial.y));
    stopped = over.a < 0.0;
    return vec4(over.rgb, abs(over.a));
}

// A pixel's word of the splat's box ([SPLAT_TILES] x or y), and back.
float splat_pixel_word(uvec2 pixel) { return uintBitsToFloat(pixel.x | (pixel.y << 16)); }
uvec2 splat_word_pixel(float word) {
    uint bits = floatBitsToUint(word);
    return uvec2(bits & 0xFFFFu, bits >> 16);
}

// Where a splat can show on its quad (render/splat_cover.glsl): bounds of
// s, t, s + t and s - t, lower in lo, upper in hi. Camera-facing splats
// only; an oriented quad's tiles are its whole quad's.
struct SplatCover {
    vec4 lo, hi;
};
const SplatCover WHOLE_QUAD = SplatCover(vec4(0.0, 0.0, 0.0, -1.0), vec4(1.0, 1.0, 2.0, 1.0));

// Narrows `span` (the first and last tile columns of the tile row whose
// pixels run from y0 to y1) to the tiles over whose area the linear function
// of the pixel dot(row, (x, y, 1)) may be non-negative, by more than its
// rounding could make of it. Its largest value over a tile grows (row.x > 0)
// or falls (row.x < 0) with the column, so those tiles are a run of the
// row, found by solving for its end; `right` is the row's right end in
// pixels, which bounds the function's terms for the margin. Precise, so that
// the projection (which counts a splat's tiles) and the entries pass (which
// lists them) find the same tiles from the same words.
void narrow_span(vec3 row, float y0, float y1, float right, inout ivec2 span) {
    const float tile = float(TILED_TILE_SIZE);
    precise float largest_y = max(row.y * y0, row.y * y1) + row.z;
    precise float margin = 2e-5 * (abs(row.x) * (right + tile) + max(abs(row.y * y0), abs(row.y * y1)) + abs(row.z) +
                                   (abs(row.x) + abs(row.y)) * tile);
    // Written so that a bound that is not a number (a map's terms past
    // float's range) narrows nothing.
    if (row.x > 0.0) {
        // Largest at the tile's right edge, (column + 1) tiles.
        precise float column = (-largest_y - margin) / (row.x * tile) - 1.0 - 1e-3;
        if (column > -1.0) span.x = max(span.x, column < 65536.0 ? int(ceil(column)) : 65536);
    } else if (row.x < 0.0) {
        // Largest at its left edge, column tiles.
        precise float column = (largest_y + margin) / (-row.x * tile) + 1e-3;
        if (column < 65536.0) span.y = min(span.y, column > -1.0 ? int(floor(column)) : -1);
    } else if (largest_y < -margin) {
        span.y = -1;
    }
}

// The tiles of tile row `y` where a pixel may show the splat whose map is
// `map` (its first words: tiled_common.glsl's layout), tested against the
// tiles' whole area, half a pixel past their pixels' centres, within the
// columns `columns` of its box: the first and last column (last < first:
// none). The composite shows a pixel centre p only where the splat's quad
// coordinates are inside it, each a linear function of p:
//   camera-facing, (s, t) = mat2(map[1]) (p - map[0].xy), inside the
//   splat's cover (s, t, s + t and s - t within its bounds: the whole
//   quad's are s, t, 1 - s, 1 - t >= 0);
//   oriented, h = (row0, row1, row2) . (p, 1) with h.z > 0: h.x, h.y,
//   h.z - h.x, h.z - h.y >= 0, and for a trail's triangle h.z - h.x - h.y.
// So a tile where one of them is negative throughout holds no pixel it
// shows: the tiles of a slanted or rotated quad's box that its corners
// sweep past, a thin segment's off its diagonal, every tile but a few of a
// quad across the eye's plane (whose box is the screen). A row costs a few
// divisions, not a test a tile.
ivec2 splat_row_tiles(vec4 map[SPLAT_MAP_VEC4S], SplatCover cover, uint y, uvec2 columns) {
    float y0 = float(y * TILE_SIZE), y1 = y0 + float(TILE_SIZE), right = float((columns.y + 1u) * TILE_SIZE);
    ivec2 span = ivec2(columns);
#ifndef PLUME_LOOK_ORIENTED
    // The cover's eight sides, each a row of the pixel -> quad map (precise:
    // the projection and the entries pass must find the same tiles).
    vec4 m0 = map[0], m1 = map[1];
    precise vec3 s = vec3(m1.x, m1.z, -(m1.x * m0.x + m1.z * m0.y)), t = vec3(m1.y, m1.w, -(m1.y * m0.x + m1.w * m0.y));
    precise vec3 sum = s + t, difference = s - t;
    narrow_span(s - vec3(0.0, 0.0, cover.lo.x), y0, y1, right, span);
    narrow_span(t - vec3(0.0, 0.0, cover.lo.y), y0, y1, right, span);
    narrow_span(vec3(0.0, 0.0, cover.hi.x) - s, y0, y1, right, span);
    narrow_span(vec3(0.0, 0.0, cover.hi.y) - t, y0, y1, right, span);
    narrow_span(sum - vec3(0.0, 0.0, cover.lo.z), y0, y1, right, span);
    narrow_span(vec3(0.0, 0.0, cover.hi.z) - sum, y0, y1, right, span);
    narrow_span(difference - vec3(0.0, 0.0, cover.lo.w), y0, y1, right, span);
    narrow_span(vec3(0.0, 0.0, cover.hi.w) - difference, y0, y1, right, span);
#else
    vec3 row0 = map[0].xyz, row1 = map[1].xyz, row2 = map[2].xyz;
    narrow_span(row0, y0, y1, right, span);
    narrow_span(row1, y0, y1, right, span);
    narrow_span(row2, y0, y1, right, span);
#ifdef TILED_TRAIL
    if (splat_triangle(map[3].w) != 0u) {
        narrow_span(row2 - row0 - row1, y0, y1, right, span);
        return span;
    }
#endif
    narrow_span(row2 - row0, y0, y1, right, span);
    narrow_span(row2 - row1, y0, y1, right, span);
#endif
    return span;
}
