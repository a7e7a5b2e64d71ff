// Culling, shared by the compute path's simulate pass and the fragment
// path's key pass.
// Culling: a survivor is appended (sorted and drawn) only when a sphere of
// radius u_cull_radius round it (the largest drawn quad's half diagonal) is
// inside every plane and within u_cull_distance of u_eye (0: no limit).
#ifndef PLUME_SYSTEM_TABLE // else the system's record (particle_system_table.glsl)
uniform bool u_cull;
uniform float u_cull_radius;
#endif
uniform vec4 u_cull_planes[PLUME_CULL_PLANES];
uniform vec3 u_eye;
uniform float u_cull_distance;

bool can_be_seen(vec3 position) {
    if (!u_cull) return true;
    for (int i = 0; i < PLUME_CULL_PLANES; ++i)
        if (dot(u_cull_planes[i].xyz, position) + u_cull_planes[i].w < -u_cull_radius) return false;
    return u_cull_distance <= 0.0 || length(position - u_eye) - u_cull_radius <= u_cull_distance;
}

