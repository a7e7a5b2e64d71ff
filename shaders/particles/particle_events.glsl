// Event buffers: a header (its words in shared/plume_gpu_layout.h), then one
// record per child to spawn. The compaction after a simulate pass
// (particle_compact.comp) appends to the buffers of the systems its routes
// target; a system's own next update emits the children its buffer holds
// (events_prepare, events_emit).
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl"

struct EventRecord {
    vec4 position_route;   // xyz: the parent's position; w: bits: target emitter | child << 8 | route << 16
    vec4 velocity_parent;  // xyz: the inherited velocity; w: bits: the parent's emission number
};
layout(std430, binding = PLUME_BINDING_EVENTS_OWN) restrict buffer OwnEvents {
    uint own_event_header[PLUME_EVENT_HEADER_WORDS];
    EventRecord own_events[];
};
