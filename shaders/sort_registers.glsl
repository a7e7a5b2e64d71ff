// Register windows: how every sort pass runs its compare stages.
//
// A workgroup holds BLOCK_PAIRS = 2^LOG_BLOCK pairs, named by a block index v
// (LOG_BLOCK bits); each invocation holds REGS = 2^LOG_REGS of them in
// registers. In "window c" invocation t holds the pairs whose v differ only in
// bits c .. c+LOG_REGS-1: register r is v = window_base(t, c) | r << c. A
// compare stage on a bit inside the window is then a fixed compare network on
// registers, with no shared memory and no barrier; moving to another window
// is one round trip through shared memory. A level of the bitonic network
// (stages on bits h, h-1, ..., 0) costs one round trip per LOG_REGS stages
// instead of one per stage.
//
// Registers are only indexed by constants (the FOR_EACH_REG lists below):
// a dynamically indexed array would live in slow local memory on NVIDIA.
// Defines: LOG_BLOCK, LOG_REGS (1..5), USE_SHARED (0/1), THREADS (a literal
// 2^(LOG_BLOCK-LOG_REGS): GLSL 4.30 takes no expression in a layout).
const uint BLOCK_PAIRS = 1u << LOG_BLOCK;
const uint REGS = 1u << LOG_REGS;
layout(local_size_x = THREADS) in;

uvec2 regs[REGS];

#define REG_LIST_2(X, o) X((o)) X((o) + 1u)
#define REG_LIST_4(X, o) REG_LIST_2(X, (o)) REG_LIST_2(X, (o) + 2u)
#define REG_LIST_8(X, o) REG_LIST_4(X, (o)) REG_LIST_4(X, (o) + 4u)
#define REG_LIST_16(X, o) REG_LIST_8(X, (o)) REG_LIST_8(X, (o) + 8u)
#define REG_LIST_32(X, o) REG_LIST_16(X, (o)) REG_LIST_16(X, (o) + 16u)
#if LOG_REGS == 1
#define FOR_EACH_REG(X) REG_LIST_2(X, 0u)
#elif LOG_REGS == 2
#define FOR_EACH_REG(X) REG_LIST_4(X, 0u)
#elif LOG_REGS == 3
#define FOR_EACH_REG(X) REG_LIST_8(X, 0u)
#elif LOG_REGS == 4
#define FOR_EACH_REG(X) REG_LIST_16(X, 0u)
#else
#define FOR_EACH_REG(X) REG_LIST_32(X, 0u)
#endif

// v of register 0: invocation bits below c stay, the others go above the window.
uint window_base(uint thread, uint c) {
    uint low = thread & ((1u << c) - 1u);
    return low | ((thread ^ low) << LOG_REGS);
}

// Registers r whose v has bit b of the window set, as a bit mask over r.
const uint REGISTER_BIT_SET[5] = uint[](0xAAAAAAAAu, 0xCCCCCCCCu, 0xF0F0F0F0u, 0xFF00FF00u, 0xFFFF0000u);

// Which registers, as the lower pair of a compare, sort descending: those
// whose v has `direction_bit` set (bit LOG_BLOCK or above: none).
uint descending_mask(uint base, uint c, uint direction_bit) {
    if (direction_bit >= c && direction_bit < c + LOG_REGS) return REGISTER_BIT_SET[direction_bit - c];
    return ((base >> direction_bit) & 1u) != 0u ? 0xFFFFFFFFu : 0u;
}

// Stage on window bit m: registers r and r + 2^m for every r without bit m.
#define ORDER_AT(m, r) \
    if (((r) & (1u << (m))) == 0u) order_pair(regs[(r)], regs[(r) | (1u << (m))], ((descending >> (r)) & 1u) != 0u);
#define ORDER_BIT0(r) ORDER_AT(0u, r)
#define ORDER_BIT1(r) ORDER_AT(1u, r)
#define ORDER_BIT2(r) ORDER_AT(2u, r)
#define ORDER_BIT3(r) ORDER_AT(3u, r)
#define ORDER_BIT4(r) ORDER_AT(4u, r)

#if LOG_REGS > 4
#define STAGE_ON_BIT4(c, high, low) if ((c) + 4u <= (high) && (c) + 4u >= (low)) { FOR_EACH_REG(ORDER_BIT4) }
#else
#define STAGE_ON_BIT4(c, high, low)
#endif
#if LOG_REGS > 3
#define STAGE_ON_BIT3(c, high, low) if ((c) + 3u <= (high) && (c) + 3u >= (low)) { FOR_EACH_REG(ORDER_BIT3) }
#else
#define STAGE_ON_BIT3(c, high, low)
#endif
#if LOG_REGS > 2
#define STAGE_ON_BIT2(c, high, low) if ((c) + 2u <= (high) && (c) + 2u >= (low)) { FOR_EACH_REG(ORDER_BIT2) }
#else
#define STAGE_ON_BIT2(c, high, low)
#endif
#if LOG_REGS > 1
#define STAGE_ON_BIT1(c, high, low) if ((c) + 1u <= (high) && (c) + 1u >= (low)) { FOR_EACH_REG(ORDER_BIT1) }
#else
#define STAGE_ON_BIT1(c, high, low)
#endif

// Stages on v bits high, high-1, ..., low, all inside window c; `mask` is
// descending_mask() of the window.
// The register code is macros, not functions, so it is expanded inside
// main(): Mesa warns (as a high-severity debug message) of a global array read
// in a function placed before the code that first writes it.
#define RUN_WINDOW(c, high, low, mask)                                    \
    {                                                                     \
        uint window_c = (c), window_high = (high), window_low = (low);    \
        uint descending = (mask);                                         \
        STAGE_ON_BIT4(window_c, window_high, window_low)                  \
        STAGE_ON_BIT3(window_c, window_high, window_low)                  \
        STAGE_ON_BIT2(window_c, window_high, window_low)                  \
        STAGE_ON_BIT1(window_c, window_high, window_low)                  \
        if (window_c <= window_high && window_c >= window_low) { FOR_EACH_REG(ORDER_BIT0) } \
    }

#if USE_SHARED
shared uint shared_keys[BLOCK_PAIRS];
shared uint shared_values[BLOCK_PAIRS];

// Shared-memory slot of v: v with its low 5 bits XORed by a function of the
// next ones, so that the 32 invocations of a warp reach 32 different banks
// in every window c (their v differ in the lowest 5 bits outside the window;
// below c that includes bits above 4, which this mixes into the bank).
// Derived per LOG_REGS in notes/sort-performance.md; any XOR of this kind is
// a permutation, so the result never depends on it, only the speed.
uint bank_slot(uint v) {
#if LOG_REGS == 4
    uint x = (v >> 5) & 15u;
    return v ^ (((x << 1) | (x >> 3)) & 31u);
#elif LOG_REGS == 3
    uint x = (v >> 5) & 7u;
    return v ^ ((x << 2) | (x >> 1));
#else
    return v ^ ((v >> 5) & 31u);
#endif
}

#define WRITE_REG(r)                                       \
    {                                                      \
        uint slot = bank_slot(move_base | ((r) << move_c));  \
        shared_keys[slot] = regs[(r)].x;                   \
        shared_values[slot] = regs[(r)].y;                 \
    }
#define READ_REG(r)                                                  \
    {                                                                \
        uint slot = bank_slot(move_base | ((r) << move_c));            \
        regs[(r)] = uvec2(shared_keys[slot], shared_values[slot]);   \
    }

// From window from_c to window to_c through shared memory. The first barrier:
// every invocation has read the previous layout.
#define MOVE_WINDOW(from_c, to_c)                                                  \
    {                                                                              \
        uint move_to = (to_c);                                                     \
        uint move_c = (from_c), move_base = window_base(gl_LocalInvocationID.x, move_c); \
        barrier();                                                                 \
        FOR_EACH_REG(WRITE_REG)                                                    \
        barrier();                                                                 \
        move_c = move_to;                                                          \
        move_base = window_base(gl_LocalInvocationID.x, move_c);                   \
        FOR_EACH_REG(READ_REG)                                                     \
    }
#endif
