// Slot order (plugin/particles/simulate.c): simulate wrote every slot's pair
// to slot_pairs (key PLUME_GPU_KEY_LAST where the particle is not drawn) and
// each workgroup's drawn count to group_counts. Two dispatches pack the drawn
// pairs into the live list in slot order, so that the list's order depends on
// the particles only, never on the order workgroups ran in: a stable sort
// (the radix sort) then gives equal depth keys in slot order, the bitonic
// sort's order.
//   COMPACT_SCAN 1: one workgroup; group_counts become their exclusive sum.
//   COMPACT_SCAN 0: a workgroup per simulate workgroup; its drawn pairs go to
//                   the live list from its sum on, in slot order.
// Built after sort/workgroup_sum.glsl (PLUME_RADIX_THREADS ==
// PLUME_SIMULATE_GROUP_SIZE, checked in C), with SUBGROUP_OPS 0.
layout(local_size_x = PLUME_SIMULATE_GROUP_SIZE) in;
layout(std430, binding = PLUME_BINDING_GROUP_COUNTS) restrict buffer GroupCounts { uint group_counts[]; };
#if !COMPACT_SCAN
layout(std430, binding = PLUME_BINDING_SLOT_PAIRS) restrict readonly buffer SlotPairs { uvec2 slot_pairs[]; };
layout(std430, binding = PLUME_BINDING_LIVE_LIST) restrict writeonly buffer LiveList { uvec2 live_list[]; };
uniform uint u_capacity;
#endif
uniform uint u_groups; // simulate's workgroups

void main() {
    uint thread = gl_LocalInvocationIndex, total;
#if COMPACT_SCAN
    // Each invocation sums a run of consecutive groups; one workgroup sum
    // gives each run's start.
    uint per_thread = (u_groups + PLUME_SIMULATE_GROUP_SIZE - 1u) / PLUME_SIMULATE_GROUP_SIZE;
    uint begin = min(thread * per_thread, u_groups), end = min(begin + per_thread, u_groups);
    uint sum = 0u;
    for (uint group = begin; group < end; ++group) sum += group_counts[group];
    uint before = workgroup_exclusive_sum(sum, thread, total);
    for (uint group = begin; group < end; ++group) {
        uint count = group_counts[group];
        group_counts[group] = before;
        before += count;
    }
#else
    uint slot = gl_WorkGroupID.x * PLUME_SIMULATE_GROUP_SIZE + thread;
    uvec2 pair = slot < u_capacity ? slot_pairs[slot] : uvec2(PLUME_GPU_KEY_LAST, 0u);
    bool drawn = pair.x != PLUME_GPU_KEY_LAST;
    uint before = workgroup_exclusive_sum(drawn ? 1u : 0u, thread, total);
    if (drawn) live_list[group_counts[gl_WorkGroupID.x] + before] = pair;
#endif
}
