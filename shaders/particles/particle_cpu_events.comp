// Events to the CPU: after the compaction, the records of this update's
// deaths, collisions and route triggers, written in slot order (collision,
// death, then each route fired, within a slot) into the record buffer,
// which the update then copies into a readback buffer
// (plugin/particles/cpu_events.c). Three dispatches, as the compaction's:
//   CPU_EVENTS_PASS 0: a workgroup per simulate workgroup counts its records;
//   CPU_EVENTS_PASS 1: one workgroup turns the counts into exclusive sums and
//     writes the total in the header (and, when this update's records cannot
//     be copied, adds it to the skipped sum, so that the drop is counted);
//   CPU_EVENTS_PASS 2: a workgroup per simulate workgroup writes its records
//     from its sum on; records past the budget are not written.
// Slot order, not atomics: the same steps report the same records in the
// same order on every GPU.
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl" // PARTICLE_TRAITS_ACCESS readonly
#include "particles/particle_event_routes.glsl"
#include "particles/particle_group_sum.glsl"

layout(local_size_x = PLUME_SIMULATE_GROUP_SIZE) in;
layout(std430, binding = PLUME_BINDING_GROUP_COUNTS) restrict buffer GroupCounts { uint group_counts[]; };
layout(std430, binding = PLUME_BINDING_SLOT_KEYS) restrict readonly buffer SlotKeys { uvec2 slot_keys[]; };

struct CpuEventRecord {
    vec4 position_id;     // xyz: position; w: bits: the emission number
    vec4 velocity_word;   // xyz: velocity; w: bits: kind | emitter << 4 | route << 8 | instance << 12
};
layout(std430, binding = PLUME_BINDING_CPU_EVENTS) restrict buffer CpuEvents {
    uint cpu_event_header[PLUME_CPU_EVENT_HEADER_WORDS];
    CpuEventRecord cpu_events[];
};

uniform uint u_capacity;
uniform uint u_groups;   // simulate's workgroups
uniform uint u_kinds;    // PLUME_CPU_EVENT_* bits
uniform uint u_emitters; // source emitter mask
uniform uint u_budget;   // records written at most
uniform bool u_skip;     // this update's records are not copied: count them as skipped

#if CPU_EVENTS_PASS != 1
// The outcome of `slot` and, where it reports anything, its motion and
// emitter; returns its record count.
uint slot_records(uint slot, out bool died, out bool hit, out ParticleMotion m, out uint emitter) {
    uint bits = slot < u_capacity ? slot_keys[slot].y : 0u;
    died = (bits & PLUME_SLOT_DIED) != 0u;
    hit = (bits & PLUME_SLOT_HIT) != 0u;
    emitter = 0u;
    if (!died && !hit) return 0u;
    m = load_motion(slot);
    emitter = emitter_of(m.lifetime);
    if ((u_emitters & (1u << emitter)) == 0u) return 0u;
    uint n = (hit && (u_kinds & PLUME_CPU_EVENT_COLLISION) != 0u ? 1u : 0u) +
             (died && (u_kinds & PLUME_CPU_EVENT_DEATH) != 0u ? 1u : 0u);
    if ((u_kinds & PLUME_CPU_EVENT_ROUTE) != 0u)
        for (int r = 0; r < u_route_count; ++r) n += route_children(r, died, hit, emitter) > 0u ? 1u : 0u;
    return n;
}
#endif

#if CPU_EVENTS_PASS == 0
void main() {
    bool died, hit;
    ParticleMotion m;
    uint emitter;
    uint n = slot_records(gl_GlobalInvocationID.x, died, hit, m, emitter);
    uvec4 total;
    exclusive_sum4(uvec4(n, 0u, 0u, 0u), gl_LocalInvocationIndex, total);
    if (gl_LocalInvocationIndex == 0u) group_counts[gl_WorkGroupID.x] = total.x;
}
#elif CPU_EVENTS_PASS == 1
shared uint scan_base;

void main() {
    uint thread = gl_LocalInvocationIndex;
    // Each invocation sums a run of consecutive groups (as the compaction's scan).
    uint per_thread = (u_groups + PLUME_SIMULATE_GROUP_SIZE - 1u) / PLUME_SIMULATE_GROUP_SIZE;
    uint begin = min(thread * per_thread, u_groups), end = min(begin + per_thread, u_groups);
    uint sum = 0u;
    for (uint group = begin; group < end; ++group) sum += group_counts[group];
    uvec4 total, before = exclusive_sum4(uvec4(sum, 0u, 0u, 0u), thread, total);
    if (thread == 0u) {
        cpu_event_header[PLUME_CPU_EVENT_REQUESTED] = total.x;
        if (u_skip) cpu_event_header[PLUME_CPU_EVENT_SKIPPED] += total.x;
    }
    uint running = before.x;
    for (uint group = begin; group < end; ++group) {
        uint count = group_counts[group];
        group_counts[group] = running;
        running += count;
    }
}
#else
void write_record(inout uint index, ParticleMotion m, uint id, uint word) {
    if (index < u_budget)
        cpu_events[index] = CpuEventRecord(vec4(m.position, uintBitsToFloat(id)), vec4(m.velocity, uintBitsToFloat(word)));
    ++index;
}

void main() {
    bool died, hit;
    ParticleMotion m;
    uint emitter;
    uint slot = gl_GlobalInvocationID.x;
    uint n = slot_records(slot, died, hit, m, emitter);
    uvec4 total, rank = exclusive_sum4(uvec4(n, 0u, 0u, 0u), gl_LocalInvocationIndex, total);
    if (n == 0u) return;
    uint index = group_counts[gl_WorkGroupID.x] + rank.x;
    uint id = particle_traits[slot].id;
    // The placement (instance) in bits 12 .. 31: PLUME_MAX_INSTANCES (2^16) fits.
    uint tag = emitter << 4 | particle_traits[slot].instance << 12;
    if (hit && (u_kinds & PLUME_CPU_EVENT_COLLISION) != 0u) write_record(index, m, id, PLUME_CPU_EVENT_COLLISION | tag);
    if (died && (u_kinds & PLUME_CPU_EVENT_DEATH) != 0u) write_record(index, m, id, PLUME_CPU_EVENT_DEATH | tag);
    if ((u_kinds & PLUME_CPU_EVENT_ROUTE) != 0u)
        for (int r = 0; r < u_route_count; ++r)
            if (route_children(r, died, hit, emitter) > 0u)
                write_record(index, m, id, PLUME_CPU_EVENT_ROUTE | tag | route_index(r) << 8);
}
#endif
