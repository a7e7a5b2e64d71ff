// A system's event routes: which deaths and collisions fire, and how many
// children each gives in which event buffer. The simulate pass counts a
// workgroup's children with them; the compaction writes the records, in slot
// order (particle_compact.comp).
// Route: x trigger (1 death, 2 collision); y source emitter mask; z target
// emitter | children << 8 | buffer << 16 (0: this system's, 1: the other
// system's) | its index in world.events << 24; w inherit_velocity's bits.
// Packed by plugin/particles/world.c; inactive routes are left out.
#include "particles/particle_common.glsl"

#ifndef PLUME_SYSTEM_TABLE // no routes in a table (particle_system_table.glsl)
uniform int u_route_count;
#endif
uniform uvec4 u_routes[PLUME_GPU_MAX_EVENT_ROUTES];

// The children route r asks of a particle of `emitter` that died or hit
// something (0: the route does not fire for it).
uint route_children(int r, bool died, bool hit, uint emitter) {
    uvec4 route = u_routes[r];
    bool fires = (route.x == 1u && died) || (route.x == 2u && hit);
    if (!fires || (route.y & (1u << emitter)) == 0u) return 0u;
    return (route.z >> 8) & 0xFFu;
}

uint route_buffer(int r) { return (u_routes[r].z >> 16) & 1u; }

// Its index in plume_world.events (the CPU events report it).
uint route_index(int r) { return u_routes[r].z >> 24; }

// The emitter a particle came from: its lifetime's three lowest bits while
// the system has routes (tagged_lifetime in particle_birth.glsl).
uint emitter_of(float lifetime) { return floatBitsToUint(lifetime) & 7u; }
