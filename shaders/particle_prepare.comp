// Built after particle_common.glsl and particle_state.glsl.
// One invocation per update: decides how many of the requested particles fit
// (as many as the dead list holds), reserves their slots at the top of the
// dead list, and sizes the simulate pass for last update's survivors plus the
// new particles. The CPU sends only the requested count.
layout(local_size_x = 1) in;

uniform uint u_requested;

void main() {
    uint survivors = live_count;
    uint emitted = min(u_requested, dead_count);
    dead_count -= emitted;
    emit_base = dead_count;
    emit_count = emitted;
    emit_id_base = emitted_total;
    emitted_total += emitted;
    input_count = survivors + emitted;
    simulate_groups_x = (input_count + uint(SIMULATE_GROUP_SIZE) - 1u) / uint(SIMULATE_GROUP_SIZE);
    simulate_groups_y = 1u;
    simulate_groups_z = 1u;
    live_count = 0u;  // the simulate pass counts this update's survivors
}
