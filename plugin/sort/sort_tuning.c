/* The sorts' device tuning (sort_tuning.h): one table, keyed by the GL's
 * vendor and subgroups, every number measured on an NVIDIA H100 unless its
 * entry says otherwise (notes/sort-performance.md, notes/fragment-path.md).
 * A GL that matches no earlier entry takes the last one. */
#include <string.h>

#include "sort_tuning.h"
#include "shared/plume_gpu_layout.h"

/* The numbers every entry shares; the entries below change what differs. */
static const sort_tuning MEASURED = {
    /* PLUME_SORT_AUTOMATIC's crossovers: 2^13 0.0336 ms for three digit
     * passes against bitonic 0.0360; reduce-then-scan forced there for its
     * row. Reduce-then-scan's three passes were not measured: they take the
     * four-pass crossover (radix costs less, so bitonic keeps a range it may
     * lose, never one it would win). */
    .radix_from_count = {{1u << 15, 1u << 17, 1u << 17}, {1u << 12, 1u << 13, 1u << 15}},
    /* The one-workgroup radix sort, where it measured faster than the
     * bitonic sort: every count it takes, with 32 key bits (2^10 0.0127 ms
     * against 0.0163, 2^11 0.0169 against 0.0181, 2^12 0.0249 against
     * 0.0293) and with 16. None where reduce-then-scan runs (those drivers
     * were not measured). */
    .radix_single_up_to = {{0, 0, 0}, {1u << 12, 1u << 12, 1u << 12}},
    /* Without 32-wide subgroups: one invocation per digit. */
    .tile_threads = {PLUME_RADIX_THREADS, PLUME_RADIX_THREADS, PLUME_RADIX_THREADS},
    /* Three sizes of tile: 2048 pairs (8 per invocation) measured faster
     * under 2^19 pairs, 4096 (16) from 2^19, 8192 (32, in two halves in
     * shared memory) from 2^20: fewer tiles, fewer look-back words. */
    .radix_items = 16,
    .large_tiles_from = 1u << 19,
    .huge_tiles_from = 1u << 20,
    /* Parts of at most 4096 pairs, so that 8192-pair tiles fit 48 KB. */
    .shared_pairs = 4096,
    /* The 8192-pair tiles' histogram took 21.7 us at 2^20 against 14.5 for
     * 4096 pairs a workgroup. */
    .histogram_items = 16,
    /* A published look-back word comes within microseconds where every
     * started workgroup runs; counting the tile itself is the rare fallback. */
    .wait_limit = 4096,
    /* 512 fastest at 2^10 and 2^11 pairs, within 3 % of 1024 at 2^12, ahead
     * of 256 at each. */
    .single_threads = 512,
    /* Best from 2^10 to 2^20. */
    .bitonic_block_pairs = 2048,
    /* 2 pairs an invocation (twice the invocations) faster up to 2^18, 4
     * from 2^19. */
    .bitonic_large_set_from = 1u << 19,
    /* 2^5 pairs, 64 components: GL 3.3's least output limits (2^6 where the
     * GL allows is the lab's). */
    .feedback_group_bits = 5,
    /* 2 fastest from 2^16 up (tied with 1 at 2^18 and 2^20; 3 and 4 are 2
     * to 5 times slower: each fragment runs its whole group's network). */
    .fragment_group_bits = 2,
};

/* The key: what the GL reports. */
typedef struct tuning_entry {
    const char *vendor;  /* a part of GL_VENDOR; NULL: any */
    bool subgroup_ops;   /* needs 32-wide subgroup operations */
    bool onesweep;
    uint32_t tile_threads[SORT_TUNING_TILE_SETS];
} tuning_entry;

static const tuning_entry ENTRIES[] = {
    /* Onesweep needs forward progress between workgroups, which NVIDIA's
     * GPUs give; 512 invocations ranked 2-9 % faster than 256 at every count
     * from 2^15 to 2^22, 1024 slower than 512 below 2^22. */
    {"NVIDIA", true, true, {512, 512, 512}},
    /* Other GLs with the subgroups: reduce-then-scan, the width measured
     * with them. */
    {NULL, true, false, {512, 512, 512}},
    /* Without them: MEASURED's widths. */
    {NULL, false, false, {0, 0, 0}},
};

/* 32-wide subgroups with ballots, shuffles and arithmetic in compute shaders. */
static bool has_subgroup_ops(void) {
    if (!epoxy_has_gl_extension("GL_KHR_shader_subgroup")) return false;
    GLint size = 0, stages = 0, features = 0;
    glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &size);
    glGetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
    glGetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
    GLint needed = GL_SUBGROUP_FEATURE_BASIC_BIT_KHR | GL_SUBGROUP_FEATURE_BALLOT_BIT_KHR |
                   GL_SUBGROUP_FEATURE_SHUFFLE_BIT_KHR | GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR;
    return size == PLUME_RADIX_LANES && (stages & GL_COMPUTE_SHADER_BIT) && (features & needed) == needed;
}

sort_tuning sort_tuning_of_gl(bool compute) {
    sort_tuning tuning = MEASURED;
    if (!compute) return tuning; /* the keys are compute state */
    tuning.subgroup_ops = has_subgroup_ops();
    const char *vendor = (const char *)glGetString(GL_VENDOR);
    for (size_t i = 0; i < sizeof ENTRIES / sizeof ENTRIES[0]; ++i) {
        const tuning_entry *entry = &ENTRIES[i];
        if (entry->subgroup_ops && !tuning.subgroup_ops) continue;
        if (entry->vendor && !(vendor && strstr(vendor, entry->vendor))) continue;
        tuning.onesweep = entry->onesweep;
        for (int t = 0; t < SORT_TUNING_TILE_SETS; ++t)
            if (entry->tile_threads[t]) tuning.tile_threads[t] = entry->tile_threads[t];
        break;
    }
    return tuning;
}
