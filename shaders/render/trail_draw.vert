// Trails (plume_trail_desc), pulled from the update's sorted segment pairs:
// instance i draws pair draw_list[i] {key, slot x u_entries + entry}. Entry
// u_trail_ring is the particle's own quad (the raster path's, vertices 0..5);
// entry j < u_trail_ring the segment from trail point j to j + 1
// (trail_history.glsl) as PLUME_GPU_TRAIL_SUBDIVISIONS quads along a
// centripetal Catmull-Rom curve through the points around it. Each quad's
// edge is the curve's point widened across the curve's direction and the
// direction to the eye, computed from the same points on both sides of a
// shared point: segments meet without gaps, and the strip faces the eye
// without twisting. A segment the trail does not have yet draws nothing.
// Ribbons: entry 0 is the segment from the particle to the one before it in
// emission order, the curve through the ones around them, its width and
// colour each particle's own at its end.
#define TRAIL_RIBBON_READ
#include "particles/particle_common.glsl"
#include "render/particle_appearance.glsl"
#include "render/particle_quad.glsl"

layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { ParticleMotion motions[]; };
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer DrawList { uvec2 draw_list[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };
vec4 position_age_of(uint slot) { return vec4(motions[slot].position, motions[slot].age); }
#include "particles/trail_history.glsl"

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

void emit_segment_vertex(uint slot, uint j, ParticleMotion motion, ParticleTraits particle_traits, int vertex) {
    uvec4 header = trail_headers[slot];
    gl_Position = vec4(0.0);  // degenerate: nothing drawn
    vec4 p1, p2;
    vec3 p0, p3;
    uint far = slot, other; // ribbons: the particle at the segment's far end
    if (u_ribbon) {
        if (!ribbon_neighbour(slot, -1, far)) return;
        p1 = vec4(motion.position, 0.0);
        p2 = vec4(position_age_of(far).xyz, 0.0);
        p0 = ribbon_neighbour(slot, 1, other) ? position_age_of(other).xyz : 2.0 * p1.xyz - p2.xyz;
        p3 = ribbon_neighbour(far, -1, other) ? position_age_of(other).xyz : 2.0 * p2.xyz - p1.xyz;
    } else {
        if (j >= header.z) return;
        p1 = trail_point(slot, header, motion.position, j);
        p2 = trail_point(slot, header, motion.position, j + 1u);
        // Past the ends, the neighbour mirrored: the curve runs straight out.
        p0 = j > 0u ? trail_point(slot, header, motion.position, j - 1u).xyz : 2.0 * p1.xyz - p2.xyz;
        p3 = j + 2u <= header.z ? trail_point(slot, header, motion.position, j + 2u).xyz : 2.0 * p2.xyz - p1.xyz;
    }
    // A segment of no length (a point recorded where the particle is, a
    // particle at rest) has no direction: nothing to draw.
    if (distance(p1.xyz, p2.xyz) < 1e-6) return;
    // A full trail's last segment shrinks as the next point nears, and is
    // gone when that point drops it: the tail never jumps.
    float end = 1.0;
    if (!u_ribbon && header.z == u_trail_ring && j + 1u == header.z) {
        float since = u_by_distance ? distance(motion.position, trail_recorded(slot, header, 0u).xyz)
                                    : motion.age - uintBitsToFloat(header.w);
        end = 1.0 - clamp(since / u_spacing, 0.0, 1.0);
    }
    vec2 corner = CORNERS[vertex % 6];
    float step = float(vertex / 6) + corner.y + 0.5;
    float t = step / float(PLUME_GPU_TRAIL_SUBDIVISIONS) * end;
    vec3 centre, direction;
    if (step == 0.0) {
        centre = p1.xyz;
        direction = knot_direction(p0, p1.xyz, p2.xyz);
    } else if (t == 1.0) {
        centre = p2.xyz;
        direction = knot_direction(p1.xyz, p2.xyz, p3);
    } else {
        centre = catmull_rom(p0, p1.xyz, p2.xyz, p3, t);
        direction = catmull_rom(p0, p1.xyz, p2.xyz, p3, min(t + 1e-3, 1.0)) -
                    catmull_rom(p0, p1.xyz, p2.xyz, p3, max(t - 1e-3, 0.0));
    }
    float along = u_ribbon ? 0.0 : (float(j) + t) / float(u_trail_ring);
    Appearance a = particle_appearance(motion, particle_traits);
    if (u_ribbon) {
        // Copies first: NVIDIA's compiler refuses a restrict buffer's
        // element as a plain parameter (C1317).
        ParticleMotion far_motion = motions[far];
        ParticleTraits far_traits = traits[far];
        Appearance b = particle_appearance(far_motion, far_traits);
        vec4 size_additive = ends(vec4(a.size, a.additive, 0.0, 0.0), vec4(b.size, b.additive, 0.0, 0.0), t);
        a.size = size_additive.x;
        a.additive = size_additive.y;
        a.color = ends(a.color, b.color, t);
        a.emissive = ends(vec4(a.emissive, 0.0), vec4(b.emissive, 0.0), t).rgb;
    }
    float width = a.size * curve_value(u_trail_width_times, u_trail_width_values, u_trail_width_count, along);
    vec3 to_eye = u_eye.xyz - centre * u_eye.w;
    vec3 across = unit_or(cross(direction, to_eye), u_camera_right);
    vec3 world = centre + across * (corner.x * width);

    v_color = a.color * gradient_value(u_trail_color_times, u_trail_color_values, u_trail_color_count, along);
    v_color.a *= curve_value(u_trail_opacity_times, u_trail_opacity_values, u_trail_opacity_count, along);
#ifdef PLUME_LOOK_ADDITIVE
    v_additive = a.additive;
#endif
#ifdef PLUME_LOOK_LIT
    v_quad = vec2(corner.x + 0.5, 0.5);  // lit across the strip as a tube
    v_light = quad_light(QuadEdges(across, unit_or(direction, u_camera_up)), cross(u_camera_right, u_camera_up));
#endif
#ifdef PLUME_LOOK_EMISSIVE
    v_emissive = a.emissive;
#endif
    vec4 view_position = u_view * vec4(world, 1.0);
    gl_Position = u_projection * view_position;
    v_view_depth = -view_position.z;
    // The sprite's columns along the trail, its rows across (from its top).
    float length_uv = u_ribbon ? t : u_uv_tile ? mix(p1.w, p2.w, t) / u_uv_tile_length : along;
    vec2 corner_uv = vec2(length_uv, 0.5 - corner.x);
    v_frame_mix = a.frame_mix;
    v_uv_frame = frame_uv(a.frame, corner_uv);
    v_uv_next = frame_uv(a.next, corner_uv);
    v_frames = uvec2(a.frame, a.next);
}

void main() {
    uint value = draw_list[gl_InstanceID].y;
    uint slot = value / u_entries, entry = value % u_entries;
    ParticleMotion motion = motions[slot];
    ParticleTraits particle_traits = traits[slot];
    if (entry < u_trail_ring) {
        emit_segment_vertex(slot, entry, motion, particle_traits, gl_VertexID);
    } else if (gl_VertexID < 6) {
        emit_quad_vertex(motion, particle_traits, gl_VertexID);
    } else {
        gl_Position = vec4(0.0);
    }
}
