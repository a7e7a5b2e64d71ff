// Mesh draw (render/mesh_draw.c), the instance pass: once per drawn
// particle, what every vertex of its mesh would otherwise work out again
// (its appearance over life, its orientation's matrix, its scale), written
// at its place in the draw list as PLUME_MESH_INSTANCE_VEC4S vec4s:
//   0..2  rows of mesh space to world: rotation x scale | position
//   3..5  rows of the normals' matrix: rotation x inverse scale | emitted light
//   6     colour (straight alpha, opacity applied)
//   7     x: the mesh (uint bits)
// A system of several opaque meshes also appends each particle's place to
// its mesh's list and counts it (as mesh_compact.comp does).
#include "particles/particle_common.glsl"
#include "render/particle_appearance.glsl"
#include "particles/particle_spin.glsl"

layout(local_size_x = PLUME_MESH_COMPACT_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { ParticleMotion motions[]; };
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer DrawList { uvec2 draw_list[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };
layout(std430, binding = PLUME_BINDING_STATE) restrict readonly buffer State { uint state[]; };
layout(std430, binding = PLUME_BINDING_MESH_ARGS) restrict buffer Arguments { uint arguments[]; };
layout(std430, binding = PLUME_BINDING_MESH_LISTS) restrict writeonly buffer Lists { uint lists[]; };
layout(std430, binding = PLUME_BINDING_MESH_INSTANCES) restrict writeonly buffer Instances { vec4 instances[]; };

uniform vec3 u_scale_start;
uniform vec3 u_scale_end;
uniform bool u_compact;   // several opaque meshes: a list per mesh
uniform uint u_list_room;

// The rotation of unit quaternion q as a matrix (columns), rotate_by's.
mat3 rotation_of(vec4 q) {
    vec3 x2 = 2.0 * q.xyz;
    float xx = q.x * x2.x, yy = q.y * x2.y, zz = q.z * x2.z;
    float xy = q.x * x2.y, xz = q.x * x2.z, yz = q.y * x2.z;
    float wx = q.w * x2.x, wy = q.w * x2.y, wz = q.w * x2.z;
    return mat3(vec3(1.0 - yy - zz, xy + wz, xz - wy), vec3(xy - wz, 1.0 - xx - zz, yz + wx),
                vec3(xz + wy, yz - wx, 1.0 - xx - yy));
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= state[PLUME_STATE_DRAWN_COUNT]) return;
    uint slot = draw_list[i].y;
    ParticleMotion motion = motions[slot];
    ParticleTraits particle_traits = traits[slot];
    vec4 orientation = spins[slot].orientation;
    Appearance a = particle_appearance(motion, particle_traits);
    float life = clamp(motion.age / motion.lifetime, 0.0, 1.0);
    vec3 scale = a.size * mix(u_scale_start, u_scale_end, life);
    mat3 turn = rotation_of(orientation);
    mat3 model = turn * mat3(vec3(scale.x, 0.0, 0.0), vec3(0.0, scale.y, 0.0), vec3(0.0, 0.0, scale.z));
    vec3 inverse = 1.0 / max(scale, vec3(1e-20));
    mat3 normals = turn * mat3(vec3(inverse.x, 0.0, 0.0), vec3(0.0, inverse.y, 0.0), vec3(0.0, 0.0, inverse.z));
    uint mesh = u_mesh_count > 1u ? mesh_of(particle_traits, motion.lifetime) : 0u;
    uint at = i * PLUME_MESH_INSTANCE_VEC4S;
    for (int r = 0; r < 3; ++r) { // rows: the draw takes dot products
        instances[at + uint(r)] = vec4(model[0][r], model[1][r], model[2][r], motion.position[r]);
        instances[at + 3u + uint(r)] = vec4(normals[0][r], normals[1][r], normals[2][r], a.emissive[r]);
    }
    instances[at + 6u] = a.color;
    instances[at + 7u] = vec4(uintBitsToFloat(mesh), 0.0, 0.0, 0.0);
    if (!u_compact) return;
    uint place = atomicAdd(arguments[mesh * PLUME_MESH_ARGS_WORDS + 1u], 1u);
    lists[mesh * u_list_room + place] = i;
}
