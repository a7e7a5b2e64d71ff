// FUSED_STAGES consecutive global stages of the bitonic network in one pass:
// each invocation loads 2^FUSED_STAGES pairs spaced by the smallest distance of
// the group, runs every stage in registers and writes each pair once.
// FLIP: the group starts with flip(u_height) (pairs p and h-1-p of each block
// of u_height), then disperses of half-distance u_height/4 ... ; otherwise it is
// disperses of half-distance u_height/2 ... . Either way the smallest distance
// is u_height >> FUSED_STAGES.
// Defines: FUSED_STAGES, FLIP (0/1), GLOBAL_THREADS.
layout(local_size_x = GLOBAL_THREADS) in;

uniform uint u_height;
uniform uint u_log_distance; // log2(u_height >> FUSED_STAGES): shifts, not divisions

const uint COUNT = 1u << FUSED_STAGES;
const uint HALF = COUNT >> 1;

void main() {
    uint distance = 1u << u_log_distance;
    uint thread = gl_GlobalInvocationID.x;
    uint residue = thread & (distance - 1u);
    uint base = ((thread >> u_log_distance) << (u_log_distance + FUSED_STAGES)) | residue;
    if (base >= sort_count) return;
    uvec2 r[COUNT];
#if FLIP
    // Lower half: base + j*distance. Upper half, in r[HALF..]: the mirrors
    // u_height-1 - offset of the lower positions, so flip pairs r[j], r[HALF+j].
    // Upper registers hold descending positions: their disperses swap the
    // other way round.
    uint mirror = base - residue + u_height - 1u - residue;
    for (uint j = 0u; j < HALF; ++j) {
        r[j] = load_pair(base + j * distance);
        r[HALF + j] = load_pair(mirror - j * distance);
    }
    for (uint j = 0u; j < HALF; ++j) compare_swap(r[j], r[HALF + j]);
    for (uint stride = HALF >> 1; stride > 0u; stride >>= 1) {
        for (uint j = 0u; j < HALF; ++j) {
            if ((j & stride) != 0u) continue;
            compare_swap(r[j], r[j + stride]);
            compare_swap(r[HALF + j + stride], r[HALF + j]);
        }
    }
    for (uint j = 0u; j < HALF; ++j) {
        store_pair(base + j * distance, r[j]);
        store_pair(mirror - j * distance, r[HALF + j]);
    }
#else
    for (uint j = 0u; j < COUNT; ++j) r[j] = load_pair(base + j * distance);
    for (uint stride = HALF; stride > 0u; stride >>= 1) {
        for (uint j = 0u; j < COUNT; ++j) {
            if ((j & stride) == 0u) compare_swap(r[j], r[j + stride]);
        }
    }
    for (uint j = 0u; j < COUNT; ++j) store_pair(base + j * distance, r[j]);
#endif
}
