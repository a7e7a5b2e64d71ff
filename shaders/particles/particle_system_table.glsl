// A pass over a table of systems (PLUME_SYSTEM_TABLE; plugin/particles/
// update_table.c): one dispatch for every system of a batch whose storage
// lies in one page of the context's particle pool and whose step needs no
// world, local space or mesh. The records of every page of the update are
// one upload; a page's are u_table_count of them from u_table_first. A pass
// of a workgroup per system (prepare, the compaction's scan) takes the
// workgroup's record (take_table_system); a pass over the slots (simulate,
// the compaction's scatter) finds it by binary search over the records'
// first workgroups (find_table_system). The page is bound whole, and the
// record's bases say where the system's ranges start. What the per-system
// dispatch takes from uniforms that differ by system comes from the record
// under the same names; the frame's (dt, view, eye, planes, cull distance)
// stay uniforms. Included first, so that every later file reads the names.
#ifdef PLUME_SYSTEM_TABLE
struct SystemRecord {
    uvec4 bases;              // motion vec4, state word, slot key, group count: where the system's ranges start
    uvec4 counts;             // first workgroup, capacity, sort mode, sort key shift
    uvec4 flags;              // cull, bounds, particles requested, the live list's base in the table's scratch (in pairs)
    vec4 gravity_time;        // gravity, the system's time
    vec4 wind_drag;           // wind, drag
    vec4 turbulence_radius;   // strength, scale, speed; the cull radius
    uvec4 emit;               // first emit workgroup, first spawn batch, spawn batches, seed
    uvec4 emit_bases;         // traits (a ParticleTraits a unit), first emitter, tag emitter
};
// The live list's binding: simulate leaves it free (local space, which
// reads its instances there, runs per system).
layout(std430, binding = PLUME_BINDING_LOCAL_MOTION) restrict readonly buffer SystemTable {
    SystemRecord table_records[];
};
uniform uint u_table_first, u_table_count;

SystemRecord g_system;

#define u_time g_system.gravity_time.w
#define u_gravity g_system.gravity_time.xyz
#define u_wind g_system.wind_drag.xyz
#define u_drag g_system.wind_drag.w
#define u_turbulence g_system.turbulence_radius.xyz
#define u_cull_radius g_system.turbulence_radius.w
#define u_cull (g_system.flags.x != 0u)
#define u_bounds (g_system.flags.y != 0u)
#define u_capacity g_system.counts.y
#define u_requested g_system.flags.z
#define u_seed g_system.emit.w
#define u_batch_count g_system.emit.z
#define u_tag_emitter (g_system.emit_bases.z != 0u)
#define u_sort_mode g_system.counts.z
#define u_sort_key_shift g_system.counts.w
#define u_route_count 0
#define u_local_space false
#define u_world_forces false
#define u_world_collisions false

// A record's first workgroup: simulate's (and the scatter's), or the emit
// pass's (TABLE_FIRST_GROUP defined before the include).
#ifndef TABLE_FIRST_GROUP
#define TABLE_FIRST_GROUP(record) record.counts.x
#endif

// This workgroup's system into g_system (the last whose first workgroup is
// at most this one: a system of no workgroup is passed over); returns the
// workgroup's index among the system's.
uint find_table_system() {
    uint low = u_table_first, high = u_table_first + u_table_count - 1u;
    while (low < high) {
        uint middle = (low + high + 1u) / 2u;
        if (TABLE_FIRST_GROUP(table_records[middle]) <= gl_WorkGroupID.x) low = middle;
        else high = middle - 1u;
    }
    g_system = table_records[low];
    return gl_WorkGroupID.x - TABLE_FIRST_GROUP(g_system);
}

// This workgroup's system into g_system: a workgroup per system.
void take_table_system() { g_system = table_records[u_table_first + gl_WorkGroupID.x]; }
#define MOTION_BASE g_system.bases.x
#define STATE_WORD(i) state_words[g_system.bases.y + (i)]
#define DEAD_SLOT(i) state_words[g_system.bases.y + PLUME_STATE_HEADER_WORDS + (i)]
#define SLOT_KEY_BASE g_system.bases.z
#define GROUP_COUNT_BASE g_system.bases.w
#define LIVE_PAIR_BASE g_system.flags.w
#define TRAITS_BASE g_system.emit_bases.x
#define SPAWN_BATCH_BASE g_system.emit.y
#define EMITTER_BASE g_system.emit_bases.y
#endif
