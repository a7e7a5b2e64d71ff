// Built after particle_common.glsl and particle_quad.glsl.
// Vertex pulling: instance i draws the particle in slot list[i].y (the sorted
// live list), vertex v one corner of its camera-facing quad (two triangles).
layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { ParticleMotion motions[]; };
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer DrawList { uvec2 draw_list[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };

void main() {
    uint slot = draw_list[gl_InstanceID].y;
    emit_quad_vertex(motions[slot], traits[slot], gl_VertexID);
}
