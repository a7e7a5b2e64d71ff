// The buffers the compute passes share (after particle_common.glsl).
// SystemState's byte layout is mirrored by the STATE_* offsets in
// plugin/particles_internal.h.
// Motion as 16-byte words, two per particle, read and written through
// load_motion / store_motion in two 16-byte accesses: simulate through a
// struct array took 0.082 ms for 1 M particles on the H100, through words
// 0.071 ms (notes/frame-profiling.md).
layout(std430, binding = 0) restrict buffer ParticleMotions { vec4 motion_words[]; };
layout(std430, binding = 5) restrict writeonly buffer ParticleTraitsArray { ParticleTraits particle_traits[]; };

ParticleMotion load_motion(uint slot) {
    vec4 a = motion_words[2u * slot], b = motion_words[2u * slot + 1u];
    return ParticleMotion(a.xyz, a.w, b.xyz, b.w);
}

void store_motion(uint slot, ParticleMotion m) {
    motion_words[2u * slot] = vec4(m.position, m.age);
    motion_words[2u * slot + 1u] = vec4(m.velocity, m.lifetime);
}

// The age of a slot on the dead list; a live particle's age is >= 0. The
// simulate pass walks every slot in order (coalesced) and skips these.
const float FREE_SLOT_AGE = -1.0;

void free_particle_slot(uint slot) { motion_words[2u * slot].w = FREE_SLOT_AGE; }

layout(std430, binding = 3) restrict buffer SystemState {
    // DrawArraysIndirectCommand of the draw: {6, live count, 0, 0}. The
    // simulate pass appends survivors with atomicAdd on live_count, so the
    // draw's instance count and the sort's count are the same number.
    uint draw_vertex_count;
    uint live_count;
    uint draw_first_vertex;
    uint draw_base_instance;
    uint dead_count;             // slots on the dead list
    uint emit_base;              // this update's emitted slots: dead_slots[emit_base ..]
    uint emit_count;             // particles emitted this update (<= requested)
    uint emitted_total;          // emission numbers handed out so far
    uint emit_id_base;           // the first emission number of this update
    uint state_padding[7];       // the header is 64 bytes
    uint dead_slots[];
};
