// The live particles' world-space box, grown by simulate: each survivor's
// position widened by the largest quad's half diagonal (u_cull_radius),
// folded into a workgroup's box in shared memory, then into the state
// buffer's words with one atomic per axis and side per workgroup. Floats
// as ordered uints (their order is the floats'), so integer atomicMin and
// atomicMax take the box; the CPU decodes them (plugin/particles/bounds.c).
// After particle_cull.glsl (u_cull_radius) and particle_state.glsl.
#ifndef PLUME_SYSTEM_TABLE // else the system's record (particle_system_table.glsl)
uniform bool u_bounds;     // off only through the lab (the benchmark's baseline)
#endif

shared uint group_bounds[6]; // min xyz, max xyz

uint ordered_from_float(float f) {
    uint u = floatBitsToUint(f);
    return (u & 0x80000000u) != 0u ? ~u : u | 0x80000000u;
}

void bounds_begin_group() {
    if (gl_LocalInvocationIndex < 3u) group_bounds[gl_LocalInvocationIndex] = 0xFFFFFFFFu;
    else if (gl_LocalInvocationIndex < 6u) group_bounds[gl_LocalInvocationIndex] = 0u;
}

// A NaN or infinite position draws nothing: it stays out of the box.
void bounds_add(vec3 position) {
    if (!u_bounds || any(isnan(position)) || any(isinf(position))) return;
    for (int i = 0; i < 3; ++i) {
        atomicMin(group_bounds[i], ordered_from_float(position[i] - u_cull_radius));
        atomicMax(group_bounds[3 + i], ordered_from_float(position[i] + u_cull_radius));
    }
}

// After the group's barrier, by one invocation.
void bounds_end_group(bool any_survivor) {
    if (!u_bounds || !any_survivor) return;
    for (uint i = 0u; i < 3u; ++i) {
        atomicMin(STATE_WORD(PLUME_STATE_BOUNDS_MIN + i), group_bounds[i]);
        atomicMax(STATE_WORD(PLUME_STATE_BOUNDS_MAX + i), group_bounds[3u + i]);
    }
}
