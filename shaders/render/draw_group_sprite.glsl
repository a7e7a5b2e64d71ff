// A grouped particle drawn as its quad: its record, as its system's gather
// evaluates it (render/draw_group_gather.comp, and a trail system's own
// quads in render/draw_group_trail_gather.comp). The includer has
// particle_appearance.glsl and draw_group_common.glsl (writeonly), with the
// system's appearance uniforms, u_camera_right, u_camera_up and u_system.
void write_sprite_record(uint record, ParticleMotion p, ParticleTraits t) {
    Appearance a = particle_appearance(p, t);
    QuadEdges edges = quad_edges(p.velocity, rotation_at(t, p.age), a.size, u_camera_right, u_camera_up);
    vec3 light = quad_light(edges, cross(u_camera_right, u_camera_up));
    group_records[record] =
        GroupRecord(vec4(p.position, a.frame_mix), vec4(edges.across, a.additive), vec4(edges.along, uintBitsToFloat(u_system)), a.color,
                    vec4(a.emissive, uintBitsToFloat(a.frame)), vec4(light, uintBitsToFloat(a.next)));
}
