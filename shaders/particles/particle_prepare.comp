// One invocation per update: decides how many of the requested particles fit
// (as many as the dead list holds), reserves their slots at the top of the
// dead list. The CPU sends only the requested count.
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl"

layout(local_size_x = 1) in;

uniform uint u_requested;

void main() {
    uint emitted = min(u_requested, dead_count);
    dead_count -= emitted;
    emit_base = dead_count;
    emit_count = emitted;
    emit_id_base = emitted_total;
    emitted_total += emitted;
    live_count = 0u;  // the simulate pass counts this update's survivors
    drawn_count = 0u; // and appends those not culled
    for (uint i = 0u; i < 3u; ++i) { // and grows the box of the survivors
        state_header[PLUME_STATE_BOUNDS_MIN + i] = 0xFFFFFFFFu;
        state_header[PLUME_STATE_BOUNDS_MAX + i] = 0u;
    }
}
