// A trail segment's strip as every path draws it (the raster path's
// trail_draw.vert, the tiled path's projection): entry j < u_trail_ring of a
// particle's pairs (particles/trail_keys.comp) is the segment from trail point j
// to j + 1 (trail_history.glsl) as PLUME_GPU_TRAIL_SUBDIVISIONS quads along
// a centripetal Catmull-Rom curve through the points around it. Each quad's
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

// The centripetal parameter step between two points (never 0, so that
// coincident points divide by nothing).
float knot_step(vec3 a, vec3 b) { return max(sqrt(distance(a, b)), 1e-4); }

// Barry and Goldman's pyramid: the curve between p1 (t = 0) and p2 (t = 1).
vec3 catmull_rom(vec3 p0, vec3 p1, vec3 p2, vec3 p3, float t) {
    float t1 = knot_step(p0, p1), t2 = t1 + knot_step(p1, p2), t3 = t2 + knot_step(p2, p3);
    float u = mix(t1, t2, t);
    vec3 a1 = mix(p0, p1, u / t1);
    vec3 a2 = mix(p1, p2, (u - t1) / (t2 - t1));
    vec3 a3 = mix(p2, p3, (u - t2) / (t3 - t2));
    vec3 b1 = mix(a1, a2, u / t2);
    vec3 b2 = mix(a2, a3, (u - t1) / (t3 - t1));
    return mix(b1, b2, (u - t1) / (t2 - t1));
}

// The curve's direction at point b between a and c: the same for the
// segments on either side of b.
vec3 knot_direction(vec3 a, vec3 b, vec3 c) {
    float ab = knot_step(a, b), bc = knot_step(b, c);
    return (b - a) / ab - (c - a) / (ab + bc) + (c - b) / bc;
}

// x at t = 0, y at t = 1 exactly (a point two segments share), between
// them linearly.
vec4 ends(vec4 x, vec4 y, float t) { return t == 1.0 ? y : mix(x, y, t); }

// A cross-section of a segment's strip: `step` 0 .. PLUME_GPU_TRAIL_SUBDIVISIONS
// along the segment; its corners are trail_corner_world's.
struct TrailCorner {
    vec3 centre;       // on the curve
    float width;
    vec4 color;        // straight alpha: the particle's, the length's colour and opacity applied
    float length_uv;   // the sprite's column coordinate along the trail
    vec3 across, direction; // the strip's frame there
    Appearance a;      // frames, additive part, emitted light (ribbons: toward the far particle's)
};

// False where the segment draws nothing: the trail has no such segment yet,
// or it has no length.
bool trail_corner(uint slot, uint j, ParticleMotion motion, ParticleTraits particle_traits, float step,
                  out TrailCorner c) {
    uvec4 header = trail_headers[slot];
    vec4 p1, p2;
    vec3 p0, p3;
    uint far = slot, other; // ribbons: the particle at the segment's far end
    if (u_ribbon) {
        if (!ribbon_neighbour(slot, -1, far)) return false;
        p1 = vec4(motion.position, 0.0);
        p2 = vec4(position_age_of(far).xyz, 0.0);
        p0 = ribbon_neighbour(slot, 1, other) ? position_age_of(other).xyz : 2.0 * p1.xyz - p2.xyz;
        p3 = ribbon_neighbour(far, -1, other) ? position_age_of(other).xyz : 2.0 * p2.xyz - p1.xyz;
    } else {
        if (j >= header.z) return false;
        p1 = trail_point(slot, header, motion.position, j);
        p2 = trail_point(slot, header, motion.position, j + 1u);
        // Past the ends, the neighbour mirrored: the curve runs straight out.
        p0 = j > 0u ? trail_point(slot, header, motion.position, j - 1u).xyz : 2.0 * p1.xyz - p2.xyz;
        p3 = j + 2u <= header.z ? trail_point(slot, header, motion.position, j + 2u).xyz : 2.0 * p2.xyz - p1.xyz;
    }
    // A segment of no length (a point recorded where the particle is, a
    // particle at rest) has no direction: nothing to draw.
    if (distance(p1.xyz, p2.xyz) < 1e-6) return false;
    // A full trail's last segment shrinks as the next point nears, and is
    // gone when that point drops it: the tail never jumps.
    float end = 1.0;
    if (!u_ribbon && header.z == u_trail_ring && j + 1u == header.z) {
        float since = u_by_distance ? distance(motion.position, trail_recorded(slot, header, 0u).xyz)
                                    : motion.age - uintBitsToFloat(header.w);
        end = 1.0 - clamp(since / u_spacing, 0.0, 1.0);
    }
    float t = step / float(PLUME_GPU_TRAIL_SUBDIVISIONS) * end;
    vec3 centre;
    if (step == 0.0) {
        centre = p1.xyz;
        c.direction = knot_direction(p0, p1.xyz, p2.xyz);
    } else if (t == 1.0) {
        centre = p2.xyz;
        c.direction = knot_direction(p1.xyz, p2.xyz, p3);
    } else {
        centre = catmull_rom(p0, p1.xyz, p2.xyz, p3, t);
        c.direction = catmull_rom(p0, p1.xyz, p2.xyz, p3, min(t + 1e-3, 1.0)) -
                      catmull_rom(p0, p1.xyz, p2.xyz, p3, max(t - 1e-3, 0.0));
    }
    float along = u_ribbon ? 0.0 : (float(j) + t) / float(u_trail_ring);
    c.a = particle_appearance(motion, particle_traits);
    if (u_ribbon) {
        // Copies first: NVIDIA's compiler refuses a restrict buffer's
        // element as a plain parameter (C1317).
        ParticleMotion far_motion = motions[far];
        ParticleTraits far_traits = traits[far];
        Appearance b = particle_appearance(far_motion, far_traits);
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
    c.length_uv = u_ribbon ? t : u_uv_tile ? mix(p1.w, p2.w, t) / u_uv_tile_length : along;
    return true;
}

// The section's corner `across` (-0.5 or 0.5) of the way across the strip.
vec3 trail_corner_world(TrailCorner c, float across) { return c.centre + c.across * (across * c.width); }

// The light's direction in the strip's frame at a corner (lit across the
// strip as a tube).
vec3 trail_corner_light(TrailCorner c) {
    return quad_light(QuadEdges(c.across, unit_or(c.direction, u_camera_up)), cross(u_camera_right, u_camera_up));
}
