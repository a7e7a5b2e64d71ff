// Built after sort_groups.glsl (sort_pass_groups).
// Indirect sorts: reads the count from the host's buffer on the GPU, clamps it
// to the capacity, and writes every pass's dispatch size, so passes a smaller
// count does not need get zero workgroups. No readback to the CPU.
layout(local_size_x = 64) in;

layout(std430, binding = 1) restrict writeonly buffer SortStateOut {
    uint state_count;
    uint state_padding[3];
    uint dispatch_args[];  // 3 per pass: x, y, z workgroups
};
layout(std430, binding = 2) restrict readonly buffer HostCount { uint host_counts[]; };
// Per pass: the position bits that number its workgroups and the merge-level
// height the pass belongs to (sort_groups.glsl).
layout(std430, binding = 3) restrict readonly buffer PassTable { uvec2 passes[]; };

uniform uint u_count_index;
uniform uint u_capacity;
uniform uint u_pass_count;

void main() {
    uint count = min(host_counts[u_count_index], u_capacity);
    if (gl_GlobalInvocationID.x == 0u) state_count = count;
    for (uint p = gl_LocalInvocationID.x; p < u_pass_count; p += gl_WorkGroupSize.x) {
        dispatch_args[3u * p + 0u] = sort_pass_groups(passes[p], count);
        dispatch_args[3u * p + 1u] = 1u;
        dispatch_args[3u * p + 2u] = 1u;
    }
}
