// The buffers the compute passes share (after particle_common.glsl).
// SystemState's byte layout is mirrored by the STATE_* offsets in
// plugin/particles_internal.h.
// The particle records as 16-byte words, three per particle, read and written
// through load_particle / store_particle: the whole record in three 16-byte
// accesses. Simulate through `Particle particles[]` took 0.082 ms for 1 M
// particles on the H100 against 0.071 ms this way (notes/frame-profiling.md).
layout(std430, binding = 0) restrict buffer Particles { vec4 particle_words[]; };

Particle load_particle(uint slot) {
    vec4 a = particle_words[3u * slot], b = particle_words[3u * slot + 1u], c = particle_words[3u * slot + 2u];
    return Particle(a.xyz, a.w, b.xyz, b.w, c.x, c.y, c.z, floatBitsToUint(c.w));
}

void store_particle(uint slot, Particle p) {
    particle_words[3u * slot] = vec4(p.position, p.age);
    particle_words[3u * slot + 1u] = vec4(p.velocity, p.lifetime);
    particle_words[3u * slot + 2u] = vec4(p.size, p.rotation, p.spin, uintBitsToFloat(p.id));
}

// The age of a slot on the dead list; a live particle's age is >= 0. The
// simulate pass walks every slot in order (coalesced) and skips these.
const float FREE_SLOT_AGE = -1.0;

void free_particle_slot(uint slot) { particle_words[3u * slot].w = FREE_SLOT_AGE; }

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
