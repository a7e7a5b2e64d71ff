// Kills every particle: the dead list holds every slot, highest first, so
// the first emissions take slots 0, 1, 2, ...
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl"

layout(local_size_x = PLUME_RESET_GROUP_SIZE) in;

uniform uint u_capacity;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < u_capacity) {
        dead_slots[i] = u_capacity - 1u - i;
        free_particle_slot(i);
    }
    if (i == 0u) {
        draw_vertex_count = 6u;
        live_count = 0u;
        drawn_count = 0u;
        draw_first_vertex = 0u;
        draw_base_instance = 0u;
        dead_count = u_capacity;
        emit_base = u_capacity;
        emit_count = 0u;
        emitted_total = 0u;
        emit_id_base = 0u;
    }
}
