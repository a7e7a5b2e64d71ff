// The world in the simulate pass: force fields (attractors, vortices, a 3D
// vector field) and collisions (analytic colliders, the scene's depth
// buffer); the events they fire are counted by particle_event_routes.glsl.
// The records' layouts are packed by plugin/particles/world.c.
#include "particles/particle_common.glsl"
#include "particles/particle_state.glsl"
#include "shared/scene_depth.glsl" // depth collision

// ---- Force fields -----------------------------------------------------------
// Attractor: [0] xyz position, w radius (0: no falloff); [1] xyz unit axis
// (zero: a point attractor), w strength.
uniform int u_attractor_count;
uniform vec4 u_attractors[PLUME_GPU_MAX_ATTRACTORS * PLUME_ATTRACTOR_VEC4S];
uniform bool u_vector_field;
uniform vec3 u_field_min;
uniform vec3 u_field_inverse_size;   // 1 / (max - min)
uniform float u_field_strength;
layout(binding = PLUME_TEXTURE_UNIT_VECTOR_FIELD) uniform sampler3D u_field_texture;

vec3 world_acceleration(vec3 x) {
    vec3 a = vec3(0.0);
    for (int i = 0; i < u_attractor_count; ++i) {
        vec4 centre_radius = u_attractors[PLUME_ATTRACTOR_VEC4S * i];
        vec4 axis_strength = u_attractors[PLUME_ATTRACTOR_VEC4S * i + 1];
        vec3 offset = x - centre_radius.xyz;
        vec3 direction;
        float distance;
        if (axis_strength.xyz == vec3(0.0)) {
            distance = length(offset);
            direction = distance > 0.0 ? -offset / distance : vec3(0.0);
        } else {  // round the axis, right-handed
            vec3 radial = offset - axis_strength.xyz * dot(offset, axis_strength.xyz);
            distance = length(radial);
            direction = distance > 0.0 ? cross(axis_strength.xyz, radial) / distance : vec3(0.0);
        }
        float falloff = centre_radius.w > 0.0 ? max(0.0, 1.0 - distance / centre_radius.w) : 1.0;
        a += direction * (axis_strength.w * falloff);
    }
    if (u_vector_field) {
        vec3 uvw = (x - u_field_min) * u_field_inverse_size;
        if (all(greaterThanEqual(uvw, vec3(0.0))) && all(lessThanEqual(uvw, vec3(1.0))))
            a += textureLod(u_field_texture, uvw, 0.0).xyz * u_field_strength;
    }
    return a;
}

// ---- Collisions -------------------------------------------------------------
// Collider: [0] xyz position, w shape (1 plane, 2 sphere, 3 sphere inside,
// 4 box, 5 box inside); [1] xyz plane normal or box half-sizes, w sphere
// radius; [2] the response: kind (0 bounce, 1 stick, 2 kill), restitution,
// friction, rest speed.
uniform int u_collider_count;
uniform vec4 u_colliders[PLUME_GPU_MAX_COLLIDERS * PLUME_COLLIDER_VEC4S];
uniform bool u_depth_collision;
uniform vec4 u_depth_response;
uniform float u_depth_thickness;
uniform mat4 u_view_projection;
uniform mat4 u_inverse_view_projection;
uniform vec3 u_world_eye;
layout(binding = PLUME_TEXTURE_UNIT_SCENE_DEPTH) uniform sampler2D u_scene_depth;

// A particle is put this far in front of the surface it hit (relative to its
// coordinates' size, so that float rounding never leaves it behind).
float skin(vec3 x) {
    return 1e-4 * (1.0 + max(abs(x.x), max(abs(x.y), abs(x.z))));
}

// Puts the particle at `contact` (just in front, along the unit normal n)
// and answers with `response`. Returns true when it dies. `hit` is set for
// an impact, which fires collision events: a kill, or a contact whose normal
// speed in is above the rest speed (a particle resting on a surface touches
// it every step, and fires nothing).
// The last contact's unit normal and friction (zero normal: none this step):
// a mesh particle's spin reads them (particle_spin.glsl).
vec3 world_contact_normal = vec3(0.0);
float world_contact_friction = 0.0;

bool respond(inout vec3 position, inout vec3 velocity, vec3 contact, vec3 n, vec4 response, inout bool hit) {
    position = contact + n * skin(contact);
    world_contact_normal = n;
    world_contact_friction = int(response.x) == 1 ? 1.0 : response.z;
    int kind = int(response.x);
    float normal_in = dot(velocity, n);
    if (kind == 2 || -normal_in > response.w) hit = true;
    if (kind == 2) return true;
    if (kind == 1) {
        velocity = vec3(0.0);
        return false;
    }
    if (normal_in >= 0.0) return false;  // leaving already
    vec3 tangent = velocity - normal_in * n;
    float normal_out = -response.y * normal_in;
    if (normal_out < response.w) normal_out = 0.0;
    // Coulomb: the tangential impulse is at most friction x the normal one.
    float tangent_speed = length(tangent);
    float keep = tangent_speed > 0.0 ? max(0.0, 1.0 - response.z * (normal_out - normal_in) / tangent_speed) : 0.0;
    velocity = tangent * keep + n * normal_out;
    return false;
}

// Where the segment from x0 (outside) to x1 enters the ball: t in [0, 1], or -1.
float segment_enters_ball(vec3 x0, vec3 x1, vec3 centre, float radius) {
    vec3 d = x1 - x0, m = x0 - centre;
    float a = dot(d, d), b = dot(m, d), c = dot(m, m) - radius * radius;
    if (c <= 0.0 || b >= 0.0 || a == 0.0) return -1.0;
    float discriminant = b * b - a * c;
    if (discriminant < 0.0) return -1.0;
    float t = (-b - sqrt(discriminant)) / a;
    return t <= 1.0 ? t : -1.0;
}

// Where the segment from x0 (outside) to x1 enters the box lo..hi: t in
// [0, 1] and the face's axis, or t = -1.
float segment_enters_box(vec3 x0, vec3 x1, vec3 lo, vec3 hi, out int axis) {
    vec3 d = x1 - x0;
    float t_enter = 0.0, t_exit = 1.0;
    axis = -1;
    for (int i = 0; i < 3; ++i) {
        if (d[i] == 0.0) {
            if (x0[i] < lo[i] || x0[i] > hi[i]) return -1.0;
            continue;
        }
        float t0 = (lo[i] - x0[i]) / d[i], t1 = (hi[i] - x0[i]) / d[i];
        if (t0 > t1) { float swap = t0; t0 = t1; t1 = swap; }
        if (t0 > t_enter) { t_enter = t0; axis = i; }
        t_exit = min(t_exit, t1);
        if (t_enter > t_exit) return -1.0;
    }
    return axis >= 0 ? t_enter : -1.0;
}

// One collider against the step from x0 to x1 (= position). Planes are
// half-spaces, so a particle ending behind one is caught whatever its speed;
// outside spheres and boxes are tested along the step's segment (swept), so
// a fast particle cannot pass through them within one step; inside ones
// catch a particle that ends outside (a convex container: nothing leaves it
// and comes back within one step).
bool collide_shape(int c, vec3 x0, inout vec3 position, inout vec3 velocity, inout bool hit) {
    vec4 a = u_colliders[PLUME_COLLIDER_VEC4S * c];
    vec4 b = u_colliders[PLUME_COLLIDER_VEC4S * c + 1];
    vec4 response = u_colliders[PLUME_COLLIDER_VEC4S * c + 2];
    int shape = int(a.w);
    vec3 x1 = position;
    if (shape == 1) {
        float behind = dot(b.xyz, x1 - a.xyz);
        if (behind >= 0.0) return false;
        return respond(position, velocity, x1 - behind * b.xyz, b.xyz, response, hit);
    }
    if (shape == 2 || shape == 3) {
        vec3 offset = x1 - a.xyz;
        float distance = length(offset);
        if (shape == 3) {
            // Within the skin of the wall counts as touching it: a particle
            // sliding along the inside moves outward with every step, and
            // one left exactly on the wall may read as outside it once its
            // distance is computed elsewhere (on the CPU, by the host).
            vec3 outward = distance > 0.0 ? offset / distance : vec3(0.0, 1.0, 0.0);
            vec3 contact = a.xyz + outward * b.w;
            if (distance <= b.w - skin(contact)) return false;
            return respond(position, velocity, contact, -outward, response, hit);
        }
        float t = segment_enters_ball(x0, x1, a.xyz, b.w);
        vec3 contact;
        if (t >= 0.0) contact = x0 + (x1 - x0) * t;
        else if (distance < b.w) contact = a.xyz + (distance > 0.0 ? offset / distance : vec3(0.0, 1.0, 0.0)) * b.w;
        else return false;
        return respond(position, velocity, contact, normalize(contact - a.xyz), response, hit);
    }
    vec3 lo = a.xyz - b.xyz, hi = a.xyz + b.xyz;
    if (shape == 5) {  // a container: each face the particle passed, in turn
        bool dies = false;
        for (int i = 0; i < 3; ++i) {
            if (position[i] >= lo[i] && position[i] <= hi[i]) continue;
            vec3 contact = position, n = vec3(0.0);
            contact[i] = position[i] > hi[i] ? hi[i] : lo[i];
            n[i] = position[i] > hi[i] ? -1.0 : 1.0;
            dies = respond(position, velocity, contact, n, response, hit) || dies;
        }
        return dies;
    }
    bool starts_inside = all(greaterThan(x0, lo)) && all(lessThan(x0, hi));
    int axis = 0;
    float t = starts_inside ? -1.0 : segment_enters_box(x0, x1, lo, hi, axis);
    vec3 contact = x1, n = vec3(0.0);
    if (t >= 0.0) {
        contact = x0 + (x1 - x0) * t;
        n[axis] = x1[axis] > x0[axis] ? -1.0 : 1.0;
    } else {
        if (!(all(greaterThan(x1, lo)) && all(lessThan(x1, hi)))) return false;
        // Inside at both ends: out through the nearest face.
        vec3 to_lo = x1 - lo, to_hi = hi - x1;
        float nearest = 1e30;
        for (int i = 0; i < 3; ++i) {
            if (to_lo[i] < nearest) { nearest = to_lo[i]; axis = i; n = vec3(0.0); n[i] = -1.0; contact = x1; contact[i] = lo[i]; }
            if (to_hi[i] < nearest) { nearest = to_hi[i]; axis = i; n = vec3(0.0); n[i] = 1.0; contact = x1; contact[i] = hi[i]; }
        }
    }
    return respond(position, velocity, contact, n, response, hit);
}

vec3 unproject(vec2 uv, float depth) {
    vec4 world = unproject_window(u_inverse_view_projection, uv, depth);
    return world.xyz / world.w;
}

// The scene's surface at the particle's pixel: the particle collides when it
// is behind it by less than the thickness. The normal comes from the
// neighbouring texels on the side whose depth is closer (no normal across a
// depth edge).
bool collide_depth(inout vec3 position, inout vec3 velocity, inout bool hit) {
    vec4 clip = u_view_projection * vec4(position, 1.0);
    if (clip.w <= 0.0) return false;
    vec3 ndc = clip.xyz / clip.w;
    if (any(greaterThan(abs(ndc), vec3(1.0)))) return false;
    ivec2 size = textureSize(u_scene_depth, 0);
    vec2 uv = ndc.xy * 0.5 + 0.5;
    ivec2 texel = clamp(ivec2(uv * vec2(size)), ivec2(0), size - 1);
    float scene = texelFetch(u_scene_depth, texel, 0).r;
    if (scene == background_depth() || !depth_is_farther(window_depth_of_ndc(ndc.z), scene)) return false;
    vec2 texel_uv = (vec2(texel) + 0.5) / vec2(size);
    vec3 surface = unproject(texel_uv, scene);
    if (distance(position, surface) > u_depth_thickness) return false;
    ivec2 right = clamp(texel + ivec2(1, 0), ivec2(0), size - 1), left = clamp(texel - ivec2(1, 0), ivec2(0), size - 1);
    ivec2 up = clamp(texel + ivec2(0, 1), ivec2(0), size - 1), down = clamp(texel - ivec2(0, 1), ivec2(0), size - 1);
    float d_right = texelFetch(u_scene_depth, right, 0).r, d_left = texelFetch(u_scene_depth, left, 0).r;
    float d_up = texelFetch(u_scene_depth, up, 0).r, d_down = texelFetch(u_scene_depth, down, 0).r;
    ivec2 across = abs(d_right - scene) <= abs(d_left - scene) ? right : left;
    ivec2 along = abs(d_up - scene) <= abs(d_down - scene) ? up : down;
    vec3 du = unproject((vec2(across) + 0.5) / vec2(size), texelFetch(u_scene_depth, across, 0).r) - surface;
    vec3 dv = unproject((vec2(along) + 0.5) / vec2(size), texelFetch(u_scene_depth, along, 0).r) - surface;
    vec3 n = cross(du, dv);
    float n_length = length(n);
    n = n_length > 0.0 ? n / n_length : normalize(u_world_eye - surface);
    if (dot(n, u_world_eye - surface) < 0.0) n = -n;
    return respond(position, velocity, surface, n, u_depth_response, hit);
}

// Every collider in order, then the depth buffer, against the step that
// moved the particle from x0 to position. A collider that moves the particle
// changes its step, which may now cross a collider tested before (a
// container pulling back a particle that flew over a box, through the box):
// the colliders are tested again against the new step, up to three passes in
// all, until none moves it. Returns true when it dies; `hit` says whether it
// hit anything (an impact: see respond).
bool world_collide(vec3 x0, inout vec3 position, inout vec3 velocity, out bool hit) {
    hit = false;
    bool dies = false, moved = true;
    for (int pass = 0; pass < 3 && moved && !dies; ++pass) {
        vec3 before = position;
        for (int c = 0; c < u_collider_count && !dies; ++c) dies = collide_shape(c, x0, position, velocity, hit);
        moved = position != before;
    }
    if (u_depth_collision && !dies) dies = collide_depth(position, velocity, hit);
    return dies;
}
