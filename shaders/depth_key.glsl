// View depth to a sortable uint key; the twin of plume_depth_key() in C
// (plugin/depth_key.c), tested to agree bit for bit.
// -0.0 becomes +0.0; every NaN becomes KEY_NAN (behind all numbers); KEY_LAST is
// never produced and marks dead slots. descending: larger depth, smaller key.
const uint KEY_NAN = 0xFFFFFFFEu;
const uint KEY_LAST = 0xFFFFFFFFu;

uint depth_key(float depth, bool descending) {
    if (isnan(depth)) return KEY_NAN;
    uint bits = floatBitsToUint(depth);
    if (bits == 0x80000000u) bits = 0u;
    uint sortable = (bits & 0x80000000u) != 0u ? ~bits : bits | 0x80000000u;
    return descending ? ~sortable : sortable;
}
