// Built after sort_common.glsl and sort_registers.glsl (USE_SHARED 1).
// One workgroup per block of BLOCK_PAIRS pairs.
// LOCAL_SORT 1: sorts the block ascending (levels 1 .. LOG_BLOCK of the
// bitonic network, in its direction form: level L merges ascending where v
// has bit L clear, descending elsewhere; bit LOG_BLOCK is clear everywhere, so
// the last level is ascending. Positions past the count are maxima held in
// registers, never stored).
// LOCAL_SORT 0: the disperses of bits LOG_BLOCK-1 .. 0, all ascending, that
// end every larger merge level.
// Defines: LOG_BLOCK, LOG_REGS, LOCAL_SORT (0/1).

// The window whose invocations hold consecutive positions: global loads and
// stores in it are coalesced.
const uint COALESCED = LOG_BLOCK - LOG_REGS;

// Stages on bits high_bit .. 0, a window of LOG_REGS bits at a time from the
// top; leaves the registers in window c.
#define RUN_LEVEL(high_bit, direction_bit)                                                 \
    for (int high = int(high_bit); high >= 0; high -= int(LOG_REGS)) {                     \
        uint window = uint(max(high - int(LOG_REGS) + 1, 0));                              \
        if (window != c) {                                                                 \
            MOVE_WINDOW(c, window)                                                         \
            c = window;                                                                    \
        }                                                                                  \
        RUN_WINDOW(window, uint(high), window,                                             \
                   descending_mask(window_base(thread, window), window, (direction_bit)))  \
    }

#define LOAD_REG(r) regs[(r)] = load_pair(block_start + (thread | ((r) << COALESCED)));
#define STORE_REG(r) store_pair(block_start + (thread | ((r) << COALESCED)), regs[(r)]);

void main() {
    uint thread = gl_LocalInvocationID.x;
    uint block_start = gl_WorkGroupID.x << LOG_BLOCK;
    FOR_EACH_REG(LOAD_REG)
    uint c = COALESCED;
#if LOCAL_SORT
    // A block with at most 2^k live pairs is sorted after level k: the rest
    // of it is maxima.
    uint live = min(sort_count - min(sort_count, block_start), BLOCK_PAIRS);
    uint top_level = min(LOG_BLOCK, uint(findMSB(max(live, 2u) - 1u)) + 1u);
    for (uint level = 1u; level <= top_level; ++level) RUN_LEVEL(level - 1u, level)
#else
    RUN_LEVEL(LOG_BLOCK - 1u, LOG_BLOCK)
#endif
    if (c != COALESCED) MOVE_WINDOW(c, COALESCED)
    FOR_EACH_REG(STORE_REG)
}
