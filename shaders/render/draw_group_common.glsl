// What the passes of a draw group share (render/draw_group.c): a grouped
// particle as it looks this frame, evaluated by its system's gather pass
// (its curves, orientation and light are its system's) so that one draw can
// show the particles of every system. Indexed by the system's first record
// plus the slot: the value of its pair in the group's list. GROUP_RECORD_ACCESS: writeonly (gather) or readonly (draw, the
// tiled projection).
struct GroupRecord {        // PLUME_GROUP_RECORD_VEC4S vec4s
    vec4 centre;            // world position; w: the flipbook cross-fade (0: `frame` only)
    vec4 across;            // the quad's width edge (world units); w: the additive part
    vec4 along;             // its length edge; w: its system's index in the group (uint bits)
    vec4 color;             // straight alpha, opacity applied
    vec4 emissive;          // rgb: emitted light; w: the flipbook frame (uint bits)
    vec4 light;             // the light's direction in the quad's frame; w: the next frame (uint bits)
};

#ifndef GROUP_RECORD_BINDING
#define GROUP_RECORD_BINDING PLUME_BINDING_GROUP_RECORDS // the tiled projection's differs (tiled_project.comp)
#endif
layout(std430, binding = GROUP_RECORD_BINDING) restrict GROUP_RECORD_ACCESS buffer GroupRecords {
    GroupRecord group_records[];
};

// A trail system's segment in a group (its gather:
// render/draw_group_trail_gather.comp): its curve's four points and the looks
// at the two ends of what is drawn of it, the draw making the strip between
// them (render/draw_group.vert) as the trail draw does, its width, colour,
// opacity, additive part and texture column linear between the ends. Its
// record holds the system word with GROUP_SEGMENT set; the points around the
// segment, the colours and the emitted light as half floats.
#define GROUP_SEGMENT 0x80000000u
struct GroupSegment {
    vec3 p0, p1, p2, p3;
    float end;               // how much of p1 -> p2 is drawn (render/trail_geometry.glsl)
    vec2 width, length_uv, additive; // x at p1, y at the drawn end
    vec4 color0, color1;     // straight alpha
    vec3 emissive0, emissive1;
    float frame_mix;
    uint frames;             // frame | next frame << 16
};

float half_pair(float x, float y) { return uintBitsToFloat(packHalf2x16(vec2(x, y))); }
vec2 pair_of(float word) { return unpackHalf2x16(floatBitsToUint(word)); }

GroupRecord group_segment_record(GroupSegment s, uint system) {
    vec3 before = s.p0 - s.p1, after = s.p3 - s.p2;
    return GroupRecord(vec4(s.p1, s.width.x), vec4(s.p2, s.width.y),
                       vec4(half_pair(before.x, before.y), half_pair(before.z, s.end), half_pair(after.x, after.y),
                            uintBitsToFloat(system | GROUP_SEGMENT)),
                       vec4(half_pair(after.z, s.frame_mix), s.length_uv, half_pair(s.additive.x, s.additive.y)),
                       vec4(half_pair(s.color0.r, s.color0.g), half_pair(s.color0.b, s.color0.a),
                            half_pair(s.color1.r, s.color1.g), half_pair(s.color1.b, s.color1.a)),
                       vec4(half_pair(s.emissive0.r, s.emissive0.g), half_pair(s.emissive0.b, s.emissive1.r),
                            half_pair(s.emissive1.g, s.emissive1.b), uintBitsToFloat(s.frames)));
}

GroupSegment group_segment_of(GroupRecord r) {
    GroupSegment s;
    vec2 bz_end = pair_of(r.along.y), az_mix = pair_of(r.color.x);
    s.p1 = r.centre.xyz;
    s.p2 = r.across.xyz;
    s.p0 = s.p1 + vec3(pair_of(r.along.x), bz_end.x);
    s.p3 = s.p2 + vec3(pair_of(r.along.z), az_mix.x);
    s.end = bz_end.y;
    s.frame_mix = az_mix.y;
    s.width = vec2(r.centre.w, r.across.w);
    s.length_uv = r.color.yz;
    s.additive = pair_of(r.color.w);
    s.color0 = vec4(pair_of(r.emissive.x), pair_of(r.emissive.y));
    s.color1 = vec4(pair_of(r.emissive.z), pair_of(r.emissive.w));
    vec2 e0 = pair_of(r.light.x), e01 = pair_of(r.light.y), e1 = pair_of(r.light.z);
    s.emissive0 = vec3(e0, e01.x);
    s.emissive1 = vec3(e01.y, e1);
    s.frames = floatBitsToUint(r.light.w);
    return s;
}
