// One invocation, before prepare: how many of the children in this system's
// event buffer fit (those stored, as far as the dead list reaches), reserves
// their slots at the top of the dead list and their emission numbers (the
// emitters' particles come after them); counts what is dropped; empties the
// buffer for the simulate passes that append next.
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl"
#include "particles/particle_events.glsl"

layout(local_size_x = 1) in;

uniform uint u_event_capacity;

void main() {
    uint requested = own_event_header[PLUME_EVENT_REQUESTED];
    uint emitted = min(min(requested, u_event_capacity), dead_count);
    dead_count -= emitted;
    own_event_header[PLUME_EVENT_EMIT_BASE] = dead_count;
    own_event_header[PLUME_EVENT_CONSUMING] = emitted;
    own_event_header[PLUME_EVENT_ID_BASE] = emitted_total;
    emitted_total += emitted;
    own_event_header[PLUME_EVENT_LAST_REQUESTED] = requested;
    own_event_header[PLUME_EVENT_LAST_DROPPED] = requested - emitted;
    own_event_header[PLUME_EVENT_REQUESTED] = 0u;
}
