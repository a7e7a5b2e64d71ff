// A trail segment's curve from its four points, shared by every draw of a
// strip (render/trail_geometry.glsl, which finds the points in a trail's
// history; a draw group's draw, which reads them from the segment's record,
// render/draw_group.vert).

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

// The curve's point and direction at t (0 .. 1) of the segment from p1 to
// p2: at its ends exactly the points, and directions the segments on
// either side of a point share.
void trail_curve_at(vec3 p0, vec3 p1, vec3 p2, vec3 p3, float t, out vec3 centre, out vec3 direction) {
    if (t == 0.0) {
        centre = p1;
        direction = knot_direction(p0, p1, p2);
    } else if (t == 1.0) {
        centre = p2;
        direction = knot_direction(p1, p2, p3);
    } else {
        centre = catmull_rom(p0, p1, p2, p3, t);
        direction = catmull_rom(p0, p1, p2, p3, min(t + 1e-3, 1.0)) - catmull_rom(p0, p1, p2, p3, max(t - 1e-3, 0.0));
    }
}

// ---- How many quads a segment needs on the screen ----
// The target's pixels the strips are drawn into; (0, 0): every segment at
// PLUME_GPU_TRAIL_SUBDIVISIONS quads (the lab's forced subdivisions,
// plume_lab_trail_full_subdivisions; never in the product).
uniform vec2 u_trail_target;

// The thresholds (shared/plume_gpu_layout.h): the most a polyline of the
// curve may stray from it is half a pixel, under which the raster's sample
// grid moves an edge by at most one pixel's step here and there. Each
// halving of a quad divides its deviation by about 4: one quad below
// PLUME_GPU_TRAIL_ONE_QUAD_PIXELS (0.5) of the curve's deviation from its
// chord, two below 4 x that (PLUME_GPU_TRAIL_TWO_QUADS_PIXELS), else
// PLUME_GPU_TRAIL_SUBDIVISIONS (at most 0.5 px off up to 8 px of deviation).
// The tests' CPU reference decides with the same arithmetic
// (tests/support/trail_reference.c).

// Clip coordinates of a world point.
vec4 trail_clip(mat4 view, mat4 projection, vec3 world) { return projection * (view * vec4(world, 1.0)); }

// A clip point's distance in pixels from the screen's segment a .. b (clip
// points; all in front of the eye).
float trail_pixels_off_chord(vec4 point, vec4 a, vec4 b) {
    vec2 half_target = 0.5 * u_trail_target;
    vec2 p = point.xy / point.w * half_target, from = a.xy / a.w * half_target, chord = b.xy / b.w * half_target - from;
    float along = clamp(dot(p - from, chord) / max(dot(chord, chord), 1e-12), 0.0, 1.0);
    return distance(p, from + chord * along);
}

// The curve's largest deviation from its chord on the screen, in pixels,
// estimated from its points at t = 1/4 and 3/4: the curve is a cubic in t
// whose deviation from the chord is t (1 - t) ((1 - t) A - t B), which is
// largest at t = 1/2 where it bends one way (A = -B: 4/3 of its value at
// the quarters) and near the quarters where it winds as an S (A = B,
// which the midpoint alone would miss). Any point behind the eye: as large
// as can be.
float trail_deviation_pixels(vec3 p0, vec3 p1, vec3 p2, vec3 p3, mat4 view, mat4 projection) {
    vec4 a = trail_clip(view, projection, p1), b = trail_clip(view, projection, p2);
    vec4 q1 = trail_clip(view, projection, catmull_rom(p0, p1, p2, p3, 0.25));
    vec4 q3 = trail_clip(view, projection, catmull_rom(p0, p1, p2, p3, 0.75));
    if (min(min(a.w, b.w), min(q1.w, q3.w)) <= 1e-6) return 3.0e38;
    return 4.0 / 3.0 * max(trail_pixels_off_chord(q1, a, b), trail_pixels_off_chord(q3, a, b));
}

// The quads (1, 2 or PLUME_GPU_TRAIL_SUBDIVISIONS) that draw the segment
// from p1 to p2: as many as its curve on the screen needs. Quad k of n
// spans the curve from t = k / n to (k + 1) / n of what is drawn; the
// draws' quads past n draw nothing. Every trail draw decides with this
// (the raster and tiled draws of a trail system and of a draw group).
uint trail_subdivisions(vec3 p0, vec3 p1, vec3 p2, vec3 p3, mat4 view, mat4 projection) {
    if (u_trail_target.x <= 0.0) return uint(PLUME_GPU_TRAIL_SUBDIVISIONS);
    float deviation = trail_deviation_pixels(p0, p1, p2, p3, view, projection);
    return deviation < PLUME_GPU_TRAIL_ONE_QUAD_PIXELS ? 1u
         : deviation < PLUME_GPU_TRAIL_TWO_QUADS_PIXELS ? 2u
         : uint(PLUME_GPU_TRAIL_SUBDIVISIONS);
}
