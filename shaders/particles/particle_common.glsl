// Shared by every particle pass: the particle record and hashing-based random
// numbers. A particle's random stream depends only on the system's seed and
// its emission number, never on its slot or on the thread that emits it.
// A particle is kept in two arrays: its motion, which the simulate pass reads
// and writes every update, and its traits, fixed at birth (written by the
// emit pass, read by the draw). Simulate moves 32 bytes a particle each way
// instead of 64 (in local space it also reads the traits' instance).
// plume_particle in C is both, with the rotation at the particle's age.
struct ParticleMotion {      // 32 bytes in std430
    vec3 position;
    float age;               // seconds since birth
    vec3 velocity;
    float lifetime;          // dies when age >= lifetime
};

struct ParticleTraits {      // 32 bytes in std430 (two 16-byte words)
    float size;              // at birth; the draw applies the size curve
    float rotation;          // radians, at birth
    float spin;              // radians per second
    uint id;                 // emission number since creation or reset
    uint instance;           // the placement that spawned it (0: the system's own, emits, GPU events)
    uint color_rg;           // colour multiplier (the emit's), two halves each (packHalf2x16):
    uint color_ba;           // NO_COLOR_MULTIPLIER for none
    uint reserved;           // zero
};

// Two halves of 1.0: packHalf2x16(vec2(1.0)).
const uint NO_COLOR_MULTIPLIER = 0x3C003C00u;

// Radians at `age`: closed form, so simulate never writes the traits.
float rotation_at(ParticleTraits traits, float age) {
    return traits.rotation + traits.spin * age;
}

// A 32-bit integer hash with good avalanche (PCG's output permutation).
uint hash_u32(uint v) {
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

uint random_stream(uint seed, uint id) {
    return hash_u32(seed ^ hash_u32(id ^ 0x9E3779B9u));
}

// Uniform in [0, 1): 24 random bits.
float random_unit(inout uint stream) {
    stream = hash_u32(stream);
    return float(stream >> 8u) * (1.0 / 16777216.0);
}

// min + (max - min) * r, so a range with min == max gives exactly min.
float random_range(inout uint stream, vec2 range) {
    return range.x + (range.y - range.x) * random_unit(stream);
}

const float PI = 3.14159265358979;

// `v` turned by the unit quaternion `q` (xyz, w).
vec3 rotate_by(vec4 q, vec3 v) {
    return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}
