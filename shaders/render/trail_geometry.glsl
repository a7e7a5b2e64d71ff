// A trail segment's strip as every path draws it (the raster path's
// trail_draw.vert, the tiled path's projection): entry j < u_trail_ring of a
// particle's pairs (particles/trail_keys.comp) is the segment from trail point j
// to j + 1 (trail_history.glsl) as up to PLUME_GPU_TRAIL_SUBDIVISIONS quads
// along a centripetal Catmull-Rom curve through the points around it, as
// many as the curve on the screen needs (trail_subdivisions). Each quad's
// edge is the curve's point widened across the curve's direction and the
// direction to the eye, computed from the same points on both sides of a
// shared point: segments meet without gaps, and the strip faces the eye
// without twisting. Ribbons: entry 0 is the segment from the particle to the
// one before it in emission order, the curve through the ones around them,
// its width and colour each particle's own at its end.
// The includer defines TRAIL_RIBBON_READ, motions[], traits[] and
// position_age_of() before trail_history.glsl, and u_camera_right / up.

uniform uint u_entries;          // pairs a particle (trail_keys.comp)
uniform vec4 u_eye;             // the eye (w 1), or under an orthographic projection its back axis (w 0)
uniform bool u_by_distance;      // plume_trail_spacing DISTANCE
uniform bool u_uv_tile;          // plume_trail_uv TILE
uniform float u_uv_tile_length;
// Over the trail's length: 0 at the particle, 1 at its K-th point.
uniform float u_trail_width_times[PLUME_GPU_MAX_CURVE_KEYS];
uniform float u_trail_width_values[PLUME_GPU_MAX_CURVE_KEYS];
uniform int u_trail_width_count;
uniform float u_trail_opacity_times[PLUME_GPU_MAX_CURVE_KEYS];
uniform float u_trail_opacity_values[PLUME_GPU_MAX_CURVE_KEYS];
uniform int u_trail_opacity_count;
uniform float u_trail_color_times[PLUME_GPU_MAX_CURVE_KEYS];
uniform vec4 u_trail_color_values[PLUME_GPU_MAX_CURVE_KEYS];
uniform int u_trail_color_count;

#include "render/trail_curve.glsl"

// A cross-section of a segment's strip, `share` 0 .. 1 of the way along what
// is drawn of it; its corners are trail_corner_world's.
struct TrailCorner {
    vec3 centre;       // on the curve
    float width;
    vec4 color;        // straight alpha: the particle's, the length's colour and opacity applied
    float length_uv;   // the sprite's column coordinate along the trail
    vec3 across, direction; // the strip's frame there
    Appearance a;      // frames, additive part, emitted light (ribbons: toward the far particle's)
};

// A segment's points: the curve runs from p1 to p2 (w: the path length),
// p0 and p3 the points around them; ribbons: `far` the particle at its far
// end. `end` (0 .. 1] how much of it is drawn.
struct TrailSegment {
    vec4 p1, p2;
    vec3 p0, p3;
    uint far;
    float end;
};

// False where the segment draws nothing: the trail has no such segment yet,
// or it has no length.
bool trail_segment(uint slot, uint j, ParticleMotion motion, out TrailSegment s) {
    uvec4 header = trail_headers[slot];
    uint other;
    s.far = slot; // ribbons: the particle at the segment's far end
    if (u_ribbon) {
        if (!ribbon_neighbour(slot, -1, s.far)) return false;
        s.p1 = vec4(motion.position, 0.0);
        s.p2 = vec4(position_age_of(s.far).xyz, 0.0);
        s.p0 = ribbon_neighbour(slot, 1, other) ? position_age_of(other).xyz : 2.0 * s.p1.xyz - s.p2.xyz;
        s.p3 = ribbon_neighbour(s.far, -1, other) ? position_age_of(other).xyz : 2.0 * s.p2.xyz - s.p1.xyz;
    } else {
        if (j >= header.z) return false;
        s.p1 = trail_point(slot, header, motion.position, j);
        s.p2 = trail_point(slot, header, motion.position, j + 1u);
        // Past the ends, the neighbour mirrored: the curve runs straight out.
        s.p0 = j > 0u ? trail_point(slot, header, motion.position, j - 1u).xyz : 2.0 * s.p1.xyz - s.p2.xyz;
        s.p3 = j + 2u <= header.z ? trail_point(slot, header, motion.position, j + 2u).xyz : 2.0 * s.p2.xyz - s.p1.xyz;
    }
    // A segment of no length (a point recorded where the particle is, a
    // particle at rest) has no direction: nothing to draw.
    if (distance(s.p1.xyz, s.p2.xyz) < 1e-6) return false;
    // A full trail's last segment shrinks as the next point nears, and is
    // gone when that point drops it: the tail never jumps.
    s.end = 1.0;
    if (!u_ribbon && header.z == u_trail_ring && j + 1u == header.z) {
        float since = u_by_distance ? distance(motion.position, trail_recorded(slot, header, 0u).xyz)
                                    : motion.age - uintBitsToFloat(header.w);
        s.end = 1.0 - clamp(since / u_spacing, 0.0, 1.0);
    }
    return true;
}

// The appearance of the particle in `slot`. Copies first: NVIDIA's
// compiler refuses a restrict buffer's element as a plain parameter (C1317).
Appearance slot_appearance(uint slot) {
    ParticleMotion slot_motion = motions[slot];
    ParticleTraits slot_traits = traits[slot];
    return particle_appearance(slot_motion, slot_traits);
}

// A segment's appearance at its two ends, found once for all its sections:
// its particle's at both, a ribbon's far end its far particle's.
struct TrailEnds {
    Appearance near, far;
};

TrailEnds trail_ends(TrailSegment s, Appearance own) {
    TrailEnds e;
    e.near = own;
    e.far = u_ribbon ? slot_appearance(s.far) : own;
    return e;
}

// The cross-section `share` of the way along what is drawn of segment j
// (found by trail_segment), its ends' appearances `e`.
TrailCorner trail_section(TrailSegment s, uint j, TrailEnds e, float share) {
    TrailCorner c;
    float t = share * s.end;
    vec3 centre;
    trail_curve_at(s.p0, s.p1.xyz, s.p2.xyz, s.p3, t, centre, c.direction);
    float along = u_ribbon ? 0.0 : (float(j) + t) / float(u_trail_ring);
    c.a = e.near;
    if (u_ribbon) {
        Appearance b = e.far;
        vec4 size_additive = ends(vec4(c.a.size, c.a.additive, 0.0, 0.0), vec4(b.size, b.additive, 0.0, 0.0), t);
        c.a.size = size_additive.x;
        c.a.additive = size_additive.y;
        c.a.color = ends(c.a.color, b.color, t);
        c.a.emissive = ends(vec4(c.a.emissive, 0.0), vec4(b.emissive, 0.0), t).rgb;
    }
    c.width = c.a.size * curve_value(u_trail_width_times, u_trail_width_values, u_trail_width_count, along);
    vec3 to_eye = u_eye.xyz - centre * u_eye.w;
    c.across = unit_or(cross(c.direction, to_eye), u_camera_right);
    c.centre = centre;
    c.color = c.a.color * gradient_value(u_trail_color_times, u_trail_color_values, u_trail_color_count, along);
    c.color.a *= curve_value(u_trail_opacity_times, u_trail_opacity_values, u_trail_opacity_count, along);
    c.length_uv = u_ribbon ? t : u_uv_tile ? mix(s.p1.w, s.p2.w, t) / u_uv_tile_length : along;
    return c;
}

// The section's corner `across` (-0.5 or 0.5) of the way across the strip.
vec3 trail_corner_world(TrailCorner c, float across) { return c.centre + c.across * (across * c.width); }

// The light's direction in the strip's frame at a corner (lit across the
// strip as a tube).
vec3 trail_corner_light(TrailCorner c) {
    return quad_light(QuadEdges(c.across, unit_or(c.direction, u_camera_up)), cross(u_camera_right, u_camera_up));
}
