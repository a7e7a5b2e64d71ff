// Mesh draw (render/mesh_draw.c), a system of several opaque meshes: each
// drawn particle's slot appended to its mesh's list, and the list's length
// to that mesh's instance count, so that each mesh's draw runs its own
// particles only. Opaque meshes write depth: the order within a list does
// not matter (the depth test decides each pixel), so appends may land in
// any order.
#include "particles/particle_common.glsl"
#include "particles/particle_spin.glsl" // mesh_of

layout(local_size_x = PLUME_MESH_COMPACT_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { ParticleMotion motions[]; };
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer DrawList { uvec2 draw_list[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };
layout(std430, binding = PLUME_BINDING_STATE) restrict readonly buffer State { uint state[]; };
// Per mesh an indirect command of PLUME_MESH_ARGS_WORDS words: word 1 the instance count.
layout(std430, binding = PLUME_BINDING_MESH_ARGS) restrict buffer Arguments { uint arguments[]; };
// Per mesh `u_list_room` slots.
layout(std430, binding = PLUME_BINDING_MESH_LISTS) restrict writeonly buffer Lists { uint lists[]; };

uniform uint u_list_room;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= state[PLUME_STATE_DRAWN_COUNT]) return;
    uint slot = draw_list[i].y;
    ParticleTraits t = traits[slot];
    uint mesh = mesh_of(t, motions[slot].lifetime);
    uint at = atomicAdd(arguments[mesh * PLUME_MESH_ARGS_WORDS + 1u], 1u);
    lists[mesh * u_list_room + at] = slot;
}
