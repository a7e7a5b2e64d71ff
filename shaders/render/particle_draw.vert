// Vertex pulling: instance i draws the particle in slot list[i].y (the sorted
// live list), vertex v one corner of its quad (two triangles), oriented as
// the system's plume_orientation says.
#include "particles/particle_common.glsl"
#include "render/particle_appearance.glsl"
#include "render/particle_quad.glsl"

layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { ParticleMotion motions[]; };
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer DrawList { uvec2 draw_list[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };

void main() {
    uint slot = draw_list[gl_InstanceID].y;
    // Local copies: NVIDIA refuses a restrict readonly buffer's element as a
    // function argument (error C1317).
    ParticleMotion motion = motions[slot];
    ParticleTraits particle_traits = traits[slot];
    emit_quad_vertex(motion, particle_traits, gl_VertexID);
}
