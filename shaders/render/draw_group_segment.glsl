// A grouped trail segment's cross-sections (GroupSegment,
// render/draw_group_common.glsl), as the group's draw (draw_group.vert) and
// the tiled projection of a group with trails (tiled_project.comp) make its
// strip: the curve's point widened across the curve's direction and the way
// to the eye (render/trail_curve.glsl), the looks between the ends'. The
// includer has particle_appearance.glsl, draw_group_common.glsl and
// trail_curve.glsl, u_eye (the eye, w 1; under an orthographic projection
// its back axis, w 0), u_camera_right and u_camera_up.
struct SegmentSection {
    vec3 centre, across, direction;
    float width, additive, length_uv;
    vec4 color;              // straight alpha
    vec3 emissive;
};

// The section `share` (0 .. 1) of the way along what is drawn of the segment.
SegmentSection group_segment_section(GroupSegment s, float share) {
    SegmentSection c;
    trail_curve_at(s.p0, s.p1, s.p2, s.p3, share * s.end, c.centre, c.direction);
    c.across = unit_or(cross(c.direction, u_eye.xyz - c.centre * u_eye.w), u_camera_right);
    vec4 width_additive_uv = ends(vec4(s.width.x, s.additive.x, s.length_uv.x, 0.0),
                                  vec4(s.width.y, s.additive.y, s.length_uv.y, 0.0), share);
    c.width = width_additive_uv.x;
    c.additive = width_additive_uv.y;
    c.length_uv = width_additive_uv.z;
    c.color = ends(s.color0, s.color1, share);
    c.emissive = ends(vec4(s.emissive0, 0.0), vec4(s.emissive1, 0.0), share).rgb;
    return c;
}

// The section's point `side` (-0.5 or 0.5) of the way across the strip.
vec3 segment_section_world(SegmentSection c, float side) { return c.centre + c.across * (side * c.width); }

// The light's direction in the strip's frame there (lit across the strip
// as a tube).
vec3 segment_section_light(SegmentSection c) {
    return quad_light(QuadEdges(c.across, unit_or(c.direction, u_camera_up)), cross(u_camera_right, u_camera_up));
}
