// Built after particle_common.glsl, particle_state.glsl, particle_noise.glsl,
// particle_motion.glsl, particle_cull.glsl, depth_key.glsl,
// particle_events.glsl and particle_world.glsl (force fields, collisions and
// the events they fire).
// Walks every slot in order (coalesced reads; an earlier version followed the
// last update's depth-sorted list and gathered particles at random: 0.30 ms
// for 1 M on the H100, against 0.08 ms now). Free slots are skipped; a live
// particle is aged, integrated or killed. A killed particle's slot goes back
// on the dead list; a survivor's {back-to-front depth key, slot} pair is
// appended to the live list, whose counter is the draw's instance count.
// With u_slot_order the pairs go to slot_pairs in slot order instead (a slot
// not drawn gets key PLUME_GPU_KEY_LAST) and each workgroup's drawn count to
// group_counts, for particle_compact.comp: an append's order is the order
// workgroups happen to run in, which a stable sort would keep between equal
// keys (the counters are the same either way).
// The dispatch is direct, over the capacity: an indirect dispatch whose
// arguments shared a buffer with these counters ran late on NVIDIA
// (notes/gpu-findings.md).
layout(local_size_x = PLUME_SIMULATE_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_LIVE_LIST) restrict writeonly buffer LiveList { uvec2 live_list[]; };
layout(std430, binding = PLUME_BINDING_SLOT_PAIRS) restrict writeonly buffer SlotPairs { uvec2 slot_pairs[]; };
layout(std430, binding = PLUME_BINDING_GROUP_COUNTS) restrict writeonly buffer GroupCounts { uint group_counts[]; };

uniform uint u_capacity;
uniform bool u_slot_order;
uniform mat4 u_view;
uniform bool u_world_forces;     // attractors or a vector field
uniform bool u_world_collisions; // colliders or depth collision

// Survivors, the drawn among them and deaths are counted per workgroup in
// shared memory and added to the global counters with one atomic each per
// workgroup, not one per particle on a single address.
shared uint group_survivors, group_drawn, group_deaths;
shared uint group_drawn_base, group_dead_base;

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        group_survivors = 0u;
        group_drawn = 0u;
        group_deaths = 0u;
        group_children[0] = 0u;
        group_children[1] = 0u;
    }
    barrier();
    uint slot = gl_GlobalInvocationID.x;
    ParticleMotion p;
    bool live = false;
    if (slot < u_capacity) {
        p = load_motion(slot);
        live = p.age >= 0.0;
    }
    bool survives = false, drawn = false, hit = false;
    uvec2 pair = uvec2(0u);
    uint event_first[PLUME_GPU_MAX_EVENT_ROUTES];
    if (live) {
        survives = age_particle(p);  // a NaN age dies too
        if (survives) {
            vec3 acceleration = base_acceleration(p.position);
            if (u_world_forces) acceleration += world_acceleration(p.position);
            vec3 start = p.position;
            integrate(p.position, p.velocity, acceleration, u_drag, u_dt);
            if (u_world_collisions) survives = !world_collide(start, p.position, p.velocity, hit);
        }
        if (u_route_count > 0) events_count(!survives, hit, p.lifetime, event_first);
        if (survives) {
            store_motion(slot, p);
            // View depth: distance in front of the eye along the view axis.
            float depth = -(u_view * vec4(p.position, 1.0)).z;
            pair = uvec2(depth_key(depth, true), slot);
            drawn = can_be_seen(p.position);
        } else {
            free_particle_slot(slot);
        }
    }
    uint index_in_group = 0u;
    if (survives) atomicAdd(group_survivors, 1u);
    if (drawn) index_in_group = atomicAdd(group_drawn, 1u);
    else if (live && !survives) index_in_group = atomicAdd(group_deaths, 1u);
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        if (group_survivors > 0u) atomicAdd(live_count, group_survivors);
        group_drawn_base = group_drawn > 0u ? atomicAdd(drawn_count, group_drawn) : 0u;
        group_dead_base = group_deaths > 0u ? atomicAdd(dead_count, group_deaths) : 0u;
        if (u_route_count > 0) events_reserve();
    }
    barrier();
    if (live && u_route_count > 0) events_write(event_first, p.position, p.velocity, p.lifetime);
    if (u_slot_order) {
        if (slot < u_capacity) slot_pairs[slot] = drawn ? pair : uvec2(PLUME_GPU_KEY_LAST, 0u);
        if (gl_LocalInvocationIndex == 0u) group_counts[gl_WorkGroupID.x] = group_drawn;
    } else if (drawn) {
        live_list[group_drawn_base + index_in_group] = pair;
    }
    if (live && !survives) dead_slots[group_dead_base + index_in_group] = slot;
}
