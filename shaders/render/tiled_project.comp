// Built after particle_common.glsl, particle_appearance.glsl and
// tiled_common.glsl. One invocation per rank of the sorted list (dispatched
// over the capacity): the particle's quad on the screen, exactly as the raster
// path places it, and how many tiles its pixels' bounding box touches (0 when
// no pixel can show it: behind the eye, clipped by the near or far plane,
// off the target, or transparent).
layout(local_size_x = PLUME_TILED_PROJECT_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { ParticleMotion motions[]; };
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer DrawList { uvec2 draw_list[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };
layout(std430, binding = PLUME_BINDING_STATE) restrict readonly buffer State { uint state_words[]; };
layout(std430, binding = PLUME_BINDING_TILED_COUNTS) restrict writeonly buffer Counts { uint counts[]; };
layout(std430, binding = PLUME_BINDING_TILED_SPLATS) restrict writeonly buffer Splats { vec4 splats[]; };

uniform mat4 u_view;
uniform mat4 u_projection;
uniform vec3 u_camera_right;
uniform vec3 u_camera_up;
uniform vec2 u_target_size;   // pixels
uniform uint u_capacity;

vec4 clip_corner(ParticleMotion p, vec2 corner, float rotation, float size) {
    vec3 world = quad_corner(p.position, corner, rotation, size, u_camera_right, u_camera_up);
    return u_projection * (u_view * vec4(world, 1.0));
}

// Snapped to 1/256 pixel, as rasterisers snap vertices (8 sub-pixel bits),
// so that the pixels at a quad's edge are the raster path's.
vec2 target_position(vec4 clip) {
    return round((clip.xy / clip.w * 0.5 + 0.5) * u_target_size * 256.0) / 256.0;
}

uint project(uint rank) {
    uint slot = draw_list[rank].y;
    ParticleMotion p = motions[slot];
    ParticleTraits t = traits[slot];
    Appearance a = particle_appearance(p, t);
    if (a.color.a <= 0.0 || a.size <= 0.0) return 0u;
    float rotation = rotation_at(t, p.age);
    vec4 c0 = clip_corner(p, vec2(-0.5, -0.5), rotation, a.size);
    vec4 c1 = clip_corner(p, vec2(0.5, -0.5), rotation, a.size);
    vec4 c2 = clip_corner(p, vec2(0.5, 0.5), rotation, a.size);
    vec4 c3 = clip_corner(p, vec2(-0.5, 0.5), rotation, a.size);
    // The quad lies in a plane of constant view depth: one w, one depth for
    // its corners, so the near and far planes keep or clip it whole.
    if (c0.w <= 0.0 || c0.z < -c0.w || c0.z > c0.w) return 0u;
    vec2 w0 = target_position(c0), w1 = target_position(c1), w2 = target_position(c2), w3 = target_position(c3);
    vec2 limit = u_target_size + 1.0;
    vec2 lo = clamp(min(min(w0, w1), min(w2, w3)), vec2(-1.0), limit);
    vec2 hi = clamp(max(max(w0, w1), max(w2, w3)), vec2(-1.0), limit);
    // The pixels whose centres fall inside the quad's bounding box.
    ivec2 first = max(ivec2(ceil(lo - 0.5)), ivec2(0));
    ivec2 last = min(ivec2(floor(hi - 0.5)), ivec2(u_target_size) - 1);
    if (any(greaterThan(first, last))) return 0u;
    mat2 axes = mat2(w1 - w0, w3 - w0);
    if (abs(determinant(axes)) < 1e-12) return 0u;
    mat2 to_quad = inverse(axes);
    uvec2 tile0 = uvec2(first) / TILE_SIZE, tile1 = uvec2(last) / TILE_SIZE;
    float view_depth = -(u_view * vec4(p.position, 1.0)).z;
    uint base = rank * uint(PLUME_TILED_SPLAT_VEC4S);
    splats[base + 0u] = vec4(w0, view_depth, c0.z / c0.w * 0.5 + 0.5);
    splats[base + 1u] = vec4(to_quad[0], to_quad[1]);
    splats[base + 2u] = a.color;
    splats[base + 3u] = vec4(uintBitsToFloat(tile0.x | (tile0.y << 16)), uintBitsToFloat(tile1.x | (tile1.y << 16)),
                             uintBitsToFloat(a.frame | (a.next << 16)), a.frame_mix);
    return (tile1.x - tile0.x + 1u) * (tile1.y - tile0.y + 1u);
}

void main() {
    uint rank = gl_GlobalInvocationID.x;
    if (rank >= u_capacity) return;
    counts[rank] = rank < state_words[PLUME_STATE_DRAWN_COUNT] ? project(rank) : 0u;
}
