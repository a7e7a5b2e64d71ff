// The buffers the compute passes share.
// Bindings and the state buffer's words are numbered in
// shared/plume_gpu_layout.h, which C reads too.
// Motion as 16-byte words, two per particle, read and written through
// load_motion / store_motion in two 16-byte accesses: simulate through a
// struct array took 0.082 ms for 1 M particles on the H100, through words
// 0.071 ms (notes/frame-profiling.md).
#include "particles/particle_common.glsl"

layout(std430, binding = PLUME_BINDING_MOTION) restrict buffer ParticleMotions { vec4 motion_words[]; };
// The traits are written by the emit passes; the compaction reads a parent's
// id for its events (it defines PARTICLE_TRAITS_ACCESS readonly).
#ifndef PARTICLE_TRAITS_ACCESS
#define PARTICLE_TRAITS_ACCESS writeonly
#endif
layout(std430, binding = PLUME_BINDING_TRAITS) restrict PARTICLE_TRAITS_ACCESS buffer ParticleTraitsArray { ParticleTraits particle_traits[]; };

// Where the system's ranges start in their bound buffers: 0, or a table's
// system's bases (particle_system_table.glsl).
#ifndef MOTION_BASE
#define MOTION_BASE 0u
#define TRAITS_BASE 0u
#define SLOT_KEY_BASE 0u
#define GROUP_COUNT_BASE 0u
#endif

ParticleMotion load_motion(uint slot) {
    vec4 a = motion_words[MOTION_BASE + PLUME_MOTION_VEC4S * slot],
         b = motion_words[MOTION_BASE + PLUME_MOTION_VEC4S * slot + 1u];
    return ParticleMotion(a.xyz, a.w, b.xyz, b.w);
}

void store_motion(uint slot, ParticleMotion m) {
    motion_words[MOTION_BASE + PLUME_MOTION_VEC4S * slot] = vec4(m.position, m.age);
    motion_words[MOTION_BASE + PLUME_MOTION_VEC4S * slot + 1u] = vec4(m.velocity, m.lifetime);
}

// The age of a slot on the dead list; a live particle's age is >= 0. The
// simulate pass walks every slot in order (coalesced) and skips these.
const float FREE_SLOT_AGE = -1.0;

void free_particle_slot(uint slot) { motion_words[MOTION_BASE + PLUME_MOTION_VEC4S * slot].w = FREE_SLOT_AGE; }

// The header's words by their names in plume_gpu_layout.h. drawn_count is the
// DrawArraysIndirectCommand's instance count: the simulate pass appends the
// survivors that are not culled with atomicAdd on it, so the draw's instance
// count and the sort's count are the same number.
#ifdef PLUME_SYSTEM_TABLE // the page bound whole: words from the system's base (STATE_WORD)
layout(std430, binding = PLUME_BINDING_STATE) restrict buffer SystemState { uint state_words[]; };
#else
layout(std430, binding = PLUME_BINDING_STATE) restrict buffer SystemState {
    uint state_header[PLUME_STATE_HEADER_WORDS];
    uint dead_slots[];
};
#define STATE_WORD(i) state_header[i]
#define DEAD_SLOT(i) dead_slots[i]
#endif
#define draw_vertex_count STATE_WORD(PLUME_STATE_DRAW_VERTEX_COUNT)
#define drawn_count STATE_WORD(PLUME_STATE_DRAWN_COUNT)
#define draw_first_vertex STATE_WORD(PLUME_STATE_DRAW_FIRST_VERTEX)
#define draw_base_instance STATE_WORD(PLUME_STATE_DRAW_BASE_INSTANCE)
#define dead_count STATE_WORD(PLUME_STATE_DEAD_COUNT)
#define emit_base STATE_WORD(PLUME_STATE_EMIT_BASE)
#define emit_count STATE_WORD(PLUME_STATE_EMIT_COUNT)
#define emitted_total STATE_WORD(PLUME_STATE_EMITTED_TOTAL)
#define emit_id_base STATE_WORD(PLUME_STATE_EMIT_ID_BASE)
#define live_count STATE_WORD(PLUME_STATE_LIVE_COUNT)
