// Trails (plume_trail_desc), pulled from the update's sorted segment pairs:
// instance i draws pair draw_list[i] {key, slot x u_entries + entry}. Entry
// u_trail_ring is the particle's own quad (the raster path's, vertices 0..5);
// entry j < u_trail_ring a segment's quads, as render/trail_geometry.glsl
// makes them (shared with the tiled path's projection): vertices 6k .. 6k + 5
// quad k of the n its curve needs (trail_subdivisions), those past n
// degenerate (no fragments). A segment the trail does not have yet draws
// nothing.
#define TRAIL_RIBBON_READ
#include "particles/particle_common.glsl"
#include "render/particle_appearance.glsl"
#include "render/particle_quad.glsl"

layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { ParticleMotion motions[]; };
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer DrawList { uvec2 draw_list[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };
vec4 position_age_of(uint slot) { return vec4(motions[slot].position, motions[slot].age); }
#include "particles/trail_history.glsl"

#include "render/trail_geometry.glsl"

void emit_segment_vertex(uint slot, uint j, ParticleMotion motion, ParticleTraits particle_traits, int vertex) {
    gl_Position = vec4(0.0);  // degenerate: nothing drawn
    vec2 corner = CORNERS[vertex % 6];
    TrailSegment s;
    if (!trail_segment(slot, j, motion, s)) return;
    uint quads = trail_subdivisions(s.p0, s.p1.xyz, s.p2.xyz, s.p3, u_view, u_projection), quad = uint(vertex / 6);
    if (quad >= quads) return;
    TrailEnds e = trail_ends(s, particle_appearance(motion, particle_traits));
    TrailCorner c = trail_section(s, j, e, (float(quad) + corner.y + 0.5) / float(quads));
    v_color = c.color;
#ifdef PLUME_LOOK_ADDITIVE
    v_additive = c.a.additive;
#endif
#ifdef PLUME_LOOK_LIT
    v_quad = vec2(corner.x + 0.5, 0.5);  // lit across the strip as a tube
    v_light = trail_corner_light(c);
#endif
#ifdef PLUME_LOOK_EMISSIVE
    v_emissive = c.a.emissive;
#endif
    vec4 view_position = u_view * vec4(trail_corner_world(c, corner.x), 1.0);
    gl_Position = u_projection * view_position;
    v_view_depth = -view_position.z;
    // The sprite's columns along the trail, its rows across (from its top).
    vec2 corner_uv = vec2(c.length_uv, 0.5 - corner.x);
    v_frame_mix = c.a.frame_mix;
    v_uv_frame = frame_uv(c.a.frame, corner_uv);
    v_uv_next = frame_uv(c.a.next, corner_uv);
    v_frames = uvec2(c.a.frame, c.a.next);
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
