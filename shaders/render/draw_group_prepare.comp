// One invocation before each grouped system's gather (render/draw_group.c):
// from the drawn count its update left, the gather's indirect dispatch and
// where its pairs begin in the group's list, which grows by that count. The
// first system's starts the list. The list's length is the group's drawn
// count: the instance count of its draw and the count of its sort.
layout(local_size_x = 1) in;

layout(std430, binding = PLUME_BINDING_STATE) restrict readonly buffer SystemState { uint system_words[]; };
layout(std430, binding = PLUME_BINDING_GROUP_STATE) restrict buffer GroupState { uint group_words[]; };

uniform uint u_system;  // its index in the group

void main() {
    uint drawn = system_words[PLUME_STATE_DRAWN_COUNT];
    uint first = u_system == 0u ? 0u : group_words[PLUME_STATE_DRAWN_COUNT];
    uint at = PLUME_GROUP_STATE_SYSTEMS + PLUME_GROUP_STATE_SYSTEM_WORDS * u_system;
    group_words[at] = (drawn + PLUME_GROUP_GATHER_GROUP_SIZE - 1u) / PLUME_GROUP_GATHER_GROUP_SIZE;
    group_words[at + 1u] = 1u;
    group_words[at + 2u] = 1u;
    group_words[at + 3u] = first;
    group_words[PLUME_STATE_DRAW_VERTEX_COUNT] = 6u;
    group_words[PLUME_STATE_DRAWN_COUNT] = first + drawn;
    group_words[PLUME_STATE_DRAW_FIRST_VERTEX] = 0u;
    group_words[PLUME_STATE_DRAW_BASE_INSTANCE] = 0u;
}
