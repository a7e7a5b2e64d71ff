// Walks every slot in order (coalesced reads; an earlier version followed the
// last update's depth-sorted list and gathered particles at random: 0.30 ms
// for 1 M on the H100, against 0.08 ms now). Free slots are skipped; a live
// particle is aged, integrated or killed (a killed one keeps its last motion,
// with the free age, for the events it fires).
// Nothing here depends on the order in which invocations or workgroups run:
// each slot's outcome goes to slot_keys[slot] (its sort key, particle_sort_key(),
// or PLUME_GPU_KEY_LAST when it is not drawn, and SLOT_DIED / SLOT_HIT) and
// each workgroup's counts to group_counts (drawn, deaths, children for this
// system's event buffer, for the other's); particle_compact.comp then packs
// the live list, pushes the dead slots and writes the event records, all in
// slot order, from the exclusive sums of those counts. Appending with atomics
// here instead gave the dead list, and so the slots new particles take, and
// the children's emission numbers in whatever order the GPU ran: the same
// steps then drew equal depths in another order, and numbered children
// differently (on NVIDIA; llvmpipe happens to run in order).
// The dispatch is direct, over the capacity: an indirect dispatch whose
// arguments shared a buffer with these counters ran late on NVIDIA
// (notes/gpu-findings.md).
// Local space reads each particle's instance from its traits.
#define PARTICLE_TRAITS_ACCESS readonly
#include "particles/particle_system_table.glsl" // first: under PLUME_SYSTEM_TABLE, the names the rest reads
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl"
#include "particles/particle_noise.glsl"
#include "particles/particle_motion.glsl"
#include "particles/particle_cull.glsl"
#include "particles/particle_bounds.glsl"
#include "sort/depth_key.glsl"
#include "particles/particle_sort_key.glsl"
#include "particles/particle_event_routes.glsl"
#include "particles/particle_world.glsl" // force fields and collisions
#ifdef PLUME_MESH
#include "particles/particle_spin_simulate.glsl" // mesh particles' orientation
#endif

layout(local_size_x = PLUME_SIMULATE_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_SLOT_KEYS) restrict writeonly buffer SlotKeys { uvec2 slot_keys[]; };
layout(std430, binding = PLUME_BINDING_GROUP_COUNTS) restrict writeonly buffer GroupCounts { uvec4 group_counts[]; };

#ifndef PLUME_SYSTEM_TABLE
uniform uint u_capacity;
// Local space: a particle older than this update is first carried by its
// instance's change of placement since the last update (spawn.c); then it
// is simulated in world space like any other. Newborns are born at the new
// placement already.
uniform bool u_local_space;

struct LocalMotion {
    vec4 last_position, last_rotation, last_scale; // xyz, quaternion, xyz
    vec4 position, rotation, scale;
};
layout(std430, binding = PLUME_BINDING_LOCAL_MOTION) restrict readonly buffer LocalMotions { LocalMotion local_motions[]; };

void carry_with_instance(inout ParticleMotion p, uint slot) {
    LocalMotion m = local_motions[particle_traits[slot].instance];
    vec4 undo = vec4(-m.last_rotation.xyz, m.last_rotation.w);
    vec3 local = rotate_by(undo, p.position - m.last_position.xyz) / m.last_scale.xyz;
    p.position = m.position.xyz + rotate_by(m.rotation, m.scale.xyz * local);
    p.velocity = rotate_by(m.rotation, rotate_by(undo, p.velocity));
}
#else
#define carry_with_instance(p, slot) // a table's systems are in world space
#endif
#ifndef PLUME_SYSTEM_TABLE
uniform bool u_world_forces;     // attractors or a vector field
uniform bool u_world_collisions; // colliders or depth collision
#endif

// A workgroup's counts, summed in shared memory (sums do not depend on the
// order of the adds); survivors go to the global live count with one atomic
// per workgroup.
shared uint group_survivors, group_drawn, group_deaths, group_children[2];

void main() {
#ifdef PLUME_SYSTEM_TABLE
    uint group = find_table_system();
#else
    uint group = gl_WorkGroupID.x;
#endif
    if (gl_LocalInvocationIndex == 0u) {
        group_survivors = 0u;
        group_drawn = 0u;
        group_deaths = 0u;
        group_children[0] = 0u;
        group_children[1] = 0u;
    }
    bounds_begin_group();
    barrier();
    uint slot = group * PLUME_SIMULATE_GROUP_SIZE + gl_LocalInvocationIndex;
    ParticleMotion p;
    bool live = false;
    if (slot < u_capacity) {
        p = load_motion(slot);
        live = p.age > FREE_SLOT_AGE; // a sub-frame birth starts below 0 (particle_emit.comp)
    }
    bool survives = false, drawn = false, hit = false;
    uint key = PLUME_GPU_KEY_LAST;
    if (live) {
        if (u_local_space && p.age > 0.0) carry_with_instance(p, slot);
        survives = age_particle(p);  // a NaN age dies too
        if (survives) {
            vec3 acceleration = base_acceleration(p.position);
            if (u_world_forces) acceleration += world_acceleration(p.position);
            vec3 start = p.position;
            integrate(p.position, p.velocity, acceleration, u_drag, u_dt);
            if (u_world_collisions) survives = !world_collide(start, p.position, p.velocity, hit);
        }
        if (u_route_count > 0) {
            uint emitter = emitter_of(p.lifetime);
            for (int r = 0; r < u_route_count; ++r) {
                uint children = route_children(r, !survives, hit, emitter);
                if (children > 0u) atomicAdd(group_children[route_buffer(r)], children);
            }
        }
#ifdef PLUME_MESH
        if (survives) {
            ParticleTraits traits = particle_traits[slot]; // a copy: NVIDIA passes no buffer element (C1317)
            simulate_spin(slot, p, traits, min(u_dt, max(p.age, 0.0)),
                          dot(world_contact_normal, world_contact_normal) > 0.0);
        }
#endif
        if (survives) {
            bounds_add(p.position);
            drawn = can_be_seen(p.position);
            if (drawn) key = particle_sort_key(p.position, p.age);
        } else {
            p.age = FREE_SLOT_AGE;
        }
        store_motion(slot, p);
    }
    if (survives) atomicAdd(group_survivors, 1u);
    if (drawn) atomicAdd(group_drawn, 1u);
    if (live && !survives) atomicAdd(group_deaths, 1u);
    if (slot < u_capacity)
        slot_keys[SLOT_KEY_BASE + slot] = uvec2(key, (live && !survives ? PLUME_SLOT_DIED : 0u) | (hit ? PLUME_SLOT_HIT : 0u));
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        if (group_survivors > 0u) atomicAdd(live_count, group_survivors);
        group_counts[GROUP_COUNT_BASE + group] = uvec4(group_drawn, group_deaths, group_children[0], group_children[1]);
        bounds_end_group(group_survivors > 0u);
    }
}
