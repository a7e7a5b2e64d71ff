// An exclusive prefix sum over a workgroup of RADIX_THREADS invocations
// in the order of `index` (with SUBGROUP_OPS: subgroup-major, the radix
// sort's thread_index()). Every invocation calls it together; `total` gets
// the sum of all values. With subgroups: a subgroup scan, then the subgroups'
// totals; else Hillis-Steele in shared memory. Used by the radix sort (the
// particle system's compaction sums four counts at once with its own
// uvec4 version: particles/particle_compact.comp).
#include "sort/radix_common.glsl" // thread_index

#if SUBGROUP_OPS
shared uint subgroup_totals[RADIX_THREADS / PLUME_RADIX_LANES];

uint workgroup_exclusive_sum(uint value, uint index, out uint total) {
    uint inclusive = subgroupInclusiveAdd(value);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) subgroup_totals[gl_SubgroupID] = inclusive;
    barrier();
    uint before = 0u;
    total = 0u;
    for (uint group = 0u; group < RADIX_THREADS / PLUME_RADIX_LANES; ++group) {
        uint sum = subgroup_totals[group];
        before += group < gl_SubgroupID ? sum : 0u;
        total += sum;
    }
    barrier(); // the next call may overwrite subgroup_totals
    return before + inclusive - value;
}
#else
shared uint sum_space[RADIX_THREADS];

uint workgroup_exclusive_sum(uint value, uint index, out uint total) {
    sum_space[index] = value;
    barrier();
    for (uint offset = 1u; offset < RADIX_THREADS; offset <<= 1u) {
        uint add = index >= offset ? sum_space[index - offset] : 0u;
        barrier();
        sum_space[index] += add;
        barrier();
    }
    total = sum_space[RADIX_THREADS - 1u];
    uint inclusive = sum_space[index];
    barrier(); // the next call may overwrite sum_space
    return inclusive - value;
}
#endif
