// The radix sort of a count that fits one tile (radix.c): one workgroup of
// RADIX_THREADS invocations runs every digit pass in one dispatch. The pairs
// are read once into registers (RADIX_ITEMS an invocation); each pass ranks
// them by subgroup (or, without subgroups, through shared memory), places
// every subgroup's pairs of each digit after those of the digits below and of
// the subgroups before, lays them out by digit in shared memory and reads them
// back in the tile's order, which is the input order of the next pass; the
// last pass's order is written back in place. Stable, as the tile passes are:
// equal keys keep their input order.
//
// The input order is subgroup, then round, then lane: subgroup g holds the
// RADIX_ITEMS x LANES consecutive pairs from g * LANES * RADIX_ITEMS, round r
// being the LANES pairs from r * LANES on. More invocations mean fewer rounds
// a pass (each round a chain of dependent subgroup steps); the cost is a
// count per subgroup and digit, which is why the counts are 16 bits, two
// digits a word: a tile holds at most 2^16 - 1 pairs, and RADIX_TILE is at
// most 4096.
// Defines (radix.c): RADIX_THREADS (a multiple of 128, at most 1024),
// RADIX_ITEMS, RADIX_TILE (= RADIX_THREADS x RADIX_ITEMS), SUBGROUP_OPS
// (radix_common.glsl says what it means). Ranked as the tile
// passes rank (radix_rank.glsl), whose counts per
// subgroup and digit pair become, after the scan, the tile place of the
// subgroup's first pair of each digit.
#include "sort/radix_common.glsl"
#include "sort/radix_rank.glsl"

layout(local_size_x = RADIX_THREADS) in;
layout(std430, binding = PLUME_BINDING_SORT_PAIRS) restrict buffer Pairs { uvec2 pairs[]; };

uniform uvec4 u_pass_shifts; // per digit pass: its lowest key bit
uniform uvec4 u_pass_bits;   // per digit pass: its bits
uniform uint u_pass_count;

const uint SLICES = RADIX_THREADS / DIGIT_WORDS;  // the counts' scan: invocation t sums word t % DIGIT_WORDS
const uint SLICE_GROUPS = GROUPS / SLICES;         // over the subgroups of its slice t / DIGIT_WORDS (4)
const uint CHUNKS = DIGIT_WORDS / LANES;           // subgroups that scan the words' totals

// The tile by digit, keys then values (two 4-byte words a pair, so that the
// scan's scratch can share it: SCRATCH_* below).
shared uint tile_words[2u * RADIX_TILE];
// Between a pass's ranking and its scatter tile_words holds the scan's sums:
// each slice's total of each word, then each chunk's total of its words.
const uint SCRATCH_SLICE_TOTALS = 0u;
const uint SCRATCH_WORD_SUMS = SLICES * DIGIT_WORDS;

// The counts become places: the subgroup's first place of each digit in the
// tile is the pairs of lower digits plus those of the digit in earlier
// subgroups. The invocation owns word `word` of the subgroups of slice
// `slice`. Both halves of a word are summed at once: no sum passes 2^16 - 1.
void place_digits(uint word, uint slice) {
    uint first_group = slice * SLICE_GROUPS;
    uint before[SLICE_GROUPS];
    uint in_slice = 0u;
    for (uint i = 0u; i < SLICE_GROUPS; ++i) {
        before[i] = in_slice;
        in_slice += group_counts[(first_group + i) * DIGIT_WORDS + word];
    }
    tile_words[SCRATCH_SLICE_TOTALS + slice * DIGIT_WORDS + word] = in_slice;
    barrier();
    uint earlier_slices = 0u, total = 0u;
    for (uint s = 0u; s < SLICES; ++s) {
        uint sum = tile_words[SCRATCH_SLICE_TOTALS + s * DIGIT_WORDS + word];
        earlier_slices += s < slice ? sum : 0u;
        total += sum;
    }
    uint low_total = total & 0xFFFFu, word_total = low_total + (total >> 16);
    // The words' exclusive sum over the words: where digit 2 * word starts.
#if SUBGROUP_OPS
    // A subgroup holds LANES words of one slice (thread_index is
    // subgroup-major); every slice scans alike, slice 0 publishes.
    uint inclusive = subgroupInclusiveAdd(word_total);
    uint chunk = word / LANES;
    if (slice == 0u && gl_SubgroupInvocationID == LANES - 1u) tile_words[SCRATCH_WORD_SUMS + chunk] = inclusive;
    barrier();
    uint start = inclusive - word_total;
    for (uint c = 0u; c < CHUNKS; ++c) start += c < chunk ? tile_words[SCRATCH_WORD_SUMS + c] : 0u;
#else
    // Hillis-Steele over the words, by slice 0.
    if (slice == 0u) tile_words[SCRATCH_WORD_SUMS + word] = word_total;
    barrier();
    for (uint offset = 1u; offset < DIGIT_WORDS; offset <<= 1u) {
        uint add = slice == 0u && word >= offset ? tile_words[SCRATCH_WORD_SUMS + word - offset] : 0u;
        barrier();
        if (slice == 0u) tile_words[SCRATCH_WORD_SUMS + word] += add;
        barrier();
    }
    uint start = tile_words[SCRATCH_WORD_SUMS + word] - word_total;
#endif
    uint starts = start | ((start + low_total) << 16);
    for (uint i = 0u; i < SLICE_GROUPS; ++i)
        group_counts[(first_group + i) * DIGIT_WORDS + word] = starts + earlier_slices + before[i];
    barrier();
}

void main() {
    uint thread = thread_index();
    uint group = thread / LANES, lane = thread % LANES;
    uint count = requested_count(); // at most RADIX_TILE: radix.c dispatches this program only then
    if (count == 0u) return;        // the whole workgroup: no barrier is skipped by some only
    uint first = group * LANES * RADIX_ITEMS + lane;
    uvec2 held[RADIX_ITEMS];
    for (uint r = 0u; r < RADIX_ITEMS; ++r) held[r] = pairs[min(first + r * LANES, count - 1u)];
    for (uint pass = 0u; pass < PLUME_RADIX_MAX_PASSES; ++pass) {
        if (pass >= u_pass_count) break; // uniform: every invocation leaves together
        uint shift = u_pass_shifts[pass], bits = u_pass_bits[pass];
        for (uint i = thread; i < GROUPS * DIGIT_WORDS; i += RADIX_THREADS) group_counts[i] = 0u;
        barrier();
        uint digits[RADIX_ITEMS], rank[RADIX_ITEMS];
        for (uint r = 0u; r < RADIX_ITEMS; ++r)
            digits[r] = first + r * LANES < count ? (held[r].x >> shift) & ((1u << bits) - 1u) : NO_DIGIT;
        for (uint r = 0u; r < RADIX_ITEMS; ++r) rank[r] = rank_in_group(digits[r], bits, group, lane);
        barrier();
        place_digits(thread % DIGIT_WORDS, thread / DIGIT_WORDS);
        for (uint r = 0u; r < RADIX_ITEMS; ++r) {
            if (first + r * LANES >= count) continue;
            uint d = digits[r];
            uint place = group_count(group, d) + rank[r];
            tile_words[place] = held[r].x;
            tile_words[RADIX_TILE + place] = held[r].y;
        }
        barrier();
        for (uint r = 0u; r < RADIX_ITEMS; ++r) {
            uint place = first + r * LANES;
            if (place < count) held[r] = uvec2(tile_words[place], tile_words[RADIX_TILE + place]);
        }
        // No barrier: this pass read group_counts before the one above, and
        // the next pass writes tile_words after two more.
    }
    for (uint r = 0u; r < RADIX_ITEMS; ++r)
        if (first + r * LANES < count) pairs[first + r * LANES] = held[r];
}
