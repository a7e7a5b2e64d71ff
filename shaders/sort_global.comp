// Built after sort_common.glsl and sort_registers.glsl (USE_SHARED = WINDOWS > 1).
// The global stages of one merge level of height 2^(u_high_bit+1) or part of
// them: stages on position bits u_high_bit .. u_low_bit (all >= LOG_BLOCK),
// the first a flip when u_flip is set, the rest disperses.
//
// A workgroup holds the BLOCK_PAIRS positions that differ in those bits
// (block index bits LOG_BLOCK-BITS ..) and in the lowest LOG_BLOCK-BITS
// position bits (block index bits below), so its loads and stores are runs of
// consecutive pairs. The workgroup id supplies every other position bit.
//
// A flip pairs p with its mirror in the level (p XOR (height-1)). Here the
// positions of the upper half are mirrored: block index v names position
// raw(v) XOR (2^u_high_bit - 1) when raw(v) has bit u_high_bit set. The flip
// is then a compare on v bit LOG_BLOCK-1 like a disperse, and the disperses
// after it compare the other way round in the mirrored half.
// One window (WINDOWS 1) runs up to LOG_REGS stages with no shared memory;
// WINDOWS 2 up to twice that, with one round trip through shared memory.
// Defines: LOG_BLOCK, LOG_REGS, WINDOWS (1/2).
uniform uint u_high_bit;
uniform uint u_low_bit;
uniform uint u_flip;

// group_base: the workgroup's lowest position; low_bits: block index bits
// that are position bits as they are.
uint position_of(uint v, uint group_base, uint low_bits) {
    uint raw = group_base | (v & ((1u << low_bits) - 1u)) | ((v >> low_bits) << u_low_bit);
    if (u_flip != 0u && ((raw >> u_high_bit) & 1u) != 0u) raw ^= (1u << u_high_bit) - 1u;
    return raw;
}

#define LOAD_REG(r) regs[(r)] = load_pair(position_of(base | ((r) << c), group_base, low_bits));
#define STORE_REG(r) store_pair(position_of(base | ((r) << c), group_base, low_bits), regs[(r)]);

void main() {
    uint bits = u_high_bit - u_low_bit + 1u;
    uint low_bits = LOG_BLOCK - bits;
    uint spread = u_low_bit - low_bits; // workgroup id bits placed between
    uint group = gl_WorkGroupID.x;
    uint group_base = ((group & ((1u << spread) - 1u)) << low_bits) | ((group >> spread) << (u_high_bit + 1u));
    // Uniform in the workgroup, so returning before a barrier is allowed.
    if (group_base >= sort_count) return;

    uint thread = gl_LocalInvocationID.x;
    uint direction_bit = u_flip != 0u ? LOG_BLOCK - 1u : LOG_BLOCK;
    uint c = LOG_BLOCK - LOG_REGS, base = window_base(thread, c);
    FOR_EACH_REG(LOAD_REG)
    RUN_WINDOW(c, LOG_BLOCK - 1u, max(c, low_bits), descending_mask(base, c, direction_bit))
#if WINDOWS > 1
    if (bits > LOG_REGS) {
        uint next = uint(max(int(LOG_BLOCK) - 2 * int(LOG_REGS), 0));
        MOVE_WINDOW(c, next)
        c = next;
        base = window_base(thread, c);
        RUN_WINDOW(c, LOG_BLOCK - LOG_REGS - 1u, low_bits, descending_mask(base, c, direction_bit))
    }
#endif
    FOR_EACH_REG(STORE_REG)
}
