// One invocation, first of the tiled draw: the workgroups of the passes over
// the drawn ranks (project, entries, and each level of the scan), from the
// GPU's drawn count, so that a frame with nothing drawn (culled, or none
// alive) dispatches none of them. Dense ranks (TILED_DENSE_RANKS, a trail
// system's) in two stages: 0, the workgroups of the pairs' count and its
// scan; 1, after them, the ranks the pairs need, and those of the passes
// over them where they fit the ranks made (none where not: the frame
// overflows).
#include "render/tiled_common.glsl"

layout(local_size_x = 1) in;

layout(std430, binding = PLUME_BINDING_STATE) restrict readonly buffer State { uint state_words[]; };
#ifdef TILED_DENSE_RANKS
layout(std430, binding = PLUME_BINDING_TILED_COUNTS) restrict readonly buffer Counts { uint counts[]; };
// x: the items (a trail's pairs, a group's records), y: the levels of their
// scan, z: where the counts hold their scanned ranks, w: the stage.
uniform uvec4 u_items;
#endif

uniform uint u_capacity;         // ranks
uniform uint u_scan_levels;

void set_groups(uint at, uint x) {
    control[at + 0u] = x;
    control[at + 1u] = 1u;
    control[at + 2u] = 1u;
}

// A pass over n elements and each level of their scan: level 0 scans them
// in blocks, each level above the block totals of the one below, as
// render/tiled_resources.c plans them for the capacity.
void set_passes(uint pass_args, uint scan_args, uint levels, uint n) {
    const uint BLOCK = uint(PLUME_TILED_SCAN_BLOCK), GROUP = uint(PLUME_TILED_PROJECT_GROUP_SIZE);
    set_groups(pass_args, (n + GROUP - 1u) / GROUP);
    uint size = n;
    for (uint level = 0u; level < uint(PLUME_TILED_SCAN_MAX_LEVELS); ++level) {
        size = (size + BLOCK - 1u) / BLOCK;
        set_groups(scan_args + 3u * level, level < levels ? size : 0u);
    }
}

void main() {
#ifdef TILED_DENSE_RANKS
    uint items = min(state_words[TILED_DRAWN_WORD], u_items.x);
    control[PLUME_TILED_DRAWN_ITEMS] = items;
    if (u_items.w == 0u) {
        set_passes(uint(PLUME_TILED_ITEM_ARGS), uint(PLUME_TILED_ITEM_SCAN_ARGS), u_items.y, items);
        return;
    }
    uint needed = items > 0u ? counts[u_items.z + items - 1u] : 0u;
    bool outgrown = needed > u_capacity;
    control[PLUME_TILED_RANKS_NEEDED] = needed;
    control[PLUME_TILED_RANK_OVERFLOW] = outgrown ? 1u : 0u;
    uint drawn = outgrown ? 0u : needed;
#else
    uint drawn = min(state_words[TILED_DRAWN_WORD] * TILED_RANKS_PER_ITEM, u_capacity);
#endif
    set_passes(uint(PLUME_TILED_PROJECT_ARGS), uint(PLUME_TILED_SCAN_ARGS), u_scan_levels, drawn);
    // What a trail system's projection reads (its state's binding holds the trail).
    control[PLUME_TILED_DRAWN_RANKS] = drawn;
}
