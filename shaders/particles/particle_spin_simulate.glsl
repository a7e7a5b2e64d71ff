// Simulate's half of mesh particles (PLUME_MESH): a particle's orientation
// at birth, its spin integrated each step (drag, then the turn), and the
// spin a contact gives it (friction pulls it towards rolling).
#define PARTICLE_SPIN_ACCESS
#include "particles/particle_spin.glsl"

uniform uint u_mesh_start;      // plume_mesh_start
uniform float u_mesh_radius[PLUME_GPU_MAX_MESHES]; // each mesh's farthest vertex
uniform vec2 u_angular_speed;   // radians per second at birth: min, max
uniform float u_angular_drag;   // per second

vec3 random_direction(inout uint stream) {
    float z = 1.0 - 2.0 * random_unit(stream);
    float phi = 2.0 * PI * random_unit(stream);
    float r = sqrt(max(0.0, 1.0 - z * z));
    return vec3(r * cos(phi), r * sin(phi), z);
}

// Uniform over the rotations (Shoemake's method).
vec4 random_orientation(inout uint stream) {
    float u = random_unit(stream), v = 2.0 * PI * random_unit(stream), w = 2.0 * PI * random_unit(stream);
    float a = sqrt(1.0 - u), b = sqrt(u);
    return vec4(a * sin(v), a * cos(v), b * sin(w), b * cos(w));
}

// The shortest turn taking +y to the unit `to`.
vec4 orientation_along(vec3 to) {
    float c = to.y;
    if (c < -0.99999) return vec4(1.0, 0.0, 0.0, 0.0); // half a turn about x
    vec3 axis = vec3(to.z, 0.0, -to.x); // +y x to
    return normalize(vec4(axis, 1.0 + c));
}

ParticleSpin spin_at_birth(ParticleMotion p, ParticleTraits t) {
    uint stream = random_stream(u_mesh_seed ^ 0x5350494Eu, t.id);
    vec4 q = random_orientation(stream);
    if (u_mesh_start == 1u) {
        float speed = length(p.velocity);
        q = speed > 0.0 ? orientation_along(p.velocity / speed) : vec4(0.0, 0.0, 0.0, 1.0);
    }
    vec3 axis = random_direction(stream);
    float speed = random_range(stream, u_angular_speed);
    return ParticleSpin(q, axis * speed, t.id + 1u);
}

// One step of `dt`: the drag first (exactly, w e^(-k dt)), then the turn by
// the new angular velocity over the step.
void spin_step(inout ParticleSpin s, float dt) {
    s.angular_velocity *= exp(-u_angular_drag * dt);
    float speed = length(s.angular_velocity);
    if (speed * dt > 0.0)
        s.orientation = normalize(quaternion_product(quaternion_turn(s.angular_velocity / speed, speed * dt),
                                                     s.orientation));
}

// A contact (unit normal n, the collider's friction) after the bounce left
// the particle moving at `velocity`: friction pulls the spin towards rolling
// without slipping, w = n x v / r (r: the mesh's reach at the particle's
// size), by min(1, 2.5 friction) (a solid ball's 1 / (2/5)); friction 0
// leaves it spinning. A particle resting on the ground touches it every
// step, so sliding turns into rolling as it slows.
void spin_contact(inout ParticleSpin s, vec3 n, float friction, vec3 velocity, float radius) {
    if (radius <= 0.0) return;
    vec3 tangent = velocity - dot(velocity, n) * n;
    vec3 rolling = cross(n, tangent) / radius;
    s.angular_velocity = mix(s.angular_velocity, rolling, clamp(2.5 * friction, 0.0, 1.0));
}

// Simulate's per-particle step of a surviving mesh particle.
void simulate_spin(uint slot, ParticleMotion p, ParticleTraits t, float dt, bool contact) {
    ParticleSpin s = spins[slot];
    if (s.born != t.id + 1u) s = spin_at_birth(p, t);
    spin_step(s, dt);
    if (contact) {
        float radius = t.size * u_mesh_radius[mesh_of(t, p.lifetime)];
        spin_contact(s, world_contact_normal, world_contact_friction, p.velocity, radius);
    }
    spins[slot] = s;
}
