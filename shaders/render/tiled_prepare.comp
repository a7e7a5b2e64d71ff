// One invocation, first of the tiled draw: the workgroups of the passes over
// the drawn ranks (project, entries, and each level of the scan), from the
// GPU's drawn count, so that a frame with nothing drawn (culled, or none
// alive) dispatches none of them.
#include "render/tiled_common.glsl"

layout(local_size_x = 1) in;

layout(std430, binding = PLUME_BINDING_STATE) restrict readonly buffer State { uint state_words[]; };

uniform uint u_capacity;
uniform uint u_scan_levels;

void set_groups(uint at, uint x) {
    control[at + 0u] = x;
    control[at + 1u] = 1u;
    control[at + 2u] = 1u;
}

void main() {
    const uint BLOCK = uint(PLUME_TILED_SCAN_BLOCK), GROUP = uint(PLUME_TILED_PROJECT_GROUP_SIZE);
    uint drawn = min(state_words[TILED_DRAWN_WORD] * TILED_RANKS_PER_ITEM, u_capacity);
    set_groups(uint(PLUME_TILED_PROJECT_ARGS), (drawn + GROUP - 1u) / GROUP);
    // Until the control pass counts the entries, the drawn ranks: what a
    // trail system's projection reads (its state's binding holds the trail).
    control[PLUME_TILED_ENTRY_COUNT] = drawn;
    // Level 0 scans the drawn counts in blocks, each level above the block
    // totals of the one below: as render/tiled.c sizes them for the capacity.
    uint size = drawn;
    for (uint level = 0u; level < uint(PLUME_TILED_SCAN_MAX_LEVELS); ++level) {
        size = (size + BLOCK - 1u) / BLOCK;
        set_groups(uint(PLUME_TILED_SCAN_ARGS) + 3u * level, level < u_scan_levels ? size : 0u);
    }
}
