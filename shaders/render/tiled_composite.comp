// Built with the look's defines: the splat's layout and the terms shaded are
// the look's (the default look's: the camera-facing affine map, no light, no
// additive part). One invocation per pixel of a tile; its entries, walked from
// the nearest particle to the farthest, composited front to back in registers,
//     colour += transmittance * premultiplied;  transmittance *= 1 - alpha,
// which is what blending them back to front over the host's colour gives.
// Each pixel shades a particle as particle_draw.frag does: the sprite (frames
// cross-faded), the colour (lit, plus the emitted light), the soft fade
// against the scene depth, and the depth test the raster path gets from the
// host's depth function.
//
// Two ways to share a tile's run among workgroups (u_chunk_entries):
//   0:  one workgroup per tile walks its whole run and writes the target;
//   K:  the run is cut into chunks of at most K entries, nearest first
//       (tiled_ranges.comp plans them), one workgroup per chunk: a tile of one
//       chunk writes the target as above; a chunk of a longer tile writes
//       its pixels' partial (premultiplied colour and cover, as halves:
//       pack_partial) and tiled_resolve.comp combines them front to back
//       (the "over" operator is associative). The busiest tile then costs
//       K entries per workgroup, not its whole run.
// A particle of additive part k (plume_blend_mode) adds its light c a whole
// but covers only a (1 - k): transmittance *= 1 - a (1 - k); additive light
// occludes nothing.
//
// Early termination: a pixel stops once its transmittance is below
// u_threshold (the workgroup once all its pixels have). The composite is then
// the over-composite of a prefix of the pixel's entries. What the skipped
// rest would add, per channel, is the sum of T_i c_i a_i over them, T_i the
// transmittance in front of entry i: with c <= 1 and every k at most K,
// a_i <= a_i (1 - k_i) / (1 - K), and the sum of T_i a_i (1 - k_i) telescopes
// to at most the transmittance T where the pixel stopped. So the error is at
// most T / (1 - K): tiled.c passes u_threshold = threshold * (1 - K), which
// keeps it under the frame's threshold; an additive system (K = 1) never
// stops early (nor would its transmittance fall). Chunked,
// a chunk stops on its own transmittance T_c < u_threshold and says so in
// its partial (pack_partial); the resolve multiplies the chunks'
// transmittances in order and stops where the product falls below
// u_threshold or after a chunk that stopped, whichever comes first (a
// slice of chunks combined apart stops so on its own, and the slices'
// combination after one that stopped). Every chunk combined in front of
// the last was composited whole, so the result is again a prefix of the
// entries, ended where the transmittance in front is below the threshold:
// the same bound as unchunked, whatever the number of chunks.
#include "particles/particle_common.glsl"
#include "render/particle_appearance.glsl" // the flipbook, the light
#include "render/tiled_common.glsl"
#include "render/tiled_target.glsl"
#include "shared/scene_depth.glsl"

layout(local_size_x = TILED_TILE_SIZE, local_size_y = TILED_TILE_SIZE) in;

layout(std430, binding = PLUME_BINDING_TILED_SPLATS) restrict readonly buffer Splats { vec4 splats[]; };
layout(std430, binding = PLUME_BINDING_TILED_ENTRIES) restrict readonly buffer Entries { uvec2 entries[]; };
layout(std430, binding = PLUME_BINDING_TILED_RANGES) restrict readonly buffer Ranges { uvec2 ranges[]; };
layout(std430, binding = PLUME_BINDING_TILED_CHUNK_TABLE) restrict readonly buffer ChunkTable { uint chunk_table[]; };
layout(std430, binding = PLUME_BINDING_TILED_PARTIALS) restrict writeonly buffer Partials { uvec2 partials[]; };

uniform sampler2D u_sprite;         // unit 0, premultiplied RGBA
uniform sampler2DArray u_sprite_array; // unit PLUME_TEXTURE_UNIT_SPRITE_ARRAY: a host array, a frame per layer
uniform sampler2D u_scene_depth;    // unit 1, window depth 0..1
uniform bool u_has_texture;
uniform float u_soft_fade_distance; // 0: no fade
uniform mat4 u_inverse_projection;
uniform ivec2 u_target_size;
uniform ivec2 u_depth_origin;       // the target's pixel 0 in the depth texture's pixels
uniform vec2 u_depth_size;          // the pixels the depth texture covers
uniform float u_threshold;          // transmittance that ends a pixel; 0: never
uniform uvec2 u_tiles;
uniform uint u_chunk_entries;       // 0: a workgroup per tile; K: per chunk of at most K entries
uniform bool u_hit_lists;           // test 32 splats, then shade those that cover the pixel
#ifdef TILED_GROUP
// A draw group's systems' table (draw_group.c): per system its sprite's
// layer of the group's array on u_sprite_array's unit (-1: none), its
// flipbook's columns and rows, its soft fade distance (u_soft_fade_distance:
// the largest, 0 where none applies).
#include "render/draw_group_systems.glsl"
#endif

const uint BATCH = uint(TILED_BATCH); // splats loaded at once: min(pixels, 256), in 32 KiB of shared memory
// The batch holds each splat's map (what the test of whether it covers a
// pixel reads) and its rank; the shading reads the splat's other words
// (colour, frames, light, trail) from the splats buffer at the pixels it
// covers. A workgroup so keeps less shared memory and loads no words that
// none of its pixels shades with (most of a thin triangle's): faster for
// trails and smoke on an H200 (notes/wave3-draws-h200.md). With
// TILED_WHOLE_SPLAT_BATCH (the lab's whole_splat_batch) it holds whole
// splats, the baseline.
#ifdef TILED_WHOLE_SPLAT_BATCH
#define BATCH_VEC4S TILED_SPLAT_VEC4S
#else
#define BATCH_VEC4S SPLAT_MAP_VEC4S
shared uint batch_rank[TILED_BATCH];
#endif
shared vec4 batch[TILED_BATCH * BATCH_VEC4S];
#ifndef PLUME_LOOK_ORIENTED
shared float batch_lod[TILED_BATCH]; // each splat's level of detail (camera-facing: one a splat)
#endif
shared uint pixels_alive[2];

// Word k of the batch's splat j (k a constant, so the choice folds).
vec4 splat_vec4(uint j, uint k) {
#ifndef TILED_WHOLE_SPLAT_BATCH
    if (k >= uint(BATCH_VEC4S)) return splats[batch_rank[j] * SPLAT_VEC4S + k];
#endif
    return batch[j * uint(BATCH_VEC4S) + k];
}

// A tile composites in regions of 8 x 4 pixels, a subgroup of 32 each
// (unless the lab's whole_tile_lists knob builds without): a splat loaded
// into the batch sets its bit in the lists of the regions its pixels' box
// overlaps, and a pixel walks its region's list, so a tile of small splats
// costs each pixel the splats near it, not the whole tile's, while the
// binning (entries, their sort) stays at the tile's size. A subgroup walks
// one list: a splat its region's box misses costs it nothing. Tiles of 8
// build the lists for the hit lists only: camera-facing puffs at full
// resolution cover most of a tile, and walk the batch as it is.
#ifndef TILED_WHOLE_TILE_LISTS
#define TILED_REGIONS
const uint REGION_WIDE = 8u, REGION_HIGH = 4u;
const uint REGIONS_ACROSS = TILE_SIZE / REGION_WIDE;
const uint REGIONS = REGIONS_ACROSS * (TILE_SIZE / REGION_HIGH);
const uint LIST_WORDS = (BATCH + 31u) / 32u;
shared uint region_lists[(TILED_TILE_SIZE / 8) * (TILED_TILE_SIZE / 4) * ((TILED_BATCH + 31) / 32)];
#endif

// Where a pixel falls on a splat of the batch.
struct SplatPixel {
    vec2 st;            // quad coordinates, 0..1 over it
    vec2 d_dx, d_dy;    // their derivatives by pixel x and y
    float window_depth; // the quad's, for the depth test
    float view_depth;   // the quad's, for the soft fade
};

// Whether a splat covers a pixel is decided by splat_inside alone. With
// u_hit_lists a pixel first tests 32 splats of the batch, then shades, in
// order, only those that cover it, so that a subgroup runs the shading as
// many times as its busiest pixel has splats, not once for every splat any
// of its pixels has: a thin trail's triangle or a streak covers a few
// pixels of a tile. Without, each splat is tested as it is shaded, which
// costs less where the splats cover most of a tile (render/tiled.c
// decides).
#ifndef PLUME_LOOK_ORIENTED
// Camera-facing: the map from pixel to quad is affine, one depth serves the
// whole quad.
vec2 splat_st(uint j, vec2 centre) {
    vec4 place = splat_vec4(j, 0u), axes = splat_vec4(j, 1u);
    return mat2(axes.xy, axes.zw) * (centre - place.xy);
}

bool splat_inside(vec2 st) { return !(any(lessThan(st, vec2(0.0))) || any(greaterThan(st, vec2(1.0)))); }

bool splat_covers(uint j, vec2 centre) { return splat_inside(splat_st(j, centre)); }

// Where the pixel falls on the splat; false where the splat does not cover
// it (unless `covered`: splat_covers said it does).
bool splat_pixel(uint j, vec2 centre, bool covered, out SplatPixel sp) {
    vec4 place = splat_vec4(j, 0u), axes = splat_vec4(j, 1u);
    vec2 st = splat_st(j, centre);
    if (!covered && !splat_inside(st)) return false;
    sp = SplatPixel(st, axes.xy, axes.zw, place.w, place.z);
    return true;
}
#else
// Any orientation: the map is projective, the depth varies over the quad.
// h = (s, t, 1) / w.
vec3 splat_h(uint j, vec2 centre) {
    vec3 pixel = vec3(centre, 1.0);
    return vec3(dot(splat_vec4(j, 0u).xyz, pixel), dot(splat_vec4(j, 1u).xyz, pixel), dot(splat_vec4(j, 2u).xyz, pixel));
}

bool splat_inside(uint j, vec3 h, vec2 st) {
    if (h.z <= 0.0) return false; // behind the eye
    if (any(lessThan(st, vec2(0.0))) || any(greaterThan(st, vec2(1.0)))) return false;
#ifdef TILED_TRAIL
    // A segment's triangle (tiled_common.glsl): its map's (u, v) inside it.
    if (splat_triangle(splat_vec4(j, 3u).w) != 0u && st.x + st.y > 1.0) return false;
#endif
    return true;
}

bool splat_covers(uint j, vec2 centre) {
    vec3 h = splat_h(j, centre);
    return splat_inside(j, h, h.xy / h.z);
}

// Where the pixel falls on the splat; false where the splat does not cover
// it (unless `covered`: splat_covers said it does), or the near or far
// plane clips it there.
bool splat_pixel(uint j, vec2 centre, bool covered, out SplatPixel sp) {
    vec4 row0 = splat_vec4(j, 0u), row1 = splat_vec4(j, 1u), row2 = splat_vec4(j, 2u);
    vec3 h = splat_h(j, centre);
    vec2 st = h.xy / h.z;
    if (!covered && !splat_inside(j, h, st)) return false;
    vec3 x_row = vec3(row0.x, row1.x, row2.x), y_row = vec3(row0.y, row1.y, row2.y);
    float ndc_z = dot(vec3(row0.w, row1.w, row2.w), h);
    if (!ndc_depth_inside(ndc_z)) return false;
    sp.st = st;
    sp.d_dx = (x_row.xy - st * x_row.z) / h.z;
    sp.d_dy = (y_row.xy - st * y_row.z) / h.z;
    sp.window_depth = window_depth_of_ndc(ndc_z);
    sp.view_depth = dot(splat_vec4(j, 3u).xyz, h) / h.z;
#ifdef TILED_TRAIL
    // A segment's triangle: its quad's (s, t) from the map's (u, v).
    uint triangle = splat_triangle(splat_vec4(j, 3u).w);
    mat2 to_st = triangle == 1u ? mat2(1.0, 0.0, 1.0, 1.0) : triangle == 2u ? mat2(1.0, 1.0, 0.0, 1.0) : mat2(1.0);
    sp.st = to_st * st;
    sp.d_dx = to_st * sp.d_dx;
    sp.d_dy = to_st * sp.d_dy;
#endif
    return true;
}
#endif

#ifdef TILED_TRAIL
// A trail quad's colour from its near end (t = 0) to its far end, the
// sprite's coordinates (a segment's columns along the trail, its rows
// across; a particle's own quad as the other paths') and their derivatives,
// and where the light is read (a segment lit across as a tube).
void trail_shading(uint j, SplatPixel sp, inout vec4 tint, inout vec2 corner_uv, inout vec2 uv_dx,
                   inout vec2 uv_dy, inout vec2 light_st) {
    vec4 trail = splat_vec4(j, SPLAT_TRAIL);
    vec4 far_tint = vec4(unpackHalf2x16(floatBitsToUint(trail.x)), unpackHalf2x16(floatBitsToUint(trail.y)));
    tint = mix(tint, far_tint, sp.st.y);
    if (splat_triangle(splat_vec4(j, 3u).w) == 0u) return; // a particle's own quad
    float length_uv = trail.w - trail.z;
    corner_uv = vec2(trail.z + length_uv * sp.st.y, 1.0 - sp.st.x);
    uv_dx = vec2(length_uv * sp.d_dx.y, -sp.d_dx.x);
    uv_dy = vec2(length_uv * sp.d_dy.y, -sp.d_dy.x);
    light_st = vec2(sp.st.x, 0.5);
}
#endif

// The host's glDepthFunc is a define of the build (TILED_DEPTH_FUNCTION:
// render/tiled.c builds a composite for each function drawn with), so
// the test folds to one comparison: a switch on a uniform cost the
// composite 3 % at the demo's 64 K (H200).
bool depth_passes(float particle, float scene) {
    switch (uint(TILED_DEPTH_FUNCTION)) {
    case 0x0200u: return false;              // GL_NEVER
    case 0x0201u: return particle < scene;   // GL_LESS
    case 0x0202u: return particle == scene;  // GL_EQUAL
    case 0x0203u: return particle <= scene;  // GL_LEQUAL
    case 0x0204u: return particle > scene;   // GL_GREATER
    case 0x0205u: return particle != scene;  // GL_NOTEQUAL
    case 0x0206u: return particle >= scene;  // GL_GEQUAL
    default: return true;                    // GL_ALWAYS
    }
}

// Splat `j` of the batch over the pixel centred at `centre` (the scene's
// window and view depths there; `covered`: splat_covers said it covers it),
// composited under what is in front.
void composite_splat(uint j, vec2 centre, bool covered, float scene_window, float scene_view, inout vec3 color,
                     inout float transmittance) {
    SplatPixel sp;
    if (!splat_pixel(j, centre, covered, sp)) return;
    if (!depth_passes(sp.window_depth, scene_window)) return;
    vec4 tint = splat_vec4(j, SPLAT_COLOR), frames = splat_vec4(j, SPLAT_TILES);
    vec2 mix_and_additive = splat_mix_and_additive(frames.w);
    vec4 texel = vec4(1.0);
    float fade_distance = u_soft_fade_distance;
    vec2 corner_uv = vec2(sp.st.x, 1.0 - sp.st.y), light_st = sp.st;
    vec2 uv_dx = vec2(sp.d_dx.x, -sp.d_dx.y), uv_dy = vec2(sp.d_dy.x, -sp.d_dy.y);
#ifdef TILED_TRAIL
    trail_shading(j, sp, tint, corner_uv, uv_dx, uv_dy, light_st);
#endif
#ifdef TILED_GROUP
    uint system = splat_system(splat_vec4(j, SPLAT_GROUP_SYSTEM).w);
    fade_distance = u_soft_fade_distance > 0.0 ? group_system_soft_fade(system) : 0.0;
    int group_layer = group_system_layer(system);
    if (group_layer >= 0) {
        uint both = floatBitsToUint(frames.z);
        uvec2 book = group_system_flipbook(system);
        vec2 cell_size = 1.0 / vec2(book);
        vec2 layer_texels = vec2(textureSize(u_sprite_array, 0).xy);
        float lod = texel_lod(uv_dx * cell_size * layer_texels, uv_dy * cell_size * layer_texels);
        float layer = float(group_layer);
        vec2 uv_frame = flipbook_frame_uv(both & 0xFFFFu, book.x, cell_size, corner_uv);
        vec2 uv_next = flipbook_frame_uv(both >> 16, book.x, cell_size, corner_uv);
        texel = mix(textureLod(u_sprite_array, vec3(uv_frame, layer), lod),
                    textureLod(u_sprite_array, vec3(uv_next, layer), lod), mix_and_additive.x);
    }
#else
    if (u_has_texture) {
        uint both = floatBitsToUint(frames.z);
        // The level every draw reads a sprite at (texel_lod): a
        // camera-facing splat's, one a splat, from the batch.
#ifndef PLUME_LOOK_ORIENTED
        float lod = batch_lod[j];
#else
        float lod = quad_sprite_lod(uv_dx, uv_dy);
#endif
        if (u_sprite_is_array)
            texel = mix(textureLod(u_sprite_array, vec3(corner_uv, float(both & 0xFFFFu)), lod),
                        textureLod(u_sprite_array, vec3(corner_uv, float(both >> 16)), lod), mix_and_additive.x);
        else {
            vec2 uv_frame, uv_next;
            uvec2 cell = frames_word_cell(both, 0u), next_cell = frames_word_cell(both, 1u);
            vec2 motion = flipbook_motion(cell, corner_uv, lod);
            slid_frame_uvs(cell, next_cell, mix_and_additive.x, corner_uv, motion, uv_frame, uv_next);
            texel = mix(textureLod(u_sprite, uv_frame, lod), textureLod(u_sprite, uv_next, lod), mix_and_additive.x);
        }
    }
#endif
    float fade = 1.0;
    if (fade_distance > 0.0) fade = clamp((scene_view - sp.view_depth) / fade_distance, 0.0, 1.0);
    vec3 lit = tint.rgb;
#ifdef SPLAT_HAS_LIGHT
    vec4 light = splat_vec4(j, SPLAT_LIGHT);
    vec4 glow = unpackUnorm4x8(floatBitsToUint(light.w));
#ifdef PLUME_LOOK_LIT
    if (glow.a > 0.5) lit *= sphere_lighting(light_st, light.xyz);
#endif
    lit += glow.rgb;
#endif
    vec4 shade = vec4(lit * texel.rgb, texel.a) * (tint.a * fade);
    color += transmittance * shade.rgb;
    transmittance *= 1.0 - shade.a * (1.0 - mix_and_additive.y);
}

void main() {
    uint lid = gl_LocalInvocationIndex;
    uint tile = gl_WorkGroupID.y * u_tiles.x + gl_WorkGroupID.x;
    uvec2 range = uvec2(0u);
    uint slot = 0u;
    bool whole_tile = true; // this workgroup writes the tile's pixels to the target
    if (u_chunk_entries == 0u) {
        range = ranges[tile];
    } else {
        slot = gl_WorkGroupID.y * uint(PLUME_TILED_CHUNK_ROW) + gl_WorkGroupID.x;
        if (slot >= control[PLUME_TILED_CHUNK_COUNT]) return; // the 2D dispatch's last row: the whole workgroup
        uint tile_count = u_tiles.x * u_tiles.y;
        tile = chunk_table[2u * tile_count + slot];
        uint index = slot - chunk_table[2u * tile], chunks = chunk_table[2u * tile + 1u];
        uvec2 run = ranges[tile];
        // Chunk 0 holds the nearest entries: the run's end.
        range.y = run.y - index * u_chunk_entries;
        range.x = range.y - min(range.y - run.x, u_chunk_entries);
        whole_tile = chunks == 1u;
    }
    uvec2 tile_origin = uvec2(tile % u_tiles.x, tile / u_tiles.x) * TILE_SIZE;
#ifdef TILED_REGIONS
    // Invocation lid shades a pixel of region lid / 32, so that a
    // subgroup's pixels share one region's list.
    uint region = lid / (REGION_WIDE * REGION_HIGH), within = lid % (REGION_WIDE * REGION_HIGH);
    uvec2 local = uvec2(region % REGIONS_ACROSS * REGION_WIDE, region / REGIONS_ACROSS * REGION_HIGH) +
                  uvec2(within % REGION_WIDE, within / REGION_WIDE);
    bool region_lists_built = TILE_SIZE > 8u || u_hit_lists;
#else
    uvec2 local = gl_LocalInvocationID.xy;
#endif
    ivec2 pixel = ivec2(tile_origin + local);
    bool inside = all(lessThan(pixel, u_target_size));
    vec2 centre = vec2(pixel) + 0.5;
    vec2 depth_uv = (vec2(pixel + u_depth_origin) + 0.5) / u_depth_size;
    float scene_window = textureLod(u_scene_depth, depth_uv, 0.0).r;
    float scene_view = 0.0;
    if (u_soft_fade_distance > 0.0) {
        scene_view = scene_view_depth(u_inverse_projection, depth_uv, scene_window);
    }
    vec3 color = vec3(0.0);
    float transmittance = 1.0;
    bool shading = inside;
    uint next = range.y;
    if (lid == 0u) pixels_alive[0] = 0u;
    for (uint pass = 0u; next > range.x; ++pass) {
        uint count = min(next - range.x, BATCH);
#ifdef TILED_REGIONS
        // Every list of the previous batch was read before its last barrier.
        if (region_lists_built && lid < REGIONS * LIST_WORDS) region_lists[lid] = 0u;
#endif
        memoryBarrierShared();
        barrier(); // the previous batch is read, pixels_alive[0] set, the lists clear
        if (lid < count) {
            uint rank = entries[next - 1u - lid].y, base = rank * SPLAT_VEC4S;
            for (uint k = 0u; k < uint(BATCH_VEC4S); ++k) batch[lid * uint(BATCH_VEC4S) + k] = splats[base + k];
#ifndef TILED_WHOLE_SPLAT_BATCH
            batch_rank[lid] = rank;
#endif
#ifndef PLUME_LOOK_ORIENTED
            vec4 axes = batch[lid * uint(BATCH_VEC4S) + 1u]; // the map's second word, just loaded
            batch_lod[lid] = quad_sprite_lod(axes.xy, axes.zw);
#endif
#ifdef TILED_REGIONS
            // The regions its pixels' box overlaps list it (the box
            // overlaps the tile: the entries pass listed it here).
            if (region_lists_built) {
                vec4 box = splats[base + SPLAT_TILES];
                ivec2 first = ivec2(splat_word_pixel(box.x)) - ivec2(tile_origin);
                ivec2 last = ivec2(splat_word_pixel(box.y)) - ivec2(tile_origin);
                ivec2 size = ivec2(REGION_WIDE, REGION_HIGH);
                ivec2 r0 = clamp(first, ivec2(0), ivec2(TILE_SIZE - 1u)) / size;
                ivec2 r1 = clamp(last, ivec2(0), ivec2(TILE_SIZE - 1u)) / size;
                for (int ry = r0.y; ry <= r1.y; ++ry)
                    for (int rx = r0.x; rx <= r1.x; ++rx)
                        atomicOr(region_lists[(uint(ry) * REGIONS_ACROSS + uint(rx)) * LIST_WORDS + lid / 32u],
                                 1u << (lid % 32u));
            }
#endif
        }
        if (lid == 0u) pixels_alive[(pass + 1u) & 1u] = 0u;
        memoryBarrierShared();
        barrier();
        if (u_hit_lists) {
            // The batch 32 splats at a time: those this pixel's region
            // lists (or all), then, in order, those among them that cover it.
            for (uint word = 0u; shading && 32u * word < count; ++word) {
#ifdef TILED_REGIONS
                uint listed = region_lists[region * LIST_WORDS + word];
#else
                uint listed = count - 32u * word >= 32u ? 0xFFFFFFFFu : (1u << (count - 32u * word)) - 1u;
#endif
                uint hits = 0u;
                // Two splats a step (the second the first again where the
                // list runs out): their tests' loads and arithmetic overlap,
                // where one a step waited on each (notes/wave3-draws-h200.md:
                // faster on an H200; four a step, with more live registers,
                // gained nothing).
                while (listed != 0u) {
                    uint first = uint(findLSB(listed));
                    listed &= listed - 1u;
                    uint second = listed != 0u ? uint(findLSB(listed)) : first;
                    listed &= listed - 1u;
                    bool covers_first = splat_covers(32u * word + first, centre);
                    bool covers_second = splat_covers(32u * word + second, centre);
                    hits |= (covers_first ? 1u << first : 0u) | (covers_second ? 1u << second : 0u);
                }
                while (shading && hits != 0u) {
                    uint j = 32u * word + uint(findLSB(hits));
                    hits &= hits - 1u;
                    composite_splat(j, centre, true, scene_window, scene_view, color, transmittance);
                    if (transmittance < u_threshold) shading = false;
                }
            }
        } else {
#if defined(TILED_REGIONS) && TILED_TILE_SIZE > 8
            // The batch's splats that this pixel's region lists, in order.
            for (uint word = 0u; shading && word < LIST_WORDS; ++word) {
                uint listed = region_lists[region * LIST_WORDS + word];
                while (shading && listed != 0u) {
                    uint j = word * 32u + uint(findLSB(listed));
                    listed &= listed - 1u;
                    composite_splat(j, centre, false, scene_window, scene_view, color, transmittance);
                    if (transmittance < u_threshold) shading = false;
                }
            }
#else
            for (uint j = 0u; shading && j < count; ++j) {
                composite_splat(j, centre, false, scene_window, scene_view, color, transmittance);
                if (transmittance < u_threshold) shading = false;
            }
#endif
        }
        if (shading) pixels_alive[pass & 1u] = 1u;
        memoryBarrierShared();
        barrier();
        if (pixels_alive[pass & 1u] == 0u) break;
        next -= count;
    }
    // The partials in the tile's row-major order (tiled_resolve.comp's).
    if (!whole_tile)
        partials[slot * TILE_SIZE * TILE_SIZE + local.y * TILE_SIZE + local.x] =
            pack_partial(color, transmittance, transmittance < u_threshold);
    else if (inside) write_target(pixel, color, transmittance);
}
