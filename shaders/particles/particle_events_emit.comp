// One invocation per child that events_prepare let through: a particle of the
// record's target emitter at the parent's position with the inherited
// velocity. Its random stream comes from the parent's emission number, the
// route and the child's number (the records are in the parents' slot order:
// particle_compact.comp), so the same parents give the same children.
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl"
#include "particles/particle_birth.glsl"
#include "particles/particle_spawn.glsl"
#include "particles/particle_events.glsl"

layout(local_size_x = PLUME_EVENT_EMIT_GROUP_SIZE) in;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= own_event_header[PLUME_EVENT_CONSUMING]) return;
    EventRecord record = own_events[i];
    uint route = floatBitsToUint(record.position_route.w);
    uint stream = random_stream(u_seed, hash_u32(hash_u32(floatBitsToUint(record.velocity_parent.w)) ^ route));
    uint slot = dead_slots[own_event_header[PLUME_EVENT_EMIT_BASE] + i];
    spawn_particle(slot, own_event_header[PLUME_EVENT_ID_BASE] + i, route & 7u, stream, record.position_route.xyz,
                   record.velocity_parent.xyz);
}
