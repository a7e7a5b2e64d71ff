// The look's defines choose the splat's layout. One invocation per rank of the
// sorted list (dispatched over the capacity): the particle's quad on the
// screen, exactly as the raster path places it, and how many tiles of its
// pixels' bounding box it may show in (0 when no pixel can show it: behind
// the eye, clipped by the near or far plane (wholly, for a quad that does not
// face the camera), off the target, or transparent; an oriented quad that
// crosses the eye's plane has the screen for its box).
#include "particles/particle_common.glsl"
#include "render/particle_appearance.glsl"
#include "render/self_shadow.glsl"
#include "render/tiled_common.glsl"
#include "render/splat_cover.glsl"
#include "shared/scene_depth.glsl"

layout(local_size_x = PLUME_TILED_PROJECT_GROUP_SIZE) in;

#ifdef TILED_GROUP
// A draw group's sorted list ({key, record index}), its records, which its
// systems' gathers evaluated, and its systems' table (draw_group.c).
#define GROUP_RECORD_BINDING PLUME_BINDING_TILED_GROUP_RECORDS
#include "render/draw_group_common.glsl"
#define GROUP_SYSTEMS_BINDING PLUME_BINDING_TILED_GROUP_SYSTEMS
#include "render/draw_group_systems.glsl"
#else
layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { ParticleMotion motions[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };
#endif
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer DrawList { uvec2 draw_list[]; };
// A trail system's sorted segment pairs are the draw list; its history sits
// where the state and the entries would (the ranks drawn: the prepare pass's
// word, tiled_common.glsl), so that the pass reads eight buffers, what every
// GL 4.3 allows.
#ifdef TILED_DENSE_RANKS
// The rank counts, then at u_items.z the items' scanned ranks.
layout(std430, binding = PLUME_BINDING_TILED_COUNTS) restrict buffer Counts { uint counts[]; };
// z: where the counts hold the items' scanned ranks; w: the stage, 0 each
// drawn item's ranks (there, to be scanned), 1 the ranks' splats
// (tiled_prepare.comp's).
uniform uvec4 u_items;

#else
layout(std430, binding = PLUME_BINDING_TILED_COUNTS) restrict writeonly buffer Counts { uint counts[]; };
#endif
// Read back only by the invocation that wrote them (finish_splat).
layout(std430, binding = PLUME_BINDING_TILED_SPLATS) restrict buffer Splats { vec4 splats[]; };

uniform mat4 u_view;
uniform mat4 u_projection;
uniform vec3 u_camera_right;
uniform vec3 u_camera_up;
uniform vec2 u_target_size;   // pixels
uniform uint u_capacity;
uniform bool u_lit;           // the system is lit (plume_system_desc.lit)
// The lab's knobs (tiled_common.glsl: u_lab_knobs).
#define u_min_alpha u_lab_knobs.x
#define u_footprint u_lab_knobs.y
#define u_box_tiles (u_lab_knobs.z != 0.0)

vec4 clip_corner(vec3 centre, vec2 corner, QuadEdges edges) {
    return u_projection * (u_view * vec4(quad_corner(centre, corner, edges), 1.0));
}

// Snapped to 1/256 pixel, as rasterisers snap vertices (8 sub-pixel bits),
// so that the pixels at a quad's edge are the raster path's.
vec2 target_position(vec4 clip) {
    return round((clip.xy / clip.w * 0.5 + 0.5) * u_target_size * 256.0) / 256.0;
}

// The corners of the sprite's footprint from the quad's corners 0, 1 and 3
// (clip coordinates are linear in the quad's).
// The whole quad (0.5) keeps its own corners, bit for bit.
void footprint_corners(inout vec4 c0, inout vec4 c1, inout vec4 c2, inout vec4 c3) {
    if (u_footprint >= 0.5) return;
    vec4 across = c1 - c0, along = c3 - c0;
    float low = 0.5 - u_footprint, high = 0.5 + u_footprint;
    vec4 origin = c0;
    c0 = origin + low * across + low * along;
    c1 = origin + high * across + low * along;
    c2 = origin + high * across + high * along;
    c3 = origin + low * across + high * along;
}

// The pixels whose centres fall inside the bounding box of the snapped
// corners.
void pixel_box(vec4 c0, vec4 c1, vec4 c2, vec4 c3, out ivec2 first, out ivec2 last) {
    vec2 w0 = target_position(c0), w1 = target_position(c1), w2 = target_position(c2), w3 = target_position(c3);
    vec2 limit = u_target_size + 1.0;
    vec2 lo = clamp(min(min(w0, w1), min(w2, w3)), vec2(-1.0), limit);
    vec2 hi = clamp(max(max(w0, w1), max(w2, w3)), vec2(-1.0), limit);
    first = max(ivec2(ceil(lo - 0.5)), ivec2(0));
    last = min(ivec2(floor(hi - 0.5)), ivec2(u_target_size) - 1);
}

#ifndef PLUME_LOOK_ORIENTED
// The inverse of the quad's two screen axes from corner 0 to corners 1 and
// 3; false when the quad is seen edge on.
bool inverse_axes(vec2 w0, vec2 w1, vec2 w3, out mat2 to_quad) {
    mat2 axes = mat2(w1 - w0, w3 - w0);
    if (abs(determinant(axes)) < 1e-12) return false;
    to_quad = inverse(axes);
    return true;
}

// A camera-facing quad lies in a plane of constant view depth: one w, one
// depth for its corners, so the near and far planes keep or clip it whole,
// and the map from pixel to quad is affine. Writes the splat's map; false
// when no pixel shows the quad.
bool place_quad(uint base, vec3 centre, QuadEdges edges, out ivec2 first, out ivec2 last) {
    vec4 c0 = clip_corner(centre, vec2(-0.5, -0.5), edges), c1 = clip_corner(centre, vec2(0.5, -0.5), edges);
    vec4 c2 = clip_corner(centre, vec2(0.5, 0.5), edges), c3 = clip_corner(centre, vec2(-0.5, 0.5), edges);
    if (c0.w <= 0.0 || !ndc_depth_inside(c0.z / c0.w)) return false;
    vec4 f0 = c0, f1 = c1, f2 = c2, f3 = c3;
    footprint_corners(f0, f1, f2, f3);
    pixel_box(f0, f1, f2, f3, first, last);
    if (any(greaterThan(first, last))) return false;
    vec2 w0 = target_position(c0);
    mat2 to_quad;
    if (!inverse_axes(w0, target_position(c1), target_position(c3), to_quad)) return false;
    float view_depth = -(u_view * vec4(centre, 1.0)).z;
    splats[base + 0u] = vec4(w0, view_depth, window_depth_of_ndc(c0.z / c0.w));
    splats[base + 1u] = vec4(to_quad[0], to_quad[1]);
    return true;
}
#else
// A corner as (pixel x * w, pixel y * w, w): linear in the quad's
// coordinates, so three corners give the map from (s, t, 1) to it. In front
// of the eye the corner is the pixel the rasteriser snaps it to, which
// decides the pixels at the quad's edges and, as a rasteriser interpolates
// from the snapped corners, the quad coordinates the pixel is shaded with.
vec3 homogeneous_pixel(vec4 clip) {
    if (clip.w <= 0.0) return vec3((clip.xy * 0.5 + 0.5 * clip.w) * u_target_size, clip.w);
    return vec3(target_position(clip) * clip.w, clip.w);
}

// The inverse of the map from (s, t, 1) to (pixel * w, w) through corners 0,
// 1 and 3; false when the quad is seen edge on.
bool pixel_to_quad(vec4 c0, vec4 c1, vec4 c3, out mat3 to_quad) {
    vec3 h0 = homogeneous_pixel(c0), h1 = homogeneous_pixel(c1), h3 = homogeneous_pixel(c3);
    mat3 to_pixel = mat3(h1 - h0, h3 - h0, h0);
    if (abs(determinant(to_pixel)) < 1e-20) return false;
    to_quad = inverse(to_pixel);
    return true;
}

// A corner in view space and clip space: a strip's section corner is made
// once and serves the triangles on both sides of it.
struct ViewCorner {
    vec4 clip;
    float view_depth;
};

ViewCorner view_corner(vec3 world) {
    vec4 in_view = u_view * vec4(world, 1.0);
    return ViewCorner(u_projection * in_view, -in_view.z);
}

// A quad of any orientation, corners 0..3 at (s, t) = (0, 0), (1, 0),
// (1, 1), (0, 1), a parallelogram (a trail's triangle: corner 2 = corner 3,
// its corners (0, 0), (1, 0), (0, 1) of the map): the map from pixel to quad
// is projective and its depth varies over it. Writes the splat's map; false
// when no pixel shows the quad.
bool place_view_corners(uint base, ViewCorner k0, ViewCorner k1, ViewCorner k2, ViewCorner k3, out ivec2 first,
                        out ivec2 last) {
    vec4 c0 = k0.clip, c1 = k1.clip, c2 = k2.clip, c3 = k3.clip;
    if (c0.w <= 0.0 && c1.w <= 0.0 && c2.w <= 0.0 && c3.w <= 0.0) return false; // behind the eye
    // Wholly in front of the near plane or behind the far one: no pixel.
    float low = ndc_depth_low();
    if ((c0.z < low * c0.w && c1.z < low * c1.w && c2.z < low * c2.w && c3.z < low * c3.w) ||
        (c0.z > c0.w && c1.z > c1.w && c2.z > c2.w && c3.z > c3.w))
        return false;
    first = ivec2(0);
    last = ivec2(u_target_size) - 1;
    // A quad crossing the eye's plane may cover pixels anywhere: every tile
    // is a candidate.
    if (c0.w > 0.0 && c1.w > 0.0 && c2.w > 0.0 && c3.w > 0.0) {
        // w is positive over the whole quad, so over the footprint in it.
        vec4 f0 = c0, f1 = c1, f2 = c2, f3 = c3;
        footprint_corners(f0, f1, f2, f3);
        pixel_box(f0, f1, f2, f3, first, last);
    }
    if (any(greaterThan(first, last))) return false;
    mat3 to_quad;
    if (!pixel_to_quad(c0, c1, c3, to_quad)) return false;
    // Clip z and view depth are linear in (s, t) too: their rows.
    vec3 clip_z = vec3(c1.z - c0.z, c3.z - c0.z, c0.z);
    float v0 = k0.view_depth, v1 = k1.view_depth, v3 = k3.view_depth;
    // Rows of to_quad (GLSL matrices are column-major).
    splats[base + 0u] = vec4(to_quad[0][0], to_quad[1][0], to_quad[2][0], clip_z.x);
    splats[base + 1u] = vec4(to_quad[0][1], to_quad[1][1], to_quad[2][1], clip_z.y);
    splats[base + 2u] = vec4(to_quad[0][2], to_quad[1][2], to_quad[2][2], clip_z.z);
    splats[base + 3u] = vec4(v1 - v0, v3 - v0, v0, 0.0);
    return true;
}

bool place_quad(uint base, vec3 centre, QuadEdges edges, out ivec2 first, out ivec2 last) {
    return place_view_corners(base, view_corner(quad_corner(centre, vec2(-0.5, -0.5), edges)),
                              view_corner(quad_corner(centre, vec2(0.5, -0.5), edges)),
                              view_corner(quad_corner(centre, vec2(0.5, 0.5), edges)),
                              view_corner(quad_corner(centre, vec2(-0.5, 0.5), edges)), first, last);
}
#endif

// The rest of the splat, once its map and spare word are written: colour,
// tiles, frames, light; returns the tiles of its box it may show in
// (splat_row_tiles), where its sprite's frames can show (splat_cover).
uint finish_splat(uint base, ivec2 first, ivec2 last, vec4 color, uint frames, float mix_word, vec3 light,
                  vec3 emissive, bool lit) {
    // The map as written (the words the entries pass reads), after the
    // caller's spare word.
    vec4 map[SPLAT_MAP_VEC4S];
    for (uint k = 0u; k < uint(SPLAT_MAP_VEC4S); ++k) map[k] = splats[base + k];
    SplatCover cover = splat_cover(map, frames, mix_word);
    if (cover_is_empty(cover)) return 0u; // its frames are transparent where it is read
#ifndef PLUME_LOOK_ORIENTED
    narrow_to_cover(map, cover, u_target_size, first, last);
    if (any(greaterThan(first, last))) return 0u;
#endif
    uvec2 tile0 = uvec2(first) / TILE_SIZE, tile1 = uvec2(last) / TILE_SIZE;
    splats[base + SPLAT_COLOR] = color;
    splats[base + SPLAT_TILES] = vec4(splat_pixel_word(uvec2(first)), splat_pixel_word(uvec2(last)),
                                      uintBitsToFloat(frames), mix_word);
#ifdef SPLAT_HAS_LIGHT
    splats[base + SPLAT_LIGHT] = vec4(light, uintBitsToFloat(packUnorm4x8(vec4(emissive, lit ? 1.0 : 0.0))));
#endif
    uint box = (tile1.x - tile0.x + 1u) * (tile1.y - tile0.y + 1u);
    if (box == 1u || u_box_tiles) return box;
    uint tiles = 0u;
    for (uint y = tile0.y; y <= tile1.y; ++y) {
        ivec2 span = splat_row_tiles(map, cover, y, uvec2(tile0.x, tile1.x));
        tiles += uint(max(span.y - span.x + 1, 0));
    }
    return tiles;
}

#ifdef TILED_TRAIL
// Before either input's strips (the includes are expanded once a program).
#include "render/trail_curve.glsl"

// A strip's section's two corners, left (across -0.5) and right.
struct SectionCorners {
    ViewCorner left, right;
};

SectionCorners section_corners(vec3 left, vec3 right) {
    return SectionCorners(view_corner(left), view_corner(right));
}

// Triangle 1 (near left, near right, far right) or 2 (near left, far right,
// far left) of a strip's quad between two of its sections, as the raster
// path splits it. Writes the splat's map; false when no pixel shows it.
bool place_triangle(uint base, uint triangle, SectionCorners near, SectionCorners far, out ivec2 first,
                    out ivec2 last) {
    return triangle == 1u ? place_view_corners(base, near.left, near.right, far.right, far.right, first, last)
                          : place_view_corners(base, near.left, far.right, far.left, far.left, first, last);
}

// The splat's far colour (a trail's shading runs from [SPLAT_COLOR] to it).
vec2 far_color_words(vec4 color) {
    return vec2(uintBitsToFloat(packHalf2x16(color.rg)), uintBitsToFloat(packHalf2x16(color.ba)));
}
#endif

#if defined(TILED_TRAIL) && !defined(TILED_GROUP)
#define TRAIL_RIBBON_READ
#define TRAIL_HEADERS_BINDING PLUME_BINDING_TILED_TRAIL_HEADERS
#define TRAIL_POINTS_BINDING PLUME_BINDING_TILED_TRAIL_POINTS
vec4 position_age_of(uint slot) { return vec4(motions[slot].position, motions[slot].age); }
#include "particles/trail_history.glsl"
#include "render/trail_geometry.glsl"

// The most any section of the segment reaches across from the curve: half
// the strip's width (trail_section) at its largest, the width curve's
// largest key (it runs straight between keys) times the larger of its
// ends' sizes.
float segment_reach(TrailEnds e) {
    float widest = abs(u_trail_width_values[0]);
    for (int k = 1; k < u_trail_width_count && k < PLUME_GPU_MAX_CURVE_KEYS; ++k)
        widest = max(widest, abs(u_trail_width_values[k]));
    return 0.5 * max(abs(e.near.size), abs(e.far.size)) * widest;
}

// The view's left, right, bottom and top planes in world space, unit
// normals pointing in (particles_frustum_planes).
uniform vec4 u_side_planes[4];

// Whether the segment's `quads` quads lie wholly past one side of the view:
// every corner of them is within the reach of a section's centre on the
// curve, so past a plane where every centre is further past it than that
// (a little more, for rounding). Such a segment needs no ranks: about two
// in five of the trail benchmark's, whose sparks drift out of the view.
bool segment_outside_view(TrailSegment s, TrailEnds e, uint quads) {
    float reach = 1.01 * segment_reach(e) + 1e-6;
    bvec4 outside = bvec4(true);
    for (uint k = 0u; k <= quads; ++k) {
        vec3 centre, direction;
        trail_curve_at(s.p0, s.p1.xyz, s.p2.xyz, s.p3, float(k) / float(quads) * s.end, centre, direction);
        for (int i = 0; i < 4; ++i)
            if (dot(u_side_planes[i], vec4(centre, 1.0)) >= -reach) outside[i] = false;
    }
    return any(outside);
}

// The ranks a sorted pair needs: its particle's own quad one, its segment
// two triangles a quad of the n its curve needs (trail_subdivisions), none
// where it has no segment or the segment lies outside the view
// (tiled_common.glsl: dense ranks).
uint item_ranks(uint item) {
    uint value = draw_list[item].y;
    uint slot = value / u_entries, entry = value % u_entries;
    if (entry >= u_trail_ring) return 1u;
    ParticleMotion p = motions[slot];
    TrailSegment s;
    if (!trail_segment(slot, entry, p, s)) return 0u;
    uint quads = trail_subdivisions(s.p0, s.p1.xyz, s.p2.xyz, s.p3, u_view, u_projection);
    return segment_outside_view(s, trail_ends(s, slot_appearance(slot)), quads) ? 0u : 2u * quads;
}

// A particle's own quad at `rank` (its pair's one rank).
uint project_particle(uint rank, ParticleMotion p, ParticleTraits t) {
    Appearance a = particle_appearance(p, t);
    if (a.color.a <= 0.0 || a.size <= 0.0) return 0u;
    QuadEdges edges = quad_edges(p.velocity, rotation_at(t, p.age), a.size, u_camera_right, u_camera_up);
    uint base = rank * SPLAT_VEC4S;
    ivec2 first, last;
    if (!place_quad(base, p.position, edges, first, last)) return 0u;
    splats[base + 3u].w = uintBitsToFloat(0u);
    splats[base + SPLAT_TRAIL].xy = far_color_words(a.color);
    return finish_splat(base, first, last, a.color, frames_word(a.frame, a.next), splat_mix_word(a.frame_mix, a.additive),
                        quad_light(edges, cross(u_camera_right, u_camera_up)), a.emissive, u_lit);
}

SectionCorners trail_section_corners(TrailCorner c) {
    return section_corners(trail_corner_world(c, -0.5), trail_corner_world(c, 0.5));
}

// Triangle 1 or 2 of a segment's quad between sections `near` and `far`
// (their corners `near_at`, `far_at`) at `rank`, as the raster path splits
// it (tiled_common.glsl, TILED_TRAIL).
uint project_triangle(uint rank, uint triangle, TrailCorner near, TrailCorner far, SectionCorners near_at,
                      SectionCorners far_at) {
    if (near.color.a <= 0.0 && far.color.a <= 0.0) return 0u;
    uint base = rank * SPLAT_VEC4S;
    ivec2 first, last;
    if (!place_triangle(base, triangle, near_at, far_at, first, last)) return 0u;
    // The raster path's flat values are its triangles' last vertices': the
    // far section's.
    Appearance a = far.a;
    a.additive = 0.5 * (near.a.additive + far.a.additive);
    splats[base + SPLAT_TRAIL] = vec4(far_color_words(far.color), near.length_uv, far.length_uv);
    splats[base + 3u].w = uintBitsToFloat(triangle);
    return finish_splat(base, first, last, near.color, frames_word(a.frame, a.next), splat_mix_word(a.frame_mix, a.additive),
                        trail_corner_light(far), a.emissive, u_lit);
}

// A sorted pair's run of `ranks` ranks from `first`: its particle's own
// quad (one rank), or its segment's two triangles a quad of the `ranks` / 2
// its curve needs (item_ranks), the segment read once and each section
// between two quads made once (a quad's far section is the next one's near).
void project_item(uint item, uint first, uint ranks) {
    if (ranks == 0u) return;
    uint value = draw_list[item].y;
    uint slot = value / u_entries, entry = value % u_entries;
    ParticleMotion p = motions[slot];
    ParticleTraits t = traits[slot];
    if (entry >= u_trail_ring) {
        counts[first] = project_particle(first, p, t);
        return;
    }
    TrailSegment s;
    bool drawn = trail_segment(slot, entry, p, s);
    uint quads = ranks / 2u;
    TrailEnds e = trail_ends(s, particle_appearance(p, t));
    TrailCorner near = trail_section(s, entry, e, 0.0);
    SectionCorners near_at = trail_section_corners(near);
    for (uint k = 0u; k < quads; ++k) {
        TrailCorner far = trail_section(s, entry, e, float(k + 1u) / float(quads));
        SectionCorners far_at = trail_section_corners(far);
        for (uint triangle = 1u; triangle <= 2u; ++triangle) {
            uint rank = first + 2u * k + triangle - 1u;
            counts[rank] = drawn ? project_triangle(rank, triangle, near, far, near_at, far_at) : 0u;
        }
        near = far;
        near_at = far_at;
    }
}
#elif defined(TILED_GROUP)
#ifdef TILED_TRAIL
uniform vec4 u_eye; // the eye (w 1), or under an orthographic projection its back axis (w 0)
#include "render/draw_group_segment.glsl"

// The ranks a grouped record needs (dense, tiled_common.glsl): a sprite's
// quad one, a segment two triangles a quad of the n its curve needs
// (trail_subdivisions), none where it has no length.
uint item_ranks(uint item) {
    GroupRecord record = group_records[draw_list[item].y];
    if ((floatBitsToUint(record.along.w) & GROUP_SEGMENT) == 0u) return 1u;
    GroupSegment s = group_segment_of(record);
    if (distance(s.p1, s.p2) < 1e-6) return 0u;
    return 2u * trail_subdivisions(s.p0, s.p1, s.p2, s.p3, u_view, u_projection);
}

// A grouped trail segment's triangle: triangle 1 or 2 of its quad k
// between its sections k and k + 1 of its `quads` (item_ranks;
// render/draw_group_segment.glsl), as the group's raster draw makes them;
// its flat values (light, emitted light) the far section's, its additive
// part the ends' mean (as a trail system's tiled draw).
uint project_segment(uint rank, uint within, uint quads, GroupRecord record, uint system) {
    GroupSegment s = group_segment_of(record);
    uint k = within / 2u, triangle = 1u + within % 2u;
    SegmentSection near = group_segment_section(s, float(k) / float(quads));
    SegmentSection far = group_segment_section(s, float(k + 1u) / float(quads));
    if (near.color.a <= 0.0 && far.color.a <= 0.0) return 0u;
    uint base = rank * SPLAT_VEC4S;
    ivec2 first, last;
    SectionCorners near_at = section_corners(segment_section_world(near, -0.5), segment_section_world(near, 0.5));
    SectionCorners far_at = section_corners(segment_section_world(far, -0.5), segment_section_world(far, 0.5));
    if (!place_triangle(base, triangle, near_at, far_at, first, last)) return 0u;
    splats[base + 3u].w = splat_spare_word(system, triangle);
    splats[base + SPLAT_TRAIL] = vec4(far_color_words(far.color), near.length_uv, far.length_uv);
    return finish_splat(base, first, last, near.color, s.frames,
                        splat_mix_word(s.frame_mix, 0.5 * (near.additive + far.additive)),
                        segment_section_light(far), far.emissive, group_system_lit(system));
}
#endif

// A grouped particle: its record's quad, colour, frames and light; its
// system's index in the splat's spare word (tiled_common.glsl). With a
// trail system in the group (dense ranks), a segment's record
// (project_segment) or a sprite's, one rank.
#ifdef TILED_DENSE_RANKS
uint project_rank(uint rank, uint item, uint within, uint ranks) {
    GroupRecord g = group_records[draw_list[item].y];
#else
uint project(uint rank) {
    uint within = rank % TILED_RANKS_PER_ITEM;
    GroupRecord g = group_records[draw_list[rank / TILED_RANKS_PER_ITEM].y];
#endif
    uint system = floatBitsToUint(g.along.w);
#ifdef TILED_TRAIL
    if ((system & GROUP_SEGMENT) != 0u) return project_segment(rank, within, ranks / 2u, g, system & ~GROUP_SEGMENT);
#endif
    if (within != 0u || g.color.a <= u_min_alpha || dot(g.across.xyz, g.across.xyz) <= 0.0 ||
        dot(g.along.xyz, g.along.xyz) <= 0.0)
        return 0u;
    uint base = rank * SPLAT_VEC4S;
    ivec2 first, last;
    if (!place_quad(base, g.centre.xyz, QuadEdges(g.across.xyz, g.along.xyz), first, last)) return 0u;
    splats[base + SPLAT_GROUP_SYSTEM].w = splat_spare_word(system, 0u);
#ifdef TILED_TRAIL
    splats[base + SPLAT_TRAIL].xy = far_color_words(g.color);
#endif
    uint frames = floatBitsToUint(g.emissive.w) | (floatBitsToUint(g.light.w) << 16);
    return finish_splat(base, first, last, g.color, frames, splat_mix_word(g.centre.w, g.across.w), g.light.xyz,
                        g.emissive.rgb, group_system_lit(system));
}
#ifdef TILED_DENSE_RANKS
// A grouped record's run of `ranks` ranks from `first`.
void project_item(uint item, uint first, uint ranks) {
    for (uint within = 0u; within < ranks; ++within)
        counts[first + within] = project_rank(first + within, item, within, ranks);
}
#endif
#else
uint project(uint rank) {
    uint slot = draw_list[rank].y;
    ParticleMotion p = motions[slot];
    ParticleTraits t = traits[slot];
    Appearance a = particle_appearance(p, t);
    if (a.color.a <= u_min_alpha || a.size <= 0.0) return 0u;
    QuadEdges edges = quad_edges(p.velocity, rotation_at(t, p.age), a.size, u_camera_right, u_camera_up);
    uint base = rank * SPLAT_VEC4S;
    ivec2 first, last;
    if (!place_quad(base, p.position, edges, first, last)) return 0u;
    vec3 light = vec3(0.0);
#ifdef SPLAT_HAS_LIGHT
    light = self_shadowed(quad_light(edges, cross(u_camera_right, u_camera_up)), p.position);
#endif
    return finish_splat(base, first, last, a.color, frames_word(a.frame, a.next), splat_mix_word(a.frame_mix, a.additive),
                        light, a.emissive, u_lit);
}
#endif

void main() {
#ifdef TILED_DENSE_RANKS
    // Over the drawn items: stage 0 counts each one's ranks (scanned after
    // it); stage 1 projects them, each item its own run of ranks, so that
    // no rank searches the scan for its item. A frame whose ranks outgrew
    // those made draws none (drawn_ranks() is 0: tiled_prepare.comp). The
    // counts past the drawn ranks are left as they are: the scan's blocks
    // add them only after every drawn rank, and nothing reads a rank's past
    // the drawn ones.
    uint item = gl_GlobalInvocationID.x;
    if (item >= control[PLUME_TILED_DRAWN_ITEMS]) return;
    if (u_items.w == 0u) {
        counts[u_items.z + item] = item_ranks(item);
        return;
    }
    uint first = item > 0u ? counts[u_items.z + item - 1u] : 0u, end = counts[u_items.z + item];
    if (end > drawn_ranks()) return;
    project_item(item, first, end - first);
#else
    uint rank = gl_GlobalInvocationID.x;
    if (rank >= u_capacity) return;
    counts[rank] = rank < drawn_ranks() ? project(rank) : 0u;
#endif
}
