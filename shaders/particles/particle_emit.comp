// Initialises this update's new particles in the slots the prepare pass
// reserved. The CPU uploads one table of spawn batches a update (spawn.c):
// the rates and bursts of each emitter at each enabled instance, then the
// emits queued since the last update; emission i belongs to the first batch
// whose running total exceeds it (a binary search), and is particle
// k = i - (the batch's first emission) of it.
// A batch carries its placement at the start and at the end of the step:
// particle k is born at time fraction f = first + k * step of the step, at
// the placement interpolated there, and the simulate pass that follows ages
// it by the whole step. So that it ends the step f * dt younger and where
// it would have moved since its birth, it starts with age -f * dt (the
// simulate pass takes any age above FREE_SLOT_AGE as live) and its position
// moved back along its velocity by f * dt. A batch that does not move has
// first = step = 0: its particles are born at the start of the step, as
// before placements existed.
// Over a table of systems (particle_system_table.glsl), the workgroups of
// every system of a page in one dispatch, each finding its record by its
// first emit workgroup; the spawn batches and emitters of all of them are
// one upload, each system's from its record's bases.
#define TABLE_FIRST_GROUP(record) record.emit.x
#include "particles/particle_system_table.glsl" // first: under PLUME_SYSTEM_TABLE, the names the rest reads
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl"
#include "particles/particle_birth.glsl"

layout(local_size_x = PLUME_EMIT_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_EMITTERS) restrict readonly buffer Emitters { Emitter emitters[]; };

struct SpawnBatch {
    uvec4 head;          // running total of emissions up to this batch's end, emitter, seed (0: system's), instance
    vec4 timing;         // first and step time fractions, dt, size scale
    vec4 from_position;  // xyz; the placement at the start of the step
    vec4 from_rotation;  // unit quaternion xyzw
    vec4 from_scale;     // xyz
    vec4 to_position;    // the placement at the end of the step
    vec4 to_rotation;
    vec4 to_scale;
    vec4 velocity;       // xyz: world velocity added (given, or inherited)
    vec4 color;          // colour multiplier (straight rgba)
};
layout(std430, binding = PLUME_BINDING_SPAWN_BATCHES) restrict readonly buffer SpawnBatches { SpawnBatch spawn_batches[]; };
#ifndef PLUME_SYSTEM_TABLE
uniform uint u_batch_count;
#define SPAWN_BATCH_BASE 0u
#define EMITTER_BASE 0u
#endif
#define batches(b) spawn_batches[SPAWN_BATCH_BASE + (b)]

uint batch_of_emission(uint i) {
    uint low = 0u, high = u_batch_count - 1u;
    while (low < high) {
        uint middle = (low + high) / 2u;
        if (i < batches(middle).head.x) high = middle;
        else low = middle + 1u;
    }
    return low;
}

void main() {
#ifdef PLUME_SYSTEM_TABLE
    uint i = find_table_system() * PLUME_EMIT_GROUP_SIZE + gl_LocalInvocationIndex;
#else
    uint i = gl_GlobalInvocationID.x;
#endif
    if (i >= emit_count) return;
    uint b = batch_of_emission(i);
    uint k = i - (b > 0u ? batches(b - 1u).head.x : 0u);
    uvec4 head = batches(b).head;
    vec4 timing = batches(b).timing;
    float f = clamp(timing.x + timing.y * float(k), 0.0, 1.0);
    vec4 q0 = batches(b).from_rotation, q1 = batches(b).to_rotation;
    if (dot(q0, q1) < 0.0) q1 = -q1;
    vec4 rotation = normalize(mix(q0, q1, f));
    vec3 position = mix(batches(b).from_position.xyz, batches(b).to_position.xyz, f);
    vec3 scale = mix(batches(b).from_scale.xyz, batches(b).to_scale.xyz, f);

    uint e = head.y;
    uint id = emit_id_base + i;
    uint stream = head.z == 0u ? random_stream(u_seed, id) : random_stream(head.z, k);
    Emitter emitter = emitters[EMITTER_BASE + e];
    ParticleMotion m;
    ParticleTraits t;
    birth_from_stream(emitter, e, id, stream, emitter.position_shape.xyz, vec3(0.0), m, t);
    m.velocity = rotate_by(rotation, m.velocity) + batches(b).velocity.xyz;
    float delay = min(f * timing.z, float(PLUME_SPAWN_MAX_DELAY_MS) * 0.001);
    m.position = position + rotate_by(rotation, scale * m.position) - m.velocity * delay;
    m.age = -delay;
    t.size *= timing.w;
    t.instance = head.w;
    vec4 color = batches(b).color;
    t.color_rg = packHalf2x16(color.rg);
    t.color_ba = packHalf2x16(color.ba);
    uint slot = DEAD_SLOT(emit_base + i);
    store_motion(slot, m);
    particle_traits[TRAITS_BASE + slot] = t;
}
