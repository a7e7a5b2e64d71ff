// A live particle's step, shared by the compute path's simulate pass and the
// fragment path's: age, forces (gravity, drag towards the wind, curl-noise
// turbulence) and the exact integration over the step.
#include "particles/particle_common.glsl"
#include "particles/particle_noise.glsl"

uniform float u_dt;
#ifndef PLUME_SYSTEM_TABLE // else the system's record (particle_system_table.glsl)
uniform float u_time;
uniform vec3 u_gravity;
uniform vec3 u_wind;
uniform float u_drag;
uniform vec3 u_turbulence;   // strength, spatial scale, speed
#endif
// dv/dt = a - k (v - wind) with a constant over the step, solved exactly:
//   v(dt) = v e + wind (1 - e) + a f,   e = exp(-k dt), f = (1 - e) / k
//   x(dt) = x + v f + wind (dt - f) + a g,   g = (dt - f) / k
// For small k dt the series of f and g avoid the cancellation in 1 - e.
void integrate(inout vec3 position, inout vec3 velocity, vec3 acceleration, float k, float dt) {
    float x = k * dt;
    float e = exp(-x);
    float f, g;
    if (x < 0.1) {
        f = dt * (1.0 - x * (1.0 / 2.0 - x * (1.0 / 6.0 - x * (1.0 / 24.0 - x * (1.0 / 120.0 - x / 720.0)))));
        g = dt * dt * (1.0 / 2.0 - x * (1.0 / 6.0 - x * (1.0 / 24.0 - x * (1.0 / 120.0 - x * (1.0 / 720.0 - x / 5040.0)))));
    } else {
        f = (1.0 - e) / k;
        g = (dt - f) / k;
    }
    position += velocity * f + u_wind * (dt - f) + acceleration * g;
    velocity = velocity * e + u_wind * (1.0 - e) + acceleration * f;
}

// Ages `p` by u_dt; false when it dies (a NaN age dies too).
bool age_particle(inout ParticleMotion p) {
    p.age += u_dt;
    return p.age < p.lifetime;
}

// Gravity and the curl-noise turbulence at `position` (the compute path's
// world adds its force fields to it).
vec3 base_acceleration(vec3 position) {
    vec3 acceleration = u_gravity;
    if (u_turbulence.x > 0.0)
        acceleration += u_turbulence.x * curl_noise(position * u_turbulence.y, u_time * u_turbulence.z);
    return acceleration;
}

// Ages `p` by u_dt and, if it survives, moves it under the base forces;
// false when it dies.
bool advance_particle(inout ParticleMotion p) {
    if (!age_particle(p)) return false;
    integrate(p.position, p.velocity, base_acceleration(p.position), u_drag, u_dt);
    return true;
}
