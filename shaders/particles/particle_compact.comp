// After simulate (particle_simulate.comp), which left each slot's outcome in
// slot_keys and each workgroup's counts in group_counts, two dispatches do in
// slot order what simulate would otherwise have done in the order its
// invocations ran, so that the result depends only on the particles:
//   COMPACT_SCAN 1: one workgroup; the counts become exclusive sums, offset
//     by where each list grows: the live list from 0 (its total is the drawn
//     count), the dead list from its top (which it raises), each event buffer
//     from the children already there (a reservation of this pass's total,
//     one atomic: passes of several systems into one buffer reserve in the
//     order the CPU issued them).
//   COMPACT_SCAN 0: a workgroup per simulate workgroup; its drawn pairs go to
//     the live list, its dead slots on the dead list, its children's records
//     to the event buffers, each from its group's sum on, in slot order
//     (route, then child, within a slot). Records past a buffer's capacity are
//     dropped (the consuming update counts them).
// So a stable sort (the radix sort) gives equal depth keys in slot order, the
// bitonic sort's order; new particles take the same slots; children get the
// same emission numbers, and the same ones are dropped on overflow.
// Over a table of systems (particle_system_table.glsl: systems without
// routes, so without events), the scan a workgroup per system, the scatter a
// workgroup per simulate workgroup of every system; the scatter writes the
// live list into the table's scratch, from the record's live list base, at
// the draw list's number (free here): the CPU copies it to the system's
// own live list (update_table.c).
#include "particles/particle_system_table.glsl" // first: under PLUME_SYSTEM_TABLE, the names the rest reads
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl" // PARTICLE_TRAITS_ACCESS readonly
#include "particles/particle_event_routes.glsl"
#include "particles/particle_group_sum.glsl"

layout(local_size_x = PLUME_SIMULATE_GROUP_SIZE) in;
layout(std430, binding = PLUME_BINDING_GROUP_COUNTS) restrict buffer GroupCounts { uvec4 group_counts[]; };
#ifdef PLUME_SYSTEM_TABLE
#define u_groups ((u_capacity + PLUME_SIMULATE_GROUP_SIZE - 1u) / PLUME_SIMULATE_GROUP_SIZE)
#if !COMPACT_SCAN
layout(std430, binding = PLUME_BINDING_SLOT_KEYS) restrict readonly buffer SlotKeys { uvec2 slot_keys[]; };
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict writeonly buffer LiveScratch { uvec2 live_scratch[]; };
#define LIVE_PAIR(i) live_scratch[LIVE_PAIR_BASE + (i)]
#endif
#else
#include "particles/particle_events.glsl"
layout(std430, binding = PLUME_BINDING_EVENTS_OTHER) restrict buffer OtherEvents {
    uint other_event_header[PLUME_EVENT_HEADER_WORDS];
    EventRecord other_events[];
};
uniform uint u_groups; // simulate's workgroups
#if !COMPACT_SCAN
layout(std430, binding = PLUME_BINDING_SLOT_KEYS) restrict readonly buffer SlotKeys { uvec2 slot_keys[]; };
layout(std430, binding = PLUME_BINDING_LIVE_LIST) restrict writeonly buffer LiveList { uvec2 live_list[]; };
#define LIVE_PAIR(i) live_list[i]
uniform uint u_capacity;
uniform uint u_event_capacity[2];   // this system's buffer, the other's
#endif
#endif

#if COMPACT_SCAN
shared uvec4 list_base; // live list, dead list, own events, other events

void main() {
#ifdef PLUME_SYSTEM_TABLE
    take_table_system();
#endif
    uint thread = gl_LocalInvocationIndex;
    // Each invocation sums a run of consecutive groups; one workgroup sum
    // gives each run's start.
    uint per_thread = (u_groups + PLUME_SIMULATE_GROUP_SIZE - 1u) / PLUME_SIMULATE_GROUP_SIZE;
    uint begin = min(thread * per_thread, u_groups), end = min(begin + per_thread, u_groups);
    uvec4 sum = uvec4(0u);
    for (uint group = begin; group < end; ++group) sum += group_counts[GROUP_COUNT_BASE + group];
    uvec4 total, before = exclusive_sum4(sum, thread, total);
    if (thread == 0u) {
        drawn_count = total.x;
        list_base = uvec4(0u, dead_count, 0u, 0u);
        dead_count += total.y;
#ifndef PLUME_SYSTEM_TABLE
        if (total.z > 0u) list_base.z = atomicAdd(own_event_header[PLUME_EVENT_REQUESTED], total.z);
        if (total.w > 0u) list_base.w = atomicAdd(other_event_header[PLUME_EVENT_REQUESTED], total.w);
#endif
    }
    barrier();
    before += list_base;
    for (uint group = begin; group < end; ++group) {
        uvec4 count = group_counts[GROUP_COUNT_BASE + group];
        group_counts[GROUP_COUNT_BASE + group] = before;
        before += count;
    }
}
#else
#ifndef PLUME_SYSTEM_TABLE
void write_record(uint buffer_index, uint index, EventRecord record) {
    if (index >= u_event_capacity[buffer_index]) return;
    if (buffer_index == 0u) own_events[index] = record;
    else other_events[index] = record;
}

// The records of the children the particle in `slot` (its last motion `m`)
// fires, from `first` (each buffer's first index for this slot) on.
void write_children(uint slot, ParticleMotion m, bool died, bool hit, uvec2 first) {
    uint parent = particle_traits[slot].id;
    uint emitter = emitter_of(m.lifetime);
    for (int r = 0; r < u_route_count; ++r) {
        uint children = route_children(r, died, hit, emitter);
        if (children == 0u) continue;
        uvec4 route = u_routes[r];
        uint buffer_index = route_buffer(r);
        vec3 inherited = m.velocity * uintBitsToFloat(route.w);
        for (uint k = 0u; k < children; ++k) {
            uint word = (route.z & 7u) | (k << 8) | (uint(r) << 16);
            write_record(buffer_index, first[buffer_index] + k,
                         EventRecord(vec4(m.position, uintBitsToFloat(word)), vec4(inherited, uintBitsToFloat(parent))));
        }
        first[buffer_index] += children;
    }
}
#endif

void main() {
#ifdef PLUME_SYSTEM_TABLE
    uint group = find_table_system();
#else
    uint group = gl_WorkGroupID.x;
#endif
    uint thread = gl_LocalInvocationIndex;
    uint slot = group * PLUME_SIMULATE_GROUP_SIZE + thread;
    uvec2 outcome = slot < u_capacity ? slot_keys[SLOT_KEY_BASE + slot] : uvec2(PLUME_GPU_KEY_LAST, 0u);
    bool drawn = outcome.x != PLUME_GPU_KEY_LAST;
    bool died = (outcome.y & PLUME_SLOT_DIED) != 0u, hit = (outcome.y & PLUME_SLOT_HIT) != 0u;
    // The children this slot's particle fires, per buffer.
    uvec2 children = uvec2(0u);
#ifndef PLUME_SYSTEM_TABLE
    ParticleMotion m;
    if ((died || hit) && u_route_count > 0) {
        m = load_motion(slot);
        uint emitter = emitter_of(m.lifetime);
        for (int r = 0; r < u_route_count; ++r) children[route_buffer(r)] += route_children(r, died, hit, emitter);
    }
#endif
    // Ranks in the group: drawn, deaths, children in each buffer.
    uvec4 total, rank = exclusive_sum4(uvec4(drawn ? 1u : 0u, died ? 1u : 0u, children), thread, total);
    uvec4 base = group_counts[GROUP_COUNT_BASE + group];
    if (drawn) LIVE_PAIR(base.x + rank.x) = uvec2(outcome.x, slot);
    if (died) DEAD_SLOT(base.y + rank.y) = slot;
#ifndef PLUME_SYSTEM_TABLE
    if (children != uvec2(0u)) write_children(slot, m, died, hit, base.zw + rank.zw);
#endif
}
#endif
