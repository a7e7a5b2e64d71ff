// Shared by the radix sort's passes (plugin/sort/radix.c). A pass orders the
// pairs by one digit, the key bits [u_shift, u_shift + u_digit_bits), stably:
// pairs of one digit keep their order. The count is cut into tiles of
// RADIX_TILE consecutive pairs, one workgroup each.
// Defines: RADIX_THREADS (the program's invocations a workgroup: as many as
// digits in the passes that count or scan, the tile passes' width in those
// that rank), RADIX_ITEMS (pairs per invocation), RADIX_TILE (= RADIX_THREADS
// x RADIX_ITEMS), SUBGROUP_OPS (1: 32-wide subgroups with ballot, shuffle and
// arithmetic, whose extensions are enabled before this file; 0: shared memory
// does their work), ONESWEEP (1: the digit passes of the Onesweep sort, 0:
// those of reduce-then-scan; radix.c says which runs where), PHASE_CLOCKS
// (1: benchmarks' per-workgroup clocks, whose extensions are enabled before
// this file; below).
// Register arrays are indexed by constants only (unrolled loops), so that
// they stay in registers.
#pragma optionNV(unroll all)
layout(std430, binding = PLUME_BINDING_SORT_STATE) restrict buffer RadixState { uint state[]; };
layout(std430, binding = PLUME_BINDING_RADIX_TILE_COUNTS) restrict buffer TileCounts { uint tile_counts[]; };

uniform uint u_shift;       // the digit's lowest key bit
uniform uint u_digit_bits;  // 1 .. PLUME_RADIX_MAX_DIGIT_BITS
uniform uint u_tile_stride; // tiles of the capacity: tile_counts holds digit d of tile t at d * u_tile_stride + t

// The first pass finds the count: the host's, read on the GPU and clamped
// (u_indirect), or the CPU's.
layout(std430, binding = PLUME_BINDING_SORT_HOST_COUNT) restrict readonly buffer HostCounts { uint host_counts[]; };
uniform uint u_indirect;     // 1: the count is host_counts[u_count_index], at most u_max_count
uniform uint u_direct_count;
uniform uint u_count_index;
uniform uint u_max_count;

// The pairs this sort orders; 0 when under 2 (already sorted: no tile pass
// gets a workgroup).
uint requested_count() {
    uint count = u_indirect != 0u ? min(host_counts[u_count_index], u_max_count) : u_direct_count;
    return count < 2u ? 0u : count;
}

// By one invocation of the first pass: the count, its tiles and the later
// tile passes' indirect arguments, for the passes after this one.
void publish_count(uint count, uint tiles) {
    state[PLUME_RADIX_STATE_COUNT] = count;
    state[PLUME_RADIX_STATE_TILES] = tiles;
    state[PLUME_RADIX_STATE_DISPATCH + 0] = tiles;
    state[PLUME_RADIX_STATE_DISPATCH + 1] = 1u;
    state[PLUME_RADIX_STATE_DISPATCH + 2] = 1u;
}

uint digit_of(uint key) {
    return (key >> u_shift) & ((1u << u_digit_bits) - 1u);
}

// This invocation's place among the workgroup's RADIX_THREADS: with
// subgroups, subgroup-major, whatever order the GL numbers invocations in.
uint thread_index() {
#if SUBGROUP_OPS
    return gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
#else
    return gl_LocalInvocationIndex;
#endif
}

uint tile_count_index(uint digit, uint tile) {
    return digit * u_tile_stride + tile;
}

// Onesweep: where digit pass `pass` keeps the look-back word of `digit` in
// `tile` (tile_counts holds them; the histogram pass zeroes a sort's words).
uint lookback_index(uint pass, uint tile, uint digit) {
    return (pass * u_tile_stride + tile) * PLUME_RADIX_DIGITS + digit;
}

// Onesweep: where the state counts the pairs of `digit` in digit pass `pass`.
uint pass_digit_index(uint pass, uint digit) { return PLUME_RADIX_STATE_PASS_DIGITS + pass * PLUME_RADIX_DIGITS + digit; }

// Benchmarks only (the lab's phase_clocks setting): thread 0 writes the
// workgroup's record (plume_gpu_layout.h): its SM, then its SM's clock at
// PHASE_START and at each PHASE_END. PHASE_BEGIN names the record once the
// workgroup knows its tile; PHASE_END_ALL waits for the whole workgroup.
#if PHASE_CLOCKS
layout(std430, binding = PLUME_BINDING_RADIX_PHASE_CLOCKS) restrict writeonly buffer PhaseClocks {
    uint phase_clocks[];
};
uint phase_record, phase_start_clock;
#define PHASE_START() phase_start_clock = clock2x32ARB().x
#define PHASE_BEGIN(pass, tile) phase_begin(pass, tile)
#define PHASE_END(phase) phase_end(phase)
#define PHASE_END_ALL(phase) barrier(); phase_end(phase)
void phase_begin(uint pass, uint tile) {
    phase_record = (pass * PLUME_RADIX_PHASE_MAX_TILES + min(tile, PLUME_RADIX_PHASE_MAX_TILES - 1u)) *
                   PLUME_RADIX_PHASE_WORDS;
    if (gl_LocalInvocationIndex == 0u) {
        phase_clocks[phase_record] = gl_SMIDNV + 1u;
        phase_clocks[phase_record + 1u] = phase_start_clock;
    }
}
void phase_end(uint phase) {
    if (gl_LocalInvocationIndex == 0u) phase_clocks[phase_record + 1u + phase] = clock2x32ARB().x;
}
#else
#define PHASE_START()
#define PHASE_BEGIN(pass, tile)
#define PHASE_END(phase)
#define PHASE_END_ALL(phase)
#endif
