// A particle's trail (plume_trail_desc): per slot a header {emission number
// of the particle the trail belongs to, ring index of the newest recorded
// point, recorded points, age at the newest (float bits)} and a ring of
// u_trail_ring points {position, path length since birth}. The record pass
// writes them (TRAIL_HISTORY_ACCESS defined empty); the key pass and the
// draw read them.
#ifndef TRAIL_HISTORY_ACCESS
#define TRAIL_HISTORY_ACCESS readonly
#endif
// A pass with other buffers at these bindings (the tiled projection) moves them.
#ifndef TRAIL_HEADERS_BINDING
#define TRAIL_HEADERS_BINDING PLUME_BINDING_TRAIL_HEADERS
#define TRAIL_POINTS_BINDING PLUME_BINDING_TRAIL_POINTS
#endif
layout(std430, binding = TRAIL_HEADERS_BINDING) restrict TRAIL_HISTORY_ACCESS buffer TrailHeaders { uvec4 trail_headers[]; };
layout(std430, binding = TRAIL_POINTS_BINDING) restrict TRAIL_HISTORY_ACCESS buffer TrailPoints { vec4 trail_points[]; };

uniform uint u_trail_ring;   // K - 1: the points a slot's ring holds

// The i-th newest recorded point (0: the newest).
vec4 trail_recorded(uint slot, uvec4 header, uint i) {
    return trail_points[slot * u_trail_ring + (header.y + u_trail_ring - i) % u_trail_ring];
}

// Ribbons (plume_trail_desc.ribbon): the headers' first words are instead a
// table of slots by emission number modulo the capacity, which the record
// pass writes for the live particles. A shader reading it defines
// TRAIL_RIBBON_READ and provides traits[] and position_age_of(slot).
uniform bool u_ribbon;
uniform uint u_trail_capacity;
uniform float u_spacing;     // trails: between points; ribbons: the longest birth gap joined

#ifdef TRAIL_RIBBON_READ
// The particle `offset` (1 or -1) places from the one in `slot` in emission
// order, where the ribbon joins them: alive, of the same instance, born at
// most u_spacing apart (a table entry another particle took: not found).
bool ribbon_neighbour(uint slot, int offset, out uint neighbour) {
    uint id = traits[slot].id + uint(offset);
    neighbour = trail_headers[id % u_trail_capacity].x;
    if (neighbour >= u_trail_capacity || traits[neighbour].id != id) return false;
    if (traits[neighbour].instance != traits[slot].instance) return false;
    float age = position_age_of(neighbour).w;
    return age > -1.0 && abs(age - position_age_of(slot).w) <= u_spacing;
}
#endif

// Point i of the trail: 0 is the particle now (its path length the newest
// point's plus the way since), then the recorded points, newest first.
vec4 trail_point(uint slot, uvec4 header, vec3 now, uint i) {
    vec4 newest = trail_recorded(slot, header, 0u);
    if (i == 0u) return vec4(now, newest.w + distance(now, newest.xyz));
    return trail_recorded(slot, header, i - 1u);
}
