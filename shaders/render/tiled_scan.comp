// An inclusive prefix sum of u_count uints in blocks of
// PLUME_TILED_SCAN_BLOCK, in two modes:
//   u_add false: each workgroup scans its block in place and writes the
//                block's total to sums[block];
//   u_add true:  each block but the first adds sums[block - 1] (the sums
//                scanned in turn) to its elements.
// render/tiled.c chains levels of these for any count. Sums saturate at
// 2^32 - 1, so a frame whose entries do not fit 32 bits still shows as an
// overflow.
#include "render/tiled_common.glsl"

layout(local_size_x = PLUME_TILED_SCAN_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_TILED_COUNTS) restrict buffer Values { uint values[]; };
layout(std430, binding = PLUME_BINDING_TILED_SCAN_SUMS) restrict buffer Sums { uint sums[]; };

uniform uint u_count;
uniform bool u_add;

shared uint partial[PLUME_TILED_SCAN_GROUP_SIZE];

uint saturating_add(uint a, uint b) {
    uint sum = a + b;
    return sum < a ? 0xFFFFFFFFu : sum;
}

void main() {
    const uint PER = uint(PLUME_TILED_SCAN_PER_INVOCATION);
    uint block = gl_WorkGroupID.x, lid = gl_LocalInvocationID.x;
    uint base = block * uint(PLUME_TILED_SCAN_BLOCK) + lid * PER;
    if (u_add) {
        if (block == 0u) return;
        uint before = sums[block - 1u];
        for (uint k = 0u; k < PER; ++k)
            if (base + k < u_count) values[base + k] = saturating_add(values[base + k], before);
        return;
    }
    uint running[PLUME_TILED_SCAN_PER_INVOCATION];
    uint total = 0u;
    for (uint k = 0u; k < PER; ++k) {
        total = saturating_add(total, base + k < u_count ? values[base + k] : 0u);
        running[k] = total;
    }
    partial[lid] = total;
    memoryBarrierShared();
    barrier();
    for (uint d = 1u; d < uint(PLUME_TILED_SCAN_GROUP_SIZE); d <<= 1) {
        uint left = lid >= d ? partial[lid - d] : 0u;
        barrier();
        partial[lid] = saturating_add(partial[lid], left);
        memoryBarrierShared();
        barrier();
    }
    uint before = lid > 0u ? partial[lid - 1u] : 0u;
    for (uint k = 0u; k < PER; ++k)
        if (base + k < u_count) values[base + k] = saturating_add(running[k], before);
    if (lid == uint(PLUME_TILED_SCAN_GROUP_SIZE) - 1u) sums[block] = partial[lid];
}
