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
