// After simulate: every live particle adds its position to its trail's ring
// once it has gone the spacing (of age or of path) since the newest point;
// a particle the slot has not seen before (another emission number: a slot
// reused after a death, or the system reset) starts its trail where it is.
// Ribbons: each live particle enters its slot in the table by emission
// number instead.
#define TRAIL_HISTORY_ACCESS
#include "particles/particle_common.glsl"
#include "particles/trail_history.glsl"

layout(local_size_x = PLUME_TRAIL_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { vec4 motion_words[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };

uniform uint u_capacity;
uniform bool u_by_distance;  // plume_trail_spacing DISTANCE

const float FREE_SLOT_AGE = -1.0; // particle_state.glsl's

void main() {
    uint slot = gl_GlobalInvocationID.x;
    if (slot >= u_capacity) return;
    vec4 position_age = motion_words[PLUME_MOTION_VEC4S * slot];
    if (!(position_age.w > FREE_SLOT_AGE)) return;
    uint id = traits[slot].id;
    if (u_ribbon) {
        trail_headers[id % u_capacity].x = slot;
        return;
    }
    uvec4 header = trail_headers[slot];
    if (header.x != id || header.z == 0u) {
        trail_headers[slot] = uvec4(id, 0u, 1u, floatBitsToUint(position_age.w));
        trail_points[slot * u_trail_ring] = vec4(position_age.xyz, 0.0);
        return;
    }
    vec4 newest = trail_recorded(slot, header, 0u);
    float way = distance(position_age.xyz, newest.xyz);
    float since = u_by_distance ? way : position_age.w - uintBitsToFloat(header.w);
    if (!(since >= u_spacing)) return;
    header.y = (header.y + 1u) % u_trail_ring;
    header.z = min(header.z + 1u, u_trail_ring);
    header.w = floatBitsToUint(position_age.w);
    trail_headers[slot] = header;
    trail_points[slot * u_trail_ring + header.y] = vec4(position_age.xyz, newest.w + way);
}
