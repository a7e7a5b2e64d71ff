// Built after particle_common.glsl, particle_state.glsl, particle_noise.glsl
// and depth_key.glsl.
// Ages, integrates and kills every particle of the input list (last update's
// survivors, then this update's emissions). A dead particle's slot goes back
// on the dead list; a survivor's {back-to-front depth key, slot} pair is
// appended to the output list, whose counter is the draw's instance count.
layout(local_size_x = SIMULATE_GROUP_SIZE) in;

layout(std430, binding = 1) restrict readonly buffer ListIn { uvec2 list_in[]; };
layout(std430, binding = 2) restrict writeonly buffer ListOut { uvec2 list_out[]; };

uniform float u_dt;
uniform float u_time;
uniform mat4 u_view;
uniform vec3 u_gravity;
uniform vec3 u_wind;
uniform float u_drag;
uniform vec3 u_turbulence;   // strength, spatial scale, speed

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

void main() {
    uint j = gl_GlobalInvocationID.x;
    if (j >= input_count) return;
    uint slot = list_in[j].y;
    Particle p = particles[slot];
    p.age += u_dt;
    if (!(p.age < p.lifetime)) {  // NaN ages die too
        particles[slot].age = p.age;
        dead_slots[atomicAdd(dead_count, 1u)] = slot;
        return;
    }
    vec3 acceleration = u_gravity;
    if (u_turbulence.x > 0.0)
        acceleration += u_turbulence.x * curl_noise(p.position * u_turbulence.y, u_time * u_turbulence.z);
    integrate(p.position, p.velocity, acceleration, u_drag, u_dt);
    p.rotation += p.spin * u_dt;
    particles[slot] = p;

    // View depth: distance in front of the eye along the view axis.
    float depth = -(u_view * vec4(p.position, 1.0)).z;
    list_out[atomicAdd(live_count, 1u)] = uvec2(depth_key(depth, true), slot);
}
