// The stages of the bitonic network on one block of BLOCK_PAIRS pairs per
// workgroup. LOCAL_SORT: blocks of consecutive positions, the whole network up
// to height BLOCK_PAIRS (flip + disperses for h = 2, 4, ..., BLOCK_PAIRS).
// Otherwise a merge pass: a block of positions chosen by bits (see
// pass_position) and a run of the larger levels' stages on those bits.
// Block index bits stand for position bits, so below "position" means the
// index in the block.
//
// Each invocation holds ELEMENTS = 2^LOG_ELEMENTS pairs in registers, and a
// group of LANES = 2^LOG_LANES invocations holds 2^HELD_BITS consecutive
// positions: position bits 0 .. LOG_LANES-1 name the lane, the next
// LOG_ELEMENTS bits the register. A stage on a register bit is a compare in
// one invocation; a stage on a lane bit trades pairs between lanes (a subgroup
// shuffle, no barrier: SUBGROUP_SHUFFLE; or, where the GL has none, the same
// trade through shared memory). Only stages on the higher bits go through
// shared memory, one barrier each. Most of the network's stages are on low
// bits (every merge level ends with them), so most need no barrier.
// Heights are powers of two: index arithmetic is shifts and masks.
// Register arrays are indexed only by constants (unrolled loops, switches on
// the bit), so that they stay in registers.
// Defines: BLOCK_PAIRS, LOG_BLOCK, LOCAL_THREADS, LOG_ELEMENTS (1 or 2),
// LOG_LANES, LOCAL_SORT (0/1), SUBGROUP_SHUFFLE (0/1; 1 needs
// GL_KHR_shader_subgroup_shuffle enabled before this file).
#include "sort/sort_common.glsl"
#include "sort/sort_groups.glsl"

#pragma optionNV(unroll all)
layout(local_size_x = LOCAL_THREADS) in;

const uint ELEMENTS = 1u << LOG_ELEMENTS;
const uint LANES = 1u << LOG_LANES;
const uint HELD_BITS = LOG_LANES + LOG_ELEMENTS;
const uint SWAPS_PER_THREAD = ELEMENTS / 2u;

shared uvec2 block[BLOCK_PAIRS];

// This invocation's place among the workgroup's LOCAL_THREADS. With subgroups
// the lane must be the subgroup invocation, whatever order the GL gives them.
uint thread_index() {
#if SUBGROUP_SHUFFLE
    return gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
#else
    return gl_LocalInvocationIndex;
#endif
}

// Block position of register r of the invocation whose position base (r = 0)
// is `first`.
uint held_position(uint first, uint r) {
    return first + (r << LOG_LANES);
}

// received[r] = what lane (lane ^ lane_mask) has in sent[r]. Every invocation
// of the workgroup calls it together.
void trade_lanes(uvec2 sent[ELEMENTS], uint lane_mask, uint thread, out uvec2 received[ELEMENTS]) {
#if SUBGROUP_SHUFFLE
    for (uint r = 0u; r < ELEMENTS; ++r) received[r] = subgroupShuffleXor(sent[r], lane_mask);
#else
    barrier();
    for (uint r = 0u; r < ELEMENTS; ++r) block[r * LOCAL_THREADS + thread] = sent[r];
    barrier();
    for (uint r = 0u; r < ELEMENTS; ++r) received[r] = block[r * LOCAL_THREADS + (thread ^ lane_mask)];
#endif
}

// The pair that position keeps of itself and its partner: the smaller at the
// lower position of the two.
uvec2 kept_pair(uvec2 own, uvec2 partner, bool lower) {
    return pair_greater(own, partner) == lower ? partner : own;
}

// A stage whose partners sit in the same register of lane (lane ^ lane_mask);
// `lower`: this lane holds the lower position of each pair.
void lane_stage(inout uvec2 v[ELEMENTS], uint lane_mask, bool lower, uint thread) {
    uvec2 received[ELEMENTS];
    trade_lanes(v, lane_mask, thread, received);
    for (uint r = 0u; r < ELEMENTS; ++r) v[r] = kept_pair(v[r], received[r], lower);
}

// Swaps registers r and r ^ MASK for every r (a constant MASK).
#define PERMUTE_REGISTERS(v, MASK) \
    for (uint r = 0u; r < ELEMENTS; ++r) \
        if (r < (r ^ (MASK))) { uvec2 t = v[r]; v[r] = v[r ^ (MASK)]; v[r ^ (MASK)] = t; }

// flip(2^log_height) for heights held by one lane group (log_height <=
// HELD_BITS): the partner of a position p is p ^ (height - 1).
void held_flip(inout uvec2 v[ELEMENTS], uint log_height, uint lane, uint thread) {
    if (log_height <= LOG_LANES) {
        lane_stage(v, (1u << log_height) - 1u, (lane & (1u << (log_height - 1u))) == 0u, thread);
        return;
    }
    // The partner is in the mirrored lane, at register r ^ register_mask.
    uvec2 sent[ELEMENTS] = v, received[ELEMENTS];
    uint register_bits = log_height - LOG_LANES;
    switch (register_bits) {
    case 1u: PERMUTE_REGISTERS(sent, 1u); break;
#if LOG_ELEMENTS >= 2
    case 2u: PERMUTE_REGISTERS(sent, 3u); break;
#endif
    }
    trade_lanes(sent, LANES - 1u, thread, received);
    for (uint r = 0u; r < ELEMENTS; ++r)
        v[r] = kept_pair(v[r], received[r], (r & (1u << (register_bits - 1u))) == 0u);
}

#define REGISTER_DISPERSE(v, BIT) \
    for (uint r = 0u; r < ELEMENTS; ++r) \
        if ((r & (BIT)) == 0u) compare_swap(v[r], v[r | (BIT)]);

// Disperses of heights 2^top .. 2^bottom (bottom >= 1, top <= HELD_BITS).
void held_disperses(inout uvec2 v[ELEMENTS], uint top, uint bottom, uint lane, uint thread) {
    for (uint height = top; height >= bottom; --height) {
        uint bit = height - 1u;
        if (bit >= LOG_LANES) {
            switch (bit - LOG_LANES) {
            case 0u: REGISTER_DISPERSE(v, 1u); break;
#if LOG_ELEMENTS >= 2
            case 1u: REGISTER_DISPERSE(v, 2u); break;
#endif
            }
        } else {
            lane_stage(v, 1u << bit, (lane & (1u << bit)) == 0u, thread);
        }
    }
}

// ---- Stages on bits above the lane group: in shared memory -----------------
// live: pairs of this block below the count; past it sit virtual maxima that
// no compare-and-swap moves, so a swap whose lower position is past it is
// skipped. (A parameter, not a global: Mesa warns, at high severity, of a
// global read in a function placed before main() writes it.)
// Pairs in order (about half of them in a stage) are not written back: less
// shared-memory traffic, 1-2% faster on the H100.
void swap_in_block(uint low, uint high, uint live) {
    if (low >= live) return;
    uvec2 a = block[low], b = block[high];
    if (pair_greater(a, b)) {
        block[low] = b;
        block[high] = a;
    }
}

// flip(2^log_height): pairs offset and height-1-offset of each block.
void shared_flip(uint log_height, uint live) {
    uint half_mask = (1u << (log_height - 1u)) - 1u;
    for (uint i = 0u; i < SWAPS_PER_THREAD; ++i) {
        uint swap_index = gl_LocalInvocationID.x + i * LOCAL_THREADS;
        uint base = (swap_index >> (log_height - 1u)) << log_height;
        uint offset = swap_index & half_mask;
        swap_in_block(base + offset, base + (half_mask << 1) + 1u - offset, live);
    }
}

// disperse(2^log_height): pairs p and p + height/2 of each block.
void shared_disperse(uint log_height, uint live) {
    uint half_mask = (1u << (log_height - 1u)) - 1u;
    for (uint i = 0u; i < SWAPS_PER_THREAD; ++i) {
        uint swap_index = gl_LocalInvocationID.x + i * LOCAL_THREADS;
        uint low = ((swap_index >> (log_height - 1u)) << log_height) | (swap_index & half_mask);
        swap_in_block(low, low + half_mask + 1u, live);
    }
}

// Disperses of heights 2^top .. 2^bottom in shared memory, each after a
// barrier.
void shared_disperses(uint top, uint bottom, uint live) {
    for (uint l = top; l >= bottom; --l) {
        barrier();
        shared_disperse(l, live);
    }
}

// The pairs move between an invocation's registers and the shared block
// between barriers.
void registers_to_block(uvec2 v[ELEMENTS], uint first) {
    barrier();
    for (uint r = 0u; r < ELEMENTS; ++r) block[held_position(first, r)] = v[r];
    barrier();
}

void block_to_registers(inout uvec2 v[ELEMENTS], uint first) {
    barrier();
    for (uint r = 0u; r < ELEMENTS; ++r) v[r] = block[held_position(first, r)];
}

#if !LOCAL_SORT
// A merge pass: the block holds the pairs whose positions agree outside the
// bits [0, u_low_bits) and [u_high_base, u_high_base + LOG_BLOCK -
// u_low_bits); block index bits map to those bits in order, the workgroup
// number to the other bits in order. So a stage on any of those position bits
// is a stage on a block index bit, and the pass can run the end of one merge
// level (disperses on the low bits: the tail) and the start of the next (flip
// and disperses on the high bits: the head). When the head starts with a
// flip, the pairs whose top bit is set take the other bits between the two
// ranges mirrored, as the flip pairs p with p ^ (2 * half - 1).
uniform uint u_low_bits;
uniform uint u_high_base;
uniform uint u_flip;        // 1: the head starts with flip(block), 0: with disperse(block)
uniform uint u_tail_top;    // tail: disperses of block heights 2^u_tail_top .. 2; 0: none
uniform uint u_head_bottom; // head: block heights 2^LOG_BLOCK .. 2^u_head_bottom; > LOG_BLOCK: none
uniform uint u_head_after;  // the head's level: only counts above this need it

uint pass_position(uint index) {
    uint group = gl_WorkGroupID.x;
    uint middle_bits = u_high_base - u_low_bits;
    uint high_end = u_high_base + LOG_BLOCK - u_low_bits;
    uint low_mask = (1u << u_low_bits) - 1u;
    uint position = (index & low_mask) | ((index >> u_low_bits) << u_high_base)
                  | ((group & ((1u << middle_bits) - 1u)) << u_low_bits) | ((group >> middle_bits) << high_end);
    if (u_flip != 0u && (index >> (LOG_BLOCK - 1u)) != 0u) position ^= ((1u << u_high_base) - 1u) & ~low_mask;
    return position;
}

// The count, written by the local sort's workgroup 0.
layout(std430, binding = PLUME_BINDING_SORT_STATE) restrict readonly buffer SortState { uint sort_count; };

uint pass_pair_count() {
    return sort_count;
}
#else
uint pass_position(uint index) {
    return gl_WorkGroupID.x * BLOCK_PAIRS + index;
}

// The count: a direct sort passes it as u_direct_count; an indirect sort
// (u_indirect = 1) has it in the host's buffer, and the local sort, dispatched
// for the CPU's bound on it, reads it there. Workgroup 0 writes it into the
// state for the merge passes and, for an indirect sort, writes every merge
// pass's dispatch size (sort_pass_groups), which glDispatchComputeIndirect
// reads after a command barrier. A separate one-workgroup pass did that
// before: one more dependent dispatch (notes/sort-performance.md).
layout(std430, binding = PLUME_BINDING_SORT_STATE) restrict writeonly buffer SortState {
    uint state_header[PLUME_SORT_STATE_HEADER_WORDS];  // [0]: the count
    uint dispatch_args[];  // PLUME_SORT_DISPATCH_ARGS_WORDS per pass: x, y, z workgroups
};
layout(std430, binding = PLUME_BINDING_SORT_HOST_COUNT) restrict readonly buffer HostCount { uint host_counts[]; };
// Per pass: the position bits that number its workgroups and the merge-level
// height the pass belongs to (sort_groups.glsl).
layout(std430, binding = PLUME_BINDING_SORT_PASS_TABLE) restrict readonly buffer PassTable { uvec2 passes[]; };

uniform uint u_indirect;
uniform uint u_count_index;
uniform uint u_max_count;
uniform uint u_pass_count;
uniform uint u_direct_count;

uint pass_pair_count() {
    uint count = u_indirect != 0u ? min(host_counts[u_count_index], u_max_count) : u_direct_count;
    if (gl_WorkGroupID.x == 0u) {
        if (gl_LocalInvocationIndex == 0u) state_header[0] = count;
        for (uint p = gl_LocalInvocationIndex; u_indirect != 0u && p < u_pass_count; p += LOCAL_THREADS) {
            uint args = PLUME_SORT_DISPATCH_ARGS_WORDS * p;
            dispatch_args[args + 0u] = sort_pass_groups(passes[p], count);
            dispatch_args[args + 1u] = 1u;
            dispatch_args[args + 2u] = 1u;
        }
    }
    return count;
}
#endif

void main() {
    uint thread = thread_index();
    uint lane = thread & (LANES - 1u);
    uint first = ((thread >> LOG_LANES) << HELD_BITS) | lane;
    uint count = pass_pair_count();
#if LOCAL_SORT
    // Workgroups past the count (an indirect sort's bound above it) have
    // nothing to do; the whole workgroup leaves, before any barrier.
    uint block_start = pass_position(0u);
    if (block_start >= count) return;
#endif
    uvec2 v[ELEMENTS];
    uint positions[ELEMENTS];
    for (uint r = 0u; r < ELEMENTS; ++r) {
        positions[r] = pass_position(held_position(first, r));
        v[r] = load_pair(positions[r], count);
    }
#if LOCAL_SORT
    uint live_in_block = min(count - block_start, BLOCK_PAIRS);
    // A count under the block needs only the levels up to its power of two.
    uint top_level = min(uint(LOG_BLOCK), uint(findMSB(max(live_in_block, 2u) - 1u)) + 1u);
    for (uint level = 1u; level <= min(top_level, HELD_BITS); ++level) {
        held_flip(v, level, lane, thread);
        held_disperses(v, level - 1u, 1u, lane, thread);
    }
    for (uint level = HELD_BITS + 1u; level <= top_level; ++level) {
        registers_to_block(v, first);
        shared_flip(level, live_in_block);
        shared_disperses(level - 1u, HELD_BITS + 1u, live_in_block);
        block_to_registers(v, first);
        held_disperses(v, HELD_BITS, 1u, lane, thread);
    }
#else
    // Positions are scattered: no swap can be skipped by position (those past
    // the count hold maxima that stay put anyway).
    const uint every = BLOCK_PAIRS;
    if (u_tail_top > HELD_BITS) {
        registers_to_block(v, first);
        shared_disperses(u_tail_top, HELD_BITS + 1u, every);
        block_to_registers(v, first);
    }
    held_disperses(v, min(u_tail_top, HELD_BITS), 1u, lane, thread);
    if (u_head_bottom <= LOG_BLOCK && count > u_head_after) {
        registers_to_block(v, first);
        if (u_flip != 0u) shared_flip(LOG_BLOCK, every);
        else shared_disperse(LOG_BLOCK, every);
        shared_disperses(LOG_BLOCK - 1u, max(u_head_bottom, HELD_BITS + 1u), every);
        block_to_registers(v, first);
        if (u_head_bottom <= HELD_BITS) held_disperses(v, HELD_BITS, u_head_bottom, lane, thread);
    }
#endif
    for (uint r = 0u; r < ELEMENTS; ++r) store_pair(positions[r], v[r], count);
}
