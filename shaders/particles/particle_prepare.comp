// One invocation per update: decides how many of the requested particles fit
// (as many as the dead list holds), reserves their slots at the top of the
// dead list. The CPU sends only the requested count. Over a table of systems
// (particle_system_table.glsl), a workgroup per system, its count in its record.
#include "particles/particle_system_table.glsl" // first: under PLUME_SYSTEM_TABLE, the names the rest reads
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl"

layout(local_size_x = 1) in;

#ifndef PLUME_SYSTEM_TABLE
uniform uint u_requested;
#endif

void main() {
#ifdef PLUME_SYSTEM_TABLE
    take_table_system();
#endif
    uint emitted = min(u_requested, dead_count);
    dead_count -= emitted;
    emit_base = dead_count;
    emit_count = emitted;
    emit_id_base = emitted_total;
    emitted_total += emitted;
    live_count = 0u;  // the simulate pass counts this update's survivors
    drawn_count = 0u; // and appends those not culled
    for (uint i = 0u; i < 3u; ++i) { // and grows the box of the survivors
        STATE_WORD(PLUME_STATE_BOUNDS_MIN + i) = 0xFFFFFFFFu;
        STATE_WORD(PLUME_STATE_BOUNDS_MAX + i) = 0u;
    }
}
