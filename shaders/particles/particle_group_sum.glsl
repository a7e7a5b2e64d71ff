// The workgroup prefix sum of the slot-order passes (particle_compact.comp,
// particle_cpu_events.comp), whose workgroups are simulate's.
#include "particles/particle_common.glsl"

// An exclusive prefix sum over the workgroup in invocation order, of four
// counts at once (one set of barriers for all four: Hillis-Steele in shared
// memory). Every invocation calls it together; `total` gets the sums.
shared uvec4 sum_space[PLUME_SIMULATE_GROUP_SIZE];

uvec4 exclusive_sum4(uvec4 value, uint index, out uvec4 total) {
    sum_space[index] = value;
    barrier();
    for (uint offset = 1u; offset < PLUME_SIMULATE_GROUP_SIZE; offset <<= 1u) {
        uvec4 add = index >= offset ? sum_space[index - offset] : uvec4(0u);
        barrier();
        sum_space[index] += add;
        barrier();
    }
    total = sum_space[PLUME_SIMULATE_GROUP_SIZE - 1u];
    return sum_space[index] - value;
}
