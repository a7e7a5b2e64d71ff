// One workgroup before the gathers of a group's systems (render/draw_group.c):
// each system's drawn count (a trail system's pairs), copied from its state into its words of the
// group's state, becomes its gather's indirect dispatch and where its pairs
// begin in the group's list (the drawn counts before its own: a scan, one
// block of PLUME_GROUP_PREPARE_GROUP_SIZE systems a step). The list's length
// is the group's drawn count: the instance count of its draw and the count of
// its sort.
layout(local_size_x = PLUME_GROUP_PREPARE_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_GROUP_STATE) restrict buffer GroupState { uint group_words[]; };

uniform uint u_system_count;
uniform uint u_vertices; // an instance's: 6, with a trail system 6 x PLUME_GPU_TRAIL_SUBDIVISIONS (draw_group.vert)

shared uint sums[PLUME_GROUP_PREPARE_GROUP_SIZE];

void main() {
    const uint SIZE = uint(PLUME_GROUP_PREPARE_GROUP_SIZE);
    uint lane = gl_LocalInvocationID.x, before = 0u;
    for (uint block = 0u; block < u_system_count; block += SIZE) {
        uint system = block + lane;
        uint at = PLUME_GROUP_STATE_SYSTEMS + PLUME_GROUP_STATE_SYSTEM_WORDS * system;
        uint drawn = system < u_system_count ? group_words[at] : 0u;
        sums[lane] = drawn;
        barrier();
        for (uint step = 1u; step < SIZE; step <<= 1u) {
            uint add = lane >= step ? sums[lane - step] : 0u;
            barrier();
            sums[lane] += add;
            barrier();
        }
        if (system < u_system_count) {
            group_words[at] = (drawn + PLUME_GROUP_GATHER_GROUP_SIZE - 1u) / PLUME_GROUP_GATHER_GROUP_SIZE;
            group_words[at + 1u] = 1u;
            group_words[at + 2u] = 1u;
            group_words[at + 3u] = before + sums[lane] - drawn;
        }
        before += sums[SIZE - 1u];
        barrier();
    }
    if (lane == 0u) {
        group_words[PLUME_STATE_DRAW_VERTEX_COUNT] = u_vertices;
        group_words[PLUME_STATE_DRAWN_COUNT] = before;
        group_words[PLUME_STATE_DRAW_FIRST_VERTEX] = 0u;
        group_words[PLUME_STATE_DRAW_BASE_INSTANCE] = 0u;
    }
}
