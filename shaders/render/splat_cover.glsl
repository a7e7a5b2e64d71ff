// Where a splat can show on its quad (tiled_common.glsl's SplatCover): the
// projection narrows a splat's box and tiles to it, and the entries pass
// lists the same tiles. For a system's camera-facing splats, the octagons of
// the frames its sprite has non-zero texels in (particles/sprite_cover.h:
// per frame and mip level, made from the pixels plume uploaded), at the
// levels the composite's read takes at the splat's size, grown by how far
// the flipbook motion slides each frame's read. Elsewhere (oriented quads,
// trails, draw groups, a host's sprite) the whole quad.
//
// The composite reads a camera-facing splat's frames at corner_uv = (s,
// 1 - t) at one level of detail, the splat's (quad_sprite_lod: GL's without
// the approximations it allows, so that no GL reads a level this does not
// hold); a minified read blends levels floor(lambda) and floor(lambda) + 1,
// a magnified one reads level 0. The octagons of those levels (with a
// margin for the two programs' rounding of lambda) hold whatever it reads.
bool cover_is_empty(SplatCover cover) { return any(greaterThan(cover.lo, cover.hi)); }

#ifndef PLUME_LOOK_ORIENTED
#include "render/particle_appearance.glsl" // frames_word_cell

layout(std430, binding = PLUME_BINDING_TILED_SPRITE_COVER) restrict readonly buffer SpriteCover { vec4 sprite_cover[]; };
uniform uint u_sprite_cover_levels; // 0: no table (the whole quad)

// The octagon of frame `which` (0: the frames word's first, 1: its next) at
// `level`, grown by `slide` (the motion's, in s and t; twice that in s + t
// and s - t).
SplatCover frame_cover(uint frames, uint which, uint level, float slide) {
    uvec2 cell = frames_word_cell(frames, which);
    uint at = 2u * ((cell.y * u_flipbook.x + cell.x) * u_sprite_cover_levels + level);
    SplatCover octagon = SplatCover(sprite_cover[at], sprite_cover[at + 1u]);
    if (cover_is_empty(octagon)) return octagon; // no texel shows: no slide brings one
    precise vec4 grow = vec4(slide, slide, 2.0 * slide, 2.0 * slide);
    precise vec4 lo = octagon.lo - grow, hi = octagon.hi + grow;
    return SplatCover(lo, hi);
}

SplatCover cover_union(SplatCover a, SplatCover b) { return SplatCover(min(a.lo, b.lo), max(a.hi, b.hi)); }

// `map`: the splat's (its pixel -> quad map's columns in map[1]); the
// frames and mix words as the projection wrote them (the entries pass reads
// them back, so both passes find the same cover).
SplatCover splat_cover(vec4 map[SPLAT_MAP_VEC4S], uint frames, float mix_word) {
    if (u_sprite_cover_levels == 0u) return WHOLE_QUAD;
    precise float lod = quad_sprite_lod(map[1].xy, map[1].zw);
    int last = int(u_sprite_cover_levels) - 1;
    int first_level = clamp(int(floor(max(lod, -64.0) - 0.02)), 0, last);
    int last_level = clamp(int(floor(min(lod, 64.0) + 0.02)) + 1, 0, last);
    float frame_mix = splat_mix_and_additive(mix_word).x, slide = u_sprite_cover_reach.z;
    SplatCover cover = SplatCover(vec4(2.0), vec4(-2.0)); // empty
    for (int level = first_level; level <= last_level; ++level) {
        // mix(a, b, 0) is a and mix(a, b, 1) is b: a frame of no weight adds nothing.
        if (frame_mix < 1.0) cover = cover_union(cover, frame_cover(frames, 0u, uint(level), frame_mix * slide));
        if (frame_mix > 0.0) cover = cover_union(cover, frame_cover(frames, 1u, uint(level), (1.0 - frame_mix) * slide));
    }
    return SplatCover(max(cover.lo, WHOLE_QUAD.lo), min(cover.hi, WHOLE_QUAD.hi));
}

// The pixels whose centres may fall in the cover's (s, t) rectangle,
// narrowing [first, last]: the quad's pixel (s, t) is map[0].xy + A (s, t),
// A the inverse of the pixel -> quad map.
void narrow_to_cover(vec4 map[SPLAT_MAP_VEC4S], SplatCover cover, vec2 target_size, inout ivec2 first,
                     inout ivec2 last) {
    mat2 to_pixel = inverse(mat2(map[1].xy, map[1].zw));
    vec2 origin = map[0].xy;
    vec2 p0 = origin + to_pixel * cover.lo.xy, p1 = origin + to_pixel * vec2(cover.hi.x, cover.lo.y);
    vec2 p2 = origin + to_pixel * cover.hi.xy, p3 = origin + to_pixel * vec2(cover.lo.x, cover.hi.y);
    // A sixty-fourth of a pixel for the map's rounding (the composite's
    // test of a pixel inverts it the other way).
    vec2 limit = target_size + 1.0;
    vec2 lo = clamp(min(min(p0, p1), min(p2, p3)) - 1.0 / 64.0, vec2(-1.0), limit);
    vec2 hi = clamp(max(max(p0, p1), max(p2, p3)) + 1.0 / 64.0, vec2(-1.0), limit);
    first = max(first, ivec2(ceil(lo - 0.5)));
    last = min(last, ivec2(floor(hi - 0.5)));
}
#else
SplatCover splat_cover(vec4 map[SPLAT_MAP_VEC4S], uint frames, float mix_word) { return WHOLE_QUAD; }
#endif
