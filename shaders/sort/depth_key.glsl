// View depth to a sortable uint key; the twin of plume_depth_key() in C
// (plugin/sort/depth_key.c), tested to agree bit for bit.
// -0.0 becomes +0.0; every NaN becomes PLUME_GPU_KEY_NAN (behind all numbers);
// PLUME_GPU_KEY_LAST is never produced and marks dead slots. descending:
// larger depth, smaller key.

uint depth_key(float depth, bool descending) {
    if (isnan(depth)) return PLUME_GPU_KEY_NAN;
    uint bits = floatBitsToUint(depth);
    if (bits == 0x80000000u) bits = 0u;
    uint sortable = (bits & 0x80000000u) != 0u ? ~bits : bits | 0x80000000u;
    return descending ? ~sortable : sortable;
}
